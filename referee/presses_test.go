package referee

import (
	"context"
	"strings"
	"testing"
	"time"

	"tengen/clock"
	"tengen/engine"
)

// TestPressQueue covers presses made while an earlier press is still being checked: they wait in
// order and count once the earlier one has (the demo lost a pass this way, and every later press
// then counted for the wrong colour), or are refused visibly when it did not count.
func TestPressQueue(t *testing.T) {
	tests := []replayCase{
		{name: "a pass made while the move is checked counts after it", steps: func(h *harness) {
			h.put('X', "E5")
			h.hand() // a hand still over the board: Black's press waits
			h.press(clock.BlackClock)
			h.press(clock.PassButton) // White passes at once
			if s := h.state(); !s.Waiting || s.QueuedPresses != 1 || s.Banner.Kind != VerdictWaiting {
				h.tb.Fatalf("waiting %v, queued %d, banner %v %q", s.Waiting, s.QueuedPresses, s.Banner.Kind, s.Banner.Message)
			}
			h.look()
			h.move(engine.Black, "D4") // Black's turn again: the pass counted
		}, banner: VerdictMove, contains: []string{"3: Black D4"}, moves: "B E5 W pass B D4"},
		{name: "queued presses keep their order", steps: func(h *harness) {
			h.put('X', "E5")
			h.hand()
			h.press(clock.BlackClock)
			h.press(clock.PassButton) // White passes
			h.press(clock.PassButton) // Black passes: the game stops
			h.look()
		}, banner: VerdictStopped, moves: "B E5 W pass B pass W pass"}, // and White's owed pass (AGA 11)
		{name: "a press behind a move that did not count is refused visibly", steps: func(h *harness) {
			h.hand() // no stone placed
			h.press(clock.BlackClock)
			h.press(clock.PassButton)
			h.look()
		}, banner: VerdictNoChange, contains: []string{"No new stone", "pass made while", "not counted"}, moves: ""},
		{name: "a press behind a press that found no clear view is refused visibly", steps: func(h *harness) {
			h.put('X', "E5")
			h.hand()
			h.press(clock.BlackClock)
			h.press(clock.PassButton)
			h.advance(4 * time.Second)
			h.tab.Tick(h.now())
		}, banner: VerdictNotSeen, contains: []string{"could not be seen", "not counted"}, moves: ""},
		{name: "a press while captured stones are on the board waits for the capture", steps: func(h *harness) {
			for _, m := range []struct {
				c engine.Color
				v string
			}{{engine.Black, "D5"}, {engine.White, "E5"}, {engine.Black, "F5"}, {engine.White, "A1"}, {engine.Black, "E6"}, {engine.White, "A2"}, {engine.Black, "E4"}} {
				h.move(m.c, m.v)
			}
			h.wantBanner(VerdictRemoveCaptures)
			h.press(clock.PassButton) // White passes before the captured stone is off
			h.wantBanner(VerdictRemoveCaptures, "First remove the captured stones at E5", "White's pass waits")
			h.put('.', "E5")
			h.look()
		}, banner: VerdictPass, contains: []string{"White passes"}, moves: "B D5 W E5 B F5 W A1 B E6 W A2 B E4 W pass"},
		{name: "a capture taken back refuses the press behind it", steps: func(h *harness) {
			for _, m := range []struct {
				c engine.Color
				v string
			}{{engine.Black, "D5"}, {engine.White, "E5"}, {engine.Black, "F5"}, {engine.White, "A1"}, {engine.Black, "E6"}, {engine.White, "A2"}, {engine.Black, "E4"}} {
				h.move(m.c, m.v)
			}
			h.press(clock.PassButton)
			h.put('.', "E4")
			h.look()
		}, banner: VerdictInfo, contains: []string{"took the stone at E4 back", "The pass made while", "not counted"}, moves: "B D5 W E5 B F5 W A1 B E6 W A2"},
		{name: "presses after the stop are refused visibly", steps: func(h *harness) {
			h.put('X', "E5")
			h.hand()
			h.press(clock.BlackClock)
			h.press(clock.PassButton)
			h.press(clock.PassButton)
			h.press(clock.PassButton) // one too many: the game stopped after the second
			h.look()
		}, banner: VerdictStopped, contains: []string{"not counted, since the game is no longer in play"}, moves: "B E5 W pass B pass W pass"},
		{name: "the queue is bounded", steps: func(h *harness) {
			h.put('X', "E5")
			h.hand()
			h.press(clock.BlackClock)
			for range maxQueued {
				h.press(clock.WhiteClock)
			}
			h.press(clock.PassButton)
		}, banner: VerdictInfo, contains: []string{"not counted", "presses are waiting"}, moves: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 9, nil)
			start(h, nil)
			tc.steps(h)
			checkReplayed(t, h, tc.banner, tc.contains, tc.moves)
		})
	}
	t.Run("a press while the start is checked counts after it", func(t *testing.T) {
		h := newHarness(t, 9, nil)
		h.setup(Setup{Rules: "aga", Size: 9, TimeControl: "10m"})
		h.hand()
		h.press(clock.WhiteClock) // starts Black's clock once the empty board is seen
		h.press(clock.PassButton) // Black passes at once
		h.wantBanner(VerdictWaiting, "The pass waits until the starting position is checked")
		h.look()
		checkReplayed(t, h, VerdictPass, []string{"1: Black passes"}, "B pass")
	})
}

// replayCase is a scenario played on a fresh 9x9 table (steps), with the banner it must end on,
// words the banner must contain and the moves recorded, which the replayed journal must repeat.
type replayCase struct {
	name     string
	steps    func(h *harness)
	banner   VerdictKind
	contains []string
	moves    string
}

// checkReplayed checks the banner and the moves, then that the journal replays to the same table:
// the same moves, phase, waiting press and queued presses.
func checkReplayed(t *testing.T, h *harness, banner VerdictKind, contains []string, moves string) {
	t.Helper()
	before := h.wantBanner(banner, contains...)
	if got := h.movesGTP(); got != moves {
		t.Fatalf("moves %q, want %q", got, moves)
	}
	h.reopen()
	after := h.state()
	if got := h.movesGTP(); got != moves {
		t.Errorf("after replaying the journal: moves %q, want %q", got, moves)
	}
	if after.Phase != before.Phase || after.QueuedPresses != before.QueuedPresses || after.Waiting != before.Waiting {
		t.Errorf("after replaying the journal: phase %v queued %d waiting %v, want %v %d %v",
			after.Phase, after.QueuedPresses, after.Waiting, before.Phase, before.QueuedPresses, before.Waiting)
	}
}

// TestFlagAtItsInstant checks that a flag is recorded at the instant the time ran out, however
// late the table looks, and that the table needs no regular ticking: Watch wakes on the clock's
// deadline (the flag plus the report delay) by itself.
func TestFlagAtItsInstant(t *testing.T) {
	t.Run("late tick", func(t *testing.T) {
		h := newHarness(t, 9, nil)
		start(h, func(s *Setup) { s.TimeControl = "1m" })
		flag := h.now().Add(-100 * time.Millisecond).Add(time.Minute) // start() advanced 100ms after the press
		h.advance(75 * time.Second)
		h.tab.Tick(h.now())
		s := h.wantBanner(VerdictResult, "Black's time ran out")
		if !s.Banner.At.Equal(flag) {
			t.Errorf("flag recorded at %v, want the instant it fell, %v", s.Banner.At, flag)
		}
		h.reopen()
		if s := h.state(); !s.Banner.At.Equal(flag) || s.Result != "W+T" {
			t.Errorf("after replay: %v %q", s.Banner.At, s.Result)
		}
	})
	t.Run("press after the flag", func(t *testing.T) {
		h := newHarness(t, 9, nil)
		start(h, func(s *Setup) { s.TimeControl = "1m" })
		flag := h.now().Add(-100 * time.Millisecond).Add(time.Minute)
		h.put('X', "E5")
		h.advance(61 * time.Second) // no Tick: the press itself finds the flag
		h.look()
		h.press(clock.BlackClock)
		s := h.wantBanner(VerdictResult, "Black's time ran out")
		if !s.Banner.At.Equal(flag) || h.movesGTP() != "" {
			t.Errorf("flag recorded at %v with moves %q, want %v and none", s.Banner.At, h.movesGTP(), flag)
		}
	})
	t.Run("report delay", func(t *testing.T) {
		h := newHarness(t, 9, func(o *Options) { o.ButtonSettle = 30 * time.Millisecond })
		start(h, func(s *Setup) { s.TimeControl = "1m" })
		flag := h.now().Add(-100 * time.Millisecond).Add(time.Minute)
		d, ok := h.tab.NextDeadline()
		if want := flag.Add(30*time.Millisecond + FlagMargin); !ok || !d.Equal(want) {
			t.Errorf("next deadline %v %v, want %v (flag + settle + margin)", d, ok, want)
		}
	})
	t.Run("watch", func(t *testing.T) {
		h := newHarness(t, 9, nil)
		start(h, func(s *Setup) { s.TimeControl = "1m" })
		flag := h.now().Add(-100 * time.Millisecond).Add(time.Minute)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		exited := make(chan struct{})
		go func() { done <- h.tab.Watch(ctx); close(exited) }()
		if !h.tm.WaitPending(1, exited) {
			t.Fatal("Watch returned early")
		}
		changed := h.tab.Changed()
		h.advance(2 * time.Minute) // one jump: no tick in between
		select {
		case <-changed:
		case <-time.After(5 * time.Second):
			t.Fatal("Watch did not call the flag")
		}
		for h.state().Phase != PhaseEnded {
			select {
			case <-h.tab.Changed():
			case <-time.After(5 * time.Second):
				t.Fatal("no result")
			}
		}
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("Watch: %v", err)
		}
		if s := h.state(); !s.Banner.At.Equal(flag) || !strings.Contains(s.Banner.Message, "time ran out") {
			t.Errorf("banner %v %q, want the flag at %v", s.Banner.At, s.Banner.Message, flag)
		}
	})
}
