package vision

import (
	"image"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/demo"
	"tengen/internal/benchcpu"
	"tengen/internal/cutframe"
	"tengen/internal/rendertest"
	"tengen/internal/shareddata"
	"tengen/vision/observe"
)

// benchFrame returns a 1920x1080 camera frame of a real board (the gomrade webcam sequence,
// scaled up) and its calibration from the verified corners.
func benchFrame(b *testing.B) (gocv.Mat, calib.Calibration) {
	b.Helper()
	p := shareddata.Path(b, "vision-eval", "gomrade-sample", "testing_sequence", "10.jpg")
	src := loadPhoto(b, p)
	defer src.Close()
	if src.Cols() != 1280 || src.Rows() != 720 {
		b.Fatalf("%s: unexpected size %dx%d", filepath.Base(p), src.Cols(), src.Rows())
	}
	frame := gocv.NewMat()
	gocv.Resize(src, &frame, gocvPt(1920, 1080), 0, 0, gocv.InterpolationLinear)
	// Verified corners of testing_sequence (1280x720), scaled by 1.5.
	q := [4]calib.Point2{{X: 407, Y: 45}, {X: 939, Y: 55}, {X: 991, Y: 643}, {X: 329, Y: 621}}
	for i := range q {
		q[i].X *= 1.5
		q[i].Y *= 1.5
	}
	cal, err := calib.FromCorners(1920, 1080, 19, q)
	if err != nil {
		b.Fatal(err)
	}
	return frame, cal
}

// BenchmarkRead measures steady-state reading of one 1920x1080 frame with a known calibration
// (warp, features, classification). Run with -cpu 1 (and taskset -c 0 to pin OpenCV's threads).
func BenchmarkRead(b *testing.B) { benchmarkRead(b, Params{}) }

// BenchmarkReadPointsAlone is BenchmarkRead without weighing unsure points against the frame's
// sure ones (Params.PointsAlone): what that weighing costs.
func BenchmarkReadPointsAlone(b *testing.B) { benchmarkRead(b, Params{PointsAlone: true}) }

// BenchmarkReadHardLight is BenchmarkRead on a frame the network is unsure of at about half its
// points (a rendered 19x19 board under hard light and glare, see hardLightFrame): what the
// weighing of unsure points against the frame costs at its worst.
func BenchmarkReadHardLight(b *testing.B) {
	frame, cal := hardLightFrame(b)
	defer frame.Close()
	benchmarkReadFrame(b, frame, cal, Params{})
}

// BenchmarkReadHardLightPointsAlone is BenchmarkReadHardLight without the weighing.
func BenchmarkReadHardLightPointsAlone(b *testing.B) {
	frame, cal := hardLightFrame(b)
	defer frame.Close()
	benchmarkReadFrame(b, frame, cal, Params{PointsAlone: true})
}

// hardLightSeed draws a 1920x1080 19x19 scene under hard light (demo.HardLook) that the
// committed network reads with less than 0.99 at 101 of its 361 points. Of seeds 1 to 40 it was
// the one with the most such points for the weights of 2026-11-26 (128) and those before them
// (186), and the radial profile's weights of 2026-11-27 read it so at 134. For the six-copy
// weights of 2026-11-30 it is second of the 40 (seed 32 has 104; the third, 90); it is kept so
// that the README's figures for the hard frame stay comparable.
const hardLightSeed = 16

// hardLightFrame renders the hard-light benchmark frame and its calibration from the drawn corners.
func hardLightFrame(tb testing.TB) (gocv.Mat, calib.Calibration) {
	tb.Helper()
	s, frame, err := rendertest.Frame(hardLightSeed, demo.SampleOptions{Size: 19, W: 1920, H: 1080, Hard: true})
	if err != nil {
		tb.Fatal(err)
	}
	return frame, drawnCalibration(tb, 1920, 1080, 19, s.Corners)
}

// hardLightReader is the hard-light frame and a Reader for it, both closed when b ends.
func hardLightReader(b *testing.B) (gocv.Mat, *Reader) {
	b.Helper()
	frame, cal := hardLightFrame(b)
	b.Cleanup(func() { frame.Close() })
	r, err := NewReader(cal, Params{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	return frame, r
}

// TestHardLightFrameIsUnsure checks that the hard-light benchmark's frame still has the network
// unsure of many points (87 with the reader of 2026-12-03, 101 and 134 with those before), so that
// the benchmark weighs what it says.
func TestHardLightFrameIsUnsure(t *testing.T) {
	frame, cal := hardLightFrame(t)
	defer frame.Close()
	rd := readFrame(t, frame, cal, Params{PointsAlone: true})
	unsure := 0
	for _, p := range rd.Probs {
		if p[p.Likeliest()] < adaptUnsure {
			unsure++
		}
	}
	if unsure < 80 {
		t.Errorf("the network is unsure of %d points of the hard-light frame; the benchmark wants at least 80", unsure)
	}
}

func benchmarkRead(b *testing.B, p Params) {
	frame, cal := benchFrame(b)
	defer frame.Close()
	benchmarkReadFrame(b, frame, cal, p)
}

// benchmarkReadFrame measures steady-state reading of frame on cal with p.
func benchmarkReadFrame(b *testing.B, frame gocv.Mat, cal calib.Calibration, p Params) {
	r, err := NewReader(cal, p)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Read(frame); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu0 := benchcpu.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := r.Read(frame); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	// On a shared machine wall time per op includes waiting for a core; CPU time does not.
	benchcpu.ReportPerOp(b, cpu0)
}

// TestReadKnownFrame checks the benchmark's frame reads as its label, so the benchmark measures real work.
func TestReadKnownFrame(t *testing.T) {
	p := shareddata.Path(t, "vision-eval", "gomrade-sample", "testing_sequence", "10.jpg")
	img := loadPhoto(t, p)
	defer img.Close()
	q := [4]calib.Point2{{X: 407, Y: 45}, {X: 939, Y: 55}, {X: 991, Y: 643}, {X: 329, Y: 621}}
	cal, err := calib.FromCorners(img.Cols(), img.Rows(), 19, q)
	if err != nil {
		t.Fatal(err)
	}
	rd := readFrame(t, img, cal, Params{})
	if rd.Size != 19 {
		t.Fatalf("size %d", rd.Size)
	}
	var black, white int
	for _, s := range rd.Stones {
		switch s.Rune() {
		case 'X':
			black++
		case 'O':
			white++
		}
	}
	if black+white < 10 {
		t.Fatalf("read %d black and %d white stones, the frame holds 12", black, white)
	}
}

func gocvPt(x, y int) image.Point { return image.Pt(x, y) }

// BenchmarkWeighHardLight measures the frame's weighing alone (frameAdapter.adapt) on the
// hard-light frame's network readings, without the warp, features and network around it: a
// steadier figure of its cost than the difference of two whole reads.
func BenchmarkWeighHardLight(b *testing.B) {
	frame, r := hardLightReader(b)
	if _, err := r.Read(frame); err != nil {
		b.Fatal(err)
	}
	hm, ok := r.net.(hiddenModel)
	if !ok {
		b.Fatal("the committed reader shows no hidden activations")
	}
	// The network's own probabilities, before any weighing.
	orig := make([]observe.Probs, len(r.probs))
	for i := range orig {
		p := r.net.Forward(r.inputs[i*netInputs:(i+1)*netInputs], &r.netBuf)
		orig[i] = observe.Probs{p[0], p[1], p[2], 0}
	}
	probs := make([]observe.Probs, len(orig))
	b.ReportAllocs()
	cpu0 := benchcpu.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		copy(probs, orig)
		r.adapter.adapt(hm, r.inputs, probs, &r.netBuf)
	}
	b.StopTimer()
	benchcpu.ReportPerOp(b, cpu0)
}

// BenchmarkFeaturesHardLight measures the Go loops between the warp and the networks on the
// hard-light frame's canonical image: the hand-made features (extract) and the networks' inputs
// (netInput) of all 361 points, without the warp, the networks or the weighing, which vary
// less with the CPU's hour. Its figures are steadier than the difference of two whole reads.
func BenchmarkFeaturesHardLight(b *testing.B) {
	frame, r := hardLightReader(b)
	pix, err := r.warp(frame)
	if err != nil {
		b.Fatal(err)
	}
	inputs := make([]float32, len(r.feats)*netInputs)
	ctx := make([]float64, 0, len(r.feats))
	b.ReportAllocs()
	cpu0 := benchcpu.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.samp.extract(pix, r.feats)
		r.samp.netInput(pix, r.feats, inputs, &ctx)
	}
	b.StopTimer()
	benchcpu.ReportPerOp(b, cpu0)
}

// BenchmarkEyeDimBoard is ten seconds of camera frames (100, at 10 a second) of a dim board found by
// its stones (scene 3 of `render-boards -seed 99`, 640x480) through a new Eye: the board found in
// the first frame, then read in every frame and checked once a second. The drift check asks the
// stones, since the board's lines are too faint; one op is the ten seconds.
func BenchmarkEyeDimBoard(b *testing.B) {
	_, img := dimBoardScene(b)
	defer img.Close()
	t0 := time.Date(2026, 11, 28, 11, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := benchcpu.Now()
	for range b.N {
		e, err := NewEye(EyeOptions{Size: 19, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			b.Fatal(err)
		}
		for i := range 100 {
			if sight := e.Look(img, t0.Add(time.Duration(i)*100*time.Millisecond), uint64(i)); sight.View != observe.ViewBoard {
				b.Fatalf("frame %d: %v (%s)", i, sight.View, sight.Why)
			}
		}
		e.Close()
	}
	benchcpu.ReportPerOp(b, c0)
}

// BenchmarkFindBoardSure1080p is FindBoard on the whole gomrade frame (testing_sequence/10.jpg at
// 1920x1080), whose board the finder fits at its sure bar: the finder's passes, then the checks a
// sure grid gets (the reader's doubts, readerDoubts, among them).
func BenchmarkFindBoardSure1080p(b *testing.B) {
	frame := cutframe.Gomrade(b, 1, 1)
	defer frame.Close()
	c, err := FindBoard(frame, 19, Params{})
	if err != nil || c.Confidence < CentreBelow {
		b.Fatalf("the gomrade frame's board is not found surely (%.2f, %v): it no longer measures a sure grid", c.Confidence, err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := benchcpu.Now()
	for i := 0; i < b.N; i++ {
		if _, err := FindBoard(frame, 19, Params{}); err != nil {
			b.Fatal(err)
		}
	}
	benchcpu.ReportPerOp(b, c0)
}

// BenchmarkFindBoardRefused1080p is FindBoard on a 1920x1080 frame that shows only part of the
// board (the gomrade photo with its right half cut off):
// every finder pass runs, then the grids the board's outlines place are judged by the reader,
// before the refusal.
func BenchmarkFindBoardRefused1080p(b *testing.B) { benchmarkFindBoardRefused(b, 0) }

// BenchmarkFindBoardRefusedSized1080p is BenchmarkFindBoardRefused1080p with the board's size
// given, as the table gives it: after the finder and the outline's grids, the reader also sweeps
// the grids the board's outlines hold (outlineRead) before the refusal.
func BenchmarkFindBoardRefusedSized1080p(b *testing.B) { benchmarkFindBoardRefused(b, 19) }

// benchmarkFindBoardRefused is FindBoard with size on the cut gomrade frame, which it refuses.
func benchmarkFindBoardRefused(b *testing.B, size int) {
	frame := cutframe.Gomrade(b, 1, 2)
	defer frame.Close()
	if _, err := FindBoard(frame, size, Params{}); err == nil {
		b.Fatal("the cut frame's board was found: it no longer measures a refusal")
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := benchcpu.Now()
	for i := 0; i < b.N; i++ {
		_, _ = FindBoard(frame, size, Params{})
	}
	benchcpu.ReportPerOp(b, c0)
}
