package referee

import (
	"log/slog"
	"time"

	"tengen/engine"
	"tengen/vision/observe"
)

// The camera's view. The camera loop reports with every frame whether it sees the board where the
// calibration puts it (observe.Sight); the table journals each change of view, so a replay of the
// journal holds and resumes play exactly as the live table did. While the view is not the board:
//
//   - no reading is acted on (a misaligned grid would read a wrong board), and a press waits
//     without a deadline: it is settled by the first still board once the view is back;
//   - the clocks run by the rules: a press still switches them at its own time, and a flag falls;
//   - presses made meanwhile queue behind the waiting one (at most maxQueued), and the first
//     still board after the view comes back settles them all when it is unambiguous (see
//     catchUp); otherwise the verdict says which points differ and the queued presses are refused;
//   - with no press waiting, the first still board after the view comes back is compared with the
//     game, and a difference (a bumped board knocked stones off their points) is said with the points.

// See takes what the camera side saw: a reading (Observe), or a picture lost or a board moved.
// Only changes of view are journaled; the camera loop can say the same thing every frame.
func (t *Table) See(s observe.Sight) {
	t.mu.Lock()
	if t.closed || !t.viewMatters() || s.View == t.view {
		t.mu.Unlock()
		if s.View == observe.ViewBoard {
			t.Observe(s.Observation)
		}
		return
	}
	at := s.Time
	if at.IsZero() {
		at = t.live.Now()
	}
	at = later(at, t.lastAt)
	err := t.runEvent(&event{Kind: kindSight, At: at, View: s.View.String(), Error: s.Why})
	t.mu.Unlock()
	if err != nil {
		t.log.Warn("journaling the camera's view", "view", s.View, "err", err)
		return
	}
	if s.View == observe.ViewBoard {
		t.Observe(s.Observation)
	}
}

// View is the camera's view as the table last took it.
func (t *Table) View() observe.View {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.view
}

// viewMatters reports whether the table acts on the camera's view: a game is set up and not over.
func (t *core) viewMatters() bool {
	return t.game != nil && t.phase != PhaseSetup && t.phase != PhaseEnded
}

// applySight applies a change of view.
func (t *core) applySight(v observe.View, why string, at time.Time) error {
	prev := t.view
	if v == prev {
		return nil
	}
	t.view = v
	t.diag(slog.LevelInfo, "the camera's view changed", "from", prev, "to", v, "why", why)
	// Readings from before the change describe another picture (or another grid): learn the
	// board afresh.
	t.stab.Reset()
	t.hasSeen, t.hasRaw, t.rawSince, t.evaluated = false, false, time.Time{}, false
	switch v {
	case observe.ViewNoPicture:
		t.recheck = false
		t.setBanner(Verdict{Kind: VerdictCamera, At: at,
			Says: []Phrase{phrase("The camera gives no picture: play on, the clocks run. Moves made meanwhile are read when the picture is back.")}})
	case observe.ViewMoved:
		t.recheck = false
		t.setBanner(Verdict{Kind: VerdictCamera, At: at,
			Says: []Phrase{phrase("The board or the camera moved: play on while the kiosk finds the board again. Moves are read once it has.")}})
	case observe.ViewBoard:
		t.recheck = t.phase == PhasePlaying
		if t.pending != nil {
			t.pending.Deadline = at.Add(t.cfg.PressWait)
		}
		says := phrase("The camera sees the board again: it is checked against the game.")
		if prev == observe.ViewMoved {
			says = phrase("The board is found again: it is checked against the game.")
		}
		t.setBanner(Verdict{Kind: VerdictCamera, At: at, Says: []Phrase{says}})
	}
	return nil
}

// sightHeld reports whether play is held for the camera's view.
func (t *core) sightHeld() bool { return t.view != observe.ViewBoard }

// recheckBoard compares the first settled board after the view came back with the game, when no
// press is waiting; it reports whether it acted.
func (t *core) recheckBoard(o observe.Observation) bool {
	if !t.recheck {
		return false
	}
	t.recheck = false
	if fits(o.Size, t.game.Board(), o) {
		t.differs = nil
		t.seenOn(o)
		c := t.game.ToMove()
		t.setBanner(Verdict{Kind: VerdictInfo, At: o.Time, Color: c,
			Says: []Phrase{phrase("The board matches the game again: {{.Color}} to play.", "Color", title(c))}})
		return true
	}
	ms := diff(t.game.Size(), t.game.Board(), o)
	t.boardDiffers(engine.Empty, []Phrase{phrase("After the camera lost the board, the board differs from the game.")}, ms, o.Time)
	return true
}

// heldBanner replaces the "checking the move" banner of a press made while play is held for the
// camera's view: the press is kept, and read when the view is back.
func (t *core) heldBanner() {
	if !t.sightHeld() || t.pending == nil {
		return
	}
	t.setBanner(Verdict{Kind: VerdictCamera, Color: t.pending.Color, At: t.pending.At,
		Says: []Phrase{phrase("Press kept: the move is read when the camera sees the board again.")}})
}
