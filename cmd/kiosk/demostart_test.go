package main

import (
	"context"
	"sync"
	"testing"
	"time"

	"tengen/demo"
	"tengen/vision/observe"
)

// The demo's presses wait for the camera loop to find the board: sights without it (no board found
// yet, no picture) hold the script however long they last, and the first press comes at its time
// after the first sight of the board.
func TestDemoWaitsForTheBoard(t *testing.T) {
	full, err := demo.Default()
	if err != nil {
		t.Fatal(err)
	}
	first := full.Actions()[0]
	s := full.Until(first.At + 100*time.Millisecond)
	board := newBoardFound()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var mu sync.Mutex
	var fired []time.Time
	done := make(chan error, 1)
	go func() {
		done <- runDemoScript(ctx, s, board, func(demo.Action) error {
			mu.Lock()
			fired = append(fired, time.Now())
			mu.Unlock()
			return nil
		})
	}()
	// A slow start: the board is not found for longer than the first press's time.
	until := time.Now().Add(first.At + 500*time.Millisecond)
	for time.Now().Before(until) {
		board.see(observe.Sight{View: observe.ViewMoved, Time: time.Now(), Why: "no board found yet"})
		board.see(observe.Sight{View: observe.ViewNoPicture, Time: time.Now()})
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	early := len(fired)
	mu.Unlock()
	if early != 0 {
		t.Fatalf("%d presses before the board was found", early)
	}
	found := time.Now()
	board.see(observe.Sight{View: observe.ViewBoard, Time: found})
	board.see(observe.Sight{View: observe.ViewBoard, Time: found.Add(time.Second)}) // only the first counts
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(fired) != 1 {
		t.Fatalf("%d presses, want 1", len(fired))
	}
	if at := fired[0].Sub(found); at < first.At-20*time.Millisecond {
		t.Errorf("the first press came %v after the board was found, want %v", at, first.At)
	}
}

// The demo camera draws its first picture until the board is found, then the game from that
// moment: its frames' times go on from there.
func TestDemoFramesStartWhenTheBoardIsFound(t *testing.T) {
	s, err := demo.Default()
	if err != nil {
		t.Fatal(err)
	}
	board := newBoardFound()
	const w, h = 160, 120
	f := &demoFrames{script: s, render: demo.NewRenderer(1), board: board, w: w, h: h, fps: 20}
	pix := make([]byte, 3*w*h)
	ctx := context.Background()
	var last time.Time
	for i := range 3 {
		at, err := f.next(ctx, pix)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && at.Sub(last) < 40*time.Millisecond {
			t.Errorf("waiting frames %v apart, want 50ms", at.Sub(last))
		}
		last = at
	}
	if f.cam != nil {
		t.Fatal("the game's camera started before the board was found")
	}
	found := time.Now()
	board.see(observe.Sight{View: observe.ViewBoard, Time: found})
	at, err := f.next(ctx, pix)
	if err != nil {
		t.Fatal(err)
	}
	if f.cam == nil || at.Before(found) {
		t.Errorf("after the board was found: camera %v, frame at %v (found %v)", f.cam != nil, at, found)
	}
}
