package referee

import (
	"testing"

	"tengen/clock"
	"tengen/engine"
)

func TestSmokeGame(t *testing.T) {
	h := newHarness(t, 9, nil)
	h.setup(Setup{Rules: "aga", Size: 9, TimeControl: "10m"})
	h.look()
	h.press(clock.WhiteClock)
	h.wantBanner(VerdictInfo, "started")
	h.move(engine.Black, "E5")
	h.wantBanner(VerdictMove, "Black E5")
	h.move(engine.White, "C3")
	h.wantBanner(VerdictMove, "White C3")
	if got := h.movesGTP(); got != "B E5 W C3" {
		t.Fatalf("moves %q", got)
	}
	h.reopen()
	if got := h.movesGTP(); got != "B E5 W C3" {
		t.Fatalf("after reopen: moves %q", got)
	}
	s := h.state()
	if s.Phase != PhasePlaying || !s.ClocksPaused || s.ToMove != engine.Black {
		t.Fatalf("after reopen: %+v", s)
	}
}
