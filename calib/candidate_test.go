package calib

import "testing"

// TestEdgeRowOfBlobs: a row of dark blobs on every point of a grid's edge line but two is the
// dark table along the board, not stones; a game's stones along an edge are fewer.
func TestEdgeRowOfBlobs(t *testing.T) {
	g := gridFit{cols: 19, rows: 19, corners: [4]Point2{{100, 100}, {460, 100}, {460, 460}, {100, 460}}}
	row := func(y float64, n int) []stoneBlob {
		var bs []stoneBlob
		for i := 0; i < n; i++ {
			bs = append(bs, stoneBlob{x: 100 + 20*float64(i) + 3, y: y, r: 9})
		}
		return bs
	}
	for _, tc := range []struct {
		name  string
		blobs []stoneBlob
		want  bool
	}{
		{"no blobs", nil, false},
		{"the bottom line full", row(460, 19), true},
		{"the top line all but two", row(101, 17), true},
		{"twelve stones on the top line", row(100, 12), false},
		{"a full row inside the grid", row(300, 19), false},
		{"a full row beyond the bottom edge", row(480, 19), false},
	} {
		if got := edgeRowOfBlobs(g, tc.blobs, 1000, 1000); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCalibrationInView: a grid is in view up to half a cell in from each corner intersection,
// as the finder judges its own grids.
func TestCalibrationInView(t *testing.T) {
	for _, tc := range []struct {
		name    string
		corners [4]Point2
		want    bool
	}{
		{"well inside", [4]Point2{{50, 50}, {590, 50}, {590, 430}, {50, 430}}, true},
		{"corners on the picture's edge", [4]Point2{{0, 0}, {639, 0}, {639, 479}, {0, 479}}, true},
		{"the bottom row a cell below the picture", [4]Point2{{50, 50}, {590, 50}, {590, 500}, {50, 500}}, false},
		{"the left column off the picture", [4]Point2{{-30, 50}, {590, 50}, {590, 430}, {-30, 430}}, false},
	} {
		c, err := FromCorners(640, 480, 19, tc.corners)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := c.InView(); got != tc.want {
			t.Errorf("%s: InView %v, want %v", tc.name, got, tc.want)
		}
	}
}
