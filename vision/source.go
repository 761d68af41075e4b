package vision

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"gocv.io/x/gocv"
)

// ErrEnd is returned by Next when a finite source (a video file, a directory) has no more frames.
var ErrEnd = errors.New("vision: end of frames")

// ErrClosed is returned by Next after Close.
var ErrClosed = errors.New("vision: source closed")

// FrameInfo describes a frame returned by Source.Next.
type FrameInfo struct {
	Time time.Time // when the frame was captured (or, for stills, its place in the sequence)
	Seq  uint64    // frame number from the source, counting from 1
	Name string    // the still's file name, for directory sources; empty otherwise
}

// Source yields camera frames. Next blocks until the next frame is in dst (BGR, reused between
// calls), the context ends, or the source ends (ErrEnd). Live sources never end: a lost camera
// is reported as an Event and reconnected, and Next keeps blocking until frames come back.
type Source interface {
	Next(ctx context.Context, dst *gocv.Mat) (FrameInfo, error)
	Close() error
}

// EventKind says what happened to a live source.
type EventKind int

// Camera events.
const (
	// Lost: the camera stopped giving frames (unplugged, pipeline failed, could not be opened).
	Lost EventKind = iota + 1
	// Back: the camera gives frames again after being lost.
	Back
)

// String returns "lost" or "back".
func (k EventKind) String() string {
	switch k {
	case Lost:
		return "lost"
	case Back:
		return "back"
	}
	return fmt.Sprintf("EventKind(%d)", int(k))
}

// Event reports a live source losing or regaining its camera.
type Event struct {
	Kind EventKind
	Time time.Time
	Err  error // why it was lost (nil for Back)
}

// Capture is an open camera connection (for real cameras, one camera helper process). Read
// waits for the next frame and puts it in m (BGR); an error means no frame came, and why.
type Capture interface {
	Read(ctx context.Context, m *gocv.Mat) error
	Close() error
}

// Opener opens a camera; it is called again, with backoff, whenever the camera is lost.
type Opener func(ctx context.Context) (Capture, error)

// LiveOptions tunes a live (reconnecting) source. The zero value is usable.
type LiveOptions struct {
	// OnEvent, when set, is called (from Next's goroutine) when the camera is lost or back.
	OnEvent func(Event)
	// MinBackoff and MaxBackoff bound the wait between reconnection attempts (defaults 200 ms and 5 s).
	MinBackoff, MaxBackoff time.Duration
	// FailedReads is how many consecutive failed reads count as a lost camera (default 3).
	FailedReads int
	// Now is the clock used for timestamps (default time.Now).
	Now func() time.Time
	// Logger receives reconnection messages (default slog.Default()).
	Logger *slog.Logger
	// Name identifies the camera in logs and errors.
	Name string
	// Helper is the path of the camera helper (cmd/kiosk-camera) that captures real cameras and
	// video files in its own process; empty means HelperName in the directory of the running
	// executable, then on $PATH.
	Helper string
	// FrameTimeout is how long a camera may give no frame before the read fails and its helper
	// is killed (default DefaultFrameTimeout): a hung driver becomes a lost camera.
	FrameTimeout time.Duration
}

// LiveSource is a camera that reconnects by itself: losing it is an event, not an error.
type LiveSource struct {
	open    Opener
	opt     LiveOptions
	cap     Capture
	lost    bool // a Lost event was sent and no Back yet
	fails   int
	seq     uint64
	closed  bool
	backoff time.Duration
}

// NewLiveSource returns a source reading from the cameras open returns. It does not open the
// camera until the first Next.
func NewLiveSource(open Opener, opt LiveOptions) *LiveSource {
	if opt.MinBackoff <= 0 {
		opt.MinBackoff = 200 * time.Millisecond
	}
	if opt.MaxBackoff < opt.MinBackoff {
		opt.MaxBackoff = max(5*time.Second, opt.MinBackoff)
	}
	if opt.FailedReads <= 0 {
		opt.FailedReads = 3
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	return &LiveSource{open: open, opt: opt, backoff: opt.MinBackoff}
}

// LibcameraPipeline is the GStreamer pipeline for a Raspberry Pi Camera Module (libcamerasrc)
// delivering BGR frames of w x h at fps, dropping stale frames so the reader sees the newest.
func LibcameraPipeline(w, h, fps int) string {
	return fmt.Sprintf("libcamerasrc ! video/x-raw,width=%d,height=%d,framerate=%d/1 ! videoconvert ! "+
		"video/x-raw,format=BGR ! appsink drop=true max-buffers=1 sync=false", w, h, fps)
}

func parseIndex(s string) (int, error) {
	var n int
	if s == "" {
		return 0, errors.New("empty")
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, errors.New("not a number")
		}
		n = n*10 + int(r-'0')
		if n > 1<<16 {
			return 0, errors.New("too large")
		}
	}
	return n, nil
}

// Next returns the next frame, reconnecting (with backoff) while the camera is lost.
func (s *LiveSource) Next(ctx context.Context, dst *gocv.Mat) (FrameInfo, error) {
	for {
		if s.closed {
			return FrameInfo{}, ErrClosed
		}
		if err := ctx.Err(); err != nil {
			return FrameInfo{}, err
		}
		if s.cap == nil {
			c, err := s.open(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return FrameInfo{}, ctx.Err()
				}
				s.markLost(err)
				if err := s.wait(ctx); err != nil {
					return FrameInfo{}, err
				}
				continue
			}
			s.cap = c
			s.fails = 0
		}
		err := s.cap.Read(ctx, dst)
		if err == nil && dst.Empty() {
			err = errors.New("empty frame")
		}
		if err == nil {
			s.fails = 0
			s.backoff = s.opt.MinBackoff
			s.seq++
			now := s.opt.Now()
			if s.lost {
				s.lost = false
				s.opt.Logger.Info("camera back", "camera", s.opt.Name)
				s.emit(Event{Kind: Back, Time: now})
			}
			return FrameInfo{Time: now, Seq: s.seq}, nil
		}
		if ctx.Err() != nil {
			return FrameInfo{}, ctx.Err()
		}
		s.fails++
		if s.fails >= s.opt.FailedReads {
			_ = s.cap.Close()
			s.cap = nil
			s.markLost(fmt.Errorf("vision: %s: %d reads in a row gave no frame: %w", s.opt.Name, s.fails, err))
			if err := s.wait(ctx); err != nil {
				return FrameInfo{}, err
			}
		}
	}
}

func (s *LiveSource) markLost(err error) {
	if s.lost {
		s.opt.Logger.Debug("camera still lost", "camera", s.opt.Name, "err", err)
		return
	}
	s.lost = true
	s.opt.Logger.Warn("camera lost", "camera", s.opt.Name, "err", err)
	s.emit(Event{Kind: Lost, Time: s.opt.Now(), Err: err})
}

func (s *LiveSource) emit(e Event) {
	if s.opt.OnEvent != nil {
		s.opt.OnEvent(e)
	}
}

// wait sleeps for the current backoff (doubling it up to MaxBackoff), or until ctx ends.
func (s *LiveSource) wait(ctx context.Context) error {
	return backOff(ctx, &s.backoff, s.opt.MaxBackoff)
}

// backOff sleeps for *d, or until ctx ends, and doubles *d up to most for the next time: how a
// source waits before it opens a lost camera again.
func backOff(ctx context.Context, d *time.Duration, most time.Duration) error {
	t := time.NewTimer(*d)
	defer t.Stop()
	*d = min(2**d, most)
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Lost reports whether the camera is currently lost.
func (s *LiveSource) Lost() bool { return s.lost }

// Close releases the camera.
func (s *LiveSource) Close() error {
	s.closed = true
	if s.cap != nil {
		err := s.cap.Close()
		s.cap = nil
		return err
	}
	return nil
}

// DrawFunc draws one w x h frame straight into pix (rows of 3*w bytes, blue first) and returns its
// time. The demo renderer's Camera.NextFrameBGR has this shape.
type DrawFunc func(ctx context.Context, pix []byte) (time.Time, error)

// DrawSource is a source whose frames are drawn by a function directly into the Mat's pixels: no
// image.Image in between, so a synthetic camera (the built-in demo) costs no frame buffer of its
// own and no conversion.
type DrawSource struct {
	draw DrawFunc
	w, h int
	seq  uint64
}

// NewDrawSource returns a source of w x h frames drawn by draw; draw's error ends the source
// (return ErrEnd for a normal end).
func NewDrawSource(w, h int, draw DrawFunc) (*DrawSource, error) {
	if w <= 0 || h <= 0 || w > 8192 || h > 8192 {
		return nil, fmt.Errorf("%w: frame size %dx%d", ErrFrame, w, h)
	}
	return &DrawSource{draw: draw, w: w, h: h}, nil
}

// Next draws the next frame into dst, which is (re)made a w x h BGR Mat when it is not one.
func (s *DrawSource) Next(ctx context.Context, dst *gocv.Mat) (FrameInfo, error) {
	if s.draw == nil {
		return FrameInfo{}, ErrClosed
	}
	if dst.Empty() || dst.Cols() != s.w || dst.Rows() != s.h || dst.Type() != gocv.MatTypeCV8UC3 || !dst.IsContinuous() {
		m := gocv.NewMatWithSize(s.h, s.w, gocv.MatTypeCV8UC3)
		m.CopyTo(dst) // dst takes m's size and type (CopyTo reallocates it)
		m.Close()
	}
	pix, err := dst.DataPtrUint8()
	if err != nil || len(pix) != 3*s.w*s.h {
		return FrameInfo{}, fmt.Errorf("%w: frame buffer: %v", ErrFrame, err)
	}
	at, err := s.draw(ctx, pix)
	if err != nil {
		return FrameInfo{}, err
	}
	s.seq++
	return FrameInfo{Time: at, Seq: s.seq}, nil
}

// Close ends the source.
func (s *DrawSource) Close() error {
	s.draw = nil
	return nil
}
