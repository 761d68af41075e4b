package main

import (
	"context"
	"testing"
	"time"

	"tengen/clock"
)

// On the journal fault screen the clock works as at the table: White's press starts Black's clock,
// Black's press hands the move to White, a press of the side not to move is ignored, the director
// pauses it; the screen is shown each change.
func TestFaultClockRunsOnPresses(t *testing.T) {
	ctl, err := clock.ParseControlOrPreset("10m+3x30s")
	if err != nil {
		t.Fatal(err)
	}
	clk, err := clock.New(ctl, clock.SystemTime{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	presses := make(chan clock.Press)
	shown := make(chan clock.State, 64)
	press := func(p clock.Press) { _, _ = clk.Handle(p) }
	go faultClock(ctx, clk, presses, press, func(st clock.State) { shown <- st })
	// send presses b and waits until the screen is shown a state that ok accepts.
	send := func(b clock.Button, what string, ok func(clock.State) bool) {
		t.Helper()
		presses <- clock.NewPress(b, time.Now())
		deadline := time.After(5 * time.Second)
		var last clock.State
		for {
			select {
			case last = <-shown:
				if ok(last) {
					return
				}
			case <-deadline:
				t.Fatalf("%s: the screen was last shown %+v", what, last)
			}
		}
	}
	send(clock.WhiteClock, "White starts Black's clock", func(st clock.State) bool { return st.Started && st.Running && st.ToMove == clock.Black })
	time.Sleep(300 * time.Millisecond)
	presses <- clock.NewPress(clock.WhiteClock, time.Now()) // not White's move: ignored
	send(clock.BlackClock, "Black's move", func(st clock.State) bool {
		return st.ToMove == clock.White && st.Black.Main < 10*time.Minute-200*time.Millisecond && st.White.Main > 10*time.Minute-time.Second
	})
	send(clock.DirectorButton, "the director pauses", func(st clock.State) bool { return !st.Running && st.Paused() && st.ToMove == clock.White })
}
