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

// PointModel is the learned part of the reader: one point's features in, the probability of
// empty, black and white out. A stonenet.Net or a stonenet.Committee of them.
type PointModel interface {
	Inputs() int
	Forward(x []float32, buf *stonenet.Buffers) [stonenet.Classes]float32
}

// DefaultNet returns the committed learned reader. Each call returns a new copy, so a caller
// may change it (a member's temperature, say) without affecting other readers.
func DefaultNet() (*stonenet.Committee, error) {
	var c stonenet.Committee
	if err := c.UnmarshalBinary(readerWeights); err != nil {
		return nil, fmt.Errorf("vision: the committed reader weights: %w", err)
	}
	return &c, nil
}
