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
