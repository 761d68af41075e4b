package main

import (
	"context"
	"sync"
	"time"

	"tengen/demo"
	"tengen/station"
	"tengen/vision/observe"
)

// boardFound learns from the camera loop's sights when the board was first seen: the demo's game
// starts then, so that a machine slow to find the board (a loaded one) neither presses a clock
// nor moves a stone before the board is known. It changes nothing the camera loop does.
type boardFound struct {
	once  sync.Once
	found chan struct{} // closed at the first sight of the board
	at    time.Time     // that sight's time; read only after found is closed
}

func newBoardFound() *boardFound { return &boardFound{found: make(chan struct{})} }

// see is told of every sight; the first of the board closes found.
func (b *boardFound) see(o observe.Sight) {
	if o.View != observe.ViewBoard {
		return
	}
	b.once.Do(func() {
		b.at = o.Time
		if b.at.IsZero() {
			b.at = time.Now()
		}
		close(b.found)
	})
}

// wait blocks until the board was found (and returns when) or ctx ends (false).
func (b *boardFound) wait(ctx context.Context) (time.Time, bool) {
	select {
	case <-ctx.Done():
		return time.Time{}, false
	case <-b.found:
		return b.at, true
	}
}

// watchedCamera is a camera loop whose sights boardFound sees before the station does.
type watchedCamera struct {
	station.Camera
	board *boardFound
}

// Run runs the camera loop, telling board of each sight.
func (w watchedCamera) Run(ctx context.Context, see func(observe.Sight)) error {
	return w.Camera.Run(ctx, func(o observe.Sight) {
		w.board.see(o)
		see(o)
	})
}

// demoFrames draws the demo camera's frames into BGR buffers: the demo's first picture (the empty
// board, no hand) at the demo's frame rate until the board is found, then the game as it goes on
// from that moment, the same moment its presses count from (runDemoScript).
type demoFrames struct {
	script   *demo.Script
	render   *demo.Renderer
	board    *boardFound
	w, h     int
	fps      float64
	cam      *demo.Camera // the game's camera, once the board is found
	last     time.Time    // the last waiting frame's time
	waitings uint64       // waiting frames drawn
}

// next draws the next frame into pix and returns its time.
func (d *demoFrames) next(ctx context.Context, pix []byte) (time.Time, error) {
	if d.cam == nil {
		select {
		case <-d.board.found:
			cam, err := demo.NewCamera(d.script, d.render, d.w, d.h, d.fps, d.board.at)
			if err != nil {
				return time.Time{}, err
			}
			d.cam = cam
		default:
		}
	}
	if d.cam != nil {
		at, _, err := d.cam.NextFrameBGR(ctx, pix)
		return at, err
	}
	at := time.Now()
	if !d.last.IsZero() {
		at = d.last.Add(time.Duration(float64(time.Second) / d.fps))
	}
	if wait := time.Until(at); wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return time.Time{}, ctx.Err()
		case <-t.C:
		}
	} else {
		at = time.Now() // late: frames a slow reader missed are dropped, as a camera drops them
	}
	d.last = at
	d.waitings++
	sc := d.script.SceneAt(0)
	sc.Frame = d.waitings
	return at, d.render.RenderBGR(pix, d.w, d.h, sc)
}

// runDemoScript performs the script's actions with do, each at its time after the board was
// found, until the script ends or ctx does.
func runDemoScript(ctx context.Context, s *demo.Script, board *boardFound, do func(demo.Action) error) error {
	start, ok := board.wait(ctx)
	if !ok {
		return ctx.Err()
	}
	return s.RunActions(ctx, start, do)
}
