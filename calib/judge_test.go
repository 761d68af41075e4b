package calib

import "testing"

// TestJustBeyond: the Roboflow judge's test of a stone on the line just beyond one of a grid's
// edges (a grid that leaves out a line of the board has a row of stones there).
func TestJustBeyond(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    Point2
		want int
	}{
		{"inside", Point2{5, 5}, -1},
		{"on the top edge line", Point2{5, 0}, -1},
		{"beyond the top", Point2{5, -1}, 0},
		{"beyond the right", Point2{19, 7}, 1},
		{"beyond the bottom", Point2{3, 18.8}, 2},
		{"beyond the left", Point2{-1.2, 9}, 3},
		{"two lines beyond the top", Point2{5, -2}, -1},
		{"beyond a corner", Point2{-1, -1}, -1},
	} {
		if got := justBeyond(tc.g, 19); got != tc.want {
			t.Errorf("%s (%v): got side %d, want %d", tc.name, tc.g, got, tc.want)
		}
	}
}
