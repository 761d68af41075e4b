package homography

import (
	"math"
	"testing"
)

func TestFrom4(t *testing.T) {
	unit := [4][2]float64{{0, 0}, {18, 0}, {18, 18}, {0, 18}}
	tests := []struct {
		name   string
		src    [4][2]float64
		dst    [4][2]float64
		wantOK bool
	}{
		{"identity", unit, unit, true},
		{"scale and shift", unit, [4][2]float64{{10, 20}, {370, 20}, {370, 380}, {10, 380}}, true},
		{"perspective", unit, [4][2]float64{{407, 45}, {939, 55}, {991, 643}, {329, 621}}, true},
		{"all in one place", unit, [4][2]float64{{3, 3}, {3, 3}, {3, 3}, {3, 3}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, ok := From4(tc.src, tc.dst)
			if ok != tc.wantOK {
				t.Fatalf("ok = %v, want %v (m = %v)", ok, tc.wantOK, m)
			}
			if !ok {
				return
			}
			for i := range tc.src {
				x, y := m.Apply(tc.src[i][0], tc.src[i][1])
				if math.Hypot(x-tc.dst[i][0], y-tc.dst[i][1]) > 1e-6 {
					t.Errorf("corner %d -> %.6f,%.6f, want %v", i, x, y, tc.dst[i])
				}
			}
			inv, ok := m.Inverse()
			if !ok {
				t.Fatal("inverse of a solvable transform failed")
			}
			for i := range tc.dst {
				x, y := inv.Apply(tc.dst[i][0], tc.dst[i][1])
				if math.Hypot(x-tc.src[i][0], y-tc.src[i][1]) > 1e-6 {
					t.Errorf("inverse: corner %d -> %.6f,%.6f, want %v", i, x, y, tc.src[i])
				}
			}
		})
	}
}

func TestInverseSingular(t *testing.T) {
	// Three corners mapped onto one line: a transform exists but flattens the plane.
	unit := [4][2]float64{{0, 0}, {18, 0}, {18, 18}, {0, 18}}
	if m, ok := From4(unit, [4][2]float64{{0, 0}, {1, 1}, {2, 2}, {0, 5}}); ok {
		if _, ok := m.Inverse(); ok {
			t.Errorf("a transform flattening three corners onto a line was inverted: %v", m)
		}
	}
	if _, ok := (Matrix{1, 2, 3, 2, 4, 6, 0, 0, 1}).Inverse(); ok {
		t.Error("a singular matrix was inverted")
	}
	if x, y := Identity().Apply(3, -4); x != 3 || y != -4 {
		t.Errorf("identity moved (3,-4) to (%v,%v)", x, y)
	}
}

// TestFit: a transform fitted to many exact pairs is the transform that made them, at any pixel
// scale; with the pairs jittered it stays within the jitter; too few or coincident points fail.
func TestFit(t *testing.T) {
	truth, ok := From4([4][2]float64{{0, 0}, {18, 0}, {18, 18}, {0, 18}}, [4][2]float64{{407, 45}, {939, 55}, {991, 643}, {329, 621}})
	if !ok {
		t.Fatal("no test transform")
	}
	grid := func(jitter float64) (src, dst [][2]float64) {
		for k := 0; k < 361; k += 7 {
			u, v := float64(k%19), float64(k/19)
			x, y := truth.Apply(u, v)
			// A fixed pattern of jitter, alternating in sign.
			s := jitter * float64(k%5-2) / 2
			src = append(src, [2]float64{u, v})
			dst = append(dst, [2]float64{x + s, y - s})
		}
		return src, dst
	}
	for _, tc := range []struct {
		name   string
		jitter float64 // pixels
		worst  float64 // pixels
	}{
		{"exact", 0, 1e-6},
		{"jittered by up to a pixel", 1, 1.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, dst := grid(tc.jitter)
			m, ok := Fit(src, dst)
			if !ok {
				t.Fatal("no fit")
			}
			for u := 0.0; u <= 18; u += 6 {
				for v := 0.0; v <= 18; v += 6 {
					x, y := m.Apply(u, v)
					tx, ty := truth.Apply(u, v)
					if d := math.Hypot(x-tx, y-ty); d > tc.worst {
						t.Errorf("%v,%v -> %.3f,%.3f, %.3f px from the truth", u, v, x, y, d)
					}
				}
			}
		})
	}
	if _, ok := Fit([][2]float64{{0, 0}, {1, 0}, {0, 1}}, [][2]float64{{0, 0}, {1, 0}, {0, 1}}); ok {
		t.Error("a fit from three pairs")
	}
	same := [][2]float64{{3, 3}, {3, 3}, {3, 3}, {3, 3}, {3, 3}}
	if _, ok := Fit(same, same); ok {
		t.Error("a fit from five points in one place")
	}
}
