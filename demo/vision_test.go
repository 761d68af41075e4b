package demo_test

import (
	"fmt"
	"math"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/demo"
	"tengen/vision"
	"tengen/vision/observe"
)

// readScene renders sc at w x h and reads it back with the real vision reader calibrated on the
// renderer's true corners.
func readScene(t *testing.T, r *demo.Renderer, rd *vision.Reader, cal calib.Calibration, sc demo.Scene, w, h int) observe.Observation {
	t.Helper()
	img, err := r.Render(w, h, sc)
	if err != nil {
		t.Fatal(err)
	}
	mat, err := gocv.ImageToMatRGB(img)
	if err != nil {
		t.Fatal(err)
	}
	defer mat.Close()
	reading, err := rd.Read(mat)
	if err != nil {
		t.Fatal(err)
	}
	return reading.Observation(cal, time.Time{}, sc.Frame)
}

func trueCalibration(t *testing.T, r *demo.Renderer, w, h, size int) calib.Calibration {
	t.Helper()
	c := r.Corners(w, h)
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
	s, err := demo.Default()
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 640, 480
	r := demo.NewRenderer(1)
	cal := trueCalibration(t, r, w, h, s.Size)
	rd, err := vision.NewReader(cal, vision.Params{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	positions := s.Positions()
	if testing.Short() {
		positions = positions[len(positions)-3:]
	}
	for i, p := range positions {
		sc := demo.Scene{Size: s.Size, Stones: p, Frame: uint64(i)}
		o := readScene(t, r, rd, cal, sc, w, h)
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

// TestVisionSeesTheHand checks that a hand reaching over the board is seen: most frames with a hand
// well inside the picture read some points as obscured (the referee waits for a clear view). Points
// right under the fingers may misread for a moment (a held stone looks like a stone); the stability
// filter and the full pipeline test below cover those.
func TestVisionSeesTheHand(t *testing.T) {
	s, err := demo.Default()
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 640, 480
	r := demo.NewRenderer(1)
	cal := trueCalibration(t, r, w, h, s.Size)
	rd, err := vision.NewReader(cal, vision.Params{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	step := 700 * time.Millisecond
	if testing.Short() {
		step = 3 * time.Second
	}
	hands, obscured := 0, 0
	for d := time.Duration(0); d < s.Duration(); d += step {
		sc := s.SceneAt(d)
		if sc.Hand == nil || sc.Hand.Reach < 0.5 {
			continue
		}
		hands++
		if o := readScene(t, r, rd, cal, sc, w, h); o.AnyObscured() {
			obscured++
		}
	}
	if hands == 0 || obscured < hands/2 {
		t.Errorf("hand over the board in %d frames, read as obscured in only %d", hands, obscured)
	}
}

// TestDemoThroughVision runs the whole demo through the real pipeline at 4 frames a second: rendered
// frames, the vision reader, the referee (with its stability filter), the scripted presses and taps.
// The game must be recorded move for move and end with the record's result, with no confusion
// (no "board not seen", no "no change", no "not your turn").
func TestDemoThroughVision(t *testing.T) {
	if testing.Short() {
		t.Skip("the full demo through vision takes ~30 s; skipped with -short")
	}
	s, err := demo.Default()
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 640, 480
	r := demo.NewRenderer(1)
	cal := trueCalibration(t, r, w, h, s.Size)
	rd, err := vision.NewReader(cal, vision.Params{})
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	sight := func(sc demo.Scene, seq uint64, at time.Time) observe.Observation {
		o := readScene(t, r, rd, cal, sc, w, h)
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
		img, err := r.Render(wh[0], wh[1], s.SceneAt(0))
		if err != nil {
			t.Fatal(err)
		}
		mat, err := gocv.ImageToMatRGB(img)
		if err != nil {
			t.Fatal(err)
		}
		cal, err := calib.Find(mat, calib.FindOptions{})
		mat.Close()
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
