package vision

import (
	"math/rand/v2"
	"testing"

	"tengen/vision/observe"
	"tengen/vision/stonenet"
)

// twoDims is a hiddenModel whose "hidden activations" are a point's first two inputs, so a test
// can place points where it likes in the space the frame is weighed in.
type twoDims struct{}

func (twoDims) AppendHidden(out, x []float32, _ *stonenet.Buffers) []float32 {
	return append(out, x[0], x[1])
}

func (twoDims) ForwardHidden(hidden, x []float32, _ *stonenet.Buffers) ([stonenet.Classes]float32, []float32, bool) {
	return [stonenet.Classes]float32{1, 0, 0}, append(hidden, x[0], x[1]), true
}

// adaptFrame builds a 19x19 frame: the sure points of each reading scattered around a centre
// (empty at (0,0), black at (4,0), white at (0,4)) and read at 0.995, and the test's own points
// after them.
func adaptFrame(extra []struct {
	at [2]float32
	p  observe.Probs
}) ([]float32, []observe.Probs) {
	const n = 361
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := make([]float32, n*netInputs)
	probs := make([]observe.Probs, n)
	centres := [3][2]float32{{0, 0}, {4, 0}, {0, 4}}
	for i := 0; i < n-len(extra); i++ {
		k := i % 3
		inputs[i*netInputs] = centres[k][0] + float32(rng.NormFloat64()*0.5)
		inputs[i*netInputs+1] = centres[k][1] + float32(rng.NormFloat64()*0.5)
		probs[i] = observe.Probs{0.0025, 0.0025, 0.0025, 0}
		probs[i][k] = 0.995
	}
	for j, e := range extra {
		i := n - len(extra) + j
		inputs[i*netInputs], inputs[i*netInputs+1] = e.at[0], e.at[1]
		probs[i] = e.p
	}
	return inputs, probs
}

// TestAdaptToFrame checks the weighing of unsure points against the frame's sure ones: a point
// the network is torn on goes the way the frame's look says, one far from every look is barely
// moved, and sure points are never touched.
func TestAdaptToFrame(t *testing.T) {
	type point = struct {
		at [2]float32
		p  observe.Probs
	}
	for _, tc := range []struct {
		name string
		pt   point
		want observe.Stone
		// least and most probability of want after the weighing
		lo, hi float32
	}{
		{"torn, looks like the frame's white stones", point{[2]float32{0.1, 3.9}, observe.Probs{0.55, 0.05, 0.40, 0}}, observe.White, 0.85, 0.96},
		{"torn, looks like the frame's empty points", point{[2]float32{0.2, 0.1}, observe.Probs{0.40, 0.05, 0.55, 0}}, observe.Empty, 0.85, 0.96},
		{"fairly sure, looks like its reading", point{[2]float32{4.1, 0.2}, observe.Probs{0.02, 0.95, 0.03, 0}}, observe.Black, 0.96, 0.99},
		// A black stone with a glare spot: far from every look, a little nearer the white ones.
		{"far from every look", point{[2]float32{12, 9}, observe.Probs{0.05, 0.88, 0.07, 0}}, observe.Black, 0.70, 0.95},
		{"sure: left alone", point{[2]float32{0, 4}, observe.Probs{0.995, 0.003, 0.002, 0}}, observe.Empty, 0.995, 0.995},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inputs, probs := adaptFrame([]struct {
				at [2]float32
				p  observe.Probs
			}{tc.pt})
			before := append([]observe.Probs(nil), probs...)
			var fa frameAdapter
			var buf stonenet.Buffers
			fa.adapt(twoDims{}, inputs, probs, &buf)
			got := probs[len(probs)-1]
			if got.Likeliest() != tc.want || got[tc.want] < tc.lo || got[tc.want] > tc.hi {
				t.Errorf("%v -> %v: want %v at %.3f to %.3f", tc.pt.p, got, tc.want, tc.lo, tc.hi)
			}
			sum := got[0] + got[1] + got[2] + got[3]
			if sum < 0.999 || sum > 1.001 {
				t.Errorf("probabilities sum to %.4f", sum)
			}
			for i := 0; i < len(probs)-1; i++ {
				if probs[i] != before[i] {
					t.Fatalf("sure point %d changed: %v -> %v", i, before[i], probs[i])
				}
			}
		})
	}
}

// TestAdaptToFrameNeedsExamples checks that a reading the frame shows too few sure examples of is
// not weighed: with no sure white stone, a point torn between empty and white keeps the
// network's probabilities.
func TestAdaptToFrameNeedsExamples(t *testing.T) {
	const n = 361
	inputs := make([]float32, n*netInputs)
	probs := make([]observe.Probs, n)
	for i := range probs {
		k := i % 2 // empty and black only
		inputs[i*netInputs] = float32(4 * k)
		probs[i] = observe.Probs{0.003, 0.003, 0.004, 0}
		probs[i][k] = 0.99
	}
	torn := observe.Probs{0.55, 0.05, 0.40, 0}
	probs[n-1] = torn
	inputs[(n-1)*netInputs+1] = 4
	var fa frameAdapter
	fa.adapt(twoDims{}, inputs, probs, &stonenet.Buffers{})
	if probs[n-1] != torn {
		t.Errorf("with no white example: %v -> %v, want it unchanged", torn, probs[n-1])
	}
}

// TestAdaptToFrameStaysProbabilities weighs random frames (points anywhere, any mix of sure and
// unsure readings, some far out, some all alike) and checks that every point's probabilities
// stay finite, between 0 and 1, and sum to what they summed to.
func TestAdaptToFrameStaysProbabilities(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var fa frameAdapter // reused across frames, as a Reader does
	var buf stonenet.Buffers
	for frame := 0; frame < 200; frame++ {
		n := []int{81, 169, 361}[frame%3]
		inputs := make([]float32, n*netInputs)
		probs := make([]observe.Probs, n)
		spread := []float64{0, 1e-3, 1, 1e4}[rng.IntN(4)]
		for i := range probs {
			inputs[i*netInputs] = float32(rng.NormFloat64() * spread)
			inputs[i*netInputs+1] = float32(rng.NormFloat64() * spread)
			var p observe.Probs
			sum := float32(0)
			for k := 0; k < 3; k++ {
				p[k] = float32(rng.ExpFloat64())
				if rng.IntN(3) == 0 {
					p[k] *= 1e4 // most points sure of something
				}
				sum += p[k]
			}
			for k := 0; k < 3; k++ {
				p[k] /= sum
			}
			if rng.IntN(20) == 0 {
				p = obscuredProbs()
			}
			probs[i] = p
		}
		before := append([]observe.Probs(nil), probs...)
		fa.adapt(twoDims{}, inputs, probs, &buf)
		for i, p := range probs {
			var was, is float32
			for k := range p {
				if !(p[k] >= 0 && p[k] <= 1) {
					t.Fatalf("frame %d point %d: %v -> %v", frame, i, before[i], p)
				}
				was, is = was+before[i][k], is+p[k]
			}
			if d := was - is; d > 1e-4 || d < -1e-4 {
				t.Fatalf("frame %d point %d: %v (sum %v) -> %v (sum %v)", frame, i, before[i], was, p, is)
			}
		}
	}
}

// TestAdaptToFrameLooksNearby checks that a point is weighed by the looks of the points near it:
// under a lamp on the right half of the board every point looks brighter, so that the right's
// empty points look like the left's white stones. A point torn between empty and white that
// looks like both of those is read empty on the right and white on the left.
func TestAdaptToFrameLooksNearby(t *testing.T) {
	const side = 19
	looks := [2][3][2]float32{
		{{0, 0}, {4, 0}, {2, 2}}, // left: empty, black, white
		{{2, 2}, {4, 1}, {4, 4}}, // right, under the lamp
	}
	rng := rand.New(rand.NewPCG(3, 4))
	inputs := make([]float32, side*side*netInputs)
	probs := make([]observe.Probs, side*side)
	for i := range probs {
		half := 0
		if i%side >= side/2 {
			half = 1
		}
		k := rng.IntN(3)
		inputs[i*netInputs] = looks[half][k][0] + float32(rng.NormFloat64()*0.3)
		inputs[i*netInputs+1] = looks[half][k][1] + float32(rng.NormFloat64()*0.3)
		probs[i] = observe.Probs{0.0025, 0.0025, 0.0025, 0}
		probs[i][k] = 0.995
	}
	torn := observe.Probs{0.45, 0.05, 0.50, 0}
	left, right := 9*side+3, 9*side+15
	for _, i := range []int{left, right} {
		inputs[i*netInputs], inputs[i*netInputs+1] = 2, 2
		probs[i] = torn
	}
	var fa frameAdapter
	fa.adapt(twoDims{}, inputs, probs, &stonenet.Buffers{})
	if p := probs[left]; p.Likeliest() != observe.White || p[observe.White] < 0.8 {
		t.Errorf("left of the board, where white stones look so: %v -> %v, want white at 0.8 or more", torn, p)
	}
	if p := probs[right]; p.Likeliest() != observe.Empty || p[observe.Empty] < 0.8 {
		t.Errorf("right of the board, under the lamp, where empty points look so: %v -> %v, want empty at 0.8 or more", torn, p)
	}
}

// TestAdaptToFrameBoundsUnsureSay checks the bound on the weighed points' say in a reading's
// look: on a board of sure empty points and eight sure white stones at (4, 4), 150 points alike at
// (2.5, 2.5) that the network gives 0.45 empty and 0.52 white may pull the frame's white look
// toward them, but count for at most twice the sure white stones (adaptShare), so the look stays
// at least a third of the way from them to the sure stones: at 3 or more in each dimension.
func TestAdaptToFrameBoundsUnsureSay(t *testing.T) {
	const side = 19
	rng := rand.New(rand.NewPCG(5, 6))
	inputs := make([]float32, side*side*netInputs)
	probs := make([]observe.Probs, side*side)
	torn := map[int]bool{}
	for len(torn) < 150 {
		torn[rng.IntN(side*side)] = true
	}
	whites := 0
	for i := range probs {
		var at [2]float32
		switch {
		case torn[i]:
			at = [2]float32{2.5, 2.5}
			probs[i] = observe.Probs{0.45, 0.03, 0.52, 0}
		case whites < 8 && i%5 == 0:
			whites++
			at = [2]float32{4, 4}
			probs[i] = observe.Probs{0.003, 0.002, 0.995, 0}
		default:
			probs[i] = observe.Probs{0.995, 0.003, 0.002, 0}
		}
		inputs[i*netInputs] = at[0] + float32(rng.NormFloat64()*0.05)
		inputs[i*netInputs+1] = at[1] + float32(rng.NormFloat64()*0.05)
	}
	var fa frameAdapter
	fa.adapt(twoDims{}, inputs, probs, &stonenet.Buffers{})
	want := 4 - (4-2.5)*adaptShare/(1+adaptShare) - 0.05
	for j, v := range fa.mean[observe.White][:2] { // the two "hidden activations"; the measured look is all alike
		if v < want || v > 3.9 {
			t.Errorf("the frame's white look in dimension %d is %.2f: want it pulled from 4 toward the weighed points at 2.5, to no less than %.2f", j, v, want)
		}
	}
}

// Both kinds of the learned reader weigh the frame's unsure points.
var (
	_ hiddenModel = (*stonenet.Net)(nil)
	_ hiddenModel = (*stonenet.Committee)(nil)
)

// TestAdaptToFrameByBrightness checks the brightness in a point's look and the odd sure points: on
// a board of dark black stones and bright white ones, grey-white stones that the network is sure
// are black (their activations halfway between the two looks) are as bright as the board, far
// brighter than this frame's black stones: they are weighed although sure, and read white. A
// black stone with a glare spot, brighter than the others but black in the network's terms, stays
// black.
func TestAdaptToFrameByBrightness(t *testing.T) {
	const side = 19
	rng := rand.New(rand.NewPCG(8, 9))
	inputs := make([]float32, side*side*netInputs)
	probs := make([]observe.Probs, side*side)
	type look struct {
		at  [2]float32
		rel float32
	}
	looks := [3]look{{[2]float32{0, 0}, 1.0}, {[2]float32{4, 0}, 0.08}, {[2]float32{0, 4}, 1.8}}
	grey := map[int]bool{}
	for len(grey) < 12 {
		grey[rng.IntN(side*side)] = true
	}
	glare := -1
	for i := range probs {
		k := rng.IntN(3)
		l := looks[k]
		probs[i] = observe.Probs{0.0025, 0.0025, 0.0025, 0}
		probs[i][k] = 0.995
		switch {
		case grey[i]:
			l = look{[2]float32{2, 2}, 0.9}
			probs[i] = observe.Probs{0.0002, 0.999, 0.0008, 0}
		case glare < 0 && k == int(observe.Black):
			glare = i
			l.rel = 0.3
			probs[i] = observe.Probs{0.0002, 0.999, 0.0008, 0}
		}
		inputs[i*netInputs] = l.at[0] + float32(rng.NormFloat64()*0.3)
		inputs[i*netInputs+1] = l.at[1] + float32(rng.NormFloat64()*0.3)
		inputs[i*netInputs+inRel] = l.rel * float32(1+rng.NormFloat64()*0.05)
	}
	var fa frameAdapter
	fa.adapt(twoDims{}, inputs, probs, &stonenet.Buffers{})
	for i := range grey {
		if p := probs[i]; p.Likeliest() != observe.White {
			t.Errorf("grey-white stone at %d, sure black in the network's terms and as bright as the board: %v, want white", i, p)
		}
	}
	if p := probs[glare]; p.Likeliest() != observe.Black || p[observe.Black] < 0.95 {
		t.Errorf("black stone with a glare spot: %v, want black at 0.95 or more", p)
	}
}
