package referee

import (
	"fmt"
	"log/slog"
	"strings"
	"time"

	"tengen/engine"
	"tengen/vision/observe"
)

// Dame filling at the table (Japanese rules art. 8). After the stop, a stone the players put on an
// open dame is dame filling, not a move: it goes into no record and gives nobody a prisoner, and the
// count is taken on the board with it. The counting state names the dame still open. The count is
// final only when no dame that can be filled is left, or when both players confirm a second time
// that the dame left open are regarded as filled. Under the other rulesets no stone placed after
// the stop is part of the game: the count board's check (countboard.go) names them, and the count
// waits until they are off.

// DameState is the dame filling of the counting phase (PhaseMarking) under Japanese rules.
type DameState struct {
	// Applies: the ruleset counts territory with art. 8's seki rule, so open dame matter and the
	// players fill them after the stop.
	Applies bool
	// Open are the dame still open that a stone can fill safely (the count regards them as filled
	// if the players agree to leave them), row by row.
	Open []engine.Point
	// Seki are the shared liberties of a seki: nobody can fill them and they stay open.
	Seki []engine.Point
	// Filled are the dame stones placed since the stop, in the order they were seen.
	Filled []engine.Move
	// Asked: both players confirmed with dame still open; they fill them, or both press their
	// clock again to regard them as filled.
	Asked bool
}

// damePolicy reports whether the table runs dame filling after the stop (Japanese art. 8).
func (t *core) damePolicy() bool {
	return t.game != nil && !t.rules.SekiEyesCount && t.rules.Scoring == engine.TerritoryScoring
}

// dameState is the dame filling for State.
func (t *core) dameState() DameState {
	if !t.damePolicy() || (t.phase != PhaseMarking && t.phase != PhaseEnded) {
		return DameState{}
	}
	d := DameState{Applies: true, Filled: t.game.DameFilled(), Asked: t.dameAsked}
	if t.phase == PhaseMarking {
		d.Open, d.Seki, _ = t.game.OpenDame(t.deadList())
	}
	return d
}

// openDame returns the dame still open that can be filled (none under rulesets without dame filling).
func (t *core) openDame() []engine.Point {
	if !t.damePolicy() {
		return nil
	}
	open, _, err := t.game.OpenDame(t.deadList())
	if err != nil {
		return nil
	}
	return open
}

// sureStone is how sure the reading must be of a stone on an empty point after the stop to take it
// as a dame stone (a point misread now and then must not fill a dame).
const sureStone = 0.95

// afterStop returns, in reading o, the stones seen for sure on points empty in the game (added:
// under Japanese rules dame filling, under every ruleset stones placed after the stop) and, under
// Japanese rules, the dame stones placed after the stop that are gone (taken back).
func (t *core) afterStop(o observe.Observation) (added []engine.Move, taken []engine.Point) {
	g := t.game
	size := g.Size()
	for i, c := range g.Board() {
		s := o.Stones[i]
		p := engine.Point{X: i % size, Y: i / size}
		switch {
		case c == engine.Empty && (s == observe.Black || s == observe.White) && o.PointProbs(i)[s] >= sureStone:
			col := engine.Black
			if s == observe.White {
				col = engine.White
			}
			added = append(added, engine.Move{Color: col, Point: p})
		case c != engine.Empty && s == observe.Empty && t.isFill(p):
			taken = append(taken, p)
		}
	}
	return added, taken
}

// isFill reports whether p holds a dame stone placed after the stop.
func (t *core) isFill(p engine.Point) bool {
	for _, m := range t.game.DameFilled() {
		if m.Point == p {
			return true
		}
	}
	return false
}

// applyDame fills the dame the reading shows stones on, and takes back the dame stones gone from
// it (Japanese rules; nothing under the others). It returns what it did, to be said, and the
// points it concerns; the stones that are not on an open dame are left to the count board's check
// (countBoardOf), which names them.
func (t *core) applyDame(o observe.Observation) ([]Phrase, []engine.Point) {
	if !t.damePolicy() {
		return nil, nil
	}
	added, taken := t.afterStop(o)
	if len(added) == 0 && len(taken) == 0 {
		return nil, nil
	}
	g := t.game
	size := g.Size()
	for _, p := range taken {
		if err := g.TakeBackFill(p); err != nil {
			t.diag(slog.LevelError, "taking back a dame stone", "err", err)
		}
	}
	filled := t.fillFrom(added)
	if len(filled) == 0 && len(taken) == 0 {
		return nil, nil // only stones off the dame: the count board's check names them
	}
	t.markingChanged()
	var says []Phrase
	var pts []engine.Point
	if len(filled) > 0 {
		says = append(says, phrase("Dame filled at {{.Points}}: dame filling is not a move.", "Points", moveVertices(size, filled)))
		for _, m := range filled {
			pts = append(pts, m.Point)
		}
	}
	if len(taken) > 0 {
		says = append(says, phrase("The dame stones at {{.Points}} were taken back.", "Points", vertices(size, sortedPoints(taken))))
		pts = append(pts, taken...)
	}
	says = append(says, t.dameLeft())
	return says, pts
}

// fillFrom fills the dame that the stones added stand on, and returns those filled. A dame may
// open only once another is filled: it fills until nothing more can be.
func (t *core) fillFrom(added []engine.Move) []engine.Move {
	g := t.game
	dead := t.deadList()
	var filled []engine.Move
	left := added
	for progress := true; progress && len(left) > 0; {
		progress = false
		var next []engine.Move
		for _, m := range left {
			if g.FillDame(m, dead) == nil {
				filled = append(filled, m)
				progress = true
			} else {
				next = append(next, m)
			}
		}
		left = next
	}
	return filled
}

// refillDame takes every dame stone back and fills again from the last board seen after the stop,
// under the marking as it now stands: a stone next to a group marked dead may be a dame no more
// once the group is marked alive, or be one only then (a stone of a group marked dead is no dame
// stone). A stone that is not a dame stone is named by the count board's check (countboard.go).
func (t *core) refillDame() {
	g := t.game
	if !t.damePolicy() || t.endSeen == nil {
		return
	}
	for _, m := range g.DameFilled() {
		if err := g.TakeBackFill(m.Point); err != nil {
			t.diag(slog.LevelError, "taking back a dame stone", "err", err)
		}
	}
	for p := range t.dead {
		if g.At(p) == engine.Empty { // a dame stone that had joined the group marked dead
			delete(t.dead, p)
			delete(t.liftDead, p)
		}
	}
	added, _ := t.afterStop(*t.endSeen)
	t.fillFrom(added)
}

// fillPoints are the points of dame stones, row by row (nil for none).
func fillPoints(fills []engine.Move) []engine.Point {
	var pts []engine.Point
	for _, m := range fills {
		if !m.Pass {
			pts = append(pts, m.Point)
		}
	}
	if len(pts) == 0 {
		return nil
	}
	return sortedPoints(pts)
}

// dameLeft says which open dame are left, and what the players do next.
func (t *core) dameLeft() Phrase {
	open := t.openDame()
	if len(open) == 0 {
		return phrase("No open dame is left: both players press their clock to confirm the count.")
	}
	return phrase("Open dame left at {{.Points}}: fill them, then both players press their clock to confirm.",
		"Points", vertices(t.game.Size(), open))
}

// moveVertices names stones by colour and point: "B G5, W H3".
func moveVertices(size int, ms []engine.Move) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = m.GTP(size)
	}
	return strings.Join(s, ", ")
}

// dameBeforeCount is called when both players confirmed the marking. Under Japanese rules with dame
// still open it asks them to fill them, or to confirm again to regard them as filled, and reports
// false (no count yet); a second confirmation by both counts, and is recorded.
func (t *core) dameBeforeCount(at time.Time) bool {
	open := t.openDame()
	if len(open) == 0 {
		return true
	}
	size := t.game.Size()
	if t.dameAsked {
		t.comment(fmt.Sprintf("Both players regard the open dame at %s as filled (Japanese rules art. 8).", vertices(size, open)))
		return true
	}
	t.dameAsked = true
	t.confirm = [3]bool{}
	t.setBanner(Verdict{Kind: VerdictMarking, At: at, Points: open, Says: []Phrase{
		phrase("Open dame remain at {{.Points}} (Japanese rules art. 8): fill them (a stone on each; dame filling is not a move) and both press your clock, or both press your clock again to count them as filled.",
			"Points", vertices(size, open))}})
	return false
}

// dameNote records the dame filled after the stop in the game record (they are not moves).
func (t *core) dameNote() {
	if fills := t.game.DameFilled(); len(fills) > 0 {
		t.comment(fmt.Sprintf("Dame filled after the stop (not moves): %s.", moveVertices(t.game.Size(), fills)))
	}
}
