package demo

import (
	"context"
	"errors"
	"fmt"
	"image"
	"time"
)

// Camera plays a Script in real time as a camera would: Next waits for the next frame time and
// returns the frame the renderer draws for that moment. Frames are new images each time (callers may
// keep them). A Camera is used by one goroutine.
type Camera struct {
	script   *Script
	render   *Renderer
	w, h     int
	interval time.Duration
	start    time.Time
	now      func() time.Time
	seq      uint64
	hand     Hand // the current frame's hand, reused between frames
}

// NewCamera returns a w x h camera at fps frames a second whose demo starts at start (the same instant
// RunActions is given, so frames and presses agree).
func NewCamera(s *Script, r *Renderer, w, h int, fps float64, start time.Time) (*Camera, error) {
	if s == nil || r == nil {
		return nil, errors.New("demo: camera needs a script and a renderer")
	}
	if fps <= 0 || fps > 120 {
		return nil, fmt.Errorf("demo: frame rate %v out of range (0, 120]", fps)
	}
	if w < 64 || h < 48 || w > 8192 || h > 8192 {
		return nil, fmt.Errorf("demo: frame size %dx%d out of range 64x48..8192x8192", w, h)
	}
	return &Camera{script: s, render: r, w: w, h: h, interval: time.Duration(float64(time.Second) / fps),
		start: start, now: time.Now}, nil
}

// Size returns the frame size.
func (c *Camera) Size() (w, h int) { return c.w, c.h }

// Next waits for the next frame time (frames late callers missed are dropped, as a camera drops them)
// and returns the frame, its time and its sequence number's time stamp.
func (c *Camera) Next(ctx context.Context) (image.Image, time.Time, error) {
	img, at, _, err := c.NextFrame(ctx)
	return img, at, err
}

// NextFrame is Next that also returns the frame's sequence number (frames since the start).
func (c *Camera) NextFrame(ctx context.Context) (*image.RGBA, time.Time, uint64, error) {
	img := image.NewRGBA(image.Rect(0, 0, c.w, c.h))
	at, seq, err := c.NextFrameInto(ctx, img)
	if err != nil {
		return nil, time.Time{}, 0, err
	}
	return img, at, seq, nil
}

// NextFrameInto is NextFrame drawing into dst (of the camera's size), for callers that reuse one
// buffer.
func (c *Camera) NextFrameInto(ctx context.Context, dst *image.RGBA) (time.Time, uint64, error) {
	if b := dst.Bounds(); b.Dx() != c.w || b.Dy() != c.h {
		return time.Time{}, 0, fmt.Errorf("demo: frame buffer %v, camera is %dx%d", b, c.w, c.h)
	}
	return c.next(ctx, func(sc Scene) error { return c.render.RenderInto(dst, sc) })
}

// NextFrameBGR is NextFrame drawing into pix, rows of 3*w bytes blue first (an OpenCV BGR frame's
// buffer), so the kiosk draws the demo straight into the Mat vision reads.
func (c *Camera) NextFrameBGR(ctx context.Context, pix []byte) (time.Time, uint64, error) {
	if len(pix) != 3*c.w*c.h {
		return time.Time{}, 0, fmt.Errorf("demo: %d bytes of frame buffer, camera is %dx%d BGR", len(pix), c.w, c.h)
	}
	return c.next(ctx, func(sc Scene) error { return c.render.RenderBGR(pix, c.w, c.h, sc) })
}

// next waits for the next frame's time and draws its scene with draw.
func (c *Camera) next(ctx context.Context, draw func(Scene) error) (time.Time, uint64, error) {
	elapsed := c.now().Sub(c.start)
	due := uint64(0)
	if elapsed > 0 {
		due = uint64(elapsed / c.interval)
	}
	seq := c.seq + 1
	if due > seq {
		seq = due
	}
	at := c.start.Add(time.Duration(seq) * c.interval)
	if wait := at.Sub(c.now()); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return time.Time{}, 0, ctx.Err()
		case <-t.C:
		}
	}
	c.seq = seq
	sc := c.script.sceneAt(at.Sub(c.start), &c.hand)
	sc.Frame = seq
	if err := draw(sc); err != nil {
		return time.Time{}, 0, err
	}
	return at, seq, nil
}

// RunActions calls do for each of the script's actions at its time after start, in order, until the
// script ends or ctx is done. An error from do stops it and is returned.
func (s *Script) RunActions(ctx context.Context, start time.Time, do func(Action) error) error {
	for _, a := range s.actions {
		if wait := time.Until(start.Add(a.At)); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
		}
		if err := do(a); err != nil {
			return fmt.Errorf("demo: %s: %w", a.Note, err)
		}
	}
	return nil
}
