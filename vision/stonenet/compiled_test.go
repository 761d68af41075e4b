package stonenet

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// randomCommittee returns members of the given layer widths with random weights, means and
// spreads like the reader's features (means up to twenty spreads from zero).
func randomCommittee(t testing.TB, members int, widths []int, sure float32, seed uint64) *Committee {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	c := &Committee{Sure: sure}
	for k := 0; k < members; k++ {
		n, err := New(widths, rng.Float64)
		if err != nil {
			t.Fatal(err)
		}
		for i := range n.Mean {
			n.Std[i] = float32(0.05 + 3*rng.Float64())
			n.Mean[i] = n.Std[i] * float32(40*rng.Float64()-20)
		}
		for li := range n.Layers {
			for o := range n.Layers[li].B {
				n.Layers[li].B[o] = float32(rng.NormFloat64() * 0.3)
			}
		}
		n.Temp = float32(0.7 + rng.Float64())
		c.Members = append(c.Members, n)
	}
	return c
}

// randomInputs returns count inputs near the members' means, as the reader's features are.
func randomInputs(c *Committee, count int, seed uint64) [][]float32 {
	rng := rand.New(rand.NewPCG(seed, 2))
	m := c.Members[0]
	xs := make([][]float32, count)
	for k := range xs {
		xs[k] = make([]float32, m.Inputs())
		for i := range xs[k] {
			xs[k][i] = m.Mean[i] + m.Std[i]*float32(rng.NormFloat64()*1.5)
		}
	}
	return xs
}

func closeTo(a, b, tol float32) bool {
	return math.Abs(float64(a-b)) <= float64(tol)*(1+math.Abs(float64(b)))
}

// TestCompiledIsTheCommittee checks that a compiled committee gives the committee's
// probabilities, hidden activations and shortcut, with the vector kernel and without (off
// amd64, vectorLayer's plain Go stand-in is checked in its place), for layer widths the kernel takes whole (32, 16, 40 = 32+8) and ones it leaves to Go (12, 3).
func TestCompiledIsTheCommittee(t *testing.T) {
	tests := []struct {
		name   string
		widths []int
		sure   float32
	}{
		{"reader's shape", []int{144, 32, 16, 3}, 0.99},
		{"reader's shape, every member", []int{144, 32, 16, 3}, 0},
		{"bands of 32 and 8", []int{30, 40, 8, 3}, 0.9},
		{"odd inputs", []int{9, 32, 24, 3}, 0},
		{"widths the kernel leaves to Go", []int{7, 12, 3}, 0.9},
		{"no hidden layer", []int{5, 3}, 0},
	}
	for _, tc := range tests {
		c := randomCommittee(t, 3, tc.widths, tc.sure, uint64(len(tc.name)))
		compiled, err := c.Compile()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, vector := range []bool{false, true} {
			if vector && !vectorKernel && runtime.GOARCH == "amd64" {
				t.Logf("%s: this CPU has no AVX2/FMA; the Go loops alone are checked", tc.name)
				continue
			}
			compiled.vector = vector
			var ref, got Buffers
			shortcuts := 0
			for k, x := range randomInputs(c, 200, 9) {
				want := c.Forward(x, &ref)
				p := compiled.Forward(x, &got)
				wantP, wantH, wantAll := c.ForwardHidden([]float32{-1}, x, &ref)
				gotP, gotH, gotAll := compiled.ForwardHidden([]float32{-1}, x, &got)
				if wantAll != gotAll || len(wantH) != len(gotH) {
					t.Fatalf("%s vector=%v input %d: all %v with %d values, want %v with %d", tc.name, vector, k, gotAll, len(gotH), wantAll, len(wantH))
				}
				if !wantAll {
					shortcuts++
				}
				for i := range want {
					if !closeTo(p[i], want[i], 1e-5) || !closeTo(gotP[i], wantP[i], 1e-5) || p[i] != gotP[i] {
						t.Fatalf("%s vector=%v input %d: probabilities %v and %v, want %v", tc.name, vector, k, p, gotP, want)
					}
				}
				for i := range wantH {
					if !closeTo(gotH[i], wantH[i], 1e-4) {
						t.Fatalf("%s vector=%v input %d: hidden %d is %g, want %g", tc.name, vector, k, i, gotH[i], wantH[i])
					}
				}
				wantA := c.AppendHidden(nil, x, &ref)
				gotA := compiled.AppendHidden(nil, x, &got)
				if len(wantA) != len(gotA) {
					t.Fatalf("%s: AppendHidden gave %d values, want %d", tc.name, len(gotA), len(wantA))
				}
				for i := range wantA {
					if !closeTo(gotA[i], wantA[i], 1e-4) {
						t.Fatalf("%s vector=%v input %d: appended hidden %d is %g, want %g", tc.name, vector, k, i, gotA[i], wantA[i])
					}
				}
			}
			if tc.sure > 0 && shortcuts == 0 {
				t.Errorf("%s: the first member was never sure; the shortcut went untested", tc.name)
			}
		}
	}
}

// TestCompiledIgnoresLaterChanges checks that a Compiled keeps the weights it was made from.
func TestCompiledIgnoresLaterChanges(t *testing.T) {
	c := randomCommittee(t, 2, []int{6, 8, 3}, 0, 4)
	compiled, err := c.Compile()
	if err != nil {
		t.Fatal(err)
	}
	x := randomInputs(c, 1, 5)[0]
	var buf Buffers
	before := compiled.Forward(x, &buf)
	for _, m := range c.Members {
		for i := range m.Layers[0].W {
			m.Layers[0].W[i] = 0
		}
		m.Mean[0] += 10
	}
	if after := compiled.Forward(x, &buf); after != before {
		t.Errorf("changing the committee moved the compiled reading from %v to %v", before, after)
	}
}

func TestCompileRefuses(t *testing.T) {
	zeroStd := randomCommittee(t, 1, []int{4, 8, 3}, 0, 1)
	zeroStd.Members[0].Std[2] = 0
	torn := randomCommittee(t, 2, []int{4, 8, 3}, 0, 2)
	torn.Members[1].Layers[1].W = torn.Members[1].Layers[1].W[:5]
	mixed := randomCommittee(t, 1, []int{4, 8, 3}, 0, 3)
	mixed.Members = append(mixed.Members, randomCommittee(t, 1, []int{5, 8, 3}, 0, 3).Members...)
	notThree := randomCommittee(t, 1, []int{4, 8, 3}, 0, 1)
	l := &notThree.Members[0].Layers[1]
	l.Out, l.W, l.B = 2, l.W[:16], l.B[:2]
	for name, c := range map[string]*Committee{
		"no members": {}, "zero spread": zeroStd, "torn layer": torn, "mixed inputs": mixed, "two outputs": notThree,
	} {
		if _, err := c.Compile(); !errors.Is(err, ErrCompile) {
			t.Errorf("%s: error %v, want ErrCompile", name, err)
		}
	}
}

// BenchmarkCompiledForward reads one point with a committee of three of the committed reader's
// shape, every member asked (Sure 0): with the vector kernel where the CPU has it, and with the
// Go loops.
func BenchmarkCompiledForward(b *testing.B) {
	c := randomCommittee(b, 3, []int{144, 32, 16, Classes}, 0, 1)
	x := randomInputs(c, 1, 2)[0]
	compiled, err := c.Compile()
	if err != nil {
		b.Fatal(err)
	}
	var buf Buffers
	b.Run("committee", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c.Forward(x, &buf)
		}
	})
	for _, vector := range []bool{true, false} {
		if vector && !vectorKernel {
			continue
		}
		compiled.vector = vector
		name := "compiled-go"
		if vector {
			name = "compiled-vector"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				compiled.Forward(x, &buf)
			}
		})
	}
}
