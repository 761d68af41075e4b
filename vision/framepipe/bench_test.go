package framepipe

import (
	"io"
	"os"
	"testing"
)

// BenchmarkPipe1080p writes and reads 1920x1080 BGR frames through an os.Pipe, as the camera
// helper and the kiosk do (b.SetBytes makes MB/s the frame throughput; ns/op is per frame).
func BenchmarkPipe1080p(b *testing.B) {
	const w, h = 1920, 1080
	pr, pw, err := os.Pipe()
	if err != nil {
		b.Fatal(err)
	}
	defer pr.Close()
	pix := make([]byte, w*h*ChannelsBGR)
	for i := range pix {
		pix[i] = byte(i)
	}
	done := make(chan error, 1)
	go func() {
		wr := NewWriter(pw)
		for i := 0; i < b.N; i++ {
			if err := wr.WriteFrame(uint64(i+1), int64(i), w, h, pix); err != nil {
				done <- err
				return
			}
		}
		done <- pw.Close()
	}()
	r := NewReader(pr)
	b.SetBytes(int64(len(pix)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m, err := r.Next()
		if err != nil {
			b.Fatal(err)
		}
		if m.Width != w || m.Seq != uint64(i+1) {
			b.Fatalf("frame %d: %+v", i, m.Header)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		b.Fatalf("after the last frame: %v", err)
	}
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}
