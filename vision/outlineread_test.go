package vision

import (
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/demo"
	"tengen/internal/rendertest"
)

// bareBoard is an 800x600 frame of a dark table with a plain board face on it (no lines, no
// stones), and the face's outline.
func bareBoard(t *testing.T) (gocv.Mat, [4]calib.Point2) {
	t.Helper()
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(25, 35, 45, 0), 600, 800, gocv.MatTypeCV8UC3)
	q := [4]calib.Point2{{X: 200, Y: 100}, {X: 620, Y: 110}, {X: 640, Y: 520}, {X: 180, Y: 510}}
	pts := make([]image.Point, len(q))
	for i, p := range q {
		pts[i] = image.Pt(int(p.X), int(p.Y))
	}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{pts})
	defer pv.Close()
	gocv.FillPoly(&img, pv, color.RGBA{R: 215, G: 170, B: 100, A: 255})
	return img, q
}

// bareBoardInset is bareBoard, the 19x19 grid inset 0.8 spacing in its outline, and an
// outlineReader of the frame allowed budget reads.
func bareBoardInset(t *testing.T, budget int) (gocv.Mat, [4]calib.Point2, calib.Calibration, *outlineReader) {
	t.Helper()
	img, q := bareBoard(t)
	inset, err := calib.InsetGrid(q, 19, 0.8, img.Cols(), img.Rows())
	if err != nil {
		img.Close()
		t.Fatal(err)
	}
	p, err := compiledOnce(Params{})
	if err != nil {
		img.Close()
		t.Fatal(err)
	}
	return img, q, inset, &outlineReader{img: img, p: p, budget: budget}
}

// TestOutlineReadRefusesABareBoard: on a board face with no lines and no stones nothing but
// stones could pin a grid, so outlineRead must refuse it, and with no size given it does not
// search at all. Whether the reader is sure of the bare face's points depends on what it was
// trained on (the reader of 2026-11-30 was sure of all 361, so only the stones bar refused it; the
// one trained on crowded boards too is sure of 173): TestPinnedWantsStones holds that bar alone.
func TestOutlineReadRefusesABareBoard(t *testing.T) {
	img, q, inset, o := bareBoardInset(t, 1)
	defer img.Close()
	r, ok := o.sureness(inset)
	if !ok {
		t.Fatal("the inset grid cannot be read")
	}
	t.Logf("the reader is sure of %d of the bare board's 361 points, %d of them stones", r.sure, r.stones)
	for _, size := range []int{19, 0} {
		if c, ok := outlineRead(img, [][4]calib.Point2{q}, size, Params{}); ok {
			t.Errorf("size %d: placed a %dx%d grid on a bare board at %v", size, c.Size, c.Size, c.Corners)
		}
	}
}

// TestPinnedWantsStones: a reading sure of every point pins nothing without outlineReadStones
// sure stones among them, whatever the moved grids would show (a bare face, a blank card).
func TestPinnedWantsStones(t *testing.T) {
	img, _, inset, o := bareBoardInset(t, 8)
	defer img.Close()
	for _, stones := range []int{0, outlineReadStones - 1} {
		if o.pinned(inset, readSureness{sure: 361, sureInner: 289, stones: stones}) {
			t.Errorf("a reading sure of every point with %d stones pinned the grid", stones)
		}
	}
}

// TestInsetGrid: the grid inside an outline sits at the margin asked for, the same on every side.
func TestInsetGrid(t *testing.T) {
	q := [4]calib.Point2{{X: 100, Y: 100}, {X: 500, Y: 100}, {X: 500, Y: 500}, {X: 100, Y: 500}}
	tests := []struct {
		size   int
		margin float64
	}{{19, 0.5}, {19, 1.2}, {13, 0.8}, {9, 0.3}}
	for _, tc := range tests {
		c, err := calib.InsetGrid(q, tc.size, tc.margin, 640, 640)
		if err != nil {
			t.Fatalf("%d at %.1f: %v", tc.size, tc.margin, err)
		}
		m, ok := c.MarginsTo(q)
		if !ok {
			t.Fatalf("%d at %.1f: no margins", tc.size, tc.margin)
		}
		for side, v := range m {
			if v < tc.margin-1e-6 || v > tc.margin+1e-6 {
				t.Errorf("%d at %.1f: margin %d is %.4f", tc.size, tc.margin, side, v)
			}
		}
	}
}

// TestAimedReaderReadsAsANewOne: a Reader aimed at another grid (Reader.aim, as outlineRead
// reads one frame on hundreds of grids) reads exactly as a Reader made for that grid: its
// buffers carry nothing from the grid before, whether the grids lie inside the picture, run out
// of it, or bend with a lens.
func TestAimedReaderReadsAsANewOne(t *testing.T) {
	s, frame, err := rendertest.Frame(11, demo.SampleOptions{Size: 19, W: 800, H: 600})
	if err != nil {
		t.Fatal(err)
	}
	defer frame.Close()
	drawn, err := rendertest.DrawnGrid(s)
	if err != nil {
		t.Fatal(err)
	}
	q := drawn.Corners
	grid := func(shift calib.Point2, scale, lens float64) calib.Calibration {
		t.Helper()
		var m [4]calib.Point2
		cx, cy := (q[0].X+q[2].X)/2, (q[0].Y+q[2].Y)/2
		for i, p := range q {
			m[i] = calib.Point2{X: cx + (p.X-cx)*scale + shift.X, Y: cy + (p.Y-cy)*scale + shift.Y}
		}
		c, err := calib.FromCorners(800, 600, 19, m)
		if err != nil {
			t.Fatal(err)
		}
		c.Lens = lens
		return c
	}
	grids := []struct {
		name    string
		cal     calib.Calibration
		outside bool // the canonical picture runs out of the frame
	}{
		{"drawn, smaller", grid(calib.Point2{}, 0.8, 0), false},
		{"a third of a spacing off", grid(calib.Point2{X: 5, Y: -4}, 0.8, 0), false},
		{"running out of the picture", grid(calib.Point2{}, 1.15, 0), true},
		{"with a lens", grid(calib.Point2{X: 3}, 0.8, 2e-7), true},
		{"drawn, smaller, again", grid(calib.Point2{}, 0.8, 0), false},
	}
	aimed, err := NewReader(grids[len(grids)-1].cal, Params{})
	if err != nil {
		t.Fatal(err)
	}
	defer aimed.Close()
	for _, g := range grids {
		fresh, err := NewReader(g.cal, Params{})
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		want, err := fresh.Read(frame)
		fresh.Close()
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		if err := aimed.aim(g.cal); err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		if out := aimed.samp.outside.partial; out != g.outside {
			t.Fatalf("%s: pixels marked outside the frame: %v, want %v", g.name, out, g.outside)
		}
		got, err := aimed.Read(frame)
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		for i := range want.Stones {
			if got.Stones[i] != want.Stones[i] || got.Confidence[i] != want.Confidence[i] || got.Probs[i] != want.Probs[i] {
				t.Fatalf("%s: point %d read %v %.6f %v aimed, %v %.6f %v new", g.name, i,
					got.Stones[i], got.Confidence[i], got.Probs[i], want.Stones[i], want.Confidence[i], want.Probs[i])
			}
		}
	}
	other, err := calib.FromCorners(800, 600, 13, q)
	if err != nil {
		t.Fatal(err)
	}
	if err := aimed.aim(other); err == nil {
		t.Error("a 19x19 reader was aimed at a 13x13 grid")
	}
}

// TestOutlineReaderReadsAGridOnce: a grid the search asks about again is answered from what it
// read, without reading the frame again or spending its budget.
func TestOutlineReaderReadsAGridOnce(t *testing.T) {
	img, q := bareBoard(t)
	defer img.Close()
	p, err := compiledOnce(Params{})
	if err != nil {
		t.Fatal(err)
	}
	o := &outlineReader{img: img, p: p, budget: 1}
	defer o.Close()
	a, err := calib.InsetGrid(q, 19, 0.8, img.Cols(), img.Rows())
	if err != nil {
		t.Fatal(err)
	}
	b, err := calib.InsetGrid(q, 19, 0.9, img.Cols(), img.Rows())
	if err != nil {
		t.Fatal(err)
	}
	first, ok := o.sureness(a)
	if !ok {
		t.Fatal("the grid cannot be read")
	}
	again, ok := o.sureness(a)
	if !ok || again != first || o.reads != 1 {
		t.Errorf("asked again: %+v %v after %d reads, want %+v from the first read", again, ok, o.reads, first)
	}
	if _, ok := o.sureness(b); ok {
		t.Error("a new grid was read past the budget")
	}
}
