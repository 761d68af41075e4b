package calib

import (
	"math"
	"testing"
)

// TestBestWindowSpacing builds canvas profiles of a board's lines (narrow peaks) and checks
// that bestWindow finds the board's lines at their true spacing and position, also when
// stones weaken half of them or the board's edges show as lines in the margin.
func TestBestWindowSpacing(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		start float64
		step  float64
		weak  float64 // strength of the first half of the lines (stones over them); 0: 1
		edge  float64 // where the board's edges show as lines, in spacings beyond the edge lines; 0: none
	}{
		{"19 plain", 19, 80, 26, 0, 0},
		{"19 half under stones", 19, 80, 26, 0.3, 0},
		{"19 board edges", 19, 80, 26, 0, 0.6},
		{"19 both", 19, 80.5, 25.8, 0.3, 0.6},
		{"13 board edges", 13, 100, 36, 0, 0.5},
		{"13 half under stones", 13, 100, 36, 0.25, 0},
		{"9 plain", 9, 120, 50, 0, 0},
		{"9 both", 9, 120, 50, 0.4, 0.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := make([]float64, canvasSize)
			peak := func(at, h float64) {
				for i := range p {
					if d := math.Abs(float64(i) - at); d < 4 {
						p[i] = math.Max(p[i], h*(1-d/4))
					}
				}
			}
			for k := 0; k < tc.n; k++ {
				h := 1.0
				if tc.weak > 0 && k < tc.n/2 {
					h = tc.weak
				}
				peak(tc.start+float64(k)*tc.step, h)
			}
			if tc.edge > 0 {
				peak(tc.start-tc.edge*tc.step, 1)
				peak(tc.start+(float64(tc.n-1)+tc.edge)*tc.step, 1)
			}
			w := bestWindow(p, tc.n)
			if math.Abs(w.step-tc.step) > 0.5 || math.Abs(w.start-tc.start) > 1.5 {
				t.Errorf("window start %.2f step %.2f, want start %.0f step %.0f", w.start, w.step, tc.start, tc.step)
			}
		})
	}
}
