package vision

import (
	"os"
	"testing"

	"tengen/calib"
)

// TestDebugCheckGrid prints, for the photo named in VISION_DEBUG_CHECK, the finder's grid and the
// grid check's reading of it and of the grids a line off (a developer aid; skipped otherwise).
func TestDebugCheckGrid(t *testing.T) {
	path := os.Getenv("VISION_DEBUG_CHECK")
	if path == "" {
		t.Skip("developer aid: set VISION_DEBUG_CHECK=IMAGE")
	}
	img := loadPhoto(t, path)
	defer img.Close()
	c, err := calib.Find(img, calib.FindOptions{Size: 19, MinConfidence: LowMinConfidence})
	if err != nil {
		t.Fatal(err)
	}
	n := float64(c.Size - 1)
	for _, d := range [5][2]float64{{0, 0}, {0, -1}, {0, 1}, {-1, 0}, {1, 0}} {
		q := [4]calib.Point2{c.GridPixel(d[0], d[1]), c.GridPixel(n+d[0], d[1]), c.GridPixel(n+d[0], n+d[1]), c.GridPixel(d[0], n+d[1])}
		m, err := calib.FromCorners(c.ImageWidth, c.ImageHeight, c.Size, q)
		if err != nil {
			t.Logf("shift %v: %v", d, err)
			continue
		}
		lined, empty := gridScoreEmpty(img, m, Params{})
		t.Logf("shift %v: lined %d empty %d corners %.0f", d, lined, empty, m.Corners)
	}
	t.Logf("finder confidence %.2f", c.Confidence)
}
