package calib_test

import (
	"math"
	"testing"

	"tengen/calib"
	"tengen/demo"
	"tengen/internal/rendertest"
)

// TestFitLensOnRenders fits the lens term to rendered 19x19 boards given their drawn corners: on
// boards drawn through a barrel lens the fitted grid must lie on the drawn intersections at least
// twice as closely as the straight grid through the same corners, and on boards drawn through a
// pinhole lens the term must stay 0. The scenes are the first of their kind from seed 1 on.
func TestFitLensOnRenders(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short: renders boards")
	}
	const w, h, size = 1024, 768, 19
	bent, straight := 0, 0
	for seed := uint64(1); seed < 400 && (bent < 3 || straight < 2); seed++ {
		look := demo.RandomLook(seed)
		kind := ""
		switch {
		case look.Barrel >= 0.06 && bent < 3:
			kind, bent = "bent", bent+1
		case look.Barrel == 0 && straight < 2:
			kind, straight = "straight", straight+1
		default:
			continue
		}
		s, frame, err := rendertest.Frame(seed, demo.SampleOptions{Size: size, W: w, H: h})
		if err != nil {
			t.Fatal(err)
		}
		var cs [4]calib.Point2
		for i, c := range s.Corners {
			cs[i] = calib.Point2{X: c[0], Y: c[1]}
		}
		cal, err := calib.FromCorners(w, h, size, cs)
		if err != nil {
			frame.Close()
			t.Fatal(err)
		}
		fitted, err := calib.FitLens(frame, cal)
		frame.Close()
		if err != nil {
			t.Fatal(err)
		}
		r, err := demo.NewLookRenderer(s.Look, size)
		if err != nil {
			t.Fatal(err)
		}
		worst := func(c calib.Calibration) float64 {
			most := 0.0
			for row := range size {
				for col := range size {
					x, y := r.Intersection(w, h, col, row)
					p := c.IntersectionPixel(col, row)
					most = max(most, math.Hypot(p.X-x, p.Y-y))
				}
			}
			return most / cal.Spacing()
		}
		before, after := worst(cal), worst(fitted)
		t.Logf("seed %d (%s, drawn lens %.3f): fitted %.3f; worst point %.3f spacing off, straight %.3f", seed, kind, look.Barrel, fitted.Lens, after, before)
		if kind == "bent" && after > before/2 {
			t.Errorf("seed %d: a lens of %.3f fitted as %.3f leaves a point %.3f spacing off (straight: %.3f)", seed, look.Barrel, fitted.Lens, after, before)
		}
		if kind == "straight" && fitted.Lens != 0 {
			t.Errorf("seed %d: a pinhole picture fitted a lens term of %.3f", seed, fitted.Lens)
		}
	}
}
