package calib

import (
	"image"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"tengen/internal/benchcpu"
	"tengen/internal/cutframe"
	"tengen/internal/shareddata"
)

// benchFrame is a real photo resized to 1920x1080, as a kiosk camera delivers.
func benchFrame(b *testing.B) gocv.Mat {
	b.Helper()
	img := loadRaw(b, filepath.Join(shareddata.Path(b, "vision-eval", "gomrade-sample", "testing_sequence"), "10.jpg"))
	defer img.Close()
	out := gocv.NewMat()
	gocv.Resize(img, &out, image.Pt(1920, 1080), 0, 0, gocv.InterpolationLinear)
	return out
}

// BenchmarkFind1080p is automatic board finding on one 1920x1080 frame.
func BenchmarkFind1080p(b *testing.B) {
	frame := benchFrame(b)
	defer frame.Close()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := benchcpu.Now()
	for i := 0; i < b.N; i++ {
		if _, err := Find(frame, FindOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	benchcpu.ReportPerOp(b, c0)
}

// BenchmarkFindCrowded1080p is board finding on a 1920x1080 frame of a board covered with
// stones to its edges (a Roboflow photo), where the line passes fit only weakly and the stones'
// lattice places the grid.
func BenchmarkFindCrowded1080p(b *testing.B) {
	matches, err := filepath.Glob(filepath.Join(shareddata.Path(b, "vision-eval", "roboflow-stone-detection", "train", "images"), "4accab79e087*.jpg"))
	if err != nil || len(matches) != 1 {
		b.Fatalf("the crowded board's photo: %v %v", matches, err)
	}
	img := loadRaw(b, matches[0])
	defer img.Close()
	// The square photo scaled to the frame's height, on a plain table.
	board := gocv.NewMat()
	defer board.Close()
	gocv.Resize(img, &board, image.Pt(1080, 1080), 0, 0, gocv.InterpolationLinear)
	frame := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(70, 80, 90, 0), 1080, 1920, gocv.MatTypeCV8UC3)
	defer frame.Close()
	roi := frame.Region(image.Rect(420, 0, 1500, 1080))
	board.CopyTo(&roi)
	roi.Close()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := benchcpu.Now()
	for i := 0; i < b.N; i++ {
		if _, err := Find(frame, FindOptions{Size: 19, MinConfidence: 0.3}); err != nil {
			b.Fatal(err)
		}
	}
	benchcpu.ReportPerOp(b, c0)
}

// benchFound is benchFrame and the board found in it (the straight grid: the drift check does
// not bend its lines, and FitLens is measured by itself). The caller closes the frame.
func benchFound(b *testing.B) (gocv.Mat, Calibration) {
	b.Helper()
	frame := benchFrame(b)
	cal, err := findStraight(frame, FindOptions{})
	if err != nil {
		frame.Close()
		b.Fatal(err)
	}
	return frame, cal
}

// BenchmarkCheck1080p is one drift check of a 1920x1080 frame against its calibration.
func BenchmarkCheck1080p(b *testing.B) {
	frame, cal := benchFound(b)
	defer frame.Close()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := benchcpu.Now()
	for i := 0; i < b.N; i++ {
		rep, err := Check(frame, cal)
		if err != nil || rep.Moved {
			b.Fatal(err, rep)
		}
	}
	benchcpu.ReportPerOp(b, c0)
}

// BenchmarkCheckStones1080p is one drift check of a 1920x1080 frame of a crowded board whose lines
// did not stand out when it was found (DriftNoLines known): its black stones are asked instead.
func BenchmarkCheckStones1080p(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	frame, hm := drawCrowdedBoard(b, 1920, 1080, rng.Perm(361)[:200])
	defer frame.Close()
	cal, err := FromCorners(1920, 1080, 19, [4]Point2{applyH(hm, Point2{0, 0}), applyH(hm, Point2{18, 0}), applyH(hm, Point2{18, 18}), applyH(hm, Point2{0, 18})})
	if err != nil {
		b.Fatal(err)
	}
	known := DriftTests(0).With(DriftNoLines)
	b.ReportAllocs()
	b.ResetTimer()
	c0 := benchcpu.Now()
	for i := 0; i < b.N; i++ {
		rep, err := CheckPast(frame, cal, known)
		if err != nil || rep.Moved {
			b.Fatal(err, rep)
		}
	}
	benchcpu.ReportPerOp(b, c0)
}

// BenchmarkFindRefused1080p is board finding on a 1920x1080 frame that shows only part of the
// board (the gomrade photo with its right third cut off): every pass runs before the refusal, as
// while the kiosk looks for a board at a table being set up.
func BenchmarkFindRefused1080p(b *testing.B) {
	frame := cutframe.Gomrade(b, 2, 3)
	defer frame.Close()
	if _, err := Find(frame, FindOptions{}); err == nil {
		b.Fatal("the cut frame's board was found: it no longer measures a refusal")
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := benchcpu.Now()
	for i := 0; i < b.N; i++ {
		_, _ = Find(frame, FindOptions{})
	}
	benchcpu.ReportPerOp(b, c0)
}

// BenchmarkFitLens1080p is the lens term's fit on a found board in a 1920x1080 frame: once per
// calibration, never per frame.
func BenchmarkFitLens1080p(b *testing.B) {
	frame, cal := benchFound(b)
	defer frame.Close()
	b.ReportAllocs()
	b.ResetTimer()
	c0 := benchcpu.Now()
	for i := 0; i < b.N; i++ {
		if _, err := FitLens(frame, cal); err != nil {
			b.Fatal(err)
		}
	}
	benchcpu.ReportPerOp(b, c0)
}

// BenchmarkOutlineMargins1080p is the board outline's margins around a found grid on one
// 1920x1080 frame: the last grid check of an unsure fit (vision.FindBoard), never per frame.
func BenchmarkOutlineMargins1080p(b *testing.B) {
	frame := benchFrame(b)
	defer frame.Close()
	c, err := Find(frame, FindOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := benchcpu.Now()
	for i := 0; i < b.N; i++ {
		if _, err := OutlineMargins(frame, c); err != nil {
			b.Fatal(err)
		}
	}
	benchcpu.ReportPerOp(b, c0)
}
