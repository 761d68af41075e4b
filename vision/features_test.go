package vision

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestCellMedianIsTheMedian checks the board's local median, taken by the sorting network on
// padded bit patterns, against sorting the window's cells, for every point of each board size
// (windows of 4 to 16 cells, odd and even counts) with random, tied and zero values.
func TestCellMedianIsTheMedian(t *testing.T) {
	for _, size := range []int{9, 13, 19} {
		s := newSampler(canonFor(size))
		n := size - 1
		rng := rand.New(rand.NewPCG(uint64(size), 2))
		for trial := 0; trial < 3; trial++ {
			vals := make([]float64, n*n)
			for i := range vals {
				switch trial {
				case 0:
					vals[i] = rng.Float64()
				case 1:
					vals[i] = float64(rng.IntN(3)) // many ties and zeros
				default:
					vals[i] = float64(rng.IntN(256)) * 0.25
				}
			}
			for r := 0; r <= n; r++ {
				for c := 0; c <= n; c++ {
					c0, c1 := max(c-2, 0), min(c+2, n)
					r0, r1 := max(r-2, 0), min(r+2, n)
					var win []float64
					for rr := r0; rr < r1; rr++ {
						for cc := c0; cc < c1; cc++ {
							win = append(win, vals[rr*n+cc])
						}
					}
					slices.Sort(win)
					want := win[len(win)/2]
					if got := s.cellMedian(vals, c0, c1, r0, r1); got != want {
						t.Fatalf("size %d trial %d point (%d,%d), %d cells: median %v, want %v", size, trial, c, r, len(win), got, want)
					}
				}
			}
		}
	}
}
