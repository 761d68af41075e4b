package vision

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"time"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/vision/observe"
)

// ProbeFrameTimeout bounds the wait for one frame of a probed camera: a live source otherwise
// waits for a lost camera forever.
const ProbeFrameTimeout = 5 * time.Second

// Probe is a camera opened by a set-up tool (`kiosk doctor`, `kiosk calibrate`): it reads one
// frame at a time, says its size, and finds the board in the latest. The frames stay inside.
type Probe struct {
	src  Source
	m    gocv.Mat
	lost chan error
}

// OpenProbe opens the camera spec (as the kiosk's configuration names it). The camera helper's
// own lines (OpenCV's and GStreamer's warnings among them) and the source's events are logged to
// slog's default logger; OpenProbeLogged sends them elsewhere.
func OpenProbe(spec string) (*Probe, error) { return OpenProbeLogged(spec, nil) }

// OpenProbeLogged is OpenProbe logging to log (nil: slog's default). A tool that prints its own
// report (`kiosk doctor`) gives a logger that keeps the libraries' warnings off its output; the
// helper's failure still comes back as the error of Next.
func OpenProbeLogged(spec string, log *slog.Logger) (*Probe, error) {
	p := &Probe{m: gocv.NewMat(), lost: make(chan error, 1)}
	src, err := OpenCamera(spec, LiveOptions{
		Name:   spec,
		Logger: log,
		OnEvent: func(e Event) {
			if e.Kind == Lost {
				select {
				case p.lost <- e.Err:
				default:
				}
			}
		},
	})
	if err != nil {
		p.m.Close()
		return nil, err
	}
	p.src = src
	return p, nil
}

// Next reads the next frame and returns its size; a lost camera, or no frame within
// ProbeFrameTimeout, is an error.
func (p *Probe) Next(ctx context.Context) (width, height int, err error) {
	ctx, cancel := context.WithTimeoutCause(ctx, ProbeFrameTimeout, fmt.Errorf("no frame within %v", ProbeFrameTimeout))
	defer cancel()
	ctx, cancelLost := context.WithCancelCause(ctx)
	defer cancelLost(nil)
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case err := <-p.lost:
			if err == nil {
				err = errors.New("camera lost")
			}
			cancelLost(err)
		case <-done:
		}
	}()
	if _, err := p.src.Next(ctx, &p.m); err != nil {
		if cause := context.Cause(ctx); cause != nil {
			return 0, 0, cause
		}
		return 0, 0, err
	}
	return p.m.Cols(), p.m.Rows(), nil
}

// FindBoard finds the board (of size, or any with 0) in the latest frame.
func (p *Probe) FindBoard(ctx context.Context, size int) (calib.Calibration, error) {
	if p.m.Empty() {
		return calib.Calibration{}, fmt.Errorf("%w: no frame read yet", ErrFrame)
	}
	return calib.Find(p.m, calib.FindOptions{Size: size, Context: ctx})
}

// Close closes the camera.
func (p *Probe) Close() error {
	err := p.src.Close()
	p.m.Close()
	return err
}

// FindBoardInFile finds the board (of size, or any with 0) in a photo.
func FindBoardInFile(ctx context.Context, path string, size int) (calib.Calibration, error) {
	img := gocv.NewMat()
	defer img.Close()
	if err := ReadImage(path, &img); err != nil {
		return calib.Calibration{}, err
	}
	return calib.Find(img, calib.FindOptions{Size: size, Context: ctx})
}

// FitLensImage is calib.FitLens for a frame held in Go (a camera loop's snapshot): it fits the
// lens term of corners placed by hand on the set-up screen.
func FitLensImage(img image.Image, cal calib.Calibration) (calib.Calibration, error) {
	m, err := gocv.ImageToMatRGB(img)
	if err != nil {
		return cal, fmt.Errorf("vision: %w", err)
	}
	defer m.Close()
	return calib.FitLens(m, cal)
}

// LookImage is Look for a frame drawn in Go (the demo's renderer).
func (e *Eye) LookImage(img image.Image, at time.Time, seq uint64) (observe.Sight, error) {
	m, err := gocv.ImageToMatRGB(img)
	if err != nil {
		return observe.Sight{}, fmt.Errorf("vision: %w", err)
	}
	defer m.Close()
	return e.Look(m, at, seq), nil
}

// ReadImage is Read for a frame drawn in Go (the demo's renderer, tests).
func (r *Reader) ReadImage(img image.Image) (Reading, error) {
	m, err := gocv.ImageToMatRGB(img)
	if err != nil {
		return Reading{}, fmt.Errorf("vision: %w", err)
	}
	defer m.Close()
	return r.Read(m)
}

// FindInImage finds the board (of size, or any with 0) in a frame drawn in Go, with calib.Find
// alone (no reader's grid check).
func FindInImage(ctx context.Context, img image.Image, size int) (calib.Calibration, error) {
	m, err := gocv.ImageToMatRGB(img)
	if err != nil {
		return calib.Calibration{}, fmt.Errorf("vision: %w", err)
	}
	defer m.Close()
	return calib.Find(m, calib.FindOptions{Size: size, Context: ctx})
}
