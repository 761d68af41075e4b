package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"tengen/engine"
)

// drawStates counts the draws of objs that need a GL state of their own: every object but a text
// that repeats the one before it (same string, size, style, colour and font share one texture).
// With Mesa's llvmpipe each such state costs tens of kilobytes per frame.
func drawStates(objs []fyne.CanvasObject) int {
	n := 0
	prev := ""
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		key := ""
		if t, ok := o.(*canvas.Text); ok && t.FontSource != nil {
			key = fmt.Sprint(t.Text, t.TextSize, t.TextStyle, t.Color, t.FontSource.Name())
		}
		if key == "" || key != prev {
			n++
		}
		prev = key
	}
	return n
}

// A full board with territory and dead stones needs as many draw states as an empty one, plus a
// few: stones, star points, territory and crosses are runs of one shared glyph each.
func TestBoardDrawStatesDoNotGrowWithStones(t *testing.T) {
	newTestApp(t)
	const n = 19
	empty := BoardView{Size: n, Stones: make([]engine.Color, n*n)}
	full := BoardView{Size: n, Stones: make([]engine.Color, n*n), Territory: make([]engine.Color, n*n),
		LastMove: engine.Point{X: 3, Y: 3}, HasLast: true}
	for i := range full.Stones {
		p := engine.Point{X: i % n, Y: i / n}
		switch {
		case (p.X+p.Y)%3 == 0:
			full.Territory[i] = engine.Color(1 + p.X%2)
		case p.X < n/2:
			full.Stones[i] = engine.Black
		default:
			full.Stones[i] = engine.White
		}
		if p.Y == 0 && full.Stones[i] != engine.Empty {
			full.Marks = append(full.Marks, Mark{Point: p, Kind: MarkDead})
		}
	}
	states := func(v BoardView) int {
		b := NewBoard()
		w := test.NewWindow(b)
		defer w.Close()
		w.Resize(fyne.NewSize(720, 720))
		b.SetView(v)
		return drawStates(test.WidgetRenderer(b).Objects())
	}
	e, f := states(empty), states(full)
	t.Logf("draw states: empty 19x19 board %d, full board with territory and dead stones %d", e, f)
	// Empty: the wood, 38 lines, the coordinates on four sides and the star points' run. Full adds
	// the last-move ring and at most eight runs: two territories, live and dead stones of each
	// colour, white rims, crosses.
	if want := 1 + 2*n + 4*n + 1; e != want {
		t.Errorf("empty board: %d draw states, want %d", e, want)
	}
	if f > e+1+8 {
		t.Errorf("full board: %d draw states, want at most %d (stones must share their glyph's texture)", f, e+9)
	}
}

// Every shape stands centred on its intersection: the pixel at each stone's centre has the
// stone's colour and the wood shows just outside its edge.
func TestBoardShapesAreCentred(t *testing.T) {
	newTestApp(t)
	const n = 9
	v := BoardView{Size: n, Stones: make([]engine.Color, n*n)}
	at := []engine.Point{{X: 0, Y: 0}, {X: 4, Y: 4}, {X: 8, Y: 3}, {X: 1, Y: 7}}
	for i, p := range at {
		v.Stones[p.Y*n+p.X] = engine.Color(1 + i%2)
	}
	b := NewBoard()
	b.SetView(v)
	sz := fyne.NewSize(500, 500) // a whole number of pixels between lines (9 + 2 x 0.5 coordinate bands of 50 px)
	img := capture(t, "board-centred", b, sz)
	g := boardGeometry(b.Size(), n)
	for i, p := range at {
		want := colBlack
		if i%2 == 1 {
			want = colWhite
		}
		cx, cy := g.x0+float32(p.X)*g.step, g.y0+float32(p.Y)*g.step
		r := g.step * 0.48
		for _, d := range [][2]float32{{0, 0}, {-0.9, 0}, {0.9, 0}, {0, -0.9}, {0, 0.9}} {
			q := scale(img, sz, fyne.NewPos(cx+d[0]*r, cy+d[1]*r))
			if c := img.At(q.X, q.Y); !near(c, want, 40) {
				t.Errorf("%v: pixel at %.1f radius (%v) is %v, want the stone", p, d, q, c)
			}
		}
		for _, d := range [][2]float32{{-0.74, -0.74}, {0.74, 0.74}} { // beyond the disc, between the lines
			q := scale(img, sz, fyne.NewPos(cx+d[0]*r, cy+d[1]*r))
			if c := img.At(q.X, q.Y); !near(c, colWood, 40) {
				t.Errorf("%v: pixel beyond the edge (%v) is %v, want wood", p, q, c)
			}
		}
	}
}
