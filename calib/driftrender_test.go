package calib_test

import (
	"testing"

	"tengen/calib"
	"tengen/demo"
	"tengen/internal/rendertest"
)

// TestCheckStillRenders runs the drift check on rendered still frames of boards the finder found
// right (9x9 to 19x19 under random looks, no hands): an unmoved frame must pass, and the same
// frame against its grid moved one spacing along either axis must not. A board's edge against a
// dark table, or its side face, reads as a line one spacing beyond the edge line; on 264 right
// grids of 300 renders the check said "a line appears beyond the edge" of 33 still frames before
// it asked for the crossing lines to run on to that line (4 still frames checked as moved now,
// for missing or faint lines), and caught 1,055 of 1,056 grids moved a spacing (1,049 now).
func TestCheckStillRenders(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skips drawing and searching rendered photos")
	}
	// The floors: at most this many still frames checked as moved, and at least this share of
	// the grids moved a spacing caught.
	const maxStillMoved, minShiftsCaught = 1, 0.95
	frames := [][2]int{{640, 480}, {800, 600}, {1024, 768}, {1280, 720}}
	checked, stillMoved, shifts, caught := 0, 0, 0, 0
	for i := 0; i < 30; i++ {
		size := [...]int{9, 13, 19, 19, 19}[i%5]
		fr := frames[(i/5)%len(frames)]
		s, img, err := rendertest.Frame(uint64(9100+i), demo.SampleOptions{Size: size, W: fr[0], H: fr[1], Hard: i%7 == 3})
		if err != nil {
			t.Fatal(err)
		}
		c, err := calib.Find(img, calib.FindOptions{})
		if err != nil || c.Size != size || rendertest.SpacingsOff(c, s.Corners, true) > 0.5 {
			img.Close()
			continue // not found, or found wrong: the finder's tests judge that
		}
		checked++
		if rep, err := calib.Check(img, c); err != nil || rep.Moved {
			stillMoved++
			t.Logf("scene %d (%dx%d, %s board): the still frame checked as moved: %v %s", i, size, size, s.Look.Board, err, rep.Reason)
		}
		n := float64(size - 1)
		for _, sh := range [4][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			moved := c
			inView := true
			for k, g := range [4][2]float64{{0, 0}, {n, 0}, {n, n}, {0, n}} {
				p := c.GridPixel(g[0]+sh[0], g[1]+sh[1])
				inView = inView && p.X >= 0 && p.Y >= 0 && p.X < float64(img.Cols()) && p.Y < float64(img.Rows())
				moved.Corners[k] = p
			}
			if !inView {
				continue
			}
			shifts++
			if rep, err := calib.Check(img, moved); err == nil && !rep.Moved {
				t.Logf("scene %d (%dx%d): the grid moved by %v spacing checked as unmoved", i, size, size, sh)
			} else {
				caught++
			}
		}
		img.Close()
	}
	t.Logf("%d still frames checked, %d as moved; %d of %d grids moved a spacing caught", checked, stillMoved, caught, shifts)
	if checked < 20 {
		t.Errorf("only %d of 30 scenes found right: the test no longer measures the check", checked)
	}
	if stillMoved > maxStillMoved {
		t.Errorf("%d still frames checked as moved, want at most %d", stillMoved, maxStillMoved)
	}
	if float64(caught) < minShiftsCaught*float64(shifts) {
		t.Errorf("%d of %d grids moved a spacing caught, want %.0f%%", caught, shifts, 100*minShiftsCaught)
	}
}
