package vision

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tengen/internal/testenv"
)

// buildHelper builds cmd/kiosk-camera into a temporary directory and returns its path.
func buildHelper(t *testing.T) string {
	t.Helper()
	testenv.SelfExec(t) // the go command builds for the machine, which must also be the test's
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			testenv.Missing(t, "the go command is needed to build the camera helper")
		}
	}
	out := filepath.Join(t.TempDir(), HelperName)
	cmd := exec.Command(goBin, "build", "-o", out, "tengen/cmd/kiosk-camera")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build kiosk-camera: %v\n%s", err, msg)
	}
	return out
}

// writeVideo writes an MJPG video of n frames of w x h at fps; frame i is grey level 40*i.
func writeVideo(t *testing.T, path string, n, w, h int, fps float64) {
	t.Helper()
	vw, err := gocv.VideoWriterFile(path, "MJPG", fps, w, h, true)
	if err != nil {
		t.Fatal(err)
	}
	defer vw.Close()
	for i := 0; i < n; i++ {
		v := float64(40 * i)
		f := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(v, v, v, 0), h, w, gocv.MatTypeCV8UC3)
		err := vw.Write(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestCameraHelperEndToEnd runs the real camera helper: a video file read through OpenCamera,
// and a camera that does not exist reported as lost with the helper's reason.
func TestCameraHelperEndToEnd(t *testing.T) {
	helper := buildHelper(t)
	path := filepath.Join(t.TempDir(), "clip.avi")
	writeVideo(t, path, 5, 64, 48, 10)
	logs := &syncBuffer{}
	opt := LiveOptions{Helper: helper, Logger: slog.New(slog.NewTextHandler(logs, nil))}
	src, err := OpenCamera(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	m := gocv.NewMat()
	defer m.Close()
	var first time.Time
	for i := 0; i < 5; i++ {
		info, err := src.Next(ctx, &m)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if i == 0 {
			first = info.Time
		}
		if info.Seq != uint64(i+1) || info.Time.Sub(first) != time.Duration(i)*100*time.Millisecond {
			t.Fatalf("frame %d: %+v", i, info)
		}
		if m.Cols() != 64 || m.Rows() != 48 || m.Type() != gocv.MatTypeCV8UC3 {
			t.Fatalf("frame %d: %dx%d type %v", i, m.Cols(), m.Rows(), m.Type())
		}
		if got := int(m.GetVecbAt(10, 10)[1]); got < 40*i-8 || got > 40*i+8 {
			t.Fatalf("frame %d: pixel %d, want about %d", i, got, 40*i)
		}
	}
	if _, err := src.Next(ctx, &m); !errors.Is(err, ErrEnd) {
		t.Fatalf("after the last frame: %v, want ErrEnd", err)
	}
	if err := src.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "video ended") {
		t.Errorf("helper's log not forwarded:\n%s", logs)
	}

	// kill -9 of the helper mid-video: the camera is lost, a new helper is started, and the video
	// goes on from the next frame (frames of 230 KB, more than a pipe holds, so the helper is
	// still writing when it is killed).
	big := filepath.Join(t.TempDir(), "big.avi")
	writeVideo(t, big, 6, 320, 240, 10)
	var events []Event
	vsrc, err := OpenCamera(big, LiveOptions{Helper: helper, MinBackoff: 10 * time.Millisecond,
		OnEvent: func(e Event) { events = append(events, e) }, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		info, err := vsrc.Next(ctx, &m)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if got := int(m.GetVecbAt(10, 10)[1]); info.Seq != uint64(i+1) || got < 40*i-8 || got > 40*i+8 {
			t.Fatalf("frame %d: %+v, pixel %d, want about %d: a frame lost or repeated", i, info, got, 40*i)
		}
		if i == 1 {
			hv := vsrc.(*helperVideoSource)
			if err := hv.p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := vsrc.Next(ctx, &m); !errors.Is(err, ErrEnd) {
		t.Fatalf("after the last frame: %v, want ErrEnd", err)
	}
	vsrc.Close()
	if len(events) != 2 || events[0].Kind != Lost || events[1].Kind != Back {
		t.Fatalf("events %v, want lost then back", events)
	}
	t.Logf("killed helper: %v", events[0].Err)
	events = nil

	// A file that is not a video: the helper's reason comes back as the error.
	bad := filepath.Join(t.TempDir(), "notes.avi")
	os.WriteFile(bad, []byte("not a video"), 0o644)
	src, err = OpenCamera(bad, LiveOptions{Helper: helper, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.Next(ctx, &m); err == nil || errors.Is(err, ErrEnd) || !strings.Contains(err.Error(), "open video") {
		t.Fatalf("not a video: %v", err)
	}
	src.Close()

	// A camera that does not exist: lost, with the helper's reason, and retried.
	cam, err := OpenCamera("/dev/video99", LiveOptions{Helper: helper, MinBackoff: time.Millisecond,
		OnEvent: func(e Event) { events = append(events, e) }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer cam.Close()
	short, cancel2 := context.WithTimeout(ctx, 2*time.Second)
	defer cancel2()
	if _, err := cam.Next(short, &m); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("missing camera: Next = %v", err)
	}
	if len(events) != 1 || events[0].Kind != Lost || !strings.Contains(events[0].Err.Error(), "/dev/video99") {
		t.Fatalf("missing camera: events %v", events)
	}
}

// TestGStreamerHelperKilled: a live GStreamer source (videotestsrc through the camera helper, as a
// gst: camera spec) whose helper is killed with SIGKILL mid-stream is reported lost, a new helper
// is started, and frames come back.
func TestGStreamerHelperKilled(t *testing.T) {
	plugins, _ := filepath.Glob("/usr/lib/*/gstreamer-1.0/libgstvideotestsrc.so")
	if len(plugins) == 0 {
		testenv.Missing(t, "GStreamer's videotestsrc is not installed (package gstreamer1.0-plugins-base)")
	}
	helper := buildHelper(t)
	var mu sync.Mutex
	var events []Event
	src, err := OpenCamera("gst:videotestsrc is-live=true ! video/x-raw,width=64,height=48,framerate=30/1 ! videoconvert ! "+
		"video/x-raw,format=BGR ! appsink drop=true max-buffers=1 sync=false",
		LiveOptions{Helper: helper, MinBackoff: 10 * time.Millisecond, FrameTimeout: 3 * time.Second,
			OnEvent: func(e Event) { mu.Lock(); events = append(events, e); mu.Unlock() },
			Logger:  slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	m := gocv.NewMat()
	defer m.Close()
	read := func(n int) {
		t.Helper()
		for i := 0; i < n; i++ {
			if _, err := src.Next(ctx, &m); err != nil {
				t.Fatalf("frame %d: %v", i, err)
			}
			if m.Cols() != 64 || m.Rows() != 48 {
				t.Fatalf("frame %d: %dx%d", i, m.Cols(), m.Rows())
			}
		}
	}
	read(5)
	live := src.(*LiveSource)
	first := live.cap.(*helperCapture).p.cmd.Process
	if err := first.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	read(5)
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 2 || events[0].Kind != Lost || events[1].Kind != Back {
		t.Fatalf("events %v, want lost then back", events)
	}
	if again := live.cap.(*helperCapture).p.cmd.Process; again.Pid == first.Pid {
		t.Error("frames came back from the killed helper")
	}
	t.Logf("killed helper %d: %v", first.Pid, events[0].Err)
}
