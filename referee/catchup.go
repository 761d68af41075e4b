package referee

import (
	"fmt"
	"log/slog"
	"slices"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee/infer"
	"tengen/vision/observe"
)

// Catching up. A hand over the board at one press hides the move: the press waits, and the
// opponent often plays at once, so the next clear view shows both moves. A tournament director
// would count both, each at its own press, when nothing is left to guess. Two cases are caught up:
//
//   - presses queued behind the waiting one: the board seen is explained by one new stone per
//     move press (a pass press contributes none), colours alternating in press order, each move
//     legal in that order with its captures gone from the board; the explanation is chosen by
//     likelihood among the points the reading favours for each colour (infer.RankSequence) and
//     must be clear: it beats the next one, and every stone of it is seen, by
//     infer.DecisiveLogOdds, and no point contradicts it;
//   - no press queued yet: the board shows the waiting press's stone and one new stone of the
//     opponent, whose clock is running: that is the opponent's move being made (the ranking's
//     infer.MoveThenNext, see evaluate). The waiting move counts; the opponent's counts when they
//     press.
//
// Anything else (two new stones of one colour for one press, a colour out of turn, an illegal
// move, a board that differs anywhere else) is the usual "board differs" verdict. Both cases
// are decided from the journaled reading and the journaled presses alone, so a replay of the
// journal decides the same.

// caughtUp is one press of a catch-up: the move it plays and when it was pressed.
type caughtUp struct {
	move engine.Move
	at   time.Time
}

// catchUp tries to settle the waiting move press p and the presses queued behind it with one
// reading. It reports whether it did (the moves are then accepted and the used presses dequeued).
func (t *core) catchUp(p *pendingPress, o observe.Observation) bool {
	if p.Start || t.phase != PhasePlaying || len(t.queue) == 0 {
		return false
	}
	for n := len(t.queue); n >= 1; n-- {
		seq, ok := t.catchUpMoves(p, t.queue[:n], o)
		if !ok {
			continue
		}
		t.queue = t.queue[n:]
		if len(t.queue) == 0 {
			t.queue = nil
		}
		first := t.game.MoveNumber() + 1
		for _, m := range seq {
			played, err := t.game.Play(m.move)
			if err != nil { // checked just before: cannot happen
				t.diag(slog.LevelError, "catching up a move", "move", m.move.GTP(t.game.Size()), "err", err)
				return true
			}
			t.accept(played, m.at, "")
			if t.phase != PhasePlaying {
				return true
			}
		}
		t.seenOn(o)
		t.catchUpNote(first, t.game.MoveNumber())
		return true
	}
	return false
}

// catchUpMoves checks that the waiting press p followed by the queued presses qs clearly explain
// the board seen, and returns their moves in press order. The game is left unchanged.
func (t *core) catchUpMoves(p *pendingPress, qs []clock.Press, o observe.Observation) ([]caughtUp, bool) {
	g := t.game
	if g.ToMove() != p.Color {
		return nil, false
	}
	// Which colour plays at each press: the press's own rules on the game as it would stand.
	steps := []engine.Move{{Color: p.Color}}
	ats := []time.Time{p.At}
	toMove := p.Color.Opponent()
	moves := map[engine.Color]int{p.Color: 1}
	for _, q := range qs {
		switch {
		case q.Button == clock.PassButton:
			steps = append(steps, engine.Move{Color: toMove, Pass: true})
		case q.Button == clock.ClockButton(sideOf(toMove)):
			steps = append(steps, engine.Move{Color: toMove})
			moves[toMove]++
		default:
			return nil, false // not the mover's press: its meaning would be a guess
		}
		ats = append(ats, q.At)
		toMove = toMove.Opponent()
	}
	// No colour with two new stones (their order would be a guess).
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if moves[c] > 1 {
			return nil, false
		}
	}
	r, err := infer.RankSequence(g, steps, o, t.previous()...)
	if err != nil || !r.Clear() {
		return nil, false
	}
	seq := make([]caughtUp, len(r.Best.Moves))
	for i, m := range r.Best.Moves {
		seq[i] = caughtUp{move: m, at: ats[i]}
	}
	// The game must not stop before the last press.
	played := 0
	defer func() {
		for range played {
			_ = g.Undo()
		}
	}()
	for i, m := range seq {
		if _, err := g.Play(m.move); err != nil {
			return nil, false
		}
		played++
		if g.Phase() != engine.Playing && i < len(seq)-1 {
			return nil, false
		}
	}
	return seq, true
}

// catchUpNote adds to the verdict of the last move caught up that the moves first..last were
// seen together.
func (t *core) catchUpNote(first, last int) {
	if last <= first {
		return
	}
	v := t.banner
	v.Says = append(slices.Clone(v.Says), phrase("(Moves {{.First}} to {{.Last}} were seen together: the board was hidden at a press; each counts at its own press.)",
		"First", fmt.Sprint(first), "Last", fmt.Sprint(last)))
	t.setBanner(v)
}
