package calib

import (
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"gocv.io/x/gocv"

	"tengen/internal/shareddata"
)

// peakChildEnv makes TestPeakMemory4032 do the work itself, in the child process it starts.
const peakChildEnv = "CALIB_PEAK_MEMORY_CHILD"

// TestPeakMemory4032 finds the board three times in a 4032x3024 frame (a phone photo's size) in a
// process of its own, started for the purpose, and checks that process's peak resident memory
// stays well under the kiosk's budget. The figure is the child's alone (its rusage), not the
// test process's, which has run every other test.
func TestPeakMemory4032(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skips the 4032x3024 frame")
	}
	photo := filepath.Join(shareddata.Path(t, "vision-eval", "imago-tests", "t1"), "t1_011.jpg")
	if os.Getenv(peakChildEnv) != "" {
		findBig(t, photo)
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestPeakMemory4032$", "-test.count=1")
	cmd.Env = append(os.Environ(), peakChildEnv+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child finding the board failed: %v\n%s", err, out)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no rusage for the child process")
	}
	mb := float64(ru.Maxrss) / 1024 // Linux reports kilobytes
	t.Logf("peak RSS of a process finding the board in a 4032x3024 frame: %.0f MB", mb)
	if mb > 250 {
		t.Errorf("peak RSS %.0f MB exceeds 250 MB (the kiosk's whole budget is 300 MB)", mb)
	}
}

// findBig finds the board in photo scaled to 4032x3024, three times.
func findBig(t *testing.T, photo string) {
	src := loadRaw(t, photo)
	big := gocv.NewMat()
	gocv.Resize(src, &big, image.Pt(4032, 3024), 0, 0, gocv.InterpolationLinear)
	src.Close()
	defer big.Close()
	for i := 0; i < 3; i++ {
		if _, err := Find(big, FindOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}
