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
	// zoomFrom and zoomSide are the part of the board shown (a square of zoomSide points from
	// zoomFrom); zoomSide 0 shows the whole board.
	zoomFrom engine.Point
	zoomSide int
}

// Zoom shows only the square of side points from the point from (clamped to the board); side 0 or
// the board's size shows the whole board.
func (b *Board) Zoom(from engine.Point, side int) {
	n := b.view.Size
	if side <= 0 || side >= n {
		from, side = engine.Point{}, 0
	} else {
		from.X = max(0, min(from.X, n-side))
		from.Y = max(0, min(from.Y, n-side))
	}
	if from == b.zoomFrom && side == b.zoomSide {
		return
	}
	b.zoomFrom, b.zoomSide = from, side
	b.Refresh()
}

// Zoomed reports whether only part of the board is shown, and which (the first point and the side).
func (b *Board) Zoomed() (engine.Point, int, bool) { return b.zoomFrom, b.zoomSide, b.zoomSide > 0 }

// window is the part of the board shown: its first point and its side in points.
func (b *Board) window() (engine.Point, int) {
	if b.zoomSide > 0 && b.zoomSide < b.view.Size {
		return b.zoomFrom, b.zoomSide
	}
	return engine.Point{}, b.view.Size
}

// Geometry returns where intersection p is drawn in the widget and the lines' spacing (for the
// tests and the zoomed marking's tap targets).
func (b *Board) Geometry() (x0, y0, step float32) {
	from, k := b.window()
	g := windowGeometry(b.Size(), from, k)
	return g.x0, g.y0, g.step
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
	from, k := b.window()
	g := windowGeometry(b.Size(), from, k)
	x := int(math.Round(float64((ev.Position.X - g.x0) / g.step)))
	y := int(math.Round(float64((ev.Position.Y - g.y0) / g.step)))
	p := engine.Point{X: x, Y: y}
	if p.In(b.view.Size) && inWindow(p, from, k) {
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
	x0, y0, step float32 // where intersection (0, 0) is (outside the widget when zoomed) and the spacing
	side         float32 // the wooden square's side
	left, top    float32 // the wooden square's corner
}

// coordBand is the width of the coordinates' band on each side of the grid, in line spacings.
const coordBand = 0.5

// boardGeometry is the geometry of a whole n x n board in a widget of size sz.
func boardGeometry(sz fyne.Size, n int) geometry { return windowGeometry(sz, engine.Point{}, n) }

// windowGeometry is the geometry of the square of k points from the point from, drawn to fill a
// widget of size sz, with the coordinates' band around it.
func windowGeometry(sz fyne.Size, from engine.Point, k int) geometry {
	side := float32(math.Min(float64(sz.Width), float64(sz.Height)))
	if k < 2 {
		k = 2
	}
	step := side / (float32(k) + 2*coordBand)
	left := (sz.Width - side) / 2
	top := (sz.Height - side) / 2
	first := (coordBand + 0.5) * step
	return geometry{x0: left + first - float32(from.X)*step, y0: top + first - float32(from.Y)*step, step: step,
		side: side, left: left, top: top}
}

// inWindow reports whether p lies in the square of k points from the point from.
func inWindow(p, from engine.Point, k int) bool {
	return p.X >= from.X && p.Y >= from.Y && p.X < from.X+k && p.Y < from.Y+k
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
	coords  []*canvas.Text // the coordinates: letters above and below, numbers left and right
	size    int
	from    engine.Point // the window drawn (see Board.Zoom)
	side    int
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
	colDame           = color.NRGBA{R: 0xc2, G: 0x18, B: 0x5b, A: 0xff} // an open dame: magenta ring
	colSeki           = color.NRGBA{R: 0x00, G: 0x69, B: 0x5c, A: 0xff} // a seki's shared liberty: teal square
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
	from, k := r.b.window()
	if n == 0 {
		k = 0
	}
	if n != r.size || from != r.from || k != r.side {
		r.size, r.from, r.side = n, from, k
		r.lines = r.lines[:0]
		for i := 0; i < 2*k; i++ {
			l := canvas.NewLine(colLine)
			r.lines = append(r.lines, l)
		}
		r.coords = r.coords[:0]
		for i := 0; i < k; i++ {
			col := engine.Point{X: from.X + i, Y: 0}.GTP(n)[:1]
			row := engine.Point{X: 0, Y: from.Y + i}.GTP(n)[1:]
			for _, s := range []string{col, col, row, row} {
				t := canvas.NewText(s, colLine)
				t.Alignment = fyne.TextAlignCenter
				r.coords = append(r.coords, t)
			}
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
	for _, c := range r.coords {
		r.objects = append(r.objects, c)
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
		if !inWindow(p, r.from, r.side) {
			return
		}
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
	if v.HasLast && v.LastMove.In(n) && inWindow(v.LastMove, r.from, r.side) {
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
		if !inWindow(m.Point, r.from, r.side) {
			continue
		}
		if o := markObject(m.Kind); o != nil {
			r.marks = append(r.marks, o)
			r.markAt = append(r.markAt, m)
		}
	}
}

// markObject draws one kind of mark: a filled ring (illegal, remove), a tinted square (the board
// differs), an open ring (open dame), an open square (seki liberty) or a dot (dame filled); nil for
// a kind the board does not draw.
func markObject(k MarkKind) fyne.CanvasObject {
	tint := func(c color.NRGBA, a uint8) color.NRGBA { return color.NRGBA{R: c.R, G: c.G, B: c.B, A: a} }
	ring := func(fill color.Color, stroke color.NRGBA, w float32) fyne.CanvasObject {
		o := canvas.NewCircle(fill)
		o.StrokeColor, o.StrokeWidth = stroke, w
		return o
	}
	square := func(fill color.Color, stroke color.NRGBA, w float32) fyne.CanvasObject {
		o := canvas.NewRectangle(fill)
		o.StrokeColor, o.StrokeWidth = stroke, w
		return o
	}
	switch k {
	case MarkIllegal:
		return ring(tint(colIllegal, 0x50), colIllegal, 5)
	case MarkRemove:
		return ring(tint(colRemove, 0x50), colRemove, 5)
	case MarkFix:
		return square(tint(colDiffers, 0x40), colDiffers, 5)
	case MarkDame:
		return ring(color.Transparent, colDame, 4)
	case MarkSeki:
		return square(color.Transparent, colSeki, 4)
	case MarkFilled:
		return canvas.NewCircle(colDame)
	}
	return nil
}

func (r *boardRenderer) Layout(sz fyne.Size) {
	n, from, k := r.size, r.from, r.side
	g := windowGeometry(sz, from, max(k, 2))
	r.bg.Move(fyne.NewPos(g.left, g.top))
	r.bg.Resize(fyne.NewSize(g.side, g.side))
	if n == 0 {
		return
	}
	at := func(p engine.Point) fyne.Position {
		return fyne.NewPos(g.x0+float32(p.X)*g.step, g.y0+float32(p.Y)*g.step)
	}
	lw := float32(math.Max(1, float64(g.step)/22))
	// The lines run from the first point shown to the last, and half a spacing on where the board
	// goes on beyond a zoomed window.
	lo := func(first int) float32 {
		if first > 0 {
			return -0.35 * g.step
		}
		return 0
	}
	hi := func(first int) float32 {
		end := g.step * float32(k-1)
		if first+k < n {
			end += 0.35 * g.step
		}
		return end
	}
	first := at(from)
	for i := 0; i < k; i++ {
		h, v := r.lines[2*i], r.lines[2*i+1]
		h.StrokeWidth, v.StrokeWidth = lw, lw
		off := float32(i) * g.step
		h.Position1 = fyne.NewPos(first.X+lo(from.X), first.Y+off)
		h.Position2 = fyne.NewPos(first.X+hi(from.X), first.Y+off)
		v.Position1 = fyne.NewPos(first.X+off, first.Y+lo(from.Y))
		v.Position2 = fyne.NewPos(first.X+off, first.Y+hi(from.Y))
	}
	// The coordinates, centred in the band around the grid (their boxes kept on the wood).
	cs := g.step * 0.4
	band := coordBand * g.step
	for i := 0; i < k; i++ {
		c := at(engine.Point{X: from.X + i, Y: from.Y + i})
		for j, t := range r.coords[4*i : 4*i+4] {
			t.TextSize = cs
			t.Color = colLine
			h := measureText(t.Text, cs, t.TextStyle).Height
			var pos fyne.Position
			bw := band
			switch j {
			case 0: // the column's letter above
				pos, bw = fyne.NewPos(c.X-g.step/2, g.top+band/2-h/2), g.step
			case 1: // and below
				pos, bw = fyne.NewPos(c.X-g.step/2, g.top+g.side-band/2-h/2), g.step
			case 2: // the row's number on the left
				pos = fyne.NewPos(g.left, c.Y-h/2)
			case 3: // and on the right
				pos = fyne.NewPos(g.left+g.side-band, c.Y-h/2)
			}
			pos.Y = max(g.top, min(pos.Y, g.top+g.side-h))
			t.Move(pos)
			t.Resize(fyne.NewSize(bw, h))
		}
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
		case MarkDame:
			square(m, pl.Point, g.step*0.28)
		case MarkSeki:
			square(m, pl.Point, g.step*0.24)
		case MarkFilled:
			square(m, pl.Point, g.step*0.16)
		}
	}
}
