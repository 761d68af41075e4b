package referee

import (
	"errors"
	"testing"
	"time"

	"tengen/engine"
)

// With no camera the director enters the moves: the first starts the clocks, each is checked
// against the rules (an illegal one is refused and nothing changes), the clocks switch, and a
// replay of the journal gives the same game.
func TestDirectorEntersMoves(t *testing.T) {
	h := newHarness(t, 9, withDirector)
	h.setup(Setup{Rules: "aga", Size: 9, TimeControl: "10m"})
	if st := h.state(); st.Phase != PhaseReady {
		t.Fatalf("phase %v", st.Phase)
	}
	play := func(m string) error {
		return h.tab.Director(pin, DirectorAction{Kind: DirectorPlay, Move: m}, h.now())
	}
	for _, m := range []string{"E5", "C3", "pass", "D4"} {
		if err := play(m); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		h.advance(2 * time.Second)
	}
	st := h.state()
	if st.Phase != PhasePlaying || st.MoveNumber != 4 || st.ClockRunning != engine.Black || h.movesGTP() != "B E5 W C3 B pass W D4" {
		t.Fatalf("phase %v, %d moves %q, clock %v", st.Phase, st.MoveNumber, h.movesGTP(), st.ClockRunning)
	}
	if err := play("E5"); !errors.Is(err, ErrPhase) {
		t.Fatalf("a move on a stone: %v", err)
	}
	if err := play("Z9"); err == nil {
		t.Fatal("a move off the board accepted")
	}
	if err := h.tab.Director("0000", DirectorAction{Kind: DirectorPlay, Move: "A1"}, h.now()); !errors.Is(err, ErrBadPIN) {
		t.Fatalf("a wrong PIN: %v", err)
	}
	if h.state().MoveNumber != 4 {
		t.Fatal("a refused move changed the game")
	}
	moves := h.movesGTP()
	h.reopen()
	if got := h.movesGTP(); got != moves {
		t.Errorf("after replaying the journal: %q, want %q", got, moves)
	}
}
