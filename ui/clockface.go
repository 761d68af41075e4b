package ui

import (
	"image/color"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"tengen/clock"
	"tengen/engine"
)

// ClockFace is one player's clock: stone colour, name and rank, the time in very large type, overtime
// periods or stones, prisoners and pass stones. The side to move is lit.
// SetView shows a SideView (redrawing only when it changed) and View returns it.
type ClockFace struct {
	viewWidget[SideView]
}

// NewClockFace returns a clock face for v.
func NewClockFace(v SideView) *ClockFace {
	c := &ClockFace{}
	c.view = v
	c.ExtendBaseWidget(c)
	return c
}

// CreateRenderer builds the face.
func (c *ClockFace) CreateRenderer() fyne.WidgetRenderer {
	r := &clockRenderer{c: c, bg: canvas.NewRectangle(colPanel), stone: canvas.NewCircle(colBlack),
		name: canvas.NewText("", colText), detail: &textBlock{col: colDimText, align: fyne.TextAlignCenter}}
	r.bg.CornerRadius = 10
	return r
}

type clockRenderer struct {
	c       *ClockFace
	bg      *canvas.Rectangle
	stone   *canvas.Circle
	name    *canvas.Text
	time    glyphRow // the time, a glyph per character (see glyphRow)
	glyphs  []fyne.CanvasObject
	detail  *textBlock
	details []fyne.CanvasObject
}

// timeStyle is the clock's type: bold, and Noto Sans digits are tabular, so the time does not
// jiggle as it counts down.
var timeStyle = fyne.TextStyle{Bold: true}

func (r *clockRenderer) Destroy() {}

func (r *clockRenderer) MinSize() fyne.Size { return fyne.NewSize(160, 110) }

func (r *clockRenderer) Objects() []fyne.CanvasObject {
	objs := append([]fyne.CanvasObject{r.bg, r.stone, r.name}, r.glyphs...)
	return append(objs, r.details...)
}

func (r *clockRenderer) Refresh() {
	r.Layout(r.c.Size())
	canvas.Refresh(r.c)
}

// detailText is the line under the time: overtime state, prisoners and pass stones.
func detailText(v SideView) string {
	var parts []string
	switch {
	case v.Clock.Flagged:
		parts = append(parts, tr("Time is up"))
	case v.Clock.Paused:
		parts = append(parts, tr("Paused"))
	}
	// Overtime periods and stones are part of the clock text ("0:25 (3)", "4:10 / 7"); they are
	// spelled out only when the text does not carry them.
	// A flagged clock's periods no longer matter.
	overtime := v.Clock.InOvertime && !v.Clock.Flagged
	if overtime && v.Clock.Periods > 0 && !strings.Contains(v.Clock.Text, strconv.Itoa(v.Clock.Periods)) {
		parts = append(parts, tr("Periods left: {{.N}}", "N", v.Clock.Periods))
	}
	if overtime && v.Clock.Stones > 0 && !strings.Contains(v.Clock.Text, strconv.Itoa(v.Clock.Stones)) {
		parts = append(parts, tr("Stones to play: {{.N}}", "N", v.Clock.Stones))
	}
	// Prisoners and pass stones are shown once there are any (so the line stays short enough to
	// read at 800x480: 14 px or more in every language).
	if v.Prisoners > 0 {
		parts = append(parts, tr("Prisoners: {{.N}}", "N", v.Prisoners))
	}
	if v.PassStones > 0 {
		parts = append(parts, tr("Pass stones: {{.N}}", "N", v.PassStones))
	}
	return strings.Join(parts, " · ")
}

func (r *clockRenderer) Layout(sz fyne.Size) {
	v := r.c.view
	r.bg.Resize(sz)
	r.bg.Move(fyne.NewPos(0, 0))
	fg := colText
	var bg color.Color = colPanel
	r.bg.StrokeWidth = 0
	switch {
	case v.Clock.Flagged:
		bg = colIllegal
	case v.ToMove:
		bg, fg = colToMove, colDark
	}
	r.bg.FillColor = bg
	pad := sz.Height * 0.05
	nameH := sz.Height * 0.2
	r.stone.FillColor = colBlack
	r.stone.StrokeColor = colText
	r.stone.StrokeWidth = 2
	if v.Color == engine.White {
		r.stone.FillColor = colWhite
		r.stone.StrokeColor = colDark
	}
	d := nameH * 0.85
	r.stone.Move(fyne.NewPos(pad, pad+(nameH-d)/2))
	r.stone.Resize(fyne.NewSize(d, d))
	name := v.Name
	if name == "" {
		name = tr("Black")
		if v.Color == engine.White {
			name = tr("White")
		}
	}
	if v.Rank != "" {
		name += " " + v.Rank
	}
	nx := pad*2 + d
	r.name.Text = name
	r.name.Color = fg
	r.name.TextStyle = fyne.TextStyle{Bold: true}
	r.name.TextSize = fitSize(name, nameH*0.7, sz.Width-nx-pad, r.name.TextStyle)
	r.name.Move(fyne.NewPos(nx, pad+(nameH-r.name.TextSize*1.3)/2))
	r.name.Resize(fyne.NewSize(sz.Width-nx-pad, r.name.TextSize*1.3))

	text := v.Clock.Text
	if text == "" {
		text = "--:--"
	}
	timeH := sz.Height * 0.5
	timeCol := fg
	if v.Clock.Low && !v.ToMove {
		timeCol = colLow
	} else if v.Clock.Low {
		timeCol = colIllegal
	}
	timeSize := fitSize(digitsAsZero(text), timeH*0.8, sz.Width-2*pad, timeStyle)
	ty := pad + nameH + (timeH-timeSize*1.3)/2
	r.glyphs = r.time.set(text, fyne.NewPos(pad, ty), fyne.NewSize(sz.Width-2*pad, timeSize*1.3), timeSize, timeCol, timeStyle)

	r.detail.col = colDimText
	if v.ToMove && !v.Clock.Flagged {
		r.detail.col = colDark
	}
	dy := pad + nameH + timeH
	r.details = r.detail.set(detailText(v), fyne.NewPos(pad/2, dy), fyne.NewSize(sz.Width-pad, sz.Height-dy-pad/2), sz.Height*0.11)
}

// sideOf maps an engine colour to the clock's side.
func sideOf(c engine.Color) clock.Side {
	if c == engine.White {
		return clock.White
	}
	return clock.Black
}
