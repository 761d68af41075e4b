package vision

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"gocv.io/x/gocv"

	"tengen/vision/framepipe"
)

// HelperName is the file name of the camera helper (cmd/kiosk-camera), which captures from real
// cameras and video files in its own process so the kiosk never loads OpenCV's videoio.
const HelperName = "kiosk-camera"

// DefaultFrameTimeout is how long a helper-backed camera may give no frame before it counts as
// lost and its helper is killed and restarted.
const DefaultFrameTimeout = 5 * time.Second

// ErrNoCameraHelper means the camera helper executable could not be found or started.
var ErrNoCameraHelper = errors.New("vision: camera helper " + HelperName + " not found")

// errHelperTimeout is wrapped when the helper gave no frame within the frame timeout.
var errHelperTimeout = errors.New("camera helper gave no frame in time")

// helperStartGrace is added to the frame timeout while a helper has sent nothing yet: a new
// process loads OpenCV and opens its camera before its first frame (seconds on a busy Pi), and
// a start that is merely slow must not count as a lost camera.
const helperStartGrace = 5 * time.Second

// helperStopGrace is how long Close waits after SIGTERM before killing the helper.
const helperStopGrace = time.Second

// findHelper resolves the helper's path: path itself when set, else HelperName in the directory
// of the running executable, else HelperName on $PATH.
func findHelper(path string) (string, error) {
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			return "", fmt.Errorf("%w: %w", ErrNoCameraHelper, err)
		}
		return path, nil
	}
	var tried []string
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), HelperName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
		tried = append(tried, filepath.Dir(exe))
	}
	p, err := exec.LookPath(HelperName)
	if err == nil {
		return p, nil
	}
	tried = append(tried, "$PATH")
	return "", fmt.Errorf("%w (looked in %s; build it with go build -o bin/%s ./cmd/%s)",
		ErrNoCameraHelper, strings.Join(tried, " and "), HelperName, HelperName)
}

// helperProc is one running camera helper and the read end of its frame stream.
type helperProc struct {
	cmd     *exec.Cmd
	name    string
	log     *slog.Logger
	out     *os.File // the helper's stdout: frames
	stdin   *os.File // the write end of the helper's stdin, never written: it dies with us
	r       *framepipe.Reader
	timeout time.Duration // per message, a little longer than the helper's own
	spoke   bool          // a message has come: the start grace is over
	waited  chan struct{} // closed when the process has been reaped
	waitErr error
	logged  chan struct{} // closed when its stderr has been read to the end
	err     error         // sticky: the stream is over
}

// startHelper starts the helper for spec with the options' helper path, frame timeout and logger.
func startHelper(spec string, opt LiveOptions) (*helperProc, error) {
	path, err := findHelper(opt.Helper)
	if err != nil {
		return nil, err
	}
	timeout := opt.FrameTimeout
	if timeout <= 0 {
		timeout = DefaultFrameTimeout
	}
	log := opt.Logger
	if log == nil {
		log = slog.Default()
	}
	name := opt.Name
	if name == "" {
		name = spec
	}
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	outR, outW, err1 := pipe()
	inR, inW, err2 := pipe()
	errR, errW, err3 := pipe()
	if err := errors.Join(err1, err2, err3); err != nil {
		closeAll()
		return nil, fmt.Errorf("vision: camera helper pipes: %w", err)
	}
	cmd := exec.Command(path, "--frame-timeout", timeout.String(), "--", spec)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, fmt.Errorf("%w: %w", ErrNoCameraHelper, err)
	}
	// The child has its copies; ours of its ends would keep the pipes open after it dies.
	inR.Close()
	outW.Close()
	errW.Close()
	p := &helperProc{
		cmd: cmd, name: name, log: log, out: outR, stdin: inW, r: framepipe.NewReader(outR),
		timeout: timeout + time.Second, waited: make(chan struct{}), logged: make(chan struct{}),
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.waited)
	}()
	go func() {
		defer close(p.logged)
		defer errR.Close()
		logHelper(errR, log.With("camera", name, "helper_pid", cmd.Process.Pid))
	}()
	log.Debug("camera helper started", "camera", name, "path", path, "pid", cmd.Process.Pid)
	return p, nil
}

// logHelper forwards the helper's stderr lines (slog text) to log, at the level they carry.
func logHelper(r io.Reader, log *slog.Logger) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 64<<10)
	for sc.Scan() {
		line := sc.Text()
		level := slog.LevelInfo
		switch {
		case strings.Contains(line, "level=ERROR"):
			level = slog.LevelError
		case strings.Contains(line, "level=WARN"):
			level = slog.LevelWarn
		case strings.Contains(line, "level=DEBUG"):
			level = slog.LevelDebug
		}
		log.Log(context.Background(), level, "camera helper", "line", line)
	}
}

// next reads the helper's next message, waiting at most the frame timeout, or until ctx ends.
// Once the stream is over (end of stream, malformed bytes, timeout, an error message) it keeps
// returning that error, and a helper that may still run is killed.
func (p *helperProc) next(ctx context.Context) (framepipe.Message, error) {
	if p.err != nil {
		return framepipe.Message{}, p.err
	}
	if err := ctx.Err(); err != nil {
		return framepipe.Message{}, err
	}
	wait := p.timeout
	if !p.spoke {
		wait += helperStartGrace
	}
	_ = p.out.SetReadDeadline(time.Now().Add(wait))
	stop := context.AfterFunc(ctx, func() { _ = p.out.SetReadDeadline(time.Now()) })
	m, err := p.r.Next()
	stop()
	if err == nil {
		p.spoke = true
	}
	switch {
	case err == nil && m.Kind == framepipe.KindError:
		err = fmt.Errorf("vision: %s: %s", p.name, m.Text())
	case err == nil:
		return m, nil
	case ctx.Err() != nil && p.r.Broken() == nil:
		// Interrupted between two messages: the stream is still in step.
		return framepipe.Message{}, ctx.Err()
	case errors.Is(err, os.ErrDeadlineExceeded):
		err = fmt.Errorf("vision: %s: %w (%v)", p.name, errHelperTimeout, wait)
	case errors.Is(err, io.EOF):
		err = fmt.Errorf("vision: %s: camera helper exited: %s", p.name, p.exitStatus())
	default:
		err = fmt.Errorf("vision: %s: camera helper: %w", p.name, err)
	}
	p.err = err
	p.kill()
	return framepipe.Message{}, err
}

// exitStatus waits briefly for the helper to be reaped and describes how it ended.
func (p *helperProc) exitStatus() string {
	select {
	case <-p.waited:
	case <-time.After(helperStopGrace):
		return "closed its output but is still running"
	}
	if p.waitErr == nil {
		return "exit status 0"
	}
	return p.waitErr.Error()
}

// kill ends the helper at once (it may be hung in a camera driver).
func (p *helperProc) kill() {
	select {
	case <-p.waited:
	default:
		_ = p.cmd.Process.Kill()
	}
}

// close stops the helper (closing its stdin and SIGTERM, then SIGKILL after a grace period),
// reaps it and waits until its stderr is drained. A helper stuck in the kernel (a driver in
// uninterruptible sleep) cannot die even of SIGKILL: close gives up waiting after a second grace
// period so the kiosk goes on, and the waiting goroutine reaps the helper whenever it ends.
func (p *helperProc) close() {
	p.stdin.Close()
	select {
	case <-p.waited:
	default:
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.waited:
		case <-time.After(helperStopGrace):
			p.kill()
		}
	}
	select {
	case <-p.waited:
		<-p.logged
	case <-time.After(helperStopGrace):
		p.log.Warn("camera helper does not die; leaving it to be reaped later", "camera", p.name, "pid", p.cmd.Process.Pid)
	}
	p.out.Close()
	if p.err == nil {
		p.err = ErrClosed
	}
}

// toMat copies a frame message into dst (BGR), reusing dst's pixels when the size matches.
func toMat(m framepipe.Message, dst *gocv.Mat) error {
	if dst.Rows() == m.Height && dst.Cols() == m.Width && dst.Type() == gocv.MatTypeCV8UC3 {
		if p, err := dst.DataPtrUint8(); err == nil && len(p) == len(m.Payload) {
			copy(p, m.Payload)
			return nil
		}
	}
	src, err := gocv.NewMatFromBytes(m.Height, m.Width, gocv.MatTypeCV8UC3, m.Payload)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrFrame, err)
	}
	defer src.Close()
	src.CopyTo(dst)
	return nil
}

// helperCapture is a Capture backed by one helper process: LiveSource kills it (Close) and
// starts another (its Opener) when it stops giving frames.
type helperCapture struct {
	p *helperProc
}

// helperOpener returns an Opener starting a helper for spec.
func helperOpener(spec string, opt LiveOptions) Opener {
	return func(context.Context) (Capture, error) {
		p, err := startHelper(spec, opt)
		if err != nil {
			return nil, err
		}
		return &helperCapture{p: p}, nil
	}
}

// Read waits for the helper's next frame.
func (c *helperCapture) Read(ctx context.Context, dst *gocv.Mat) error {
	m, err := c.p.next(ctx)
	if err != nil {
		return err
	}
	if m.Kind != framepipe.KindFrame {
		c.p.err = fmt.Errorf("vision: %s: camera helper sent %s from a live camera", c.p.name, m.Kind)
		c.p.kill()
		return c.p.err
	}
	return toMat(m, dst)
}

// Close stops and reaps the helper.
func (c *helperCapture) Close() error {
	c.p.close()
	return nil
}

// helperVideoSource reads the frames of a video file once, decoded by the camera helper; Next
// returns ErrEnd after the last. A helper that dies mid-video (killed, crashed, hung past the
// frame timeout) is supervised like a camera's: a Lost event, a new helper after a backoff, the
// frames already delivered skipped (the helper numbers each frame from the start of the file),
// and a Back event with the next new frame. After maxVideoRestarts restarts in a row without a
// new frame, Next gives up with the helper's error; so does a first helper that gives no frame.
type helperVideoSource struct {
	path     string
	opt      LiveOptions
	p        *helperProc // nil between a helper's death and the next start
	start    time.Time
	seq      uint64 // frames delivered
	lastSeq  uint64 // the helper's number of the last frame delivered
	ended    bool
	closed   bool
	lost     bool // a Lost event was sent and no Back yet
	restarts int  // helpers started since the last new frame
	backoff  time.Duration
}

// maxVideoRestarts bounds the helpers started in a row for a video file without a new frame.
const maxVideoRestarts = 5

// openHelperVideo starts the helper for a video file. Frame times are start plus the frame's
// position in the video.
func openHelperVideo(path string, start time.Time, opt LiveOptions) (*helperVideoSource, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("vision: %w", err)
	}
	if opt.Name == "" {
		opt.Name = path
	}
	if opt.MinBackoff <= 0 {
		opt.MinBackoff = 200 * time.Millisecond
	}
	if opt.MaxBackoff < opt.MinBackoff {
		opt.MaxBackoff = max(5*time.Second, opt.MinBackoff)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	p, err := startHelper(path, opt)
	if err != nil {
		return nil, err
	}
	return &helperVideoSource{path: path, opt: opt, p: p, start: start, backoff: opt.MinBackoff}, nil
}

// Next reads the next frame of the video, restarting a helper that died.
func (s *helperVideoSource) Next(ctx context.Context, dst *gocv.Mat) (FrameInfo, error) {
	for {
		if s.closed {
			return FrameInfo{}, ErrClosed
		}
		if s.ended {
			return FrameInfo{}, ErrEnd
		}
		if err := ctx.Err(); err != nil {
			return FrameInfo{}, err
		}
		if s.p == nil {
			p, err := startHelper(s.path, s.opt)
			if err != nil {
				if gaveUp := s.helperFailed(err); gaveUp != nil {
					return FrameInfo{}, gaveUp
				}
				if err := s.wait(ctx); err != nil {
					return FrameInfo{}, err
				}
				continue
			}
			s.p = p
		}
		m, err := s.p.next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return FrameInfo{}, ctx.Err()
			}
			s.p.close()
			s.p = nil
			if gaveUp := s.helperFailed(err); gaveUp != nil {
				return FrameInfo{}, gaveUp
			}
			if err := s.wait(ctx); err != nil {
				return FrameInfo{}, err
			}
			continue
		}
		switch m.Kind {
		case framepipe.KindEnd:
			s.ended = true
			return FrameInfo{}, ErrEnd
		case framepipe.KindFrame:
			if m.Seq != 0 && m.Seq <= s.lastSeq {
				continue // delivered before the helper was restarted
			}
			if err := toMat(m, dst); err != nil {
				return FrameInfo{}, err
			}
			s.lastSeq = m.Seq
			s.seq++
			s.restarts = 0
			s.backoff = s.opt.MinBackoff
			if s.lost {
				s.lost = false
				s.opt.Logger.Info("camera back", "camera", s.opt.Name, "frame", m.Seq)
				s.emit(Event{Kind: Back, Time: s.opt.Now()})
			}
			return FrameInfo{Time: s.start.Add(time.Duration(m.Time)), Seq: s.seq}, nil
		}
		return FrameInfo{}, fmt.Errorf("vision: %s: unexpected %s message", s.opt.Name, m.Kind)
	}
}

// helperFailed reports a helper that could not start or died: the first time since the last
// frame as a Lost event; it returns the error to give up with once maxVideoRestarts is reached,
// or at once when no frame ever came (a file the helper cannot read is not a lost camera).
func (s *helperVideoSource) helperFailed(err error) error {
	if s.seq == 0 {
		return err
	}
	s.restarts++
	if s.restarts > maxVideoRestarts {
		return fmt.Errorf("vision: %s: the camera helper failed %d times in a row without a new frame: %w", s.opt.Name, s.restarts, err)
	}
	if !s.lost {
		s.lost = true
		s.opt.Logger.Warn("camera lost; restarting its helper", "camera", s.opt.Name, "err", err, "after frame", s.lastSeq)
		s.emit(Event{Kind: Lost, Time: s.opt.Now(), Err: err})
	} else {
		s.opt.Logger.Debug("camera still lost", "camera", s.opt.Name, "err", err)
	}
	return nil
}

func (s *helperVideoSource) emit(e Event) {
	if s.opt.OnEvent != nil {
		s.opt.OnEvent(e)
	}
}

// wait sleeps for the current backoff (doubling it up to MaxBackoff), or until ctx ends.
func (s *helperVideoSource) wait(ctx context.Context) error {
	return backOff(ctx, &s.backoff, s.opt.MaxBackoff)
}

// Close stops the helper.
func (s *helperVideoSource) Close() error {
	s.closed = true
	if s.p == nil {
		return nil
	}
	s.p.close()
	s.p = nil
	return nil
}
