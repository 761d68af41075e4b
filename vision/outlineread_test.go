package vision

import (
	"image"
	"image/color"
	"testing"

	"gocv.io/x/gocv"

	"tengen/calib"
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

// TestOutlineReadRefusesABareBoard: on a board face with no lines and no stones the reader is
// sure of every point of the outline's grid, and of none inside its outer lines moved half a
// spacing, yet nothing but stones could pin a grid there: outlineRead must refuse it
// (outlineReader.pinned asks for outlineReadStones sure stones), and with no size given it does
// not search at all.
func TestOutlineReadRefusesABareBoard(t *testing.T) {
	img, q := bareBoard(t)
	defer img.Close()
	inset, err := calib.InsetGrid(q, 19, 0.8, img.Cols(), img.Rows())
	if err != nil {
		t.Fatal(err)
	}
	p, err := compiledOnce(Params{})
	if err != nil {
		t.Fatal(err)
	}
	r, ok := (&outlineReader{img: img, p: p, budget: 1}).sureness(inset)
	if !ok {
		t.Fatal("the inset grid cannot be read")
	}
	if float64(r.sure) < PhasedSure*361 {
		t.Fatalf("the reader is sure of only %d of the bare board's 361 points: the test no longer shows the pin test refusing", r.sure)
	}
	for _, size := range []int{19, 0} {
		if c, ok := outlineRead(img, [][4]calib.Point2{q}, size, Params{}); ok {
			t.Errorf("size %d: placed a %dx%d grid on a bare board at %v", size, c.Size, c.Size, c.Corners)
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
