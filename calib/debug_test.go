package calib

import (
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

// TestDebugOverlay traces the finder on the image named in CALIB_DEBUG and draws the found grid
// over it (a developer aid; skipped otherwise).
func TestDebugOverlay(t *testing.T) {
	f := os.Getenv("CALIB_DEBUG")
	if f == "" {
		t.Skip("developer aid, not a check: set CALIB_DEBUG=IMAGE to draw the found grid (short of that it has nothing to do)")
	}
	img := loadRaw(t, f)
	defer img.Close()
	w, err := prepare(img, defaultWorkSize)
	if err != nil {
		t.Fatal(err)
	}
	w.trace = t.Logf
	fit, err := findGrid(nil, w, defaultSizes[:])
	if err != nil {
		t.Fatal(err)
	}
	c, err := w.calibration(img.Cols(), img.Rows(), fit)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("size %d corners %v conf %.2f", c.Size, c.Corners, c.Confidence)
	for i := 0; i < c.Size; i++ {
		a, b := c.IntersectionPixel(i, 0), c.IntersectionPixel(i, c.Size-1)
		gocv.Line(&img, image.Pt(int(a.X), int(a.Y)), image.Pt(int(b.X), int(b.Y)), color.RGBA{255, 0, 0, 0}, 1)
		a, b = c.IntersectionPixel(0, i), c.IntersectionPixel(c.Size-1, i)
		gocv.Line(&img, image.Pt(int(a.X), int(a.Y)), image.Pt(int(b.X), int(b.Y)), color.RGBA{255, 0, 0, 0}, 1)
	}
	out := filepath.Join(os.TempDir(), "calib-overlay.png")
	gocv.IMWrite(out, img)
	t.Logf("overlay written to %s", out)
}
