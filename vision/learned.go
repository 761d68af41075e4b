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

// compileModel returns a committee or network made ready for reading frames
// (stonenet.Compiled: the same probabilities in a fraction of the time), and any other model
// as it is.
func compileModel(m PointModel) (PointModel, error) {
	var c *stonenet.Committee
	switch m := m.(type) {
	case *stonenet.Committee:
		c = m
	case *stonenet.Net:
		c = &stonenet.Committee{Members: []*stonenet.Net{m}}
	default:
		return m, nil
	}
	compiled, err := c.Compile()
	if err != nil {
		return nil, fmt.Errorf("vision: the learned reader: %w", err)
	}
	return compiled, nil
}
