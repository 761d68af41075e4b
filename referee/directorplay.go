package referee

import (
	"fmt"
	"time"
)

// DirectorPlay records Move (a GTP vertex or "pass") for the player to move, entered by the
// director: the game goes on without the camera (none at the start, or one that cannot see the
// board). In PhaseReady it starts the clocks first, as the first press would. The move must be
// legal; the clocks switch as after a press.
const DirectorPlay DirectorKind = "play"

// checkPlay checks a director's move before it is journaled.
func (t *core) checkPlay(a DirectorAction) error {
	if t.phase != PhasePlaying && t.phase != PhaseReady {
		return fmt.Errorf("%w: moves are entered while the game is played", ErrPhase)
	}
	if t.phase == PhaseReady && t.setup.FreeHandicap && t.setup.Handicap >= 2 && len(t.game.Handicap()) == 0 {
		return fmt.Errorf("%w: free handicap stones are placed on the board, not entered", ErrPhase)
	}
	m, err := parseMove(a.Move, t.game.Size())
	if err != nil {
		return err
	}
	m.Color = t.game.ToMove()
	if !m.Pass {
		if err := t.game.Check(m); err != nil {
			return fmt.Errorf("%w: %w", ErrPhase, err)
		}
	}
	return nil
}

// applyPlay records the director's move (checked by checkPlay).
func (t *core) applyPlay(a DirectorAction, at time.Time) error {
	g := t.game
	m, err := parseMove(a.Move, g.Size())
	if err != nil {
		return err
	}
	m.Color = g.ToMove()
	if t.phase == PhaseReady {
		if t.clk != nil {
			if err := t.clk.SetToMove(sideOf(g.ToMove())); err != nil {
				return fmt.Errorf("referee: starting the clock: %w", err)
			}
			if err := t.clk.Start(at); err != nil {
				return fmt.Errorf("referee: starting the clock: %w", err)
			}
		}
		t.phase = PhasePlaying
	}
	played, err := g.Play(m)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrPhase, err)
	}
	t.accept(played, at, "Entered by the director.")
	return nil
}
