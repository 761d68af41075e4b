// Package capture opens cameras and video files with OpenCV's videoio and streams their frames
// over a framepipe. It is the camera helper's (cmd/kiosk-camera) whole job, and the only place
// outside tests that uses videoio: the kiosk itself never loads it (with its GStreamer, FFmpeg
// and V4L2 dependencies), and a camera driver that hangs or crashes takes down only the helper,
// which the kiosk kills and restarts.
package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"gocv.io/x/gocv"

	"tengen/vision"
	"tengen/vision/framepipe"
)

// DefaultFrameTimeout is how long a live camera may give no frame before Serve gives up.
const DefaultFrameTimeout = 5 * time.Second

// failedReads is how many reads in a row may give no frame before a live camera counts as lost.
const failedReads = 3

// Options tunes Serve. The zero value is usable.
type Options struct {
	// FrameTimeout is how long a live camera may give no frame (opening included) before Serve
	// writes an error message and returns (default DefaultFrameTimeout).
	FrameTimeout time.Duration
	// Logger receives progress and problems (default slog.Default()).
	Logger *slog.Logger
}

// Serve opens the camera spec names (the syntax of vision.ParseCameraSpec: a V4L2 device or
// index, libcamera, a GStreamer pipeline, or a video file) and writes its frames to w as
// framepipe messages until ctx ends (nil) or the writer fails (a wrapped write error, EPIPE
// when the kiosk went away).
//
// A live camera is captured on its own goroutine, decoupled from writing: a slow reader always
// gets the newest frame and stale ones are dropped. A video file is written frame by frame in
// order, then an end message. When the source cannot be opened or stops giving frames, Serve
// writes an error message with the reason and returns that error. A camera read that hangs in
// the driver cannot be interrupted: after the frame timeout Serve returns anyway, leaving that
// goroutine behind, and the caller (the helper process) is expected to exit.
func Serve(ctx context.Context, spec string, w io.Writer, opt Options) error {
	if opt.FrameTimeout <= 0 {
		opt.FrameTimeout = DefaultFrameTimeout
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	fw := framepipe.NewWriter(w)
	cs, err := vision.ParseCameraSpec(spec)
	if err == nil && cs.Kind == vision.CameraPath {
		var st os.FileInfo
		if st, err = os.Stat(cs.Target); err == nil && st.IsDir() {
			err = fmt.Errorf("capture: %s is a directory: the kiosk reads directories of stills itself", cs.Target)
		}
	}
	if err != nil {
		return giveUp(fw, err)
	}
	if cs.Kind == vision.CameraPath {
		return serveFile(ctx, cs.Target, fw, opt)
	}
	return serveLive(ctx, func() (camera, error) {
		vc, err := open(cs)
		if err != nil {
			return nil, err
		}
		opt.Logger.Info("camera opened", "kind", cs.Kind, "target", cs.Target)
		return vc, nil
	}, fw, opt)
}

// camera is an open live camera (gocv.VideoCapture); Read returns false when no frame came.
type camera interface {
	Read(m *gocv.Mat) bool
	Close() error
}

// giveUp writes err as an error message and returns it (joined with a write failure, if any).
func giveUp(fw *framepipe.Writer, err error) error {
	if werr := fw.WriteError(err.Error()); werr != nil {
		return errors.Join(err, werr)
	}
	return err
}

// open opens a live camera or a video file with videoio.
func open(cs vision.CameraSpec) (*gocv.VideoCapture, error) {
	var (
		vc   *gocv.VideoCapture
		err  error
		what string
	)
	switch cs.Kind {
	case vision.CameraDevice:
		what = "camera " + cs.Target
		var id any = cs.Target
		if n, aerr := strconv.Atoi(cs.Target); aerr == nil {
			id = n
		}
		vc, err = gocv.OpenVideoCaptureWithAPI(id, gocv.VideoCaptureV4L2)
	case vision.CameraLibcamera:
		what = fmt.Sprintf("libcamera %dx%d@%d", cs.Width, cs.Height, cs.FPS)
		vc, err = gocv.OpenVideoCaptureWithAPI(vision.LibcameraPipeline(cs.Width, cs.Height, cs.FPS), gocv.VideoCaptureGstreamer)
	case vision.CameraPipeline:
		what = fmt.Sprintf("pipeline %q", cs.Target)
		vc, err = gocv.OpenVideoCaptureWithAPI(cs.Target, gocv.VideoCaptureGstreamer)
	case vision.CameraPath:
		what = "video " + cs.Target
		if _, err = os.Stat(cs.Target); err != nil {
			return nil, fmt.Errorf("capture: %w", err)
		}
		vc, err = gocv.VideoCaptureFile(cs.Target)
	default:
		return nil, fmt.Errorf("capture: unknown camera kind %d", cs.Kind)
	}
	if err != nil {
		return nil, fmt.Errorf("capture: open %s: %w", what, err)
	}
	if !vc.IsOpened() {
		vc.Close()
		return nil, fmt.Errorf("capture: %s did not open", what)
	}
	return vc, nil
}

// bgr returns m's pixels as packed BGR bytes, converting through conv when m is grey or BGRA.
func bgr(m, conv *gocv.Mat) ([]byte, error) {
	src := m
	switch m.Type() {
	case gocv.MatTypeCV8UC3:
	case gocv.MatTypeCV8UC1:
		gocv.CvtColor(*m, conv, gocv.ColorGrayToBGR)
		src = conv
	case gocv.MatTypeCV8UC4:
		gocv.CvtColor(*m, conv, gocv.ColorBGRAToBGR)
		src = conv
	default:
		return nil, fmt.Errorf("capture: unsupported frame type %v", m.Type())
	}
	if p, err := src.DataPtrUint8(); err == nil {
		return p, nil
	}
	return src.ToBytes(), nil
}

// serveFile writes every frame of a video file in order, then an end message. Frame times are
// positions in the video (nanoseconds from its start, at the file's frame rate).
func serveFile(ctx context.Context, path string, fw *framepipe.Writer, opt Options) error {
	vc, err := open(vision.CameraSpec{Kind: vision.CameraPath, Target: path})
	if err != nil {
		return giveUp(fw, err)
	}
	defer vc.Close()
	fps := vc.Get(gocv.VideoCaptureFPS)
	if fps <= 0 || fps > 1000 {
		fps = 30
	}
	opt.Logger.Info("video opened", "path", path, "fps", fps)
	m, conv := gocv.NewMat(), gocv.NewMat()
	defer m.Close()
	defer conv.Close()
	var seq uint64
	for ctx.Err() == nil {
		if !vc.Read(&m) || m.Empty() {
			opt.Logger.Info("video ended", "path", path, "frames", seq)
			if err := fw.WriteEnd(seq); err != nil {
				return err
			}
			return nil
		}
		seq++
		pix, err := bgr(&m, &conv)
		if err != nil {
			return giveUp(fw, err)
		}
		at := time.Duration(float64(seq-1) / fps * float64(time.Second))
		if err := fw.WriteFrame(seq, int64(at), m.Cols(), m.Rows(), pix); err != nil {
			return err
		}
	}
	return nil
}

// latest is the hand-over slot between the capture goroutine and the writer: the newest frame,
// replaced (the older one dropped) whenever the camera gives another.
type latest struct {
	mu    sync.Mutex
	m     gocv.Mat
	seq   uint64
	at    int64 // unix nanoseconds
	fresh bool
}

// serveLive captures on its own goroutine and writes the newest frame whenever the writer is
// free, until ctx ends, the camera fails or the writer fails.
func serveLive(ctx context.Context, open func() (camera, error), fw *framepipe.Writer, opt Options) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	slot := &latest{m: gocv.NewMat()}
	ready := make(chan struct{}, 1)
	capErr := make(chan error, 1)
	var lastFrame atomic.Int64
	lastFrame.Store(time.Now().UnixNano())
	go func() { capErr <- captureLive(ctx, open, slot, ready, &lastFrame) }()

	out, conv := gocv.NewMat(), gocv.NewMat()
	defer out.Close()
	defer conv.Close()
	captureDone := false
	defer func() {
		cancel()
		if !captureDone {
			// Wait briefly for the capture goroutine to let go of the slot; a read hung in the
			// driver never does, and the slot's Mat is then left to the process's exit.
			select {
			case <-capErr:
			case <-time.After(time.Second):
				opt.Logger.Warn("camera read did not return; leaving it behind")
				return
			}
		}
		slot.m.Close()
	}()
	var written, dropped uint64
	timer := time.NewTimer(opt.FrameTimeout)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			opt.Logger.Info("stopping", "frames", written, "dropped", dropped)
			return nil
		case err := <-capErr:
			captureDone = true
			if err == nil { // only when ctx ended
				return nil
			}
			return giveUp(fw, err)
		case <-timer.C:
			idle := time.Since(time.Unix(0, lastFrame.Load()))
			if idle < opt.FrameTimeout {
				timer.Reset(opt.FrameTimeout - idle)
				continue
			}
			return giveUp(fw, fmt.Errorf("capture: no frame from the camera for %v", idle.Round(time.Millisecond)))
		case <-ready:
			slot.mu.Lock()
			if !slot.fresh { // already taken with an earlier signal
				slot.mu.Unlock()
				continue
			}
			out, slot.m = slot.m, out
			seq, at := slot.seq, slot.at
			slot.fresh = false
			slot.mu.Unlock()
			pix, err := bgr(&out, &conv)
			if err != nil {
				return giveUp(fw, err)
			}
			if err := fw.WriteFrame(seq, at, out.Cols(), out.Rows(), pix); err != nil {
				return err
			}
			written++
			dropped = seq - written
		}
	}
}

// captureLive opens the camera and reads frames into the slot until ctx ends (nil) or the camera
// fails.
func captureLive(ctx context.Context, open func() (camera, error), slot *latest, ready chan<- struct{}, lastFrame *atomic.Int64) error {
	vc, err := open()
	if err != nil {
		return err
	}
	defer vc.Close()
	m := gocv.NewMat()
	defer m.Close()
	var seq uint64
	fails := 0
	for ctx.Err() == nil {
		if !vc.Read(&m) || m.Empty() {
			fails++
			if fails >= failedReads {
				return fmt.Errorf("capture: %d reads in a row gave no frame", fails)
			}
			continue
		}
		fails = 0
		seq++
		now := time.Now().UnixNano()
		lastFrame.Store(now)
		slot.mu.Lock()
		m, slot.m = slot.m, m
		slot.seq, slot.at, slot.fresh = seq, now, true
		slot.mu.Unlock()
		select {
		case ready <- struct{}{}:
		default:
		}
	}
	return nil
}
