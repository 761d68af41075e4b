// Package stonenet is the learned part of the stone reader: a small fully connected network that
// maps one intersection's features (a few dozen numbers the vision package measures relative to
// the board around the point) to the probability of each reading: empty, black or white. It is
// Go, with two small assembly kernels for reading (Compiled, on amd64 and arm64), so the kiosk
// runs it without Python or OpenCV's dnn module, and it carries its own training (Adam on
// softmax cross-entropy) so that `scripts/train-reader` can rebuild the committed weights from
// the labelled photos.
package stonenet

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// Classes is the number of readings the network tells apart: empty, black and white, in the
// order of observe.Stone. (A fourth class for a hand over the point, learned from rendered hands,
// was tried: it read real glare and dark boards as hands, and lost 1-3 points in a hundred on
// every real source held out, so hands are left to the hand-made features.)
const Classes = 3

// Layer is one fully connected layer: Out outputs, each a weighted sum of In inputs plus a bias.
type Layer struct {
	In, Out int
	W       []float32 // Out*In, row-major by output
	B       []float32 // Out
}

// Net is the network: inputs standardized by Mean and Std, hidden layers with ReLU, a linear
// output layer, and a softmax at temperature Temp (fitted after training so that the
// probabilities are calibrated: a point given 0.9 is right about nine times in ten).
type Net struct {
	Mean, Std []float32
	Layers    []Layer
	Temp      float32
}

// Inputs returns the number of inputs the network takes.
func (n *Net) Inputs() int { return len(n.Mean) }

// Buffers is scratch space for Forward, so reading a board allocates nothing.
type Buffers struct {
	a, b []float32
}

// New returns a network with the given layer widths (inputs first, Classes last), its weights
// drawn from rng (He initialisation) and its standardization the identity.
func New(widths []int, rng func() float64) (*Net, error) {
	if len(widths) < 2 || widths[len(widths)-1] != Classes {
		return nil, fmt.Errorf("stonenet: widths %v: want at least inputs and %d outputs", widths, Classes)
	}
	n := &Net{Mean: make([]float32, widths[0]), Std: make([]float32, widths[0]), Temp: 1}
	for i := range n.Std {
		n.Std[i] = 1
	}
	for i := 0; i+1 < len(widths); i++ {
		in, out := widths[i], widths[i+1]
		if in <= 0 || out <= 0 {
			return nil, fmt.Errorf("stonenet: widths %v: every layer needs a width", widths)
		}
		l := Layer{In: in, Out: out, W: make([]float32, in*out), B: make([]float32, out)}
		scale := math.Sqrt(2 / float64(in))
		for k := range l.W {
			l.W[k] = float32(gauss(rng) * scale)
		}
		n.Layers = append(n.Layers, l)
	}
	return n, nil
}

// gauss draws a standard normal value from a uniform source (Box-Muller).
func gauss(rng func() float64) float64 {
	u := max(rng(), 1e-12)
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*rng())
}

// Forward returns the probability of each class for one point's features x (len Inputs).
func (n *Net) Forward(x []float32, buf *Buffers) [Classes]float32 {
	logits := n.logits(x, buf)
	return softmax(logits, n.Temp)
}

// logits runs the layers on standardized x and returns the output layer's values (in buf).
func (n *Net) logits(x []float32, buf *Buffers) []float32 { return n.run(x, buf, len(n.Layers), nil) }

// run runs the first layers of the network on standardized x and returns the last one's values
// (in buf): after a hidden layer, its activations (ReLU); after the output layer, the logits.
// With hidden not nil it also appends the last hidden layer's activations to *hidden.
func (n *Net) run(x []float32, buf *Buffers, layers int, hidden *[]float32) []float32 {
	width := len(x)
	for _, l := range n.Layers {
		width = max(width, l.Out)
	}
	if cap(buf.a) < width {
		buf.a = make([]float32, width)
		buf.b = make([]float32, width)
	}
	cur := buf.a[:len(x)]
	for i, v := range x {
		cur[i] = (v - n.Mean[i]) / n.Std[i]
	}
	next := buf.b
	for li, l := range n.Layers[:layers] {
		out := next[:l.Out]
		dense(l, cur, out)
		if li < len(n.Layers)-1 {
			for i, v := range out {
				if v < 0 {
					out[i] = 0
				}
			}
			if hidden != nil && li == len(n.Layers)-2 {
				*hidden = append(*hidden, out...)
			}
		}
		cur, next = out, cur[:cap(cur)]
	}
	return cur
}

// dense computes out = W*in + B for one layer, four outputs at a time so that each input is
// loaded once for four products (the first layer is most of a point's reading).
func dense(l Layer, in, out []float32) {
	n := l.In
	in = in[:n]
	o := 0
	for ; o+4 <= l.Out; o += 4 {
		w0 := l.W[o*n : o*n+n][:len(in)]
		w1 := l.W[(o+1)*n : (o+1)*n+n][:len(in)]
		w2 := l.W[(o+2)*n : (o+2)*n+n][:len(in)]
		w3 := l.W[(o+3)*n : (o+3)*n+n][:len(in)]
		var s0, s1, s2, s3 float32
		for i, v := range in {
			s0 += w0[i] * v
			s1 += w1[i] * v
			s2 += w2[i] * v
			s3 += w3[i] * v
		}
		out[o] = l.B[o] + s0
		out[o+1] = l.B[o+1] + s1
		out[o+2] = l.B[o+2] + s2
		out[o+3] = l.B[o+3] + s3
	}
	for ; o < l.Out; o++ {
		w := l.W[o*n : o*n+n][:len(in)]
		var s float32
		for i, v := range in {
			s += w[i] * v
		}
		out[o] = l.B[o] + s
	}
}

// softmax turns logits into probabilities at temperature t.
func softmax(logits []float32, t float32) [Classes]float32 {
	var p [Classes]float32
	if t <= 0 {
		t = 1
	}
	m := logits[0]
	for _, v := range logits[1:Classes] {
		m = max(m, v)
	}
	var sum float32
	for i := 0; i < Classes; i++ {
		e := float32(math.Exp(float64((logits[i] - m) / t)))
		p[i] = e
		sum += e
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// magic starts every weights file; the digit is the format's version.
var magic = [8]byte{'T', 'G', 'S', 'N', 'E', 'T', '0', '1'}

// ErrFormat means a weights file is not one this package wrote, or is damaged.
var ErrFormat = errors.New("stonenet: not a weights file")

// maxWidth bounds every width read from a file, so a damaged file cannot ask for gigabytes.
const maxWidth = 4096

// MarshalBinary writes the network as little-endian float32s after a small header.
func (n *Net) MarshalBinary() ([]byte, error) {
	var b bytes.Buffer
	b.Write(magic[:])
	put := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	put(uint32(len(n.Mean)))
	put(uint32(len(n.Layers)))
	for _, l := range n.Layers {
		put(uint32(l.Out))
	}
	put(n.Temp)
	put(n.Mean)
	put(n.Std)
	for _, l := range n.Layers {
		put(l.W)
		put(l.B)
	}
	return b.Bytes(), nil
}

// UnmarshalBinary reads what MarshalBinary wrote, checking every size against the data.
func (n *Net) UnmarshalBinary(data []byte) error {
	r := bytes.NewReader(data)
	var m [8]byte
	if _, err := io.ReadFull(r, m[:]); err != nil || m != magic {
		return fmt.Errorf("%w: bad header", ErrFormat)
	}
	get := func(v any) error {
		if err := binary.Read(r, binary.LittleEndian, v); err != nil {
			return fmt.Errorf("%w: truncated: %w", ErrFormat, err)
		}
		return nil
	}
	var in, nl uint32
	if err := errors.Join(get(&in), get(&nl)); err != nil {
		return err
	}
	if in == 0 || in > maxWidth || nl == 0 || nl > 8 {
		return fmt.Errorf("%w: %d inputs, %d layers", ErrFormat, in, nl)
	}
	outs := make([]uint32, nl)
	if err := get(outs); err != nil {
		return err
	}
	for _, o := range outs {
		if o == 0 || o > maxWidth {
			return fmt.Errorf("%w: a layer of %d outputs", ErrFormat, o)
		}
	}
	if outs[nl-1] != Classes {
		return fmt.Errorf("%w: %d outputs, want %d", ErrFormat, outs[nl-1], Classes)
	}
	var out Net
	if err := get(&out.Temp); err != nil {
		return err
	}
	if !(out.Temp > 0 && out.Temp < 100) {
		return fmt.Errorf("%w: temperature %v", ErrFormat, out.Temp)
	}
	out.Mean, out.Std = make([]float32, in), make([]float32, in)
	if err := errors.Join(get(out.Mean), get(out.Std)); err != nil {
		return err
	}
	for _, s := range out.Std {
		if !(s > 0) {
			return fmt.Errorf("%w: a standard deviation of %v", ErrFormat, s)
		}
	}
	prev := int(in)
	for _, o := range outs {
		if r.Len() < 4*(prev*int(o)+int(o)) {
			return fmt.Errorf("%w: truncated", ErrFormat)
		}
		l := Layer{In: prev, Out: int(o), W: make([]float32, prev*int(o)), B: make([]float32, o)}
		if err := errors.Join(get(l.W), get(l.B)); err != nil {
			return err
		}
		out.Layers = append(out.Layers, l)
		prev = int(o)
	}
	if r.Len() != 0 {
		return fmt.Errorf("%w: %d bytes after the last layer", ErrFormat, r.Len())
	}
	for _, v := range out.flat() {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return fmt.Errorf("%w: a weight that is not a number", ErrFormat)
		}
	}
	*n = out
	return nil
}

// flat returns every number of the network, for checks.
func (n *Net) flat() []float32 {
	v := append(append([]float32(nil), n.Mean...), n.Std...)
	for _, l := range n.Layers {
		v = append(append(v, l.W...), l.B...)
	}
	return v
}

// AppendHidden appends the last hidden layer's activations for x to out: what the network has
// made of a point just before it weighs the readings.
func (n *Net) AppendHidden(out, x []float32, buf *Buffers) []float32 {
	if len(n.Layers) < 2 {
		return out
	}
	return append(out, n.run(x, buf, len(n.Layers)-1, nil)...)
}

// ForwardHidden is Forward that also appends the last hidden layer's activations for x to
// hidden (AppendHidden), from the same pass: a reader that weighs a point by what the network
// made of it need not run the network twice. all is false for a network without a hidden
// layer, which appends nothing.
func (n *Net) ForwardHidden(hidden, x []float32, buf *Buffers) (p [Classes]float32, out []float32, all bool) {
	logits := n.run(x, buf, len(n.Layers), &hidden)
	return softmax(logits, n.Temp), hidden, len(n.Layers) >= 2
}
