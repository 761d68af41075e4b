package demo_test

import (
	"context"
	"fmt"
	"image"
	"math"
	"testing"
	"time"

	"tengen/calib"
	"tengen/demo"
	"tengen/vision"
	"tengen/vision/observe"
)

// demoView is the default demo script seen through the real vision reader at 640x480, calibrated on
// the renderer's true corners.
type demoView struct {
	script *demo.Script
	r      *demo.Renderer
	cal    calib.Calibration
	rd     *vision.Reader
	w, h   int
}

// newDemoView builds the default script's renderer and a vision reader for it; the reader closes
// when the test ends.
func newDemoView(t *testing.T) *demoView {
	t.Helper()
	s, err := demo.Default()
	if err != nil {
		t.Fatal(err)
	}
	v := &demoView{script: s, r: demo.NewRenderer(1), w: 640, h: 480}
	v.cal = trueCalibration(t, v.r.Corners(v.w, v.h), v.w, v.h, s.Size)
	v.rd, err = vision.NewReader(v.cal, vision.Params{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = v.rd.Close() })
	return v
}

// read renders sc and reads it back with the view's reader.
func (v *demoView) read(t *testing.T, sc demo.Scene) observe.Observation {
	t.Helper()
	reading, err := v.rd.ReadImage(render(t, v.r, v.w, v.h, sc))
	if err != nil {
		t.Fatal(err)
	}
	return reading.Observation(v.cal, time.Time{}, sc.Frame)
}

// render renders sc at w x h.
func render(t *testing.T, r *demo.Renderer, w, h int, sc demo.Scene) image.Image {
	t.Helper()
	img, err := r.Render(w, h, sc)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// trueCalibration is the calibration of a rendered w x h frame from the renderer's own corner
// intersections c (top-left, top-right, bottom-right, bottom-left).
func trueCalibration(t *testing.T, c [4][2]float64, w, h, size int) calib.Calibration {
	t.Helper()
	var corners [4]calib.Point2
	for i := range c {
		corners[i] = calib.Point2{X: c[i][0], Y: c[i][1]}
	}
	cal, err := calib.FromCorners(w, h, size, corners)
	if err != nil {
		t.Fatal(err)
	}
	return cal
}

// TestVisionReadsEveryDemoPosition renders every board of the demo still (no hand), as the camera
// shows it between moves, and reads it back with vision: every point must come back as it lies.
func TestVisionReadsEveryDemoPosition(t *testing.T) {
	v := newDemoView(t)
	s := v.script
	positions := s.Positions()
	if testing.Short() {
		positions = positions[len(positions)-3:]
	}
	for i, p := range positions {
		sc := demo.Scene{Size: s.Size, Stones: p, Frame: uint64(i)}
		o := v.read(t, sc)
		bad := 0
		for j, st := range p {
			if o.Stones[j] != observe.Stone(st) {
				bad++
				if bad <= 3 {
					t.Errorf("position %d: %s is %v, read %v", i, fmt.Sprintf("%c%d", "ABCDEFGHJ"[j%s.Size], s.Size-j/s.Size), st, o.Stones[j])
				}
			}
		}
	}
}

// TestVisionSeesTheHand checks that a hand reaching over the board is seen: most frames in which the
// hand covers at least one grid cell's worth of the board read some points as obscured (the referee
// waits for a clear view). Frames of a reach whose hand is still off the grid, or only a fingertip on
// it, say nothing about seeing hands and are not counted. Points right under the fingers may misread
// for a moment (a held stone looks like a stone); the stability filter and the full pipeline test
// below cover those.
func TestVisionSeesTheHand(t *testing.T) {
	v := newDemoView(t)
	s := v.script
	step := 700 * time.Millisecond
	if testing.Short() {
		step = 3 * time.Second
	}
	hands, obscured := 0, 0
	for d := time.Duration(0); d < s.Duration(); d += step {
		sc := s.SceneAt(d)
		if sc.Hand == nil || !v.handOverGrid(t, sc) {
			continue
		}
		hands++
		if o := v.read(t, sc); o.AnyObscured() {
			obscured++
		}
	}
	if hands == 0 || obscured < hands/2 {
		t.Errorf("hand over the grid in %d frames, read as obscured in only %d", hands, obscured)
	}
	t.Logf("hand over the grid in %d frames, read as obscured in %d", hands, obscured)
}

// handOverGrid reports whether sc's hand covers at least one grid cell's area of the grid: the
// pixels inside the grid's outline that the hand changes, found by rendering the scene without it.
func (v *demoView) handOverGrid(t *testing.T, sc demo.Scene) bool {
	t.Helper()
	bare := sc
	bare.Hand = nil
	with, err := v.r.Render(v.w, v.h, sc)
	if err != nil {
		t.Fatal(err)
	}
	without, err := v.r.Render(v.w, v.h, bare)
	if err != nil {
		t.Fatal(err)
	}
	c := v.r.Corners(v.w, v.h)
	cell := math.Hypot(c[1][0]-c[0][0], c[1][1]-c[0][1]) / float64(sc.Size-1)
	changed := 0
	for y := 0; y < v.h; y++ {
		for x := 0; x < v.w; x++ {
			if !insideQuad(c, float64(x)+0.5, float64(y)+0.5) {
				continue
			}
			o := with.PixOffset(x, y)
			d := 0
			for k := 0; k < 3; k++ {
				d += abs(int(with.Pix[o+k]) - int(without.Pix[o+k]))
			}
			if d > 120 {
				changed++
			}
		}
	}
	return float64(changed) >= cell*cell
}

// insideQuad reports whether (x, y) lies inside the convex quadrilateral c, given clockwise on the
// screen (top-left, top-right, bottom-right, bottom-left).
func insideQuad(c [4][2]float64, x, y float64) bool {
	for i := range c {
		a, b := c[i], c[(i+1)%4]
		if (b[0]-a[0])*(y-a[1])-(b[1]-a[1])*(x-a[0]) < 0 {
			return false
		}
	}
	return true
}

// abs is |v|.
func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// TestDemoThroughVision runs the whole demo through the real pipeline at 4 frames a second: rendered
// frames, the vision reader, the referee (with its stability filter), the scripted presses and taps.
// The game must be recorded move for move and end with the record's result, with no confusion
// (no "board not seen", no "no change", no "not your turn").
func TestDemoThroughVision(t *testing.T) {
	if testing.Short() {
		t.Skip("the full demo through vision takes ~30 s; skipped with -short")
	}
	v := newDemoView(t)
	s := v.script
	sight := func(sc demo.Scene, seq uint64, at time.Time) observe.Observation {
		o := v.read(t, sc)
		o.Seq, o.Time = seq, at
		return o
	}
	runRefereed(t, s, 250*time.Millisecond, sight)
}

// TestCalibFindsTheDemoBoard checks that the automatic board finder locates the demo's board from
// its first frame (the kiosk calibrates the demo this way, as it would a real camera).
func TestCalibFindsTheDemoBoard(t *testing.T) {
	s, err := demo.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, wh := range [][2]int{{640, 480}, {1280, 720}} {
		r := demo.NewRenderer(1)
		cal, err := vision.FindInImage(context.Background(), render(t, r, wh[0], wh[1], s.SceneAt(0)), 0)
		if err != nil {
			t.Fatalf("%v: %v", wh, err)
		}
		if cal.Size != s.Size {
			t.Errorf("%v: found a %d board, want %d", wh, cal.Size, s.Size)
		}
		truth := r.Corners(wh[0], wh[1])
		for i, c := range cal.Corners {
			if d := math.Hypot(c.X-truth[i][0], c.Y-truth[i][1]); d > 4 {
				t.Errorf("%v: corner %d at %.1f,%.1f, true %.1f,%.1f", wh, i, c.X, c.Y, truth[i][0], truth[i][1])
			}
		}
	}
}
