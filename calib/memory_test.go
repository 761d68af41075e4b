package calib

import (
	"image"
	"path/filepath"
	"syscall"
	"testing"

	"gocv.io/x/gocv"

	"tengen/internal/shareddata"
)

// TestPeakMemory4032 finds the board in a 4032x3024 frame (a phone photo's size) and checks the
// process's peak resident memory stays well under the kiosk's 300 MB budget. Run it alone
// (go test -run TestPeakMemory4032) for a clean figure; in a full run it is an upper bound.
func TestPeakMemory4032(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skips the 4032x3024 frame")
	}
	src := loadRaw(t, filepath.Join(shareddata.Path(t, "vision-eval", "imago-tests", "t1"), "t1_011.jpg"))
	big := gocv.NewMat()
	gocv.Resize(src, &big, image.Pt(4032, 3024), 0, 0, gocv.InterpolationLinear)
	src.Close()
	defer big.Close()
	for i := 0; i < 3; i++ {
		c, err := Find(big, FindOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			t.Logf("found size %d, confidence %.2f", c.Size, c.Confidence)
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal("getrusage:", err)
	}
	mb := float64(ru.Maxrss) / 1024 // Linux reports kilobytes
	t.Logf("peak RSS of the test process: %.0f MB", mb)
	if mb > 250 {
		t.Errorf("peak RSS %.0f MB exceeds 250 MB (the kiosk's whole budget is 300 MB)", mb)
	}
}
