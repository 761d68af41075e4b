package calib

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"gocv.io/x/gocv"
)

// TestFitStones: the black stones of a drawn crowded board place its true grid, and no grid that
// is off: by half a spacing (the stones between its points), by one line (the stones of the
// outer line beyond its edge), or of a smaller board inside it. Too few stones place nothing. An
// unreadable frame or calibration is an error, not a fit.
func TestFitStones(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	img, hm := drawCrowdedBoard(t, 1000, 750, rng.Perm(361)[:200])
	defer img.Close()
	sparse, _ := drawCrowdedBoard(t, 1000, 750, rng.Perm(361)[:20])
	defer sparse.Close()
	grid := func(size int, u0, v0, u1, v1 float64) Calibration {
		t.Helper()
		q := [4]Point2{applyH(hm, Point2{u0, v0}), applyH(hm, Point2{u1, v0}), applyH(hm, Point2{u1, v1}), applyH(hm, Point2{u0, v1})}
		c, err := FromCorners(1000, 750, size, q)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, tc := range []struct {
		name   string
		frame  gocv.Mat
		cal    Calibration
		places bool
		beyond string // which sides have stones on the line beyond them: "" none, "?" not asked
	}{
		{"the true grid", img, grid(19, 0, 0, 18, 18), true, ""},
		{"half a spacing off", img, grid(19, 0.5, 0.5, 18.5, 18.5), false, "?"},
		{"a line short on the right and bottom", img, grid(18, 0, 0, 17, 17), false, "right bottom"},
		{"a 13x13 inside the board", img, grid(13, 3, 3, 15, 15), false, "top right bottom left"},
		{"a board with 20 stones, 10 of them black", sparse, grid(19, 0, 0, 18, 18), false, "?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := FitStones(tc.frame, tc.cal)
			if err != nil {
				t.Fatal(err)
			}
			if f.Places() != tc.places {
				t.Errorf("Places() = %v, want %v (%v)", f.Places(), tc.places, f)
			}
			if f.Holds() != tc.places {
				t.Errorf("Holds() = %v, want %v (%v)", f.Holds(), tc.places, f)
			}
			var sides []string
			for i, n := range f.Beyond {
				if n > 0 {
					sides = append(sides, [4]string{"top", "right", "bottom", "left"}[i])
				}
			}
			if got := strings.Join(sides, " "); tc.beyond != "?" && got != tc.beyond {
				t.Errorf("stones beyond the edges %v: sides %q, want %q", f.Beyond, got, tc.beyond)
			}
		})
	}
	// The dark table along the board's edge is off the wood; the line beyond a short grid is on it.
	gray := gocv.NewMat()
	defer gray.Close()
	gocv.CvtColor(img, &gray, gocv.ColorBGRToGray)
	margin := [4]Point2{applyH(hm, Point2{-0.6, -0.6}), applyH(hm, Point2{18.6, -0.6}), applyH(hm, Point2{18.6, 18.6}), applyH(hm, Point2{-0.6, 18.6})}
	onWood, ok := woodAround(gray, margin)
	if !ok {
		t.Fatal("no board outline around the drawn board")
	}
	for _, tc := range []struct {
		u, v float64
		want bool
	}{{9, 9, true}, {18, 18, true}, {9, 19, false}, {-1, 9, false}, {19, 9, false}} {
		if got := onWood(applyH(hm, Point2{tc.u, tc.v})); got != tc.want {
			t.Errorf("point %v,%v of the drawn board on the wood: %v, want %v", tc.u, tc.v, got, tc.want)
		}
	}
	// Without the outline, the band beyond an edge is judged by its brightness: beyond the true
	// grid's edges it is the dark table, beyond a grid a line short it is the board's margin.
	work, sx, sy := shrinkToGray(img, defaultWorkSize)
	defer work.Close()
	for _, tc := range []struct {
		cal  Calibration
		want [4]bool
	}{
		{grid(19, 0, 0, 18, 18), [4]bool{}},
		{grid(18, 0, 0, 17, 17), [4]bool{false, true, true, false}},
		{grid(17, 1, 1, 17, 17), [4]bool{true, true, true, true}},
	} {
		if got := bandsOnWood(work, tc.cal, sx, sy); got != tc.want {
			t.Errorf("bands beyond a %dx%d grid's edges on the wood: %v, want %v", tc.cal.Size, tc.cal.Size, got, tc.want)
		}
	}
	if _, err := FitStones(gocv.NewMat(), grid(19, 0, 0, 18, 18)); err == nil {
		t.Error("an empty frame gave a fit")
	}
	bad := grid(19, 0, 0, 18, 18)
	bad.ImageWidth = 640
	if _, err := FitStones(img, bad); !errors.Is(err, ErrCorners) {
		t.Errorf("a calibration for another frame size: %v", err)
	}
}
