package calib

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestLatticeVanishing draws the segments a late-game board leaves in the line map (pieces of
// its 19 rows and 19 columns between stones, and short stone rims in every direction) and
// gives latticeVanishing a first lattice that is wrong as the finder's first lattices on
// crowded boards were (`render-boards -seed 6001` scene 73): a line and a half to the left,
// its rows sloping 1.3 lines across. The vanishing points it estimates again must be the
// board's: each of its lines, drawn from its first point toward its family's, passes within a
// tenth of a spacing of its last point, which the first lattice's own vanishing points miss by
// more than half a spacing.
func TestLatticeVanishing(t *testing.T) {
	const w, h = 640, 480
	board := [4]Point2{{154, 144}, {377, 124}, {467, 322}, {151, 370}}
	bh, ok := gridH(19, 19, board)
	if !ok {
		t.Fatal("no homography for the board")
	}
	rng := rand.New(rand.NewPCG(73, 6001))
	var segs []segment
	add := func(a, b Point2) {
		segs = append(segs, segment{a.X, a.Y, b.X, b.Y, math.Hypot(b.X-a.X, b.Y-a.Y)})
	}
	var rowPieces, colPieces []int
	for k := 0; k < 19; k++ {
		for s := 0.0; s < 18; s += 3 {
			if rng.Float64() < 0.4 { // a stone hides this stretch
				continue
			}
			l := 1 + rng.Float64()
			rowPieces = append(rowPieces, len(segs))
			add(applyH(bh, Point2{s, float64(k)}), applyH(bh, Point2{s + l, float64(k)}))
			colPieces = append(colPieces, len(segs))
			add(applyH(bh, Point2{float64(k), s}), applyH(bh, Point2{float64(k), s + l}))
		}
	}
	for range 120 { // stone rims: short, any direction
		c := Point2{rng.Float64() * 18, rng.Float64() * 18}
		a := rng.Float64() * math.Pi
		d := Point2{0.35 * math.Cos(a), 0.35 * math.Sin(a)}
		add(applyH(bh, Point2{c.X - d.X, c.Y - d.Y}), applyH(bh, Point2{c.X + d.X, c.Y + d.Y}))
	}
	first := gridFit{cols: 19, rows: 19, corners: [4]Point2{
		applyH(bh, Point2{-1.5, 0}), applyH(bh, Point2{16.5, 1.3}),
		applyH(bh, Point2{16.5, 18}), applyH(bh, Point2{-1.5, 18})}}

	n := frameNorm{cx: w / 2, cy: h / 2, f: w / 2}
	ns := n.segments(segs)
	rows, cols, ok := latticeVanishing(first, ns, n)
	if !ok {
		t.Fatal("latticeVanishing found too few segments")
	}
	// How far a board line drawn from its first point toward a vanishing point v (in work
	// pixels, homogeneous) misses the line's last point, at worst over the family's 19 lines.
	miss := func(v vec3, along func(k, t float64) Point2) float64 {
		m := 0.0
		for k := 0.0; k < 19; k++ {
			a, b := along(k, 0), along(k, 18)
			l := cross(vec3{a.X, a.Y, 1}, v)
			m = max(m, math.Abs(dot(l, vec3{b.X, b.Y, 1}))/math.Hypot(l[0], l[1]))
		}
		return m
	}
	row := func(k, t float64) Point2 { return applyH(bh, Point2{t, k}) }
	col := func(k, t float64) Point2 { return applyH(bh, Point2{k, t}) }
	pix := func(v vec3) vec3 { return vec3{v[0]*n.f + n.cx*v[2], v[1]*n.f + n.cy*v[2], v[2]} }
	spacing := math.Hypot(board[1].X-board[0].X, board[1].Y-board[0].Y) / 18
	fh, ok := gridH(first.cols, first.rows, first.corners)
	if !ok {
		t.Fatal("no homography for the first lattice")
	}
	if got := miss(vec3{fh[0], fh[3], fh[6]}, row); got < spacing/2 {
		t.Fatalf("the first lattice's rows miss the board's by %.2f px only: the test shows nothing", got)
	}
	if got := miss(pix(rows.v), row); got > 0.1*spacing {
		t.Errorf("rows: a board row drawn toward the estimated vanishing point misses its end by %.2f px, want <= %.2f (a tenth of a spacing)", got, 0.1*spacing)
	}
	if got := miss(pix(cols.v), col); got > 0.1*spacing {
		t.Errorf("columns: a board column drawn toward the estimated vanishing point misses its end by %.2f px, want <= %.2f", got, 0.1*spacing)
	}
}

// TestNearLattice checks nearLattice's bound on grids placed about a 19x19 reference: the same
// grid, and the same with its corners named from another corner, are near; one moved a few lines
// is near within a bound of four lines and not within one; one moved seven lines is not.
func TestNearLattice(t *testing.T) {
	ref := gridFit{cols: 19, rows: 19, corners: [4]Point2{{100, 100}, {460, 110}, {470, 470}, {90, 460}}}
	h, ok := gridH(19, 19, ref.corners)
	if !ok {
		t.Fatal("no homography for the reference")
	}
	moved := func(du, dv float64) gridFit {
		g := gridFit{cols: 19, rows: 19}
		for i, c := range [4]Point2{{0, 0}, {18, 0}, {18, 18}, {0, 18}} {
			g.corners[i] = applyH(h, Point2{c.X + du, c.Y + dv})
		}
		return g
	}
	turned := ref
	turned.corners = [4]Point2{ref.corners[1], ref.corners[2], ref.corners[3], ref.corners[0]}
	tests := []struct {
		name string
		g    gridFit
		d    float64
		want bool
	}{
		{"the same grid", ref, 0.5, true},
		{"corners named from another corner", turned, 0.5, true},
		{"three lines across and one down, bound 4", moved(3, 1), 4, true},
		{"three lines across and one down, bound 1", moved(3, 1), 1, false},
		{"seven lines across, bound 4", moved(7, 0), 4, false},
	}
	for _, tc := range tests {
		if got := nearLattice(tc.g, ref, tc.d); got != tc.want {
			t.Errorf("%s: nearLattice = %v, want %v", tc.name, got, tc.want)
		}
	}
}
