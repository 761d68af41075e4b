package referee

import (
	"slices"
	"time"

	"tengen/engine"
	"tengen/vision/observe"
)

// The board the count sees (AGA rules 9 and 12, Japanese rules art. 9 and 10). After the stop the
// players mark the dead stones and take them off the wooden board; the count is taken on the
// game's board with the stones marked dead removed (and, under Japanese rules, the dame filled
// after the stop: dame.go). The camera's board must agree with that at every moment the count
// could be made:
//   - a stone off the board must belong to a group marked dead: a live stone lifted is named, and
//     the count waits until it is back or its group is marked dead. A whole group taken off is
//     marked dead by the taking (the players' way of marking), and such a group put back in full
//     is marked alive again, said with its points;
//   - a stone on the board must be the game's: a stone placed after the stop (not a dame filled
//     under Japanese rules), or put where a dead stone was lifted, is not part of the game. Under
//     area counting a stone is a point, so dame are filled by moves before the passes, never after
//     the stop; under any ruleset the stone is named and the count waits until it is off (to play
//     it, a player asks to resume play).
//
// The check is made on the last reading of the board after the stop (journaled whenever its
// stones change), again whenever the marking changes, and when both players confirm: a count is
// never made on a board that disagrees with the marking. A board the camera cannot see (covered
// points) is not a disagreement: the check names only what it sees.

// CountBoard is where the board seen after the stop disagrees with the marking (PhaseMarking). The
// count waits while either list is not empty.
type CountBoard struct {
	// Lifted are stones off the board whose groups are not marked dead, row by row.
	Lifted []engine.Point
	// Placed are stones on the board that are not the game's: placed after the stop and not dame
	// filling, or of the other colour than the game's stone there, row by row.
	Placed []engine.Point
	// Says is what the referee says of them (nothing when the board agrees), for the counting
	// screen, which shows it while the board disagrees whatever the latest verdict was.
	Says []Phrase
}

// Agrees reports whether the board agrees with the marking.
func (b CountBoard) Agrees() bool { return len(b.Lifted) == 0 && len(b.Placed) == 0 }

// Points are the points of both lists, row by row.
func (b CountBoard) Points() []engine.Point {
	return sortedPoints(slices.Concat(b.Lifted, b.Placed))
}

// equal reports whether b and c name the same points.
func (b CountBoard) equal(c CountBoard) bool {
	return slices.Equal(b.Lifted, c.Lifted) && slices.Equal(b.Placed, c.Placed)
}

// resetCountBoard forgets the board seen after the stop (the stop, a resumption, an undo).
func (t *core) resetCountBoard() {
	t.endSeen = nil
	t.countBoard = CountBoard{}
	t.liftDead = map[engine.Point]bool{}
}

// countBoardOf compares reading o with the game's board and the marking.
func (t *core) countBoardOf(o observe.Observation) CountBoard {
	g := t.game
	size := g.Size()
	var b CountBoard
	if len(o.Stones) != size*size {
		return b
	}
	added, _ := t.afterStop(o)
	for _, m := range added {
		b.Placed = append(b.Placed, m.Point)
	}
	for i, c := range g.Board() {
		if c == engine.Empty {
			continue
		}
		p := engine.Point{X: i % size, Y: i / size}
		s := o.Stones[i]
		other := observe.White
		if c == engine.White {
			other = observe.Black
		}
		switch {
		case s == other && o.PointProbs(i)[s] >= sureStone:
			b.Placed = append(b.Placed, p)
		case s == observe.Empty && !t.dead[p] && !t.isFill(p):
			b.Lifted = append(b.Lifted, p)
		}
	}
	b.Lifted, b.Placed = sortedPoints(b.Lifted), sortedPoints(b.Placed)
	return b
}

// recheckCountBoard checks the last board seen after the stop again (the marking or the game's
// board changed).
func (t *core) recheckCountBoard() {
	if t.endSeen == nil || t.phase != PhaseMarking {
		t.countBoard = CountBoard{}
		return
	}
	t.countBoard = t.countBoardOf(*t.endSeen)
}

// countBoardSays is what the check says of the board.
func (t *core) countBoardSays() []Phrase {
	b := t.countBoard
	size := t.game.Size()
	var says []Phrase
	if len(b.Lifted) > 0 {
		says = append(says, phrase("The stones at {{.Points}} are off the board, but their groups are not marked dead: put them back, or mark the groups dead.",
			"Points", vertices(size, b.Lifted)))
	}
	if len(b.Placed) > 0 {
		pts := vertices(size, b.Placed)
		switch {
		case t.damePolicy():
			says = append(says, phrase("The stones at {{.Points}} are not on an open dame: take them off. After the stop only dame are filled (Japanese rules art. 8).", "Points", pts))
		case t.rules.Scoring == engine.AreaScoring:
			says = append(says, phrase("The stones at {{.Points}} were placed after the stop and are not part of the game: under area counting every stone is a point, so dame are filled by moves before the passes. Take them off, or ask to resume play.", "Points", pts))
		default:
			says = append(says, phrase("The stones at {{.Points}} were placed after the stop and are not part of the game: the count is taken on the game's board. Take them off, or ask to resume play.", "Points", pts))
		}
	}
	return says
}

// withCountBoard adds to v what the check says when the board disagrees with the marking: the
// verdict then asks for the board to be put right.
func (t *core) withCountBoard(v Verdict) Verdict {
	if t.countBoard.Agrees() {
		return v
	}
	v.Kind = VerdictBoardDiffers
	v.Says = append(v.Says, t.countBoardSays()...)
	v.Points = sortedPoints(slices.Compact(sortedPoints(slices.Concat(v.Points, t.countBoard.Points()))))
	return v
}

// applyCountBoardObs acts on a reading of the board after the stop: whole groups taken off are
// marked dead, groups marked dead that way and put back are marked alive again, dame are filled
// (Japanese rules), and the board is checked against the marking. It says what changed.
func (t *core) applyCountBoardObs(o observe.Observation) {
	seen := o.Clone()
	t.endSeen = &seen
	before := t.countBoard
	size := t.game.Size()
	var says []Phrase
	var pts []engine.Point
	changed := false
	if chains := t.removedChains(o); len(chains) > 0 {
		var all []engine.Point
		for _, ch := range chains {
			for _, p := range ch {
				t.dead[p] = true
				t.liftDead[p] = true
			}
			all = append(all, ch...)
		}
		all = sortedPoints(all)
		changed = true
		pts = append(pts, all...)
		says = append(says, phrase("Stones taken off the board count as dead: {{.Points}}. Both players press their clock to confirm.",
			"Points", vertices(size, all)))
	}
	if back := t.putBack(o); len(back) > 0 {
		for _, p := range back {
			delete(t.dead, p)
			delete(t.liftDead, p)
		}
		changed = true
		pts = append(pts, back...)
		says = append(says, phrase("The stones at {{.Points}} are back on the board: they are marked alive again.",
			"Points", vertices(size, back)))
	}
	if changed {
		t.markingChanged()
	}
	dameSays, damePts := t.applyDame(o)
	says = append(says, dameSays...)
	pts = append(pts, damePts...)
	t.recheckCountBoard()
	if len(says) == 0 && t.countBoard.equal(before) {
		return
	}
	if t.countBoard.Agrees() && !before.Agrees() {
		says = append(says, phrase("The board agrees with the marking again."))
	}
	t.setBanner(t.withCountBoard(Verdict{Kind: VerdictMarking, At: o.Time, Points: sortedPoints(pts), Says: says}))
}

// putBack returns the stones of the groups marked dead because they were taken off the board that
// stand again, every one of them, on the board seen.
func (t *core) putBack(o observe.Observation) []engine.Point {
	g := t.game
	size := g.Size()
	done := map[engine.Point]bool{}
	var out []engine.Point
	for p := range t.liftDead {
		if done[p] {
			continue
		}
		chain := g.Chain(p)
		back := len(chain) > 0
		for _, q := range chain {
			done[q] = true
			s := o.Stones[q.Y*size+q.X]
			if (s != observe.Black && s != observe.White) || stoneColor(s) != g.At(q) {
				back = false
			}
		}
		if back {
			out = append(out, chain...)
		}
	}
	return sortedPoints(out)
}

// countBoardBeforeCount is called when both players confirmed the marking: with the board
// disagreeing it refuses the count, says why and drops the confirmations, and reports false.
func (t *core) countBoardBeforeCount(at time.Time) bool {
	t.recheckCountBoard()
	if t.countBoard.Agrees() {
		return true
	}
	t.confirm = [3]bool{}
	t.setBanner(t.withCountBoard(Verdict{Kind: VerdictBoardDiffers, At: at,
		Says: []Phrase{phrase("The board does not agree with the marking: no count until it does.")}}))
	return false
}
