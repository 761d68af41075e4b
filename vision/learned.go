package vision

import (
	_ "embed"
	"fmt"

	"tengen/vision/stonenet"
)

// readerWeights is the learned reader trained by `scripts/train-reader` on every labelled
// source (the leave-one-source-out figures in the README come from the same script).
//
//go:embed reader.weights
var readerWeights []byte

// DefaultNet returns the committed learned reader. Each call returns a new copy, so a caller
// may change it (its temperature, say) without affecting other readers.
func DefaultNet() (*stonenet.Net, error) {
	var n stonenet.Net
	if err := n.UnmarshalBinary(readerWeights); err != nil {
		return nil, fmt.Errorf("vision: the committed reader weights: %w", err)
	}
	return &n, nil
}
