package evalset

import (
	"math"
	"strings"
	"testing"

	"tengen/vision/observe"
)

func TestParseBoxes(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     int
		bad      bool
	}{
		{"two stones", "0 0.5 0.5 0.05 0.05\n1 0.1 0.2 0.05 0.05\n", 2, false},
		{"blank lines", "\n0 0.5 0.5 0.05 0.05\n\n", 1, false},
		{"short line", "0 0.5 0.5\n", 0, true},
		{"unknown class", "2 0.5 0.5 0.05 0.05\n", 0, true},
		{"outside the image", "0 1.5 0.5 0.05 0.05\n", 0, true},
		{"not a number", "0 x 0.5 0.05 0.05\n", 0, true},
		{"NaN", "0 NaN 0.5 0.05 0.05\n", 0, true},
	} {
		got, err := ParseBoxes(strings.NewReader(tc.in), tc.name)
		if (err != nil) != tc.bad || len(got) != tc.want {
			t.Errorf("%s: %d boxes, err %v", tc.name, len(got), err)
		}
	}
}

// TestBoxLabels checks boxes on, near and between intersections of a grid that maps pixels to
// grid units by dividing by 10, and the share of boxes on the grid.
func TestBoxLabels(t *testing.T) {
	grid := func(x, y float64) (float64, float64) { return x / 10, y / 10 }
	boxes := []Box{
		{Stone: observe.Black, X: 0.2, Y: 0.3},   // exactly on (2,3)
		{Stone: observe.White, X: 0.41, Y: 0.5},  // 0.1 off (4,5): on
		{Stone: observe.Black, X: 0.64, Y: 0.6},  // 0.4 off (6,6): its point unknown
		{Stone: observe.White, X: 0.15, Y: 0.75}, // between points: four neighbours unknown
	}
	lab, known, on := BoxLabels(boxes, 9, 100, 100, grid)
	if lab[3*9+2] != observe.Black || lab[5*9+4] != observe.White {
		t.Errorf("labels at (2,3) and (4,5): %v %v", lab[3*9+2], lab[5*9+4])
	}
	if known[6*9+6] || known[7*9+1] || known[7*9+2] || known[8*9+1] {
		t.Error("points near an off-lattice box are marked known")
	}
	if !known[0] || lab[0] != observe.Empty {
		t.Error("a point far from every box is not known empty")
	}
	if math.Abs(on-0.5) > 1e-9 {
		t.Errorf("on-grid share %.2f, want 0.5", on)
	}
	if s := BoxSpacing([]Box{{X: 0.5, Y: 0.5, W: 0.09, H: 0.09}}, 100, 100, grid); math.Abs(s-0.9) > 1e-9 {
		t.Errorf("box spacing %.2f, want 0.9", s)
	}
}

func FuzzParseBoxes(f *testing.F) {
	f.Add("0 0.5 0.5 0.05 0.05\n1 0.1 0.2 0.05 0.05\n")
	f.Add("1 1 1 1 1")
	f.Fuzz(func(t *testing.T, in string) {
		boxes, err := ParseBoxes(strings.NewReader(in), "fuzz")
		if err != nil {
			return
		}
		for _, b := range boxes {
			if !(b.X >= 0 && b.X <= 1 && b.Y >= 0 && b.Y <= 1) || (b.Stone != observe.Black && b.Stone != observe.White) {
				t.Fatalf("accepted box %+v", b)
			}
		}
	})
}
