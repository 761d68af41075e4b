package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"
)

// bigButton is a touch button whose label wraps and shrinks to fit it, so that it is never cut off
// in any language, in colours of the kiosk's own (dark text on yellow for the main action). A
// disabled button stays readable: a plain panel with a border and its label in dim text.
type bigButton struct {
	widget.BaseWidget
	Text     string
	OnTapped func()
	primary  bool // the main action: yellow
	disabled bool
	maxSize  float32
}

// newBigButton returns a button; primary buttons are yellow with dark text.
func newBigButton(text string, primary bool, tapped func()) *bigButton {
	b := &bigButton{Text: text, OnTapped: tapped, primary: primary, maxSize: 24}
	b.ExtendBaseWidget(b)
	return b
}

// SetText changes the label.
func (b *bigButton) SetText(s string) {
	if b.Text != s {
		b.Text = s
		b.Refresh()
	}
}

// SetDisabled enables or disables the button.
func (b *bigButton) SetDisabled(d bool) {
	if b.disabled != d {
		b.disabled = d
		b.Refresh()
	}
}

// Disabled reports whether the button is disabled.
func (b *bigButton) Disabled() bool { return b.disabled }

// Tapped calls OnTapped unless the button is disabled.
func (b *bigButton) Tapped(*fyne.PointEvent) {
	if !b.disabled && b.OnTapped != nil {
		b.OnTapped()
	}
}

// colours returns the button's background, border and text colours.
func (b *bigButton) colours() (bg, border, fg color.NRGBA) {
	switch {
	case b.disabled:
		return colBackground, colDimText, colDimText
	case b.primary:
		return colToMove, colToMove, colDark
	}
	return colButton, colButton, colText
}

// colButton is a secondary button's face.
var colButton = color.NRGBA{R: 0x44, G: 0x4b, B: 0x57, A: 0xff}

// CreateRenderer builds the button.
func (b *bigButton) CreateRenderer() fyne.WidgetRenderer {
	r := &bigButtonRenderer{b: b, bg: canvas.NewRectangle(colButton), label: &textBlock{align: fyne.TextAlignCenter, style: fyne.TextStyle{Bold: true}}}
	r.bg.CornerRadius = 8
	return r
}

type bigButtonRenderer struct {
	b     *bigButton
	bg    *canvas.Rectangle
	label *textBlock
	objs  []fyne.CanvasObject
}

func (r *bigButtonRenderer) Destroy() {}

func (r *bigButtonRenderer) MinSize() fyne.Size { return fyne.NewSize(60, 48) }

func (r *bigButtonRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *bigButtonRenderer) Refresh() {
	r.Layout(r.b.Size())
	canvas.Refresh(r.b)
}

func (r *bigButtonRenderer) Layout(sz fyne.Size) {
	bg, border, fg := r.b.colours()
	r.bg.FillColor, r.bg.StrokeColor, r.bg.StrokeWidth = bg, border, 2
	r.bg.Move(fyne.NewPos(0, 0))
	r.bg.Resize(sz)
	r.label.col = fg
	pad := float32(8)
	r.objs = append(r.objs[:0], r.bg)
	r.objs = append(r.objs, r.label.set(r.b.Text, fyne.NewPos(pad, 2), fyne.NewSize(sz.Width-2*pad, sz.Height-4), r.b.maxSize)...)
}
