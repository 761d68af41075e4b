package calib

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"testing"

	"gocv.io/x/gocv"
)

// TestDebugOverlay draws found grids for images named in CALIB_DEBUG (developer aid).
func TestDebugOverlay(t *testing.T) {
	f := os.Getenv("CALIB_DEBUG")
	if f == "" {
		t.Skip("set CALIB_DEBUG=image path")
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
	gocv.IMWrite(fmt.Sprintf("/tmp/cal/overlay.png"), img)
}
