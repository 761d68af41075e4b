package referee

import (
	"testing"
	"time"

	"tengen/clock"
	"tengen/engine"
)

// TestCatchUp covers a hand hiding the board at a press while the opponent plays at once: the
// next clear view shows both moves. They count in press order, each at its own press, when the
// new stones match the waiting presses exactly; otherwise the board differs as before.
func TestCatchUp(t *testing.T) {
	captureLine := func(h *harness) { // Black E4 will capture White's E5
		for _, m := range []struct {
			c engine.Color
			v string
		}{{engine.Black, "D5"}, {engine.White, "E5"}, {engine.Black, "F5"}, {engine.White, "A1"}, {engine.Black, "E6"}, {engine.White, "A2"}} {
			h.move(m.c, m.v)
		}
	}
	tests := []struct {
		name     string
		steps    func(h *harness)
		banner   VerdictKind
		contains []string
		moves    string
		queued   int
	}{
		{name: "two moves caught up", steps: func(h *harness) {
			h.put('X', "E5")
			h.hand()
			h.press(clock.BlackClock)
			h.put('O', "C3")
			h.hand()
			h.press(clock.WhiteClock)
			h.look()
		}, banner: VerdictMove, contains: []string{"2: White C3", "Moves 1 to 2 were seen together"}, moves: "B E5 W C3"},
		{name: "three moves caught up", steps: func(h *harness) {
			h.move(engine.Black, "A9")
			h.put('O', "E5")
			h.hand()
			h.press(clock.WhiteClock)
			h.put('X', "C3")
			h.press(clock.BlackClock)
			h.press(clock.PassButton) // White passes
			h.look()
		}, banner: VerdictPass, contains: []string{"4: White passes", "Moves 2 to 4 were seen together"}, moves: "B A9 W E5 B C3 W pass"},
		{name: "move with a capture, then a move", steps: func(h *harness) {
			captureLine(h)
			h.put('X', "E4")
			h.put('.', "E5") // captured stone already off
			h.hand()
			h.press(clock.BlackClock)
			h.put('O', "B2")
			h.press(clock.WhiteClock)
			h.look()
		}, banner: VerdictMove, contains: []string{"8: White B2", "Moves 7 to 8"}, moves: "B D5 W E5 B F5 W A1 B E6 W A2 B E4 W B2"},
		{name: "capture still on the board: board differs", steps: func(h *harness) {
			captureLine(h)
			h.put('X', "E4") // E5 not taken off
			h.hand()
			h.press(clock.BlackClock)
			h.put('O', "B2")
			h.press(clock.WhiteClock)
			h.look()
		}, banner: VerdictBoardDiffers, contains: []string{"not counted"}, moves: "B D5 W E5 B F5 W A1 B E6 W A2"},
		{name: "colours wrong: board differs", steps: func(h *harness) {
			h.put('X', "E5", "C3") // two black stones for Black's and White's presses
			h.hand()
			h.press(clock.BlackClock)
			h.press(clock.WhiteClock)
			h.look()
		}, banner: VerdictBoardDiffers, contains: []string{"2 new stones at once", "not counted"}, moves: ""},
		{name: "pass in between", steps: func(h *harness) {
			h.put('X', "E5")
			h.hand()
			h.press(clock.BlackClock)
			h.press(clock.PassButton) // White passes
			h.put('X', "C3")
			h.press(clock.BlackClock) // Black plays again: two black stones, which came first is a guess
			h.look()
		}, banner: VerdictBoardDiffers, contains: []string{"2 new stones at once", "not counted"}, moves: ""},
		{name: "pass after the caught-up moves", steps: func(h *harness) {
			h.put('X', "E5")
			h.hand()
			h.press(clock.BlackClock)
			h.put('O', "C3")
			h.press(clock.WhiteClock)
			h.press(clock.PassButton) // Black passes
			h.look()
		}, banner: VerdictPass, contains: []string{"3: Black passes", "Moves 1 to 3"}, moves: "B E5 W C3 B pass"},
		{name: "a press of the wrong clock is no catch-up", steps: func(h *harness) {
			h.put('X', "E5")
			h.put('O', "C3")
			h.hand()
			h.press(clock.BlackClock)
			h.press(clock.BlackClock) // Black again, not White: White's stone is a move not pressed yet
			h.look()
		}, banner: VerdictNotYourTurn, contains: []string{"It is White's turn"}, moves: "B E5"},
		{name: "a third stone nobody pressed for: board differs", steps: func(h *harness) {
			h.put('X', "E5", "G7")
			h.put('O', "C3")
			h.hand()
			h.press(clock.BlackClock)
			h.press(clock.WhiteClock)
			h.look()
		}, banner: VerdictBoardDiffers, contains: []string{"3 new stones at once"}, moves: ""},
		{name: "the opponent's move seen before their press", steps: func(h *harness) {
			h.put('X', "E5")
			h.hand()
			h.press(clock.BlackClock)
			h.put('O', "C3") // White has played, not pressed yet
			h.look()
			h.wantBanner(VerdictMove, "1: Black E5", "White's stone on C3 is seen already")
			h.press(clock.WhiteClock)
		}, banner: VerdictMove, contains: []string{"2: White C3"}, moves: "B E5 W C3"},
		{name: "a waiting press with its stone and a second own stone: board differs", steps: func(h *harness) {
			h.put('X', "E5", "C3")
			h.hand()
			h.press(clock.BlackClock)
			h.look()
		}, banner: VerdictBoardDiffers, contains: []string{"2 new stones at once"}, moves: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 9, nil)
			start(h, nil)
			tc.steps(h)
			checkReplayed(t, h, tc.banner, tc.contains, tc.moves)
			if q := h.state().QueuedPresses; q != tc.queued {
				t.Errorf("%d presses still queued, want %d", q, tc.queued)
			}
		})
	}
}

// TestCatchUpTimes checks that caught-up moves are timed at their own presses: White's clock
// ran exactly from Black's press to White's.
func TestCatchUpTimes(t *testing.T) {
	h := newHarness(t, 9, nil)
	start(h, nil)
	h.put('X', "E5")
	h.hand()
	h.press(clock.BlackClock)
	h.advance(7 * time.Second)
	h.put('O', "C3")
	h.hand()
	h.press(clock.WhiteClock) // 7.1 s after Black's press (press advances 100 ms)
	h.advance(3 * time.Second)
	h.look()
	h.wantBanner(VerdictMove, "2: White C3")
	want := 10*time.Minute - 7100*time.Millisecond
	if got := h.tab.clk.State().White.Main; got != want {
		t.Errorf("White's time left %v, want %v (charged from Black's press to White's)", got, want)
	}
	h.reopen()
	if got := h.tab.clk.State().White.Main; got != want {
		t.Errorf("after replay: White's time left %v, want %v", got, want)
	}
}

// TestCatchUpAfterRestart restarts the kiosk while two presses wait for a clear view: the
// journal rebuilds the waiting press and the queue, and the next clear view catches both up.
func TestCatchUpAfterRestart(t *testing.T) {
	h := newHarness(t, 9, func(o *Options) { o.PressWait = time.Minute })
	start(h, nil)
	h.move(engine.Black, "A9")
	h.put('O', "E5")
	h.hand()
	h.press(clock.WhiteClock)
	h.put('X', "C3")
	h.press(clock.BlackClock)
	h.reopen()
	if s := h.state(); !s.Waiting || s.QueuedPresses != 1 {
		t.Fatalf("after restart: waiting %v, queued %d", s.Waiting, s.QueuedPresses)
	}
	h.look()
	checkReplayed(t, h, VerdictMove, []string{"3: Black C3", "Moves 2 to 3"}, "B A9 W E5 B C3")
	h.move(engine.White, "G7")
	checkReplayed(t, h, VerdictMove, []string{"4: White G7"}, "B A9 W E5 B C3 W G7")
}
