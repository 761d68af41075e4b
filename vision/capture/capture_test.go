package capture

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tengen/vision/framepipe"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// readAll decodes a whole stream.
func readAll(t *testing.T, b []byte) []framepipe.Message {
	t.Helper()
	r := framepipe.NewReader(bytes.NewReader(b))
	var out []framepipe.Message
	for {
		m, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("message %d: %v", len(out), err)
		}
		m.Payload = append([]byte(nil), m.Payload...)
		out = append(out, m)
	}
}

func TestServeVideoFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clip.avi")
	vw, err := gocv.VideoWriterFile(path, "MJPG", 10, 64, 48, true)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		v := float64(40 * i)
		f := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(v, v, v, 0), 48, 64, gocv.MatTypeCV8UC3)
		vw.Write(f)
		f.Close()
	}
	vw.Close()
	var out bytes.Buffer
	if err := Serve(context.Background(), path, &out, Options{Logger: quiet}); err != nil {
		t.Fatal(err)
	}
	msgs := readAll(t, out.Bytes())
	if len(msgs) != 6 {
		t.Fatalf("%d messages, want 5 frames and an end", len(msgs))
	}
	for i, m := range msgs[:5] {
		if m.Kind != framepipe.KindFrame || m.Width != 64 || m.Height != 48 || m.Seq != uint64(i+1) ||
			m.Time != int64(i)*int64(100*time.Millisecond) {
			t.Fatalf("frame %d: %+v", i, m.Header)
		}
		if got := int(m.Payload[(10*64+10)*3+1]); got < 40*i-8 || got > 40*i+8 {
			t.Fatalf("frame %d: pixel %d, want about %d", i, got, 40*i)
		}
	}
	if end := msgs[5]; end.Kind != framepipe.KindEnd || end.Seq != 5 {
		t.Fatalf("last message %+v, want end after 5", end.Header)
	}
}

func TestServeCannotOpen(t *testing.T) {
	dir := t.TempDir()
	notVideo := filepath.Join(dir, "notes.avi")
	os.WriteFile(notVideo, []byte("not a video"), 0o644)
	tests := []struct{ spec, want string }{
		{"", "no camera given"},
		{"libcamera:1x1@1", "want libcamera:"},
		{dir, "is a directory"},
		{filepath.Join(dir, "missing.avi"), "no such file"},
		{notVideo, "open video"},
		{"/dev/video99", "camera /dev/video99"},
	}
	for _, tc := range tests {
		var out bytes.Buffer
		err := Serve(context.Background(), tc.spec, &out, Options{Logger: quiet})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want it to mention %q", tc.spec, err, tc.want)
			continue
		}
		msgs := readAll(t, out.Bytes())
		if len(msgs) != 1 || msgs[0].Kind != framepipe.KindError || msgs[0].Text() != err.Error() {
			t.Errorf("%q: messages %+v, want one error message %q", tc.spec, msgs, err)
		}
	}
}

// fakeCamera gives frames (4x2 unless size is set) whose pixels are the frame number, every
// `every`; after `frames` frames (when not zero) it fails every read, or blocks until release is
// closed when hang is set.
type fakeCamera struct {
	size    int
	every   time.Duration
	frames  int
	hang    bool
	release chan struct{}
	n       int
	mu      sync.Mutex
	closed  bool
}

func (c *fakeCamera) Read(m *gocv.Mat) bool {
	if c.frames > 0 && c.n >= c.frames {
		if c.hang {
			<-c.release
		}
		return false
	}
	time.Sleep(c.every)
	c.n++
	w, h := 4, 2
	if c.size > 0 {
		w, h = c.size, c.size
	}
	f := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(float64(c.n), float64(c.n), float64(c.n), 0), h, w, gocv.MatTypeCV8UC3)
	defer f.Close()
	f.CopyTo(m)
	return true
}

func (c *fakeCamera) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	return nil
}

func opener(c *fakeCamera) func() (camera, error) {
	return func() (camera, error) { return c, nil }
}

func TestServeLiveSlowReaderGetsNewest(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	// Frames larger than the pipe's buffer (64 KiB), as real ones are: the pipe cannot queue them.
	cam := &fakeCamera{size: 160, every: time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serveLive(ctx, opener(cam), framepipe.NewWriter(pw), Options{FrameTimeout: time.Second, Logger: quiet})
		pw.Close()
	}()
	r := framepipe.NewReader(pr)
	var last uint64
	gaps := 0
	for i := 0; i < 5; i++ {
		time.Sleep(30 * time.Millisecond) // a slow reader
		m, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if m.Kind != framepipe.KindFrame || m.Width != 160 || m.Height != 160 || m.Seq <= last {
			t.Fatalf("message %d: %+v after seq %d", i, m.Header, last)
		}
		if m.Payload[0] != byte(m.Seq) || m.Payload[len(m.Payload)-1] != byte(m.Seq) {
			t.Fatalf("frame %d carries the pixels of frame %d", m.Seq, m.Payload[0])
		}
		if m.Seq > last+1 {
			gaps++
		}
		last = m.Seq
	}
	if gaps < 3 {
		t.Errorf("only %d of 5 reads skipped stale frames: the reader is not getting the newest", gaps)
	}
	// The writer may be blocked on the pipe: closing our end releases it (EPIPE), as the
	// helper's stop does by exiting.
	cancel()
	pr.Close()
	if err := <-done; err != nil && !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("Serve after cancel: %v", err)
	}
	cam.mu.Lock()
	defer cam.mu.Unlock()
	if !cam.closed {
		t.Error("camera not closed")
	}
}

func TestServeLiveFailures(t *testing.T) {
	tests := []struct {
		name   string
		cam    *fakeCamera
		open   error
		want   string
		frames int
	}{
		{"cannot open", nil, errors.New("capture: camera /dev/video0 did not open"), "did not open", 0},
		{"stops giving frames", &fakeCamera{frames: 2}, nil, "3 reads in a row gave no frame", 2},
		{"hangs", &fakeCamera{frames: 2, hang: true, release: make(chan struct{})}, nil, "no frame from the camera for", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			open := func() (camera, error) {
				if tc.open != nil {
					return nil, tc.open
				}
				return tc.cam, nil
			}
			var out bytes.Buffer
			start := time.Now()
			err := serveLive(context.Background(), open, framepipe.NewWriter(&out), Options{FrameTimeout: 200 * time.Millisecond, Logger: quiet})
			if tc.cam != nil && tc.cam.release != nil {
				close(tc.cam.release)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want it to mention %q", err, tc.want)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Fatalf("took %v", took)
			}
			msgs := readAll(t, out.Bytes())
			if len(msgs) == 0 {
				t.Fatal("no messages")
			}
			last := msgs[len(msgs)-1]
			if last.Kind != framepipe.KindError || last.Text() != err.Error() {
				t.Fatalf("last message %+v %q, want the error", last.Header, last.Text())
			}
			if len(msgs)-1 > tc.frames {
				t.Fatalf("%d frames before the error, camera gave %d", len(msgs)-1, tc.frames)
			}
		})
	}
}

// failWriter fails every write, as a pipe whose reader went away.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, syscall.EPIPE }

func TestServeLiveWriteError(t *testing.T) {
	err := serveLive(context.Background(), opener(&fakeCamera{every: time.Millisecond}), framepipe.NewWriter(failWriter{}),
		Options{FrameTimeout: time.Second, Logger: quiet})
	if !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("err %v, want EPIPE", err)
	}
}
