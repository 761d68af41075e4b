package ui

import (
	"image/color"
	"math"
	"reflect"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"tengen/engine"
	"tengen/internal/hoshi"
)

// Board is the recorded game board: wood, lines, star points, stones, the last move, marks and
// territory. The view is set from outside (SetView); taps on an intersection call OnTapped.
type Board struct {
	widget.BaseWidget
	view     BoardView
	OnTapped func(engine.Point)
}

// NewBoard returns an empty board widget.
func NewBoard() *Board {
	b := &Board{}
	b.ExtendBaseWidget(b)
	return b
}

// SetView shows v; an unchanged view costs nothing.
func (b *Board) SetView(v BoardView) {
	if reflect.DeepEqual(b.view, v) {
		return
	}
	b.view = v
	b.Refresh()
}

// View returns what the board shows.
func (b *Board) View() BoardView { return b.view }

// Tapped maps a tap to the nearest intersection.
func (b *Board) Tapped(ev *fyne.PointEvent) {
	if b.OnTapped == nil || b.view.Size < 2 {
		return
	}
	g := boardGeometry(b.Size(), b.view.Size)
	x := int(math.Round(float64((ev.Position.X - g.x0) / g.step)))
	y := int(math.Round(float64((ev.Position.Y - g.y0) / g.step)))
	p := engine.Point{X: x, Y: y}
	if p.In(b.view.Size) {
		b.OnTapped(p)
	}
}

// CreateRenderer builds the board's drawing.
func (b *Board) CreateRenderer() fyne.WidgetRenderer {
	r := &boardRenderer{b: b, bg: canvas.NewRectangle(colWood)}
	r.rebuild()
	return r
}

// geometry is where the grid lies inside the widget.
type geometry struct {
	x0, y0, step float32 // top-left intersection and spacing
	side         float32 // the wooden square's side
	left, top    float32 // the wooden square's corner
}

func boardGeometry(sz fyne.Size, n int) geometry {
	side := float32(math.Min(float64(sz.Width), float64(sz.Height)))
	if n < 2 {
		n = 2
	}
	step := side / float32(n)
	left := (sz.Width - side) / 2
	top := (sz.Height - side) / 2
	return geometry{x0: left + step/2, y0: top + step/2, step: step, side: side, left: left, top: top}
}

type boardRenderer struct {
	b       *Board
	bg      *canvas.Rectangle
	lines   []*canvas.Line
	stars   []*canvas.Circle
	terr    []*canvas.Rectangle
	terrAt  []engine.Point
	stones  []*canvas.Circle
	stoneAt []engine.Point
	last    *canvas.Circle
	marks   []fyne.CanvasObject
	markAt  []markPlace
	objects []fyne.CanvasObject
	size    int
}

// markPlace remembers how to lay out one mark object.
type markPlace struct {
	p     engine.Point
	kind  MarkKind
	part  int // 0 ring/square, 1 and 2 the strokes of a cross
	white bool
}

func (r *boardRenderer) Destroy() {}

func (r *boardRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *boardRenderer) MinSize() fyne.Size { return fyne.NewSize(180, 180) }

func (r *boardRenderer) Refresh() {
	r.rebuild()
	r.Layout(r.b.Size())
	canvas.Refresh(r.b)
}

// rebuild makes the canvas objects for the current view.
func (r *boardRenderer) rebuild() {
	v := r.b.view
	n := v.Size
	if n < 2 || len(v.Stones) != n*n {
		n = 0
	}
	if n != r.size {
		r.size = n
		r.lines = r.lines[:0]
		for i := 0; i < 2*n; i++ {
			l := canvas.NewLine(colLine)
			r.lines = append(r.lines, l)
		}
		r.stars = r.stars[:0]
		for range hoshi.Points(n) {
			r.stars = append(r.stars, canvas.NewCircle(colLine))
		}
	}
	r.terr, r.terrAt = r.terr[:0], r.terrAt[:0]
	r.stones, r.stoneAt = r.stones[:0], r.stoneAt[:0]
	r.marks, r.markAt = r.marks[:0], r.markAt[:0]
	r.last = nil
	dead := map[engine.Point]bool{}
	for _, m := range v.Marks {
		if m.Kind == MarkDead {
			dead[m.Point] = true
		}
	}
	if n > 0 {
		if len(v.Territory) == n*n {
			for i, c := range v.Territory {
				if c != engine.Black && c != engine.White {
					continue
				}
				col := color.NRGBA{R: 0x10, G: 0x10, B: 0x12, A: 0xd0}
				if c == engine.White {
					col = color.NRGBA{R: 0xfa, G: 0xfa, B: 0xfa, A: 0xe0}
				}
				rect := canvas.NewRectangle(col)
				r.terr = append(r.terr, rect)
				r.terrAt = append(r.terrAt, engine.Point{X: i % n, Y: i / n})
			}
		}
		for i, c := range v.Stones {
			if c != engine.Black && c != engine.White {
				continue
			}
			p := engine.Point{X: i % n, Y: i / n}
			circ := canvas.NewCircle(colBlack)
			circ.StrokeColor = color.NRGBA{A: 0xff}
			circ.StrokeWidth = 1
			if c == engine.White {
				circ.FillColor = colWhite
				circ.StrokeColor = color.NRGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
			}
			if dead[p] {
				fc := circ.FillColor.(color.NRGBA)
				fc.A = 0x80
				circ.FillColor = fc
			}
			r.stones = append(r.stones, circ)
			r.stoneAt = append(r.stoneAt, p)
		}
		if v.HasLast && v.LastMove.In(n) {
			c := v.At(v.LastMove)
			ring := canvas.NewCircle(color.Transparent)
			ring.StrokeWidth = 3
			ring.StrokeColor = colWhite
			if c == engine.White || c == engine.Empty {
				ring.StrokeColor = colBlack
			}
			r.last = ring
		}
		for _, m := range v.Marks {
			onWhite := v.At(m.Point) == engine.White
			switch m.Kind {
			case MarkIllegal, MarkRemove:
				col := colIllegal
				if m.Kind == MarkRemove {
					col = colRemove
				}
				ring := canvas.NewCircle(color.NRGBA{R: col.R, G: col.G, B: col.B, A: 0x50})
				ring.StrokeColor = col
				ring.StrokeWidth = 5
				r.marks = append(r.marks, ring)
				r.markAt = append(r.markAt, markPlace{p: m.Point, kind: m.Kind})
			case MarkFix:
				sq := canvas.NewRectangle(color.NRGBA{R: colDiffers.R, G: colDiffers.G, B: colDiffers.B, A: 0x40})
				sq.StrokeColor = colDiffers
				sq.StrokeWidth = 5
				r.marks = append(r.marks, sq)
				r.markAt = append(r.markAt, markPlace{p: m.Point, kind: m.Kind})
			case MarkDead:
				col := colIllegal
				for part := 1; part <= 2; part++ {
					l := canvas.NewLine(col)
					l.StrokeWidth = 4
					r.marks = append(r.marks, l)
					r.markAt = append(r.markAt, markPlace{p: m.Point, kind: m.Kind, part: part, white: onWhite})
				}
			}
		}
	}
	r.objects = r.objects[:0]
	r.objects = append(r.objects, r.bg)
	for _, l := range r.lines {
		r.objects = append(r.objects, l)
	}
	for _, s := range r.stars {
		r.objects = append(r.objects, s)
	}
	for _, t := range r.terr {
		r.objects = append(r.objects, t)
	}
	for _, s := range r.stones {
		r.objects = append(r.objects, s)
	}
	if r.last != nil {
		r.objects = append(r.objects, r.last)
	}
	r.objects = append(r.objects, r.marks...)
}

func (r *boardRenderer) Layout(sz fyne.Size) {
	n := r.size
	g := boardGeometry(sz, max(n, 2))
	r.bg.Move(fyne.NewPos(g.left, g.top))
	r.bg.Resize(fyne.NewSize(g.side, g.side))
	if n == 0 {
		return
	}
	at := func(p engine.Point) fyne.Position {
		return fyne.NewPos(g.x0+float32(p.X)*g.step, g.y0+float32(p.Y)*g.step)
	}
	lw := float32(math.Max(1, float64(g.step)/22))
	end := g.step * float32(n-1)
	for i := 0; i < n; i++ {
		h, v := r.lines[2*i], r.lines[2*i+1]
		h.StrokeWidth, v.StrokeWidth = lw, lw
		off := float32(i) * g.step
		h.Position1 = fyne.NewPos(g.x0, g.y0+off)
		h.Position2 = fyne.NewPos(g.x0+end, g.y0+off)
		v.Position1 = fyne.NewPos(g.x0+off, g.y0)
		v.Position2 = fyne.NewPos(g.x0+off, g.y0+end)
	}
	square := func(o fyne.CanvasObject, p engine.Point, rad float32) {
		c := at(p)
		o.Move(fyne.NewPos(c.X-rad, c.Y-rad))
		o.Resize(fyne.NewSize(2*rad, 2*rad))
	}
	for i, s := range hoshi.Points(n) {
		square(r.stars[i], engine.Point{X: s[0], Y: s[1]}, float32(math.Max(2.5, float64(g.step)*0.09)))
	}
	for i, t := range r.terr {
		square(t, r.terrAt[i], g.step*0.2)
	}
	for i, s := range r.stones {
		square(s, r.stoneAt[i], g.step*0.48)
	}
	if r.last != nil {
		square(r.last, r.b.view.LastMove, g.step*0.22)
	}
	for i, m := range r.marks {
		pl := r.markAt[i]
		switch pl.kind {
		case MarkIllegal, MarkRemove:
			square(m, pl.p, g.step*0.5)
		case MarkFix:
			square(m, pl.p, g.step*0.46)
		case MarkDead:
			l := m.(*canvas.Line)
			c := at(pl.p)
			d := g.step * 0.26
			if pl.part == 1 {
				l.Position1, l.Position2 = fyne.NewPos(c.X-d, c.Y-d), fyne.NewPos(c.X+d, c.Y+d)
			} else {
				l.Position1, l.Position2 = fyne.NewPos(c.X-d, c.Y+d), fyne.NewPos(c.X+d, c.Y-d)
			}
			l.StrokeWidth = float32(math.Max(2, float64(g.step)/12))
		}
	}
}
