package vision

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tengen/internal/testenv"
	"tengen/vision/framepipe"
)

// fakeHelperEnv makes the test binary act as a camera helper (see fakeHelper); its value lists
// one behaviour per start, the last repeating. fakeHelperState names the file counting starts.
const (
	fakeHelperEnv   = "TENGEN_FAKE_CAMERA_HELPER"
	fakeHelperState = "TENGEN_FAKE_CAMERA_HELPER_STATE"
)

func TestMain(m *testing.M) {
	if modes := os.Getenv(fakeHelperEnv); modes != "" {
		os.Exit(fakeHelper(modes, os.Getenv(fakeHelperState)))
	}
	os.Exit(m.Run())
}

// fakeHelper behaves as the camera helper would in trouble. Modes (N frames of 8x6 first):
// frames (until stdin closes), crash:N (exit 3), hang:N (stop answering), error (an error
// message, exit 1), garbage (bytes that are no message), end:N (a video file's end), args (an
// error message listing its arguments).
func fakeHelper(modes, state string) int {
	n := 0
	if b, err := os.ReadFile(state); err == nil {
		n, _ = strconv.Atoi(string(b))
	}
	os.WriteFile(state, []byte(strconv.Itoa(n+1)), 0o644)
	list := strings.Split(modes, ",")
	mode := list[min(n, len(list)-1)]
	name, arg, _ := strings.Cut(mode, ":")
	count, _ := strconv.Atoi(arg)
	fmt.Fprintf(os.Stderr, "time=now level=WARN msg=\"fake helper\" mode=%s start=%d\n", mode, n+1)
	w := framepipe.NewWriter(os.Stdout)
	frame := func(seq int) error {
		pix := bytes.Repeat([]byte{byte(seq)}, 8*6*3)
		return w.WriteFrame(uint64(seq), int64(seq)*int64(100*time.Millisecond), 8, 6, pix)
	}
	for i := 1; i <= count; i++ {
		if err := frame(i); err != nil {
			return 1
		}
	}
	switch name {
	case "frames":
		go func() { io.Copy(io.Discard, os.Stdin); os.Exit(0) }()
		for i := 1; ; i++ {
			if frame(i) != nil {
				return 1
			}
			time.Sleep(5 * time.Millisecond)
		}
	case "crash":
		return 3
	case "hang":
		time.Sleep(time.Hour)
	case "error":
		w.WriteError("capture: open camera /dev/video0: no such device")
		return 1
	case "garbage":
		os.Stdout.WriteString("this is not a stream of frames, it is a log line written to stdout\n")
	case "end":
		w.WriteEnd(uint64(count))
	case "args":
		w.WriteError("args " + strings.Join(os.Args[1:], "|"))
		return 1
	}
	return 0
}

// syncBuffer is a bytes.Buffer safe for the helper's log goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// fakeHelperOptions sets the test binary up as the helper with the given modes.
func fakeHelperOptions(t *testing.T, modes string, events *[]Event, logs *syncBuffer) LiveOptions {
	t.Helper()
	testenv.SelfExec(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(fakeHelperEnv, modes)
	t.Setenv(fakeHelperState, filepath.Join(t.TempDir(), "starts"))
	return LiveOptions{
		Helper: exe, MinBackoff: time.Millisecond, MaxBackoff: 10 * time.Millisecond,
		OnEvent: func(e Event) { *events = append(*events, e) },
		Logger:  slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}
}

// starts returns how many times the fake helper was started.
func starts(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile(os.Getenv(fakeHelperState))
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(string(b))
	return n
}

// readFrames reads n frames, checking each is the fake helper's 8x6 BGR frame.
func readFrames(t *testing.T, ctx context.Context, src Source, m *gocv.Mat, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		if _, err := src.Next(ctx, m); err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if m.Cols() != 8 || m.Rows() != 6 || m.Type() != gocv.MatTypeCV8UC3 {
			t.Fatalf("frame %d: %dx%d type %v", i, m.Cols(), m.Rows(), m.Type())
		}
	}
}

func TestHelperLostAndBack(t *testing.T) {
	tests := []struct {
		name, modes string
		lostErr     string // in the Lost event's error
		is          error  // the Lost error wraps it (when set)
		frames      int    // frames before the trouble
	}{
		{"crash", "crash:2,error,frames", "exit status 3", nil, 2},
		{"error message", "error,frames", "no such device", nil, 0},
		{"malformed", "garbage,frames", "bad magic", framepipe.ErrMalformed, 0},
		{"hang", "hang:1,frames", "gave no frame in time", errHelperTimeout, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var events []Event
			logs := &syncBuffer{}
			opt := fakeHelperOptions(t, tc.modes, &events, logs)
			opt.FrameTimeout = 100 * time.Millisecond // the kiosk waits 1 s more than this
			src, err := OpenCamera("/dev/video0", opt)
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			m := gocv.NewMat()
			defer m.Close()
			readFrames(t, ctx, src, &m, tc.frames)
			if len(events) != 0 {
				t.Fatalf("events before the trouble: %v", events)
			}
			readFrames(t, ctx, src, &m, 3) // across the trouble: Lost, restart, Back
			if len(events) != 2 || events[0].Kind != Lost || events[1].Kind != Back {
				t.Fatalf("events = %v, want lost, back", events)
			}
			if err := events[0].Err; err == nil || !strings.Contains(err.Error(), tc.lostErr) || (tc.is != nil && !errors.Is(err, tc.is)) {
				t.Fatalf("lost error %v, want it to mention %q (and wrap %v)", err, tc.lostErr, tc.is)
			}
			if got, want := starts(t), len(strings.Split(tc.modes, ",")); got != want {
				t.Errorf("helper started %d times, want %d", got, want)
			}
			if !strings.Contains(logs.String(), `fake helper`) || !strings.Contains(logs.String(), "level=WARN") {
				t.Errorf("helper's stderr not in the log:\n%s", logs)
			}
		})
	}
}

func TestHelperMissing(t *testing.T) {
	var events []Event
	src, err := OpenCamera("0", LiveOptions{Helper: filepath.Join(t.TempDir(), "kiosk-camera"),
		MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, OnEvent: func(e Event) { events = append(events, e) },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	m := gocv.NewMat()
	defer m.Close()
	if _, err := src.Next(ctx, &m); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next = %v, want to keep waiting for the camera", err)
	}
	if len(events) != 1 || events[0].Kind != Lost || !errors.Is(events[0].Err, ErrNoCameraHelper) {
		t.Fatalf("events = %v, want one Lost wrapping ErrNoCameraHelper", events)
	}
	// The default search: next to the executable, then $PATH.
	t.Setenv("PATH", t.TempDir())
	if _, err := findHelper(""); !errors.Is(err, ErrNoCameraHelper) || !strings.Contains(err.Error(), "$PATH") {
		t.Fatalf("findHelper with no helper anywhere: %v", err)
	}
	bin := t.TempDir()
	helper := filepath.Join(bin, HelperName)
	os.WriteFile(helper, []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("PATH", bin)
	if p, err := findHelper(""); err != nil || p != helper {
		t.Fatalf("findHelper on $PATH = %q, %v", p, err)
	}
	// A missing helper for a video file is an error at once.
	video := filepath.Join(t.TempDir(), "clip.avi")
	os.WriteFile(video, []byte("x"), 0o644)
	if _, err := OpenCamera(video, LiveOptions{Helper: filepath.Join(t.TempDir(), "nope")}); !errors.Is(err, ErrNoCameraHelper) {
		t.Fatalf("video without helper: %v", err)
	}
}

// alive reports whether process pid exists (a zombie, not yet reaped, still does).
func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

func TestHelperCloseReaps(t *testing.T) {
	for _, mode := range []string{"frames", "hang:1"} {
		t.Run(mode, func(t *testing.T) {
			var events []Event
			opt := fakeHelperOptions(t, mode, &events, &syncBuffer{})
			before := runtime.NumGoroutine()
			src, err := OpenCamera("/dev/video0", opt)
			if err != nil {
				t.Fatal(err)
			}
			m := gocv.NewMat()
			defer m.Close()
			readFrames(t, context.Background(), src, &m, 1)
			pid := src.(*LiveSource).cap.(*helperCapture).p.cmd.Process.Pid
			if !alive(pid) {
				t.Fatal("helper not running while giving frames")
			}
			if err := src.Close(); err != nil {
				t.Fatal(err)
			}
			if alive(pid) {
				t.Fatalf("helper %d still exists after Close (running or a zombie)", pid)
			}
			deadline := time.Now().Add(2 * time.Second)
			for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if n := runtime.NumGoroutine(); n > before {
				t.Fatalf("%d goroutines after Close, %d before", n, before)
			}
			if _, err := src.Next(context.Background(), &m); !errors.Is(err, ErrClosed) {
				t.Fatalf("Next after Close: %v", err)
			}
		})
	}
}

func TestHelperCancelKeepsStream(t *testing.T) {
	// A context ending between frames interrupts Next without losing the camera.
	var events []Event
	opt := fakeHelperOptions(t, "hang:1", &events, &syncBuffer{})
	opt.FrameTimeout = time.Minute
	src, err := OpenCamera("/dev/video0", opt)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	m := gocv.NewMat()
	defer m.Close()
	readFrames(t, context.Background(), src, &m, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := src.Next(ctx, &m); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next = %v, want the context's error", err)
	}
	if len(events) != 0 || starts(t) != 1 {
		t.Fatalf("events %v, %d starts: a cancelled read must not lose the camera", events, starts(t))
	}
}

func TestHelperVideoEnd(t *testing.T) {
	var events []Event
	opt := fakeHelperOptions(t, "end:3", &events, &syncBuffer{})
	video := filepath.Join(t.TempDir(), "clip.avi")
	os.WriteFile(video, []byte("not read by the fake"), 0o644)
	start := time.Unix(1000, 0)
	src, err := openHelperVideo(video, start, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	m := gocv.NewMat()
	defer m.Close()
	for i := 1; i <= 3; i++ {
		info, err := src.Next(context.Background(), &m)
		if err != nil || info.Seq != uint64(i) || info.Time.Sub(start) != time.Duration(i)*100*time.Millisecond {
			t.Fatalf("frame %d: %+v, %v", i, info, err)
		}
		if got := m.GetVecbAt(5, 7)[2]; got != byte(i) {
			t.Fatalf("frame %d: pixel %d", i, got)
		}
	}
	for i := 0; i < 2; i++ {
		if _, err := src.Next(context.Background(), &m); !errors.Is(err, ErrEnd) {
			t.Fatalf("after the last frame: %v, want ErrEnd", err)
		}
	}
	// A helper dying inside a video (crash, kill -9) is a lost camera: a new helper is started,
	// the frames already delivered are skipped, and the video goes on from the next frame.
	events = nil
	opt = fakeHelperOptions(t, "crash:2,frames", &events, &syncBuffer{})
	src2, err := openHelperVideo(video, start, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer src2.Close()
	for i := 1; i <= 5; i++ {
		info, err := src2.Next(context.Background(), &m)
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if got := m.GetVecbAt(5, 7)[2]; got != byte(i) || info.Seq != uint64(i) || info.Time.Sub(start) != time.Duration(i)*100*time.Millisecond {
			t.Fatalf("frame %d: pixel %d, %+v: frames lost or repeated across the restart", i, got, info)
		}
		if i == 2 && len(events) != 0 {
			t.Fatalf("events before the crash: %v", events)
		}
	}
	if starts(t) != 2 || len(events) != 2 || events[0].Kind != Lost || events[1].Kind != Back ||
		!strings.Contains(events[0].Err.Error(), "exit status 3") {
		t.Fatalf("%d starts, events %v; want 2 starts, lost (exit status 3) then back", starts(t), events)
	}
	// A helper that never gives a new frame is given up after maxVideoRestarts restarts.
	events = nil
	opt = fakeHelperOptions(t, "crash:1,crash", &events, &syncBuffer{})
	src3, err := openHelperVideo(video, start, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer src3.Close()
	readFrames(t, context.Background(), src3, &m, 1)
	if _, err := src3.Next(context.Background(), &m); err == nil || errors.Is(err, ErrEnd) || !strings.Contains(err.Error(), "failed 6 times in a row") {
		t.Fatalf("after endless crashes: %v", err)
	}
	if starts(t) != 1+maxVideoRestarts || len(events) != 1 || events[0].Kind != Lost {
		t.Fatalf("%d starts, events %v", starts(t), events)
	}
}
