package calib

import (
	"image"
	"image/color"
	"math"
	"testing"

	"gocv.io/x/gocv"
)

// TestBoardOutlines draws a light board face, tilted, on a darker table with a bowl beside it,
// and no lines at all: its outline must come back within two pixels of each drawn corner, and
// nothing else (the bowl is too small to be a board).
func TestBoardOutlines(t *testing.T) {
	cases := []struct {
		name         string
		table, board uint8
		quad         [4]image.Point
	}{
		{"light board on a dark table", 60, 190, [4]image.Point{{220, 90}, {760, 130}, {720, 640}, {170, 600}}},
		{"dark board on a light table", 200, 90, [4]image.Point{{300, 200}, {700, 180}, {740, 560}, {280, 600}}},
		{"small board", 80, 170, [4]image.Point{{420, 300}, {580, 310}, {570, 460}, {410, 450}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(tc.table), 0, 0, 0), 720, 960, gocv.MatTypeCV8UC1)
			defer m.Close()
			pv := gocv.NewPointsVectorFromPoints([][]image.Point{tc.quad[:]})
			defer pv.Close()
			gocv.FillPoly(&m, pv, color.RGBA{tc.board, tc.board, tc.board, 0})
			gocv.Circle(&m, image.Pt(90, 650), 50, color.RGBA{tc.board, tc.board, tc.board, 0}, -1)
			g, err := grayFromMat(m)
			if err != nil {
				t.Fatal(err)
			}
			quads := boardOutlines(&g)
			if len(quads) != 1 {
				t.Fatalf("found %d outlines, want 1: %v", len(quads), quads)
			}
			for i, p := range quads[0] {
				if d := math.Hypot(p.X-float64(tc.quad[i].X), p.Y-float64(tc.quad[i].Y)); d > 2 {
					t.Errorf("corner %d at %v, drawn at %v (%.1f px off)", i, p, tc.quad[i], d)
				}
			}
		})
	}
}

// TestConvexHull checks the hull of a square's corners with points inside and on its edges.
func TestConvexHull(t *testing.T) {
	pts := []image.Point{{5, 5}, {0, 0}, {10, 0}, {3, 7}, {10, 10}, {5, 0}, {0, 10}, {2, 2}}
	h := convexHull(pts)
	if len(h) != 4 {
		t.Fatalf("hull %v, want the 4 corners", h)
	}
	if a := polygonArea(h); a != 100 {
		t.Errorf("hull area %v, want 100", a)
	}
}

// TestOutlineStoneGrid places grids by stones drawn on known intersections of a 19x19 grid with a
// margin of 0.7 spacing inside a square outline (spacing 20 px): spread over the board they place
// it within a twentieth of a spacing; a few, bunched in one corner, or off their points, they do
// not; and stones on a 13x13 grid in the same outline place a 13x13.
func TestOutlineStoneGrid(t *testing.T) {
	const sp, margin = 20.0, 0.7
	side := (18 + 2*margin) * sp
	q := [4]Point2{{0, 0}, {side, 0}, {side, side}, {0, side}}
	stonesAt := func(size int, step float64, pts [][2]int, jitter float64) []stoneBlob {
		m := (side - float64(size-1)*step) / 2
		var out []stoneBlob
		for i, p := range pts {
			dx := jitter * float64(i%3-1)
			out = append(out, stoneBlob{x: m + float64(p[0])*step + dx*step, y: m + float64(p[1])*step, r: 0.47 * step})
		}
		return out
	}
	var spread, corner, on13 [][2]int
	for i := 0; i < 30; i++ {
		spread = append(spread, [2]int{(i * 7) % 19, (i * 11) % 19})
		corner = append(corner, [2]int{i % 6, i / 6})
		on13 = append(on13, [2]int{(i * 5) % 13, (i * 7) % 13})
	}
	tests := []struct {
		name  string
		blobs []stoneBlob
		want  int // the size placed, 0 for none
	}{
		{"spread over the board", stonesAt(19, sp, spread, 0), 19},
		{"too few", stonesAt(19, sp, spread[:12], 0), 0},
		{"bunched in a corner", stonesAt(19, sp, corner, 0), 0},
		{"two in three 0.4 spacing off their points", stonesAt(19, sp, spread, 0.4), 0},
		{"a 13x13 board", stonesAt(13, side/(12+2*margin), on13, 0), 13},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, ok := outlineStoneGrid(q, []int{9, 13, 19}, tc.blobs, int(side), int(side))
			if !ok {
				if tc.want != 0 {
					t.Fatalf("no grid, want a %dx%d", tc.want, tc.want)
				}
				return
			}
			if tc.want == 0 {
				t.Fatalf("placed a %dx%d, want none", g.cols, g.rows)
			}
			if g.cols != tc.want || g.rows != tc.want {
				t.Fatalf("placed a %dx%d, want %dx%d", g.cols, g.rows, tc.want, tc.want)
			}
			step := side / (float64(tc.want-1) + 2*margin)
			m := margin * step
			want := [4]Point2{{m, m}, {side - m, m}, {side - m, side - m}, {m, side - m}}
			for i := range want {
				if d := math.Hypot(g.corners[i].X-want[i].X, g.corners[i].Y-want[i].Y) / step; d > 0.05 {
					t.Errorf("corner %d at %v, %.3f spacing from %v", i, g.corners[i], d, want[i])
				}
			}
			if g.conf != DefaultMinConfidence {
				t.Errorf("confidence %.2f, want %.2f", g.conf, DefaultMinConfidence)
			}
		})
	}
}

// TestOutlineStoneGridOnATiltedBoard places a 19x19 grid by its black stones on a board seen at 45
// degrees (pinholeView), each stone's middle drawn where the camera sees a point 0.18 spacing above
// its intersection, inside the board's outline (its edge 0.7 spacing beyond the outer lines): the
// grid must come out within a tenth of a spacing of the drawn one at every corner. Read flat, on
// the board's own plane (stoneLift 0), those stones sit a mean 0.19 spacing off the drawn grid's
// points, and the grid they place is 0.14 spacing off at a corner.
func TestOutlineStoneGridOnATiltedBoard(t *testing.T) {
	v := newPinholeView(1000, 750, 45, 40)
	const margin, height = 0.7, 0.18
	var q, want [4]Point2
	for i, g := range [4][2]float64{{0, 0}, {18, 0}, {18, 18}, {0, 18}} {
		want[i] = v.project([3]float64{g[0], g[1], 0})
		out := [2]float64{(g[0]/9 - 1) * margin, (g[1]/9 - 1) * margin}
		q[i] = v.project([3]float64{g[0] + out[0], g[1] + out[1], 0})
	}
	var blobs []stoneBlob
	for i := 0; i < 60; i++ {
		p := [2]float64{float64((i * 7) % 19), float64((i * 11) % 19)}
		c := v.project([3]float64{p[0], p[1], height})
		r := math.Abs(v.project([3]float64{p[0] + 0.47, p[1], height}).X - c.X)
		blobs = append(blobs, stoneBlob{x: c.X, y: c.Y, r: r})
	}
	g, ok := outlineStoneGrid(q, []int{9, 13, 19}, blobs, v.w, v.h)
	if !ok {
		t.Fatal("no grid placed")
	}
	if g.cols != 19 || g.rows != 19 {
		t.Fatalf("placed a %dx%d, want a 19x19", g.cols, g.rows)
	}
	hw, ok := gridH(19, 19, want)
	if !ok {
		t.Fatal("no grid homography")
	}
	inv, ok := invert3(hw)
	if !ok {
		t.Fatal("no inverse")
	}
	for i := range want {
		got := applyH(inv, g.corners[i])
		at := applyH(inv, want[i])
		if d := math.Hypot(got.X-at.X, got.Y-at.Y); d > 0.1 {
			t.Errorf("corner %d %.3f spacing from the drawn one", i, d)
		}
	}
}

// TestOutlineMargins draws a board face on a table and lays grids over it: the grid printed in
// the face's middle is framed evenly (each margin what was drawn), and a grid a line off, one
// of the wrong size, or one on a table with no board face is not.
func TestOutlineMargins(t *testing.T) {
	face := [4]Point2{{300, 150}, {980, 180}, {950, 700}, {280, 660}}
	h, ok := gridH(2, 2, face)
	if !ok {
		t.Fatal("no homography for the face")
	}
	// grid places a size x size grid in the face with margins top/bottom mv and left/right mh
	// (in spacings), shifted by (dc, dr) lines.
	grid := func(size int, mh, mv, dc, dr float64) [4]Point2 {
		ux, uy := 1/(float64(size-1)+2*mh), 1/(float64(size-1)+2*mv)
		at := func(c, r float64) Point2 { return applyH(h, Point2{(mh + c + dc) * ux, (mv + r + dr) * uy}) }
		n := float64(size - 1)
		return [4]Point2{at(0, 0), at(n, 0), at(n, n), at(0, n)}
	}
	whole, err := FromCorners(1280, 800, 19, grid(19, 0.6, 0.6, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	// The middle 13 lines of the 19x19 face's grid.
	middle := [4]Point2{whole.GridPixel(3, 3), whole.GridPixel(15, 3), whole.GridPixel(15, 15), whole.GridPixel(3, 15)}
	cases := []struct {
		name    string
		noFace  bool
		size    int
		corners [4]Point2
		want    bool
		margins Margins // checked when want
	}{
		{"the face's own grid", false, 19, grid(19, 0.6, 0.6, 0, 0), true, Margins{0.6, 0.6, 0.6, 0.6}},
		{"wider margins left and right", false, 19, grid(19, 1.1, 0.5, 0, 0), true, Margins{0.5, 0.5, 1.1, 1.1}},
		{"a 13x13 face", false, 13, grid(13, 0.8, 0.8, 0, 0), true, Margins{0.8, 0.8, 0.8, 0.8}},
		{"a line down", false, 19, grid(19, 0.6, 0.6, 0, 1), false, Margins{}},
		{"a line right", false, 19, grid(19, 0.6, 0.6, 1, 0), false, Margins{}},
		{"half a line both ways", false, 19, grid(19, 0.6, 0.6, 0.5, 0.5), false, Margins{}},
		{"half a line down in a wide face", false, 19, grid(19, 1, 1, 0, 0.5), false, Margins{}},
		{"13x13 in a 19x19 face", false, 13, middle, false, Margins{}},
		{"no board face", true, 19, grid(19, 0.6, 0.6, 0, 0), false, Margins{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(70, 0, 0, 0), 800, 1280, gocv.MatTypeCV8UC1)
			defer m.Close()
			if !tc.noFace {
				var pts []image.Point
				for _, p := range face {
					pts = append(pts, image.Pt(int(p.X), int(p.Y)))
				}
				pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
				defer pv.Close()
				gocv.FillPoly(&m, pv, color.RGBA{180, 180, 180, 0})
			}
			c, err := FromCorners(1280, 800, tc.size, tc.corners)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := FramedByOutline(m, c)
			if ok != tc.want {
				all, _ := OutlineMargins(m, c)
				t.Fatalf("framed %v, want %v (outlines' margins %v)", ok, tc.want, all)
			}
			for i := range got {
				if tc.want && math.Abs(got[i]-tc.margins[i]) > 0.1 {
					t.Errorf("margins %.2f, drawn %.2f", got, tc.margins)
				}
			}
		})
	}
}

// TestMarginsBalanced gives margins of grids at a board's own lines, a line or two off them and
// at a wrong spacing: the move that balances them is the lines they are off by, and none is found
// where no whole-line move makes them a board's.
func TestMarginsBalanced(t *testing.T) {
	cases := []struct {
		name       string
		m          Margins
		cols, rows int
		ok         bool
	}{
		{"even", Margins{0.6, 0.6, 0.7, 0.7}, 0, 0, true},
		{"a little uneven", Margins{0.45, 0.85, 0.7, 0.5}, 0, 0, true},
		{"a line up", Margins{-0.4, 1.6, 0.6, 0.6}, 0, 1, true},
		{"a line right", Margins{0.6, 0.6, 1.7, -0.3}, -1, 0, true},
		{"two lines down and a line left", Margins{2.6, -1.4, -0.4, 1.6}, 1, -2, true},
		{"three lines down", Margins{3.6, -2.4, 0.6, 0.6}, 0, 0, false},
		{"half a line down", Margins{1.1, 0.1, 0.6, 0.6}, 0, 0, false},
		{"too uneven", Margins{0.3, 1.0, 0.6, 0.6}, 0, 0, false},
		{"a spacing too wide (a grid over 17 of the board's lines)", Margins{1.8, 1.8, 1.8, 1.8}, 0, 0, false},
		{"a spacing too narrow (over 21 lines)", Margins{-0.2, -0.2, 0.6, 0.6}, 0, 0, false},
		{"no outline around it", Margins{math.NaN(), 0.6, 0.6, 0.6}, 0, 0, false},
	}
	for _, tc := range cases {
		cols, rows, ok := tc.m.Balanced(0.6)
		if ok != tc.ok || (ok && (cols != tc.cols || rows != tc.rows)) {
			t.Errorf("%s %v: moved (%d, %d) %v, want (%d, %d) %v", tc.name, tc.m, cols, rows, ok, tc.cols, tc.rows, tc.ok)
		}
	}
}

// TestColourOutlines draws an orange board on a grey table of the same brightness: the grey
// picture shows no edge between them, so boardOutlines finds no outline, and colourOutlines
// must find the board within two pixels of each drawn corner. A grey frame has no colour
// outline at all.
func TestColourOutlines(t *testing.T) {
	quad := [4]image.Point{{300, 160}, {900, 200}, {860, 660}, {260, 620}}
	// Grey 0.299 R + 0.587 G + 0.114 B: the board (R 220, G 120, B 40) and the table 141.
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(141, 141, 141, 0), 720, 1200, gocv.MatTypeCV8UC3)
	defer img.Close()
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{quad[:]})
	defer pv.Close()
	gocv.FillPoly(&img, pv, color.RGBA{220, 120, 40, 0})
	grey, _, _ := greyOutlines(img, defaultWorkSize)
	if len(grey) != 0 {
		t.Fatalf("the grey picture has outlines %v: the board no longer tests colour alone", grey)
	}
	quads := colourOutlines(img, defaultWorkSize)
	if len(quads) != 1 {
		t.Fatalf("found %d colour outlines, want 1: %v", len(quads), quads)
	}
	f := float64(defaultWorkSize) / 1200 // work pixels per frame pixel
	for i, p := range quads[0] {
		want := Point2{float64(quad[i].X) * f, float64(quad[i].Y) * f}
		if d := math.Hypot(p.X-want.X, p.Y-want.Y); d > 2 {
			t.Errorf("corner %d at %v, drawn at %v (%.1f work pixels off)", i, p, want, d)
		}
	}
	flat := gocv.NewMat()
	defer flat.Close()
	gocv.CvtColor(img, &flat, gocv.ColorBGRToGray)
	if got := colourOutlines(flat, defaultWorkSize); len(got) != 0 {
		t.Errorf("a grey frame has colour outlines %v", got)
	}
}

// TestOutlineBesideABowl draws the edges of a board face with something touching it: a bowl of
// stones whose rim crosses its left side, a sleeve reaching over its bottom edge from the
// frame's, or both. The object joins the face's contour, whose convex hull reaches around both
// and is no quadrilateral of the face; the face's four straight sides must still give the outline
// the face alone gives (edgeOutlines), each corner within two pixels.
func TestOutlineBesideABowl(t *testing.T) {
	face := []image.Point{{300, 160}, {780, 190}, {760, 640}, {280, 610}}
	white := color.RGBA{255, 255, 255, 0}
	draw := func(objects ...func(*gocv.Mat)) [][4]Point2 {
		edges := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), 900, 1000, gocv.MatTypeCV8UC1)
		defer edges.Close()
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{face})
		defer pv.Close()
		gocv.Polylines(&edges, pv, true, white, 2)
		for _, o := range objects {
			o(&edges)
		}
		return edgeOutlines(edges)
	}
	alone := draw()
	if len(alone) != 1 {
		t.Fatalf("the face alone gives %d outlines, want 1: %v", len(alone), alone)
	}
	bowl := func(m *gocv.Mat) { gocv.Circle(m, image.Pt(210, 380), 110, white, 2) }
	sleeve := func(m *gocv.Mat) {
		pv := gocv.NewPointsVectorFromPoints([][]image.Point{{{520, 899}, {500, 540}, {600, 560}, {640, 899}}})
		defer pv.Close()
		gocv.Polylines(m, pv, false, white, 2)
	}
	for _, tc := range []struct {
		name    string
		objects []func(*gocv.Mat)
	}{
		{"a bowl", []func(*gocv.Mat){bowl}},
		{"a sleeve", []func(*gocv.Mat){sleeve}},
		{"a bowl and a sleeve", []func(*gocv.Mat){bowl, sleeve}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			quads := draw(tc.objects...)
			for _, q := range quads {
				if nearQuad(q, alone[0], 2) {
					return
				}
			}
			t.Errorf("no outline within two pixels of the face's own %v: %v", alone[0], quads)
		})
	}
}
