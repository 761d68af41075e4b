package engine

import (
	"errors"
	"fmt"
	"slices"
)

// Errors of dame filling after the stop.
var (
	// ErrNotDame is wrapped by FillDame when the point is not an open dame.
	ErrNotDame = errors.New("not an open dame")
	// ErrNotFilled is wrapped by TakeBackFill when no dame stone stands on the point.
	ErrNotFilled = errors.New("no dame stone there")
)

// FillDame puts m's stone on an open dame after the stop (Japanese art. 8: players fill the dame
// before counting). It is not a move: it goes into no record, gives nobody a prisoner and changes
// nobody's turn; Score counts the board with it. The point must be empty and one of the open dame
// OpenDame names in the position with the stones in dead taken off (its empty region touches live
// stones of both colours, no stone in dead, and it is not territory behind another open dame nor a
// seki's shared liberty), and the stone must capture nothing and keep a liberty. Resume and Undo
// take the dame stones off again (the players take them off the board: they were not moves).
func (g *Game) FillDame(m Move, dead []Point) error {
	if g.st.phase != Stopped {
		return fmt.Errorf("fill dame: %w", ErrNotStopped)
	}
	if m.Color != Black && m.Color != White {
		return ErrBadColor
	}
	if m.Pass || !m.Point.In(g.b.size) {
		return fmt.Errorf("fill dame: %w: %v", ErrBadPoint, m.Point)
	}
	b := g.b
	p := b.idx(m.Point)
	if b.cells[p] != Empty {
		return fmt.Errorf("fill dame at %s: %w", m.Point.GTP(b.size), g.illegal(Occupied, m))
	}
	cells, _, err := g.withoutDead(dead)
	if err != nil {
		return err
	}
	for _, d := range b.dirs {
		// Next to an opponent's stone marked dead a dame is filled like any other (the dead stone
		// is off the board for the count); next to the filler's own, the stone would join it.
		if q := p + d; b.cells[q] == m.Color && cells[q] == Empty {
			return fmt.Errorf("fill dame at %s: %w (next to a %s stone marked dead, which the stone would join)", m.Point.GTP(b.size), ErrNotDame, m.Color)
		}
	}
	if black, white := g.regionTouches(cells, p); !black || !white {
		return fmt.Errorf("fill dame at %s: %w (its empty points touch only one colour)", m.Point.GTP(b.size), ErrNotDame)
	}
	if view := g.fillDame(cells); view[p] == Empty {
		// An empty point behind an open dame (White's territory behind a gap in White's wall)
		// touches both colours through the gap, but it is territory once the gap is filled: only
		// the dame OpenDame names can be filled, the gap first.
		return fmt.Errorf("fill dame at %s: %w (not an open dame: territory, or a seki's shared liberty)", m.Point.GTP(b.size), ErrNotDame)
	}
	// Safe on the board the count sees: the stones marked dead taken off (a dead stone whose last
	// liberty the fill takes stays on the game's board, dead, until the count removes it).
	counted := newBoard(b.size)
	copy(counted.cells, cells)
	counted.rebuild()
	o := counted.analyze(p, m.Color)
	if o.captured > 0 || o.suicide {
		return fmt.Errorf("fill dame at %s: %w (a stone there would capture)", m.Point.GTP(b.size), ErrNotDame)
	}
	b.cells[p] = m.Color
	b.rebuild()
	b.ko = 0
	g.fills = append(g.fills, Move{Color: m.Color, Point: m.Point})
	return nil
}

// TakeBackFill takes a dame stone placed after the stop off the board again.
func (g *Game) TakeBackFill(p Point) error {
	i := slices.IndexFunc(g.fills, func(m Move) bool { return m.Point == p })
	if i < 0 {
		return fmt.Errorf("take back %v: %w", p, ErrNotFilled)
	}
	g.fills = slices.Delete(g.fills, i, i+1)
	g.b.cells[g.b.idx(p)] = Empty
	g.b.rebuild()
	return nil
}

// DameFilled returns the dame stones placed after the stop (FillDame), in the order placed.
func (g *Game) DameFilled() []Move { return slices.Clone(g.fills) }

// clearFills takes every dame stone off the board (play resumes, or a move is undone).
func (g *Game) clearFills() {
	if len(g.fills) == 0 {
		return
	}
	for _, m := range g.fills {
		g.b.cells[g.b.idx(m.Point)] = Empty
	}
	g.fills = nil
	g.b.rebuild()
}

// OpenDame returns the dame still open in the position with the chains at dead taken off: fillable
// are those the count regards as filled under Japanese art. 8 (a stone can be put there safely,
// perhaps once another is; see Score) but for the points of the stones in dead (regarded as filled,
// since the dead stone stands there until the count), seki the shared liberties of a seki, which
// nobody can fill and which stay open. Both are sorted by row, then column.
func (g *Game) OpenDame(dead []Point) (fillable, seki []Point, err error) {
	cells, _, err := g.withoutDead(dead)
	if err != nil {
		return nil, nil, err
	}
	view := g.fillDame(cells)
	b := g.b
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			i := (y+1)*b.stride + x + 1
			if cells[i] != Empty {
				continue
			}
			switch {
			case view[i] != Empty && b.cells[i] == Empty:
				fillable = append(fillable, Point{x, y})
			case view[i] != Empty:
				// A dead stone's point is regarded as filled, not named: the stone stays on the
				// game's board, dead, until the count removes it, so nothing can be put there.
			default:
				if black, white := g.regionTouches(view, i); black && white {
					seki = append(seki, Point{x, y})
				}
			}
		}
	}
	return fillable, seki, nil
}

// withoutDead returns a copy of the cells with the chains at dead taken off, and the stones taken.
func (g *Game) withoutDead(dead []Point) ([]Color, []Point, error) {
	b := g.b
	cells := slices.Clone(b.cells)
	var taken []Point
	for _, p := range dead {
		if !p.In(b.size) {
			return nil, nil, fmt.Errorf("dead stone %w: %v", ErrBadPoint, p)
		}
		c := cells[b.idx(p)]
		if c != Black && c != White {
			continue
		}
		for _, s := range g.Chain(p) {
			cells[b.idx(s)] = Empty
			taken = append(taken, s)
		}
	}
	return cells, taken, nil
}

// regionTouches reports which colours' stones the empty region of cells through i touches.
func (g *Game) regionTouches(cells []Color, i int) (black, white bool) {
	f := regionFlood{seen: make([]int32, len(cells))}
	return f.colors(g.b, cells, i, -1)
}

// Seki returns the stones in seki in the position with the chains at dead taken off (ignored once
// four passes made every stone alive, as in Score), whatever the ruleset: the live stones next to a
// dame that stays open once every dame that can be filled safely is regarded as filled (fillDame;
// read literally, every open dame, with Rules.LiteralDame). Under area counting, or AGA's territory
// counting, seki changes no count, and Score leaves Score.Seki empty; GTP's final_status_list seki
// asks for them all the same.
func (g *Game) Seki(dead []Point) ([]Point, error) {
	if g.st.allAlive {
		dead = nil
	}
	cells, _, err := g.withoutDead(dead)
	if err != nil {
		return nil, err
	}
	view := cells
	if !g.rules.LiteralDame {
		view = g.fillDame(cells)
	}
	b := g.b
	region, regions := b.emptyRegions(view)
	var out []Point
	for _, p := range g.markSeki(view, region, regions) {
		if cells[b.idx(p)] != Empty { // not a dame regarded as filled
			out = append(out, p)
		}
	}
	return out, nil
}

// ErrNoKoBan is wrapped by PassForKo when the player is not banned from that ko.
var ErrNoKoBan = errors.New("no ko ban to pass for")

// PassForKo is c's pass for the ko at ko during the confirmation of life and death after the stop
// (Japanese art. 7.2, in the Confirmation sandbox): it lifts c's ban on retaking that ko, and only
// that one (a plain pass lifts c's oldest ban). It fails, changing nothing, when c is not banned
// there or the pass is not c's to make.
func (g *Game) PassForKo(c Color, ko Point) (Played, error) {
	if !g.confirmation || !ko.In(g.b.size) {
		return Played{}, fmt.Errorf("pass for the ko at %v: %w", ko, ErrNoKoBan)
	}
	cell := g.b.idx(ko)
	banned := false
	for _, ban := range g.st.bans[:g.st.nbans] {
		if int(ban.cell) == cell && ban.color == c {
			banned = true
		}
	}
	if !banned {
		return Played{}, fmt.Errorf("pass for the ko at %s: %w", ko.GTP(g.b.size), ErrNoKoBan)
	}
	m := Move{Color: c, Pass: true}
	if _, _, err := g.check(m); err != nil {
		return Played{}, err
	}
	g.passKo = cell
	g.execute(m, 0, Move{}, false)
	g.passKo = 0
	return g.played(len(g.hist) - 1), nil
}

// KoBans returns the kos c may not retake until c passes for each (Japanese art. 7.2, in the
// Confirmation sandbox), oldest first.
func (g *Game) KoBans(c Color) []Point {
	var out []Point
	for _, ban := range g.st.bans[:g.st.nbans] {
		if ban.color == c {
			out = append(out, g.b.point(int(ban.cell)))
		}
	}
	return out
}

// InConfirmation reports whether g is a confirmation sandbox (Confirmation) whose kos follow
// Japanese art. 7.2.
func (g *Game) InConfirmation() bool { return g.confirmation }
