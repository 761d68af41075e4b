package main

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"gocv.io/x/gocv"
)

func TestUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--help"}, 0, "The kiosk starts it by itself"},
		{nil, 2, "usage: kiosk-camera"},
		{[]string{"a", "b"}, 2, "usage: kiosk-camera"},
		{[]string{"--frame-timeout", "soon", "0"}, 2, "invalid value"},
	}
	for _, tc := range tests {
		var stderr bytes.Buffer
		code := run(context.Background(), tc.args, strings.NewReader(""), io.Discard, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
}

// slowWriter takes 20 ms per write and counts bytes; it signals the first write.
type slowWriter struct {
	mu    sync.Mutex
	n     int
	first chan struct{}
}

func (w *slowWriter) Write(p []byte) (int, error) {
	time.Sleep(20 * time.Millisecond)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n == 0 {
		close(w.first)
	}
	w.n += len(p)
	return len(p), nil
}

func TestExitsWhenStdinCloses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clip.avi")
	vw, err := gocv.VideoWriterFile(path, "MJPG", 10, 32, 32, true)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		f := gocv.NewMatWithSize(32, 32, gocv.MatTypeCV8UC3)
		vw.Write(f)
		f.Close()
	}
	vw.Close()
	stdin, closeStdin := io.Pipe()
	out := &slowWriter{first: make(chan struct{})}
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- run(context.Background(), []string{path}, stdin, out, &stderr) }()
	<-out.first
	closeStdin.Close() // the kiosk is gone
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, &stderr)
		}
	case <-time.After(stopGrace + 3*time.Second):
		t.Fatal("still running after stdin closed")
	}
	out.mu.Lock()
	defer out.mu.Unlock()
	if out.n >= 200*32*32*3 {
		t.Fatal("wrote the whole video although stdin closed")
	}
	if !strings.Contains(stderr.String(), "stdin closed") {
		t.Errorf("log: %s", &stderr)
	}
}
