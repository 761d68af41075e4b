package calib

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"
)

// TestDebugOverlay traces the finder on the image named in CALIB_DEBUG (CALIB_DEBUG_SIZE: one
// board size; CALIB_DEBUG_WIDE, CALIB_DEBUG_LIGHT: the wide line filter, light lines) and draws the found grid
// over it (a developer aid; skipped otherwise).
func TestDebugOverlay(t *testing.T) {
	f := os.Getenv("CALIB_DEBUG")
	if f == "" {
		t.Skip("developer aid, not a check: set CALIB_DEBUG=IMAGE to draw the found grid (short of that it has nothing to do)")
	}
	img := loadRaw(t, f)
	defer img.Close()
	w, err := prepareWith(img, defaultWorkSize, true, os.Getenv("CALIB_DEBUG_LIGHT") != "", os.Getenv("CALIB_DEBUG_WIDE") != "")
	if err != nil {
		t.Fatal(err)
	}
	w.trace = t.Logf
	lm := gocv.NewMatWithSize(w.lines.h, w.lines.w, gocv.MatTypeCV8UC1)
	for i, v := range w.lines.pix {
		lm.SetUCharAt(i/w.lines.w, i%w.lines.w, uint8(min(255, 8*v)))
	}
	gocv.IMWrite(filepath.Join(os.TempDir(), "calib-lines.png"), lm)
	lm.Close()
	sizes := defaultSizes[:]
	if s := os.Getenv("CALIB_DEBUG_SIZE"); s != "" {
		var n int
		if _, err := fmt.Sscan(s, &n); err != nil {
			t.Fatalf("CALIB_DEBUG_SIZE=%q: %v", s, err)
		}
		sizes = []int{n}
	}
	fit, err := findGrid(nil, w, sizes)
	if err != nil {
		t.Fatal(err)
	}
	c, err := w.calibration(img.Cols(), img.Rows(), fit)
	if err != nil {
		t.Fatal(err)
	}
	{
		h, _ := gridH(fit.cols, fit.rows, fit.corners)
		r := evidenceReader{lines: &w.lines, h: h, cap: lineCap(&w.lines), along: fineAlong}
		var sb []string
		for v := 0.0; v <= float64(fit.rows-1); v += 0.25 {
			sb = append(sb, fmt.Sprintf("%.0f", r.rowLine(v, fit.cols)))
		}
		t.Logf("cap %.1f rowLine by quarter: %v", r.cap, sb)
	}
	t.Logf("size %d corners %v conf %.2f on %.2f off %.2f out %.2f", c.Size, c.Corners, c.Confidence, fit.on, fit.off, fit.out)
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
