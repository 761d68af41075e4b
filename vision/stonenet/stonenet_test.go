package stonenet

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// clusters makes n points of three noisy classes in dim dimensions: class c has its mean at
// +2 on feature c and an XOR-like twist on the last two features, so a linear model is not enough.
func clusters(n, dim int, seed uint64) *Set {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := &Set{In: dim}
	x := make([]float32, dim)
	for i := 0; i < n; i++ {
		c := uint8(rng.IntN(Classes))
		for k := range x {
			x[k] = float32(rng.NormFloat64() * 0.6)
		}
		x[c] += 2
		sign := float32(1)
		if rng.IntN(2) == 0 {
			sign = -1
		}
		x[dim-2], x[dim-1] = sign*float32(1+c), sign*float32(1+c)
		s.Add(x, c)
	}
	return s
}

// featureZeroTells makes n points of two classes (black, white) told by feature 0 alone (-2 or
// +2, with noise); rest draws each point's other features.
func featureZeroTells(n int, seed uint64, rest func(*rand.Rand) []float32) *Set {
	rng := rand.New(rand.NewPCG(seed, seed))
	var s *Set
	for i := 0; i < n; i++ {
		c := uint8(rng.IntN(2)) + 1
		v := float32(-2)
		if c == 2 {
			v = 2
		}
		x := append([]float32{v + float32(rng.NormFloat64()*0.3)}, rest(rng)...)
		if s == nil {
			s = &Set{In: len(x)}
		}
		s.Add(x, c)
	}
	return s
}

func TestTrainLearnsAndCalibrates(t *testing.T) {
	train, test := clusters(6000, 6, 1), clusters(2000, 6, 2)
	var losses []float64
	net, err := Train(train, TrainOptions{Hidden: []int{16, 8}, Epochs: 8, Batch: 64, LR: 0.01, Seed: 7,
		Balance: true, Log: func(_ int, l float64) { losses = append(losses, l) }})
	if err != nil {
		t.Fatal(err)
	}
	if losses[len(losses)-1] >= losses[0] {
		t.Errorf("loss did not fall: %v", losses)
	}
	before := net.Evaluate(test)
	net.FitTemperature(clusters(2000, 6, 3))
	after := net.Evaluate(test)
	t.Logf("accuracy %.4f, NLL %.4f -> %.4f at temperature %.2f", after.Accuracy(), before.NLL, after.NLL, net.Temp)
	if after.Accuracy() < 0.95 {
		t.Errorf("accuracy %.4f on separable clusters", after.Accuracy())
	}
	if after.NLL > before.NLL*1.02 {
		t.Errorf("fitting the temperature made the held-out NLL worse: %.4f -> %.4f", before.NLL, after.NLL)
	}
	if before.Wrong != after.Wrong {
		t.Errorf("a temperature must not change any decision: %d -> %d wrong", before.Wrong, after.Wrong)
	}
}

func TestPermutationsAreApplied(t *testing.T) {
	// The class is told only by feature 0; a permutation that swaps features 0 and 1 on half the
	// steps makes feature 1 as informative to the network, so a point with the signal on
	// feature 1 alone is classified by it too.
	s := featureZeroTells(4000, 3, func(rng *rand.Rand) []float32 { return []float32{0, float32(rng.NormFloat64())} })
	net, err := Train(s, TrainOptions{Hidden: []int{8}, Epochs: 6, Batch: 32, LR: 0.01, Seed: 1, Perms: [][]int{{0, 1, 2}, {1, 0, 2}}})
	if err != nil {
		t.Fatal(err)
	}
	var buf Buffers
	if p := net.Forward([]float32{0, 2, 0}, &buf); p[2] < 0.8 {
		t.Errorf("signal on the permuted feature: p(white) %.3f", p[2])
	}
}

func TestMaskGroupsHideTheirFeatures(t *testing.T) {
	// The class is told by feature 0 alone. Hidden at every step it teaches nothing, and the
	// training loss stays at a coin's (ln 2, two classes); hidden at a fifth of the steps it is
	// still learned, and the loss falls well below that.
	s := featureZeroTells(3000, 5, func(rng *rand.Rand) []float32 { return []float32{float32(rng.NormFloat64())} })
	for _, tc := range []struct {
		rate     float64
		min, max float64 // the last epoch's loss
	}{{0.2, 0, 0.3}, {1, 0.66, 0.75}} {
		var last float64
		_, err := Train(s, TrainOptions{Hidden: []int{8}, Epochs: 4, Batch: 32, LR: 0.01, Seed: 1,
			MaskGroups: [][]int{{0}}, MaskRate: tc.rate, Log: func(_ int, l float64) { last = l }})
		if err != nil {
			t.Fatal(err)
		}
		if last < tc.min || last > tc.max {
			t.Errorf("feature 0 hidden at a rate of %g: last epoch's loss %.3f, want %.2f to %.2f", tc.rate, last, tc.min, tc.max)
		}
	}
}

func TestWeightAverage(t *testing.T) {
	net, err := New([]int{2, 2, Classes}, rand.New(rand.NewPCG(1, 1)).Float64)
	if err != nil {
		t.Fatal(err)
	}
	avg := newWeightAverage(net)
	avg.setInto(net) // nothing added: the weights stay
	if net.Layers[0].W[0] == 0 && net.Layers[0].W[1] == 0 {
		t.Fatal("an empty average cleared the weights")
	}
	for _, v := range []float32{1, 2, 6} {
		for _, l := range net.Layers {
			for i := range l.W {
				l.W[i] = v
			}
			for i := range l.B {
				l.B[i] = -v
			}
		}
		avg.add(net)
	}
	avg.setInto(net)
	for li, l := range net.Layers {
		for i := range l.W {
			if l.W[i] != 3 {
				t.Fatalf("layer %d weight %d: %g, want the mean 3", li, i, l.W[i])
			}
		}
		for i := range l.B {
			if l.B[i] != -3 {
				t.Fatalf("layer %d bias %d: %g, want the mean -3", li, i, l.B[i])
			}
		}
	}
}

func TestUnusedMasksChangeNothing(t *testing.T) {
	// Groups named but never hidden must leave training as it was, draw for draw: the committed
	// weights are rebuilt from the seed.
	set := clusters(1000, 6, 9)
	opt := TrainOptions{Hidden: []int{5}, Epochs: 2, Batch: 16, LR: 0.01, Seed: 4}
	plain, err := Train(set, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.MaskGroups = [][]int{{0, 1}, {2}}
	named, err := Train(set, opt)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := plain.MarshalBinary()
	b, _ := named.MarshalBinary()
	if !bytes.Equal(a, b) {
		t.Error("mask groups at a rate of 0 changed the trained weights")
	}
}

func TestAveragedTrainingLearns(t *testing.T) {
	train, test := clusters(6000, 6, 1), clusters(2000, 6, 2)
	net, err := Train(train, TrainOptions{Hidden: []int{16, 8}, Epochs: 8, Batch: 64, LR: 0.01, Seed: 7, AverageFrom: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if acc := net.Evaluate(test).Accuracy(); acc < 0.95 {
		t.Errorf("averaged weights: accuracy %.4f on separable clusters", acc)
	}
	last, err := Train(train, TrainOptions{Hidden: []int{16, 8}, Epochs: 8, Batch: 64, LR: 0.01, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := net.MarshalBinary()
	b, _ := last.MarshalBinary()
	if bytes.Equal(a, b) {
		t.Error("the averaged network is the last step's: no average was taken")
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	net, err := Train(clusters(500, 6, 4), TrainOptions{Hidden: []int{5}, Epochs: 2, Batch: 16, LR: 0.01, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	net.Temp = 1.7
	raw, err := net.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Net
	if err := back.UnmarshalBinary(raw); err != nil {
		t.Fatal(err)
	}
	var b1, b2 Buffers
	x := []float32{0.3, -1, 2, 0.5, 0, 1}
	if a, b := net.Forward(x, &b1), back.Forward(x, &b2); a != b {
		t.Errorf("round trip changed the output: %v vs %v", a, b)
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"bad magic", append([]byte("XXXXXXXX"), raw[8:]...)},
		{"truncated", raw[:len(raw)-3]},
		{"trailing", append(append([]byte(nil), raw...), 0)},
		{"huge width", func() []byte { b := bytes.Clone(raw); b[8], b[9], b[10], b[11] = 0xff, 0xff, 0xff, 0x7f; return b }()},
	} {
		var n Net
		if err := n.UnmarshalBinary(tc.data); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err %v, want ErrFormat", tc.name, err)
		}
	}
}

func TestTrainRejectsBadSets(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  *Set
		opt  TrainOptions
	}{
		{"empty", &Set{In: 2}, TrainOptions{Epochs: 1}},
		{"ragged", &Set{In: 2, X: []float32{1}, Y: []uint8{0}}, TrainOptions{Epochs: 1}},
		{"bad class", &Set{In: 1, X: []float32{1}, Y: []uint8{5}}, TrainOptions{Epochs: 1}},
		{"bad permutation", &Set{In: 2, X: []float32{1, 2}, Y: []uint8{0}}, TrainOptions{Epochs: 1, Perms: [][]int{{0}}}},
		{"bad mask group", &Set{In: 2, X: []float32{1, 2}, Y: []uint8{0}}, TrainOptions{Epochs: 1, MaskGroups: [][]int{{2}}, MaskRate: 0.1}},
		{"bad mask rate", &Set{In: 2, X: []float32{1, 2}, Y: []uint8{0}}, TrainOptions{Epochs: 1, MaskRate: 1.5}},
		{"bad averaging", &Set{In: 2, X: []float32{1, 2}, Y: []uint8{0}}, TrainOptions{Epochs: 1, AverageFrom: 1}},
	} {
		if _, err := Train(tc.set, tc.opt); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func FuzzUnmarshal(f *testing.F) {
	net, _ := Train(clusters(100, 6, 5), TrainOptions{Hidden: []int{4}, Epochs: 1, Batch: 8, LR: 0.01})
	raw, _ := net.MarshalBinary()
	f.Add(raw)
	f.Add([]byte("TGSNET01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var n Net
		if err := n.UnmarshalBinary(data); err != nil {
			return
		}
		x := make([]float32, n.Inputs())
		var buf Buffers
		p := n.Forward(x, &buf)
		var sum float32
		for _, v := range p {
			sum += v
		}
		if math.Abs(float64(sum)-1) > 1e-3 && !math.IsNaN(float64(sum)) {
			t.Fatalf("probabilities sum to %v", sum)
		}
	})
}

// TestAppendHiddenFeedsTheOutput checks that AppendHidden gives what the output layer reads: the
// output layer applied to it by hand gives Forward's probabilities; a committee appends each
// member's in turn.
func TestAppendHiddenFeedsTheOutput(t *testing.T) {
	net, err := Train(clusters(500, 6, 4), TrainOptions{Hidden: []int{7, 5}, Epochs: 2, Batch: 16, LR: 0.01, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	net.Temp = 1.3
	var buf Buffers
	for _, x := range [][]float32{{0.3, -1, 2, 0.5, 0, 1}, {-2, 0.1, 0, 3, -0.5, 0.2}} {
		h := net.AppendHidden([]float32{42}, x, &buf)
		if len(h) != 1+5 || h[0] != 42 {
			t.Fatalf("AppendHidden gave %d values (first %v), want 42 and then 5 activations", len(h), h[0])
		}
		for _, v := range h[1:] {
			if v < 0 {
				t.Errorf("activation %v below zero after the ReLU", v)
			}
		}
		out := net.Layers[len(net.Layers)-1]
		logits := make([]float32, Classes)
		for o := range logits {
			logits[o] = out.B[o]
			for i, v := range h[1:] {
				logits[o] += out.W[o*out.In+i] * v
			}
		}
		want := net.Forward(x, &buf)
		got := softmax(logits, net.Temp)
		for k := range got {
			if math.Abs(float64(got[k]-want[k])) > 1e-5 {
				t.Errorf("x %v: output layer on the hidden activations gives %v, Forward %v", x, got, want)
				break
			}
		}
		c := Committee{Members: []*Net{net, net}}
		if all := c.AppendHidden(nil, x, &buf); len(all) != 10 || all[0] != h[1] || all[5] != h[1] {
			t.Errorf("committee of two appended %v, want the member's 5 activations twice", all)
		}
	}
}

// TestForwardHiddenIsForwardAndAppendHidden checks that the one-pass ForwardHidden gives what
// Forward and AppendHidden give apart, for a network and a committee, and that a committee whose
// first member is sure of a point (Sure) gives back hidden as it was, with all false.
func TestForwardHiddenIsForwardAndAppendHidden(t *testing.T) {
	var nets []*Net
	for seed := uint64(4); seed < 6; seed++ {
		net, err := Train(clusters(500, 6, 4), TrainOptions{Hidden: []int{7, 5}, Epochs: 2, Batch: 16, LR: 0.01, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		nets = append(nets, net)
	}
	var buf Buffers
	for _, x := range [][]float32{{0.3, -1, 2, 0.5, 0, 1}, {-2, 0.1, 0, 3, -0.5, 0.2}, {9, 9, -9, 0, 0, 4}} {
		p, h, all := nets[0].ForwardHidden([]float32{42}, x, &buf)
		if !all {
			t.Errorf("net: ForwardHidden says it kept no activations of a network with hidden layers")
		}
		if want := nets[0].Forward(x, &buf); p != want {
			t.Errorf("net: ForwardHidden read %v, Forward %v", p, want)
		}
		if want := nets[0].AppendHidden([]float32{42}, x, &buf); !slices.Equal(h, want) {
			t.Errorf("net: ForwardHidden kept %v, AppendHidden %v", h, want)
		}
		for _, sure := range []float32{0, 0.5} {
			c := Committee{Members: nets, Sure: sure}
			p, h, all := c.ForwardHidden([]float32{42}, x, &buf)
			if want := c.Forward(x, &buf); p != want {
				t.Errorf("committee (Sure %v): ForwardHidden read %v, Forward %v", sure, p, want)
			}
			first := nets[0].Forward(x, &buf)
			alone := sure > 0 && max(first[0], first[1], first[2]) >= sure
			switch {
			case alone && (all || !slices.Equal(h, []float32{42})):
				t.Errorf("committee (Sure %v): the first member alone read %v, yet kept %v (all %v)", sure, x, h, all)
			case !alone && (!all || !slices.Equal(h, c.AppendHidden([]float32{42}, x, &buf))):
				t.Errorf("committee (Sure %v): kept %v (all %v), AppendHidden gives %v", sure, h, all, c.AppendHidden([]float32{42}, x, &buf))
			}
		}
	}
}
