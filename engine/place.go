package engine

import "fmt"

// Placement is what putting a stone down does under the capture rule alone (no turn, no ko, no
// suicide rule): for code that lays out or replays positions without a Game (the demo's scripted
// games, random positions). Games use Game.Play, which applies the same board code.
type Placement struct {
	Captured []Point // the opponent stones taken off
	Suicide  []Point // the mover's own chain taken off: it had no liberty left and captured nothing
	// Liberties is how many liberties the stone's chain has after the captures (0 with Suicide).
	Liberties int
}

// Place puts a stone of colour c on the empty point p of position (size*size colours, row-major,
// row 0 the top row) and reports what it captures; position itself is not changed.
func Place(position []Color, size int, p Point, c Color) (Placement, error) {
	if size < MinSize || size > MaxSize || len(position) != size*size {
		return Placement{}, fmt.Errorf("engine: a position of %d points is not a %dx%d board", len(position), size, size)
	}
	if c != Black && c != White {
		return Placement{}, fmt.Errorf("engine: cannot place %v", c)
	}
	if !p.In(size) || position[p.Y*size+p.X] != Empty {
		return Placement{}, fmt.Errorf("engine: %s is not an empty point of the board", p.GTP(size))
	}
	b := newBoard(size)
	for i, col := range position {
		if col != Empty && col != Black && col != White {
			return Placement{}, fmt.Errorf("engine: point %d holds %v", i, col)
		}
		b.cells[b.idx(Point{X: i % size, Y: i / size})] = col
	}
	b.rebuild()
	var log []int16
	at := b.idx(p)
	captured, self := b.play(at, c, &log)
	var pl Placement
	for _, cell := range log[:captured] {
		pl.Captured = append(pl.Captured, b.point(int(cell)))
	}
	for _, cell := range log[captured : captured+self] {
		pl.Suicide = append(pl.Suicide, b.point(int(cell)))
	}
	if self == 0 {
		pl.Liberties = b.liberties(at)
	}
	return pl, nil
}

// Liberties returns how many liberties the chain at p has in position (0 for an empty point).
func Liberties(position []Color, size int, p Point) int {
	if size < MinSize || size > MaxSize || len(position) != size*size || !p.In(size) {
		return 0
	}
	b := newBoard(size)
	for i, col := range position {
		if col == Black || col == White {
			b.cells[b.idx(Point{X: i % size, Y: i / size})] = col
		}
	}
	b.rebuild()
	return b.liberties(b.idx(p))
}

// liberties counts the distinct empty cells next to the chain at cell p (0 for an empty cell).
func (b *board) liberties(p int) int {
	if c := b.cells[p]; c != Black && c != White {
		return 0
	}
	seen := map[int]bool{}
	h := b.head[p]
	for s := h; ; {
		for _, d := range b.dirs {
			if q := int(s) + d; b.cells[q] == Empty {
				seen[q] = true
			}
		}
		if s = b.next[s]; s == h {
			break
		}
	}
	return len(seen)
}
