package vision

import (
	"context"
	"errors"
	"image"
	"time"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/vision/observe"
)

// CameraLoop reads every frame of a source through an Eye and hands each sight on; between frames
// it serves the camera screen (a frame and the board found in it) and takes corners placed there.
// Frames never leave it as Mats: the screen gets an image.Image, the table plain sights.
type CameraLoop struct {
	src   Source
	eye   *Eye
	grabs chan grabRequest
	use   chan calib.Calibration
}

// Snapshot is a frame for the camera screen, and the board in it when one was asked for and found.
type Snapshot struct {
	Frame       image.Image
	Calibration *calib.Calibration
}

type grabRequest struct {
	find  bool
	reply chan Snapshot
}

// ErrNoPicture is returned by Snapshot when the camera loop gives no frame in time.
var ErrNoPicture = errors.New("vision: no picture from the camera")

// NewCameraLoop returns the loop of src through eye; Run runs it.
func NewCameraLoop(src Source, eye *Eye) *CameraLoop {
	return &CameraLoop{src: src, eye: eye, grabs: make(chan grabRequest), use: make(chan calib.Calibration, 1)}
}

// Run reads frames until ctx ends or the source ends (nil), calling see with every frame's sight
// in the loop's goroutine.
func (c *CameraLoop) Run(ctx context.Context, see func(observe.Sight)) error {
	m := gocv.NewMat() // every frame is read into this one Mat
	defer m.Close()
	for {
		info, err := c.src.Next(ctx, &m)
		if err != nil {
			if errors.Is(err, ErrEnd) || ctx.Err() != nil {
				return nil
			}
			return err
		}
		select {
		case cal := <-c.use:
			if err := c.eye.Use(cal); err != nil {
				c.eye.log.Warn("calibration from the camera screen", "err", err)
			}
		default:
		}
		at := info.Time
		if at.IsZero() {
			at = time.Now()
		}
		see(c.eye.Look(m, at, info.Seq))
		select {
		case req := <-c.grabs:
			req.reply <- c.grab(m, req.find)
		default:
		}
	}
}

func (c *CameraLoop) grab(m gocv.Mat, find bool) Snapshot {
	var g Snapshot
	if img, err := m.ToImage(); err == nil {
		g.Frame = img
	}
	if find {
		if cal, err := calib.Find(m, calib.FindOptions{}); err == nil {
			g.Calibration = &cal
		} else if cal, ok := c.eye.Calibration(); ok {
			g.Calibration = &cal
		}
	}
	return g
}

// Snapshot asks the loop for its next frame (and, with find, the board found in it), waiting at most
// a few seconds for the camera.
func (c *CameraLoop) Snapshot(ctx context.Context, find bool) (Snapshot, error) {
	req := grabRequest{find: find, reply: make(chan Snapshot, 1)}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	select {
	case c.grabs <- req:
	case <-ctx.Done():
		return Snapshot{}, ErrNoPicture
	}
	select {
	case g := <-req.reply:
		if g.Frame == nil {
			return g, ErrNoPicture
		}
		return g, nil
	case <-ctx.Done():
		return Snapshot{}, ErrNoPicture
	}
}

// Use switches the loop to a calibration placed on the camera screen (from the next frame on).
func (c *CameraLoop) Use(cal calib.Calibration) {
	select {
	case c.use <- cal:
	default:
		select {
		case <-c.use:
		default:
		}
		c.use <- cal
	}
}
