package stonenet

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// Set is a labelled set of points: N rows of In features and the class of each.
type Set struct {
	In int
	X  []float32 // N*In
	Y  []uint8   // N, each < Classes
}

// Len returns the number of points.
func (s *Set) Len() int { return len(s.Y) }

// Row returns the features of point i.
func (s *Set) Row(i int) []float32 { return s.X[i*s.In : (i+1)*s.In] }

// Add appends one point.
func (s *Set) Add(x []float32, y uint8) {
	s.X = append(s.X, x...)
	s.Y = append(s.Y, y)
}

// Append appends every point of o (which must have the same width).
func (s *Set) Append(o *Set) {
	s.X = append(s.X, o.X...)
	s.Y = append(s.Y, o.Y...)
}

// valid checks the set's sizes and labels.
func (s *Set) valid() error {
	if s.In <= 0 || len(s.X) != s.In*len(s.Y) {
		return fmt.Errorf("stonenet: %d features for %d points of width %d", len(s.X), len(s.Y), s.In)
	}
	for _, y := range s.Y {
		if y >= Classes {
			return fmt.Errorf("stonenet: class %d", y)
		}
	}
	return nil
}

// TrainOptions says how to train.
type TrainOptions struct {
	Hidden      []int   // hidden layer widths
	Epochs      int     // passes over the set
	Batch       int     // points per Adam step
	LR          float64 // Adam's step size (decayed by cosine to a tenth)
	WeightDecay float64 // L2 penalty on the weights
	Seed        uint64
	// Perms are permutations of the feature indexes that describe the same point seen another way
	// (the patch mirrored or turned): each step shows every point under one of them at random.
	Perms [][]int
	// Balance weighs each class by the inverse square root of its frequency, so the rare stones
	// of a sparse board count for more than its many empty points.
	Balance bool
	// MaskGroups are groups of feature indexes (the patch's brightness, its colour, the radial
	// profile...); each step hides each group of each point with probability MaskRate, setting
	// its features to their means, so that no single kind of evidence carries a reading alone:
	// a source whose light makes one kind misleading is then read by the others.
	MaskGroups [][]int
	MaskRate   float64
	// AverageFrom, when above 0, is the share of the training after which the weights of every
	// step are averaged, and the average is the trained network (stochastic weight averaging):
	// a flat region of the loss, which reads sources unlike the training set better than the
	// last step's weights do.
	AverageFrom float64
	// Log, when not nil, gets each epoch's mean loss.
	Log func(epoch int, loss float64)
}

// ErrEmpty means there was nothing to train on.
var ErrEmpty = errors.New("stonenet: empty training set")

// Train fits a network to the set.
func Train(set *Set, opt TrainOptions) (*Net, error) {
	if err := set.valid(); err != nil {
		return nil, err
	}
	if set.Len() == 0 {
		return nil, ErrEmpty
	}
	for _, p := range opt.Perms {
		if len(p) != set.In {
			return nil, fmt.Errorf("stonenet: a permutation of %d indexes for %d features", len(p), set.In)
		}
	}
	for _, g := range opt.MaskGroups {
		for _, k := range g {
			if k < 0 || k >= set.In {
				return nil, fmt.Errorf("stonenet: a mask group names feature %d of %d", k, set.In)
			}
		}
	}
	if opt.MaskRate < 0 || opt.MaskRate > 1 || opt.AverageFrom < 0 || opt.AverageFrom >= 1 {
		return nil, fmt.Errorf("stonenet: a mask rate of %g (want 0 to 1) or averaging from %g (want 0 to under 1)", opt.MaskRate, opt.AverageFrom)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15))
	widths := append(append([]int{set.In}, opt.Hidden...), Classes)
	net, err := New(widths, rng.Float64)
	if err != nil {
		return nil, err
	}
	net.standardize(set)
	var classW [Classes]float64
	for i := range classW {
		classW[i] = 1
	}
	if opt.Balance {
		var count [Classes]float64
		for _, y := range set.Y {
			count[y]++
		}
		var norm float64
		for c := range count {
			if count[c] > 0 {
				classW[c] = 1 / math.Sqrt(count[c]/float64(set.Len()))
			}
			norm += classW[c] * count[c]
		}
		for c := range classW {
			classW[c] *= float64(set.Len()) / norm
		}
	}
	tr := newTrainer(net)
	order := make([]int, set.Len())
	for i := range order {
		order[i] = i
	}
	batch := max(opt.Batch, 1)
	steps := opt.Epochs * ((set.Len() + batch - 1) / batch)
	step := 0
	avg := newWeightAverage(net)
	x := make([]float32, set.In)
	for ep := 0; ep < opt.Epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		var loss float64
		for b0 := 0; b0 < len(order); b0 += batch {
			tr.zero()
			b1 := min(b0+batch, len(order))
			for _, i := range order[b0:b1] {
				row := set.Row(i)
				if len(opt.Perms) > 0 {
					p := opt.Perms[rng.IntN(len(opt.Perms))]
					for k, src := range p {
						x[k] = row[src]
					}
				} else {
					copy(x, row)
				}
				for _, g := range opt.MaskGroups {
					// No draw at all when nothing is hidden: the seed's stream, and so the
					// weights, stay those of a training without masks.
					if opt.MaskRate > 0 && rng.Float64() < opt.MaskRate {
						for _, k := range g {
							x[k] = net.Mean[k]
						}
					}
				}
				loss += tr.backprop(x, set.Y[i], classW[set.Y[i]])
			}
			lr := opt.LR * (0.1 + 0.9*0.5*(1+math.Cos(math.Pi*float64(step)/float64(steps))))
			tr.adam(lr, opt.WeightDecay, float64(b1-b0))
			step++
			if opt.AverageFrom > 0 && float64(step) >= opt.AverageFrom*float64(steps) {
				avg.add(net)
			}
		}
		if opt.Log != nil {
			opt.Log(ep, loss/float64(set.Len()))
		}
	}
	avg.setInto(net)
	return net, nil
}

// weightAverage sums a network's weights over training steps.
type weightAverage struct {
	w, b [][]float64
	n    int
}

func newWeightAverage(net *Net) *weightAverage {
	a := &weightAverage{}
	for _, l := range net.Layers {
		a.w = append(a.w, make([]float64, len(l.W)))
		a.b = append(a.b, make([]float64, len(l.B)))
	}
	return a
}

// add adds the network's present weights to the sums.
func (a *weightAverage) add(net *Net) {
	for li, l := range net.Layers {
		for i, v := range l.W {
			a.w[li][i] += float64(v)
		}
		for i, v := range l.B {
			a.b[li][i] += float64(v)
		}
	}
	a.n++
}

// setInto replaces the network's weights with the average, when any were added.
func (a *weightAverage) setInto(net *Net) {
	if a.n == 0 {
		return
	}
	for li, l := range net.Layers {
		for i := range l.W {
			l.W[i] = float32(a.w[li][i] / float64(a.n))
		}
		for i := range l.B {
			l.B[i] = float32(a.b[li][i] / float64(a.n))
		}
	}
}

// standardize sets the input standardization from the set's mean and deviation.
func (n *Net) standardize(set *Set) {
	in := set.In
	mean := make([]float64, in)
	sq := make([]float64, in)
	for i := 0; i < set.Len(); i++ {
		for k, v := range set.Row(i) {
			mean[k] += float64(v)
			sq[k] += float64(v) * float64(v)
		}
	}
	cnt := float64(set.Len())
	for k := range mean {
		m := mean[k] / cnt
		sd := math.Sqrt(max(sq[k]/cnt-m*m, 0))
		n.Mean[k] = float32(m)
		n.Std[k] = float32(max(sd, 1e-3))
	}
}

// trainer holds the gradients and Adam's moments of every layer.
type trainer struct {
	net        *Net
	gw, gb     [][]float32
	mw, mb     [][]float32
	vw, vb     [][]float32
	acts       [][]float32 // per layer's input, then the output
	delta, tmp []float32
	t          int
}

func newTrainer(n *Net) *trainer {
	tr := &trainer{net: n}
	width := len(n.Mean)
	for _, l := range n.Layers {
		mk := func(k int) []float32 { return make([]float32, k) }
		tr.gw, tr.gb = append(tr.gw, mk(len(l.W))), append(tr.gb, mk(l.Out))
		tr.mw, tr.mb = append(tr.mw, mk(len(l.W))), append(tr.mb, mk(l.Out))
		tr.vw, tr.vb = append(tr.vw, mk(len(l.W))), append(tr.vb, mk(l.Out))
		tr.acts = append(tr.acts, mk(l.In))
		width = max(width, l.Out)
	}
	tr.acts = append(tr.acts, make([]float32, Classes))
	tr.delta, tr.tmp = make([]float32, width), make([]float32, width)
	return tr
}

func (tr *trainer) zero() {
	for i := range tr.gw {
		clear(tr.gw[i])
		clear(tr.gb[i])
	}
}

// backprop adds one point's weighted cross-entropy gradient and returns its loss.
func (tr *trainer) backprop(x []float32, y uint8, w float64) float64 {
	n := tr.net
	a0 := tr.acts[0]
	for i, v := range x {
		a0[i] = (v - n.Mean[i]) / n.Std[i]
	}
	last := len(n.Layers) - 1
	for li, l := range n.Layers {
		out := tr.acts[li+1]
		dense(l, tr.acts[li], out)
		if li < last {
			for i, v := range out {
				if v < 0 {
					out[i] = 0
				}
			}
		}
	}
	p := softmax(tr.acts[last+1], 1)
	loss := -math.Log(math.Max(float64(p[y]), 1e-12)) * w
	d := tr.delta[:Classes]
	for c := 0; c < Classes; c++ {
		d[c] = p[c]
		if uint8(c) == y {
			d[c]--
		}
		d[c] *= float32(w)
	}
	for li := last; li >= 0; li-- {
		l := n.Layers[li]
		in := tr.acts[li]
		gw, gb := tr.gw[li], tr.gb[li]
		for o := 0; o < l.Out; o++ {
			g := d[o]
			if g == 0 {
				continue
			}
			gb[o] += g
			row := gw[o*l.In : (o+1)*l.In]
			for i, v := range in {
				row[i] += g * v
			}
		}
		if li == 0 {
			break
		}
		prev := tr.tmp[:l.In]
		clear(prev)
		for o := 0; o < l.Out; o++ {
			g := d[o]
			if g == 0 {
				continue
			}
			row := l.W[o*l.In : (o+1)*l.In]
			for i, wv := range row {
				prev[i] += g * wv
			}
		}
		for i, v := range in {
			if v <= 0 {
				prev[i] = 0
			}
		}
		d = tr.delta[:l.In]
		copy(d, prev)
	}
	return loss
}

// adam takes one step with the gradients summed over count points.
func (tr *trainer) adam(lr, decay, count float64) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	tr.t++
	c1 := 1 - math.Pow(b1, float64(tr.t))
	c2 := 1 - math.Pow(b2, float64(tr.t))
	step := func(p, g, m, v []float32, dec float64) {
		for i := range p {
			gi := float64(g[i])/count + dec*float64(p[i])
			mi := b1*float64(m[i]) + (1-b1)*gi
			vi := b2*float64(v[i]) + (1-b2)*gi*gi
			m[i], v[i] = float32(mi), float32(vi)
			p[i] -= float32(lr * (mi / c1) / (math.Sqrt(vi/c2) + eps))
		}
	}
	for li := range tr.net.Layers {
		l := &tr.net.Layers[li]
		step(l.W, tr.gw[li], tr.mw[li], tr.vw[li], decay)
		step(l.B, tr.gb[li], tr.mb[li], tr.vb[li], 0)
	}
}

// FitTemperature sets the softmax temperature that minimises the negative log-likelihood of a
// held-out set (a golden-section search over 0.25..8), so the probabilities are calibrated.
func (n *Net) FitTemperature(val *Set) {
	if val.Len() == 0 {
		return
	}
	var buf Buffers
	logits := make([]float32, val.Len()*Classes)
	for i := 0; i < val.Len(); i++ {
		copy(logits[i*Classes:], n.logits(val.Row(i), &buf))
	}
	nll := func(t float64) float64 {
		var s float64
		for i, y := range val.Y {
			p := softmax(logits[i*Classes:(i+1)*Classes], float32(t))
			s -= math.Log(math.Max(float64(p[y]), 1e-12))
		}
		return s
	}
	lo, hi := math.Log(0.25), math.Log(8.0)
	g := (math.Sqrt(5) - 1) / 2
	a, b := hi-g*(hi-lo), lo+g*(hi-lo)
	fa, fb := nll(math.Exp(a)), nll(math.Exp(b))
	for k := 0; k < 40; k++ {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - g*(hi-lo)
			fa = nll(math.Exp(a))
		} else {
			lo, a, fa = a, b, fb
			b = lo + g*(hi-lo)
			fb = nll(math.Exp(b))
		}
	}
	n.Temp = float32(math.Exp((lo + hi) / 2))
}

// Score is how a network does on a labelled set.
type Score struct {
	Points, Wrong int
	NLL           float64 // mean negative log-likelihood of the true class
	Confusion     [Classes][Classes]int
}

// Accuracy returns the share of points read right.
func (s Score) Accuracy() float64 {
	if s.Points == 0 {
		return 0
	}
	return 1 - float64(s.Wrong)/float64(s.Points)
}

// Evaluate reads every point of the set and counts the mistakes.
func (n *Net) Evaluate(set *Set) Score {
	var s Score
	var buf Buffers
	for i := 0; i < set.Len(); i++ {
		p := n.Forward(set.Row(i), &buf)
		best := 0
		for c := 1; c < Classes; c++ {
			if p[c] > p[best] {
				best = c
			}
		}
		y := set.Y[i]
		s.Points++
		s.Confusion[y][best]++
		if best != int(y) {
			s.Wrong++
		}
		s.NLL -= math.Log(math.Max(float64(p[y]), 1e-12))
	}
	if s.Points > 0 {
		s.NLL /= float64(s.Points)
	}
	return s
}
