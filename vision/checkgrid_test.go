package vision

import (
	"testing"

	"tengen/calib"
	"tengen/demo"
	"tengen/internal/rendertest"
)

// TestCheckGridKeepsASureGrid renders boards on which the finder's grid is right and sure
// (confidence 0.5 or more) but the grid moved a line outward shows as many lined points: the
// board's dark edge taken for the outer line (scenes of `render-boards -seed 123` that CheckGrid
// used to move a line off; the board size not given, as those scenes were judged). CheckGrid must
// leave such a grid alone, and FindBoard return it.
func TestCheckGridKeepsASureGrid(t *testing.T) {
	for _, tc := range []struct {
		name string
		seed uint64
		opt  demo.SampleOptions
	}{
		{"19x19, scene 198", 6836206228656557124, demo.SampleOptions{Size: 19, W: 1024, H: 768, HandChance: 0.3}},
		{"13x13, scene 53", 14297634853820497425, demo.SampleOptions{Size: 13, W: 960, H: 720, HandChance: 0.3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, img, err := rendertest.Frame(tc.seed, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer img.Close()
			found, err := calib.Find(img, calib.FindOptions{MinConfidence: LowMinConfidence})
			if err != nil {
				t.Fatal(err)
			}
			if found.Confidence < StillMinConfidence {
				t.Fatalf("the finder's grid has confidence %.2f: the scene no longer tests a sure grid", found.Confidence)
			}
			if e := rendertest.SpacingsOff(found, s.Corners, false); e > 0.5 {
				t.Fatalf("the finder's grid is %.2f spacings off: the scene no longer tests a right grid", e)
			}
			if c := CheckGrid(img, found, Params{}); c.Corners != found.Corners {
				t.Errorf("CheckGrid moved a sure grid: now %.2f spacings off", rendertest.SpacingsOff(c, s.Corners, false))
			}
			c, err := FindBoard(img, 0, Params{})
			if err != nil {
				t.Fatal(err)
			}
			if e := rendertest.SpacingsOff(c, s.Corners, false); e > 0.5 {
				t.Errorf("FindBoard's grid is %.2f spacings off", e)
			}
		})
	}
}
