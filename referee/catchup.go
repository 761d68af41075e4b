package referee

import (
	"fmt"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/vision/observe"
)

// Catching up. A hand over the board at one press hides the move: the press waits, and the
// opponent often plays at once, so the next clear view shows both moves. A tournament director
// would count both, each at its own press, when nothing is left to guess. Two cases are caught up:
//
//   - presses queued behind the waiting one: the board seen differs from the game by exactly one
//     new stone per move press (a pass press contributes none), colours alternating in press
//     order, each move legal in that order with its captures gone from the board;
//   - no press queued yet: the board shows the waiting press's stone and exactly one new stone of
//     the opponent, whose clock is running: that is the opponent's move being made. The waiting
//     move counts; the opponent's counts when they press.
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
func (t *Table) catchUp(p *pendingPress, o observe.Observation) bool {
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
				t.log.Error("catching up a move", "move", m.move.GTP(t.game.Size()), "err", err)
				return true
			}
			t.accept(played, m.at, "")
			if t.phase != PhasePlaying {
				return true
			}
		}
		t.catchUpNote(first, t.game.MoveNumber())
		return true
	}
	return false
}

// catchUpMoves checks that the waiting press p followed by the queued presses qs explain the
// board seen exactly, and returns their moves in press order. The game is left unchanged.
func (t *Table) catchUpMoves(p *pendingPress, qs []clock.Press, o observe.Observation) ([]caughtUp, bool) {
	g := t.game
	size := g.Size()
	if g.ToMove() != p.Color {
		return nil, false
	}
	ad := added(diff(size, g.Board(), o))
	free := map[engine.Color][]engine.Point{}
	for _, m := range ad {
		free[m.Seen] = append(free[m.Seen], m.P)
	}
	// Which colour plays at each press: the press's own rules on the game as it would stand.
	type step struct {
		color engine.Color
		pass  bool
		at    time.Time
	}
	steps := []step{{color: p.Color, at: p.At}}
	toMove := p.Color.Opponent()
	moves := map[engine.Color]int{p.Color: 1}
	for _, q := range qs {
		switch {
		case q.Button == clock.PassButton:
			steps = append(steps, step{color: toMove, pass: true, at: q.At})
		case q.Button == clock.ClockButton(sideOf(toMove)):
			steps = append(steps, step{color: toMove, at: q.At})
			moves[toMove]++
		default:
			return nil, false // not the mover's press: its meaning would be a guess
		}
		toMove = toMove.Opponent()
	}
	// One new stone per move press, and no colour with two (their order would be a guess).
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if len(free[c]) != moves[c] || moves[c] > 1 {
			return nil, false
		}
	}
	var seq []caughtUp
	played := 0
	defer func() {
		for range played {
			_ = g.Undo()
		}
	}()
	for _, s := range steps {
		m := engine.Move{Color: s.color, Pass: s.pass}
		if !s.pass {
			m.Point = free[s.color][0]
		}
		if _, err := g.Play(m); err != nil {
			return nil, false
		}
		played++
		seq = append(seq, caughtUp{move: m, at: s.at})
		if g.Phase() != engine.Playing && len(seq) < len(steps) {
			return nil, false // the game stopped before the last press: no catch-up
		}
	}
	if len(diff(size, g.Board(), o)) != 0 {
		return nil, false
	}
	return seq, true
}

// catchUpNote adds to the verdict of the last move caught up that the moves first..last were
// seen together.
func (t *Table) catchUpNote(first, last int) {
	if last <= first {
		return
	}
	v := t.banner
	v.Message += fmt.Sprintf(" (Moves %d to %d were seen together: the board was hidden at a press; each counts at its own press.)", first, last)
	t.setBanner(v)
}

// moveInProgress handles a waiting press whose board shows its own new stone and exactly one new
// stone of the opponent (the opponent's move being made, not pressed yet). If playing c's stone
// makes the game's board equal to the board seen apart from that stone, c's move counts at its
// press and true is returned; the opponent's counts when they press their clock.
func (t *Table) moveInProgress(c engine.Color, o observe.Observation, at time.Time) bool {
	g := t.game
	size := g.Size()
	ms := diff(size, g.Board(), o)
	ad := added(ms)
	if len(ad) != 2 || ad[0].Seen == ad[1].Seen {
		return false
	}
	mine, theirs := ad[0], ad[1]
	if mine.Seen != c {
		mine, theirs = theirs, mine
	}
	if mine.Seen != c || theirs.Seen != c.Opponent() {
		return false
	}
	m := engine.Move{Color: c, Point: mine.P}
	if err := g.Check(m); err != nil {
		return false
	}
	if _, err := g.Play(m); err != nil {
		return false
	}
	rest := diff(size, g.Board(), o)
	if err := g.Undo(); err != nil {
		t.log.Error("undo of a tentative move", "err", err)
		return false
	}
	if len(rest) != 1 || rest[0].P != theirs.P || rest[0].Want != engine.Empty || rest[0].Obscured {
		return false
	}
	played, err := g.Play(m)
	if err != nil {
		return false
	}
	t.accept(played, at, "")
	if t.phase == PhasePlaying && t.banner.Kind == VerdictMove {
		v := t.banner
		v.Message += fmt.Sprintf(" %s's stone on %s is seen already: %s, press your clock.",
			title(c.Opponent()), theirs.P.GTP(size), title(c.Opponent()))
		t.setBanner(v)
	}
	return true
}
