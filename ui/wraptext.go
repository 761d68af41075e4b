package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// wrapText is a paragraph that wraps to its width and shrinks until it fits its box (never cut
// off), up to maxSize.
type wrapText struct {
	widget.BaseWidget
	Text    string
	col     color.Color
	style   fyne.TextStyle
	align   fyne.TextAlign
	maxSize float32
}

func newWrapText(col color.Color, maxSize float32, style fyne.TextStyle, align fyne.TextAlign) *wrapText {
	w := &wrapText{col: col, maxSize: maxSize, style: style, align: align}
	w.ExtendBaseWidget(w)
	return w
}

// Set changes the text and its colour.
func (w *wrapText) Set(s string, col color.Color) {
	if w.Text == s && w.col == col {
		return
	}
	w.Text, w.col = s, col
	w.Refresh()
}

// CreateRenderer builds the paragraph.
func (w *wrapText) CreateRenderer() fyne.WidgetRenderer {
	return &wrapTextRenderer{w: w, block: &textBlock{}}
}

type wrapTextRenderer struct {
	w     *wrapText
	block *textBlock
	objs  []fyne.CanvasObject
}

func (r *wrapTextRenderer) Destroy() {}

func (r *wrapTextRenderer) MinSize() fyne.Size { return fyne.NewSize(40, 16) }

func (r *wrapTextRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *wrapTextRenderer) Refresh() {
	r.Layout(r.w.Size())
	canvas.Refresh(r.w)
}

func (r *wrapTextRenderer) Layout(sz fyne.Size) {
	r.block.col, r.block.style, r.block.align = r.w.col, r.w.style, r.w.align
	r.objs = r.block.set(r.w.Text, fyne.NewPos(0, 0), sz, r.w.maxSize)
}
