package vision

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPatchCellSumsMatchPixels checks the block lattice against sums taken pixel by pixel, for
// each board size's canonical spacing and for a spacing that falls back to summing each cell.
func TestPatchCellSumsMatchPixels(t *testing.T) {
	for _, g := range []canonGeom{canonFor(9), canonFor(13), canonFor(19), {Size: 19, Spacing: 22}} {
		s := newSampler(g)
		side := g.Side()
		rng := rand.New(rand.NewPCG(uint64(g.Spacing), 1))
		pix := make([]byte, 3*side*side)
		for i := range pix {
			pix[i] = byte(rng.IntN(256))
		}
		s.luminance(pix)
		cell := s.patchCellSums(pix)
		step := 2 * patchReach * float64(g.Spacing) / patchCells
		for _, pt := range [][2]int{{0, 0}, {g.Size - 1, 0}, {3, 5}, {g.Size - 1, g.Size - 1}} {
			cx, cy := g.Spacing*(pt[0]+1), g.Spacing*(pt[1]+1)
			for pr := 0; pr < patchCells; pr++ {
				for pc := 0; pc < patchCells; pc++ {
					got, n := cell.sum(cx, cy, pc, pr)
					edge := func(k int) int { return int(math.Round(-patchReach*float64(g.Spacing) + float64(k)*step)) }
					x0, x1, y0, y1 := cx+edge(pc), cx+edge(pc+1), cy+edge(pr), cy+edge(pr+1)
					var want [4]uint32
					for y := y0; y < y1; y++ {
						for x := x0; x < x1; x++ {
							k := y*side + x
							want[0] += uint32(pix[3*k])
							want[1] += uint32(pix[3*k+1])
							want[2] += uint32(pix[3*k+2])
							want[3] += uint32(s.lum[k])
						}
					}
					if got != want || n != (x1-x0)*(y1-y0) {
						t.Fatalf("spacing %d point %v cell (%d,%d): %v over %d px, want %v over %d", g.Spacing, pt, pc, pr, got, n, want, (x1-x0)*(y1-y0))
					}
				}
			}
		}
	}
}

// TestNetPermutationsAreDihedral checks the eight permutations are distinct, each a permutation,
// and that they keep every feature outside the patch in place.
func TestNetPermutationsAreDihedral(t *testing.T) {
	perms := NetPermutations()
	if len(perms) != 8 {
		t.Fatalf("%d permutations", len(perms))
	}
	seen := map[string]bool{}
	for _, p := range perms {
		used := make([]bool, len(p))
		for k, v := range p {
			if used[v] {
				t.Fatalf("index %d used twice", v)
			}
			used[v] = true
			if k >= nPatch && v != k {
				t.Errorf("feature %d outside the patch moved to %d", k, v)
			}
		}
		seen[string(rune(p[0]))+string(rune(p[1]))+string(rune(p[patchCells]))] = true
	}
	if len(seen) != 8 {
		t.Errorf("only %d distinct permutations", len(seen))
	}
}
