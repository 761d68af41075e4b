package engine

import (
	"fmt"
	"strings"
	"testing"
)

// diagram builds a game from rows of X (black), O (white) and . (empty), top row first.
func diagram(t testing.TB, rules string, toMove Color, rows ...string) *Game {
	t.Helper()
	r, err := Preset(rules)
	if err != nil {
		t.Fatal(err)
	}
	return diagramRules(t, r, toMove, rows...)
}

func diagramRules(t testing.TB, r Rules, toMove Color, rows ...string) *Game {
	t.Helper()
	g, err := NewGame(len(rows), r)
	if err != nil {
		t.Fatal(err)
	}
	var black, white []Point
	for y, row := range rows {
		row = strings.ReplaceAll(row, " ", "")
		if len(row) != len(rows) {
			t.Fatalf("row %d %q: want %d points", y, row, len(rows))
		}
		for x, ch := range row {
			switch ch {
			case 'X':
				black = append(black, Point{x, y})
			case 'O':
				white = append(white, Point{x, y})
			}
		}
	}
	if err := g.Setup(black, white, toMove); err != nil {
		t.Fatal(err)
	}
	return g
}

// pt parses a GTP vertex for g's size.
func pt(t testing.TB, g *Game, v string) Point {
	t.Helper()
	p, err := ParsePoint(v, g.Size())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// mustPlay plays "B D4"-style moves in order and fails the test on any illegal one.
func mustPlay(t testing.TB, g *Game, moves ...string) {
	t.Helper()
	for _, s := range moves {
		f := strings.Fields(s)
		c := Black
		if f[0] == "W" {
			c = White
		}
		m := Move{Color: c, Pass: f[1] == "pass"}
		if !m.Pass {
			m.Point = pt(t, g, f[1])
		}
		if _, err := g.Play(m); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// reason returns the reason of an illegal-move error, 0 for nil, and fails on other errors.
func reason(t testing.TB, err error) Reason {
	t.Helper()
	if err == nil {
		return 0
	}
	e, ok := err.(*IllegalMoveError)
	if !ok {
		t.Fatalf("error %v (%T) is not an *IllegalMoveError", err, err)
	}
	return e.Reason
}

// verify checks the incremental chain and hash data against a rebuild from the cells.
func verify(g *Game) error {
	b := g.b
	fresh := newBoard(b.size)
	copy(fresh.cells, b.cells)
	fresh.rebuild()
	if fresh.hash != b.hash {
		return fmt.Errorf("hash %x, rebuilt %x", b.hash, fresh.hash)
	}
	for i, c := range b.cells {
		if c != Black && c != White {
			continue
		}
		h, fh := b.head[i], fresh.head[i]
		if b.libs[h] != fresh.libs[fh] || b.stones[h] != fresh.stones[fh] {
			return fmt.Errorf("cell %v: libs %d stones %d, rebuilt %d %d", b.point(i), b.libs[h], b.stones[h], fresh.libs[fh], fresh.stones[fh])
		}
		for j, d := range b.cells {
			if d == c && (b.head[j] == h) != (fresh.head[j] == fh) {
				return fmt.Errorf("chains differ at %v / %v", b.point(i), b.point(j))
			}
		}
	}
	if g.table.n != countKeys(g) {
		return fmt.Errorf("table holds %d keys, history has %d distinct positions", g.table.n, countKeys(g))
	}
	return nil
}

func countKeys(g *Game) int {
	n := 1
	for _, r := range g.hist {
		if r.inserted {
			n++
		}
	}
	return n
}
