package vision

import (
	"math"
	"math/rand/v2"
	"slices"
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
		s.planes(pix)
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

// TestRingShowsAStoneEdge draws one canonical board (grey wood with dark grid lines) with a stone
// exactly as bright as the wood, shaded dark on a third of its side, and checks the radial
// profile: its edge shows as the largest ring-to-ring change where the disc ends, and its
// shading as spread around the ring, while an empty point shows neither, even with a
// neighbour's shadow reaching into a sixth of its rings; on an edge point, the rings read as on
// a point whose board goes on beyond the edge (mirrored), not what lies off the board.
func TestRingShowsAStoneEdge(t *testing.T) {
	g := canonFor(19)
	s := newSampler(g)
	side, sp := g.Side(), g.Spacing
	const wood = 170
	lum := func(x, y int) uint8 {
		switch {
		case x < sp/2 || y < sp/2: // beyond the left and top edges: a dark table
			return 20
		case x%sp == 0 || y%sp == 0:
			return 90 // grid line
		}
		return wood
	}
	stoneAt := [2]int{5, 5}
	r := 0.47 * float64(sp)
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			v := lum(x, y)
			dx, dy := float64(x-sp*(stoneAt[0]+1)), float64(y-sp*(stoneAt[1]+1))
			if d := math.Hypot(dx, dy); d <= r {
				v = wood
				if dx < -0.2*r { // the shadowed side
					v = wood - 60
				}
			}
			// Beside the empty point (12, 9), a neighbour's shadow reaching 0.36 spacing toward
			// it from the right, across a sixth of its rings' directions.
			ex, ey := float64(x-sp*13), float64(y-sp*10)
			if d := math.Hypot(ex, ey); d >= 0.36*float64(sp) && d <= 0.55*float64(sp) && ex > 0 && math.Abs(ey) < 0.45*ex {
				v = wood - 60
			}
			s.lum[y*side+x] = v
		}
	}
	ring := func(c, row int) []float32 {
		x := make([]float32, nRing)
		s.ring(x, sp*(c+1), sp*(row+1), wood, c == 0, c == g.Size-1, row == 0, row == g.Size-1)
		return x
	}
	stone, empty := ring(stoneAt[0], stoneAt[1]), ring(9, 9)
	const nr = ringCount
	// The disc (radius 0.47) ends between the rings at 0.42 and 0.5: the fourth change.
	edge := 3
	for i := 0; i < nr-1; i++ {
		if i != edge && stone[2*nr+i] >= stone[2*nr+edge] {
			t.Errorf("stone: change %d (%.3f) not below the edge's (%.3f): %v", i, stone[2*nr+i], stone[2*nr+edge], stone)
		}
	}
	if stone[2*nr+edge] < 0.1 || empty[2*nr+edge] > 0.02 {
		t.Errorf("edge change: stone %.3f, empty %.3f", stone[2*nr+edge], empty[2*nr+edge])
	}
	if stone[nr+2] < 0.1 || empty[nr+2] > 0.02 {
		t.Errorf("spread at 0.34: stone %.3f, empty %.3f", stone[nr+2], empty[nr+2])
	}
	// A neighbour's shadow on a few directions is no edge: the changes stay the empty board's.
	shaded := ring(12, 9)
	for i := 0; i < nr-1; i++ {
		if math.Abs(float64(shaded[2*nr+i]-empty[2*nr+i])) > 0.02 {
			t.Errorf("empty point beside a shadow: change %d is %.3f, the open board's %.3f", i, shaded[2*nr+i], empty[2*nr+i])
		}
	}
	// The two innermost rings touch the grid lines (darker: an empty point's lines); the others
	// fall between them.
	if empty[0] > 0.95 || empty[1] > 0.95 {
		t.Errorf("empty rings 0 and 1 median %.3f and %.3f: the lines through the point do not show", empty[0], empty[1])
	}
	for i := 2; i < nr; i++ {
		if math.Abs(float64(empty[i])-1) > 0.02 {
			t.Errorf("empty ring %d median %.3f, want the wood's 1", i, empty[i])
		}
	}
	if corner := ring(0, 0); !slices.Equal(corner, empty) {
		t.Errorf("the corner point's rings %v, want the board's %v (mirrored, not the table)", corner, empty)
	}
}

// TestSort16Sorts checks the ring's sorting network against the standard library's sort on
// random, tied and ordered inputs.
func TestSort16Sorts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 2000; trial++ {
		var v [ringDirs]int32
		for i := range v {
			switch trial % 3 {
			case 0:
				v[i] = int32(rng.IntN(1021))
			case 1:
				v[i] = int32(rng.IntN(3)) // many ties
			default:
				v[i] = int32(ringDirs - i) // reversed
			}
		}
		want := v
		slices.Sort(want[:])
		sort16(&v)
		if v != want {
			t.Fatalf("trial %d: %v, want %v", trial, v, want)
		}
	}
}

func TestNetInputGroupsPartitionTheInputs(t *testing.T) {
	seen := make([]int, NetInputs)
	for _, g := range NetInputGroups() {
		if len(g) == 0 {
			t.Error("an empty group")
		}
		for _, k := range g {
			if k < 0 || k >= NetInputs {
				t.Fatalf("input %d of %d", k, NetInputs)
			}
			seen[k]++
		}
	}
	for k, n := range seen {
		want := 1
		if k == NetInputs-1 {
			want = 0 // the point's edges are never hidden
		}
		if n != want {
			t.Errorf("input %d is in %d groups, want %d", k, n, want)
		}
	}
}
