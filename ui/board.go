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
	"tengen/internal/shapefont"
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
	shapes  []placedShape  // star points, territory, stones, dead crosses: glyphs of the shapes font
	texts   []*canvas.Text // the shapes' text objects, reused from one view to the next
	last    *canvas.Circle
	marks   []fyne.CanvasObject
	markAt  []Mark // where each mark stands and what it is
	objects []fyne.CanvasObject
	size    int
}

// placedShape is one glyph of the shapes font standing on an intersection.
type placedShape struct {
	t    *canvas.Text
	p    engine.Point
	kind shapeKind
}

// shapeKind is what a placed shape shows, which sets its size.
type shapeKind int8

const (
	shapeStar shapeKind = iota
	shapeTerritory
	shapeStone // a stone's disc or a white stone's rim
	shapeDead  // the cross on a dead stone
)

// side is the width of the shape's box on a board whose lines are step apart.
func (k shapeKind) side(step float32) float32 {
	switch k {
	case shapeStar:
		return float32(math.Max(5, float64(step)*0.18))
	case shapeTerritory:
		return step * 0.4
	case shapeDead:
		return step * 0.6
	}
	return step * 0.96
}

// boardShapes is the font the board's shapes are drawn in (see package shapefont for why).
var boardShapes = fyne.NewStaticResource("tengen-board-shapes.ttf", shapefont.Build())

func (r *boardRenderer) Destroy() {}

func (r *boardRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *boardRenderer) MinSize() fyne.Size { return fyne.NewSize(180, 180) }

func (r *boardRenderer) Refresh() {
	r.rebuild()
	r.Layout(r.b.Size())
	canvas.Refresh(r.b)
}

// Colours of the board's shapes beyond the theme's.
var (
	colBlackTerritory = color.NRGBA{R: 0x10, G: 0x10, B: 0x12, A: 0xd0}
	colWhiteTerritory = color.NRGBA{R: 0xfa, G: 0xfa, B: 0xfa, A: 0xe0}
	colWhiteRim       = color.NRGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
	colDeadBlack      = color.NRGBA{R: colBlack.R, G: colBlack.G, B: colBlack.B, A: 0x80}
	colDeadWhite      = color.NRGBA{R: colWhite.R, G: colWhite.G, B: colWhite.B, A: 0x80}
)

// rebuild makes the canvas objects for the current view. Shapes of one colour are kept together
// in drawing order, so that the GL driver draws each run as one state (stones do not overlap, so
// the order between them does not show).
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
	}
	r.shapes = r.shapes[:0]
	r.marks, r.markAt = r.marks[:0], r.markAt[:0]
	r.last = nil
	if n > 0 {
		r.rebuildShapes(v, n)
		r.rebuildMarks(v, n)
	}
	r.objects = r.objects[:0]
	r.objects = append(r.objects, r.bg)
	for _, l := range r.lines {
		r.objects = append(r.objects, l)
	}
	for _, s := range r.shapes {
		r.objects = append(r.objects, s.t)
	}
	if r.last != nil {
		r.objects = append(r.objects, r.last)
	}
	r.objects = append(r.objects, r.marks...)
}

// rebuildShapes places the star points, territory, stones and dead crosses, one colour at a time.
func (r *boardRenderer) rebuildShapes(v BoardView, n int) {
	add := func(glyph rune, col color.NRGBA, kind shapeKind, p engine.Point) {
		i := len(r.shapes)
		if i == len(r.texts) {
			t := canvas.NewText("", col)
			t.FontSource = boardShapes
			r.texts = append(r.texts, t)
		}
		t := r.texts[i]
		t.Text, t.Color = string(glyph), col
		r.shapes = append(r.shapes, placedShape{t: t, p: p, kind: kind})
	}
	for _, s := range hoshi.Points(n) {
		add(shapefont.Disc, colLine, shapeStar, engine.Point{X: s[0], Y: s[1]})
	}
	dead := map[engine.Point]bool{}
	for _, m := range v.Marks {
		if m.Kind == MarkDead {
			dead[m.Point] = true
		}
	}
	points := func(want func(engine.Point) bool, do func(engine.Point)) {
		for i := 0; i < n*n; i++ {
			if p := (engine.Point{X: i % n, Y: i / n}); want(p) {
				do(p)
			}
		}
	}
	if len(v.Territory) == n*n {
		for _, tc := range []struct {
			c   engine.Color
			col color.NRGBA
		}{{engine.Black, colBlackTerritory}, {engine.White, colWhiteTerritory}} {
			points(func(p engine.Point) bool { return v.Territory[p.Y*n+p.X] == tc.c },
				func(p engine.Point) { add(shapefont.Square, tc.col, shapeTerritory, p) })
		}
	}
	for _, sc := range []struct {
		c    engine.Color
		dead bool
		col  color.NRGBA
	}{{engine.Black, false, colBlack}, {engine.Black, true, colDeadBlack}, {engine.White, false, colWhite}, {engine.White, true, colDeadWhite}} {
		points(func(p engine.Point) bool { return v.At(p) == sc.c && dead[p] == sc.dead },
			func(p engine.Point) { add(shapefont.Disc, sc.col, shapeStone, p) })
	}
	points(func(p engine.Point) bool { return v.At(p) == engine.White },
		func(p engine.Point) { add(shapefont.Rim, colWhiteRim, shapeStone, p) })
	points(func(p engine.Point) bool { return dead[p] && v.At(p) != engine.Empty },
		func(p engine.Point) { add(shapefont.Cross, colIllegal, shapeDead, p) })
}

// rebuildMarks makes the last-move ring and the verdicts' marks (few, so plain canvas objects).
func (r *boardRenderer) rebuildMarks(v BoardView, n int) {
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
			r.markAt = append(r.markAt, m)
		case MarkFix:
			sq := canvas.NewRectangle(color.NRGBA{R: colDiffers.R, G: colDiffers.G, B: colDiffers.B, A: 0x40})
			sq.StrokeColor = colDiffers
			sq.StrokeWidth = 5
			r.marks = append(r.marks, sq)
			r.markAt = append(r.markAt, m)
		}
	}
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
	for _, s := range r.shapes {
		side := s.kind.side(g.step)
		s.t.TextSize = side
		square(s.t, s.p, side/2)
	}
	if r.last != nil {
		square(r.last, r.b.view.LastMove, g.step*0.22)
	}
	for i, m := range r.marks {
		pl := r.markAt[i]
		switch pl.Kind {
		case MarkIllegal, MarkRemove:
			square(m, pl.Point, g.step*0.5)
		case MarkFix:
			square(m, pl.Point, g.step*0.46)
		}
	}
}
