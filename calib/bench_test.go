package calib

import (
	"image"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"tengen/internal/benchcpu"
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

// BenchmarkCheck1080p is one drift check of a 1920x1080 frame against its calibration.
func BenchmarkCheck1080p(b *testing.B) {
	frame := benchFrame(b)
	defer frame.Close()
	cal, err := Find(frame, FindOptions{})
	if err != nil {
		b.Fatal(err)
	}
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
