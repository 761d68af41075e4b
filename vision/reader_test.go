package vision

import (
	"errors"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/vision/observe"
)

func testCalibration(t *testing.T, w, h, size int) calib.Calibration {
	t.Helper()
	q := [4]calib.Point2{{X: 0.2 * float64(w), Y: 0.1 * float64(h)}, {X: 0.8 * float64(w), Y: 0.1 * float64(h)},
		{X: 0.8 * float64(w), Y: 0.9 * float64(h)}, {X: 0.2 * float64(w), Y: 0.9 * float64(h)}}
	cal, err := calib.FromCorners(w, h, size, q)
	if err != nil {
		t.Fatal(err)
	}
	return cal
}

// drawnCalibration is the calibration of a w x h frame from its corner intersections as drawn
// (top-left, top-right, bottom-right, bottom-left, in pixels).
func drawnCalibration(tb testing.TB, w, h, size int, corners [4][2]float64) calib.Calibration {
	tb.Helper()
	var q [4]calib.Point2
	for i, c := range corners {
		q[i] = calib.Point2{X: c[0], Y: c[1]}
	}
	cal, err := calib.FromCorners(w, h, size, q)
	if err != nil {
		tb.Fatal(err)
	}
	return cal
}

// readFrame reads frame on cal with a Reader made for it and returns a copy of the reading.
func readFrame(tb testing.TB, frame gocv.Mat, cal calib.Calibration, p Params) Reading {
	tb.Helper()
	r, err := NewReader(cal, p)
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	rd, err := r.Read(frame)
	if err != nil {
		tb.Fatal(err)
	}
	return rd.Clone()
}

func TestReaderBadFrames(t *testing.T) {
	cal := testCalibration(t, 320, 240, 9)
	r, err := NewReader(cal, Params{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	empty := gocv.NewMat()
	defer empty.Close()
	wrongSize := gocv.NewMatWithSize(100, 100, gocv.MatTypeCV8UC3)
	defer wrongSize.Close()
	float := gocv.NewMatWithSize(240, 320, gocv.MatTypeCV32FC1)
	defer float.Close()
	tests := []struct {
		name string
		m    gocv.Mat
		want error
	}{
		{"empty", empty, ErrFrame},
		{"wrong size", wrongSize, calib.ErrImageSize},
		{"float pixels", float, ErrFrame},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := r.Read(tc.m); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
	// Grey and BGRA frames are converted, not refused; a black frame reads without panicking.
	for _, typ := range []gocv.MatType{gocv.MatTypeCV8UC1, gocv.MatTypeCV8UC4, gocv.MatTypeCV8UC3} {
		m := gocv.NewMatWithSize(240, 320, typ)
		if _, err := r.Read(m); err != nil {
			t.Errorf("type %v: %v", typ, err)
		}
		m.Close()
	}
	if _, err := NewReader(calib.Calibration{}, Params{}); err == nil {
		t.Fatal("zero calibration accepted")
	}
}

func TestReadingObservationOrientation(t *testing.T) {
	// One black stone at image column 0, row 1 (left edge, one below the top) on a 3x3 board.
	rd := Reading{Size: 3, Stones: make([]observe.Stone, 9), Confidence: make([]float32, 9)}
	rd.Stones[1*3+0] = observe.Black
	rd.Confidence[1*3+0] = 0.7
	tests := []struct {
		side calib.Side
		x, y int // where Black sees it: x from Black's left, y = 0 the far row
	}{
		{calib.Bottom, 0, 1},
		{calib.Top, 2, 1},
		{calib.Left, 1, 2},
		{calib.Right, 1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.side.String(), func(t *testing.T) {
			cal := calib.Calibration{Size: 3, BlackSide: tc.side}
			at := time.Unix(5, 0)
			o := rd.Observation(cal, at, 42)
			if o.Count(observe.Black) != 1 || o.At(tc.x, tc.y) != observe.Black {
				t.Fatalf("board as Black sees it:\n%s want the stone at x=%d y=%d", o, tc.x, tc.y)
			}
			if o.Confidence[tc.y*3+tc.x] != 0.7 || !o.Time.Equal(at) || o.Seq != 42 {
				t.Fatalf("confidence/time/seq not carried: %+v", o)
			}
			if err := o.Valid(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
