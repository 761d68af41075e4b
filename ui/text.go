package ui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// measureText is fyne.MeasureText for the screens. A text at size 0 (a screen laid out before it
// has a size, as the hidden ones are every second) measures as nothing here: Fyne never keeps a
// measurement whose baseline is 0, so it would shape such a text afresh at every call, about 465
// allocations and 20 KB each time, most of the demo game's garbage.
func measureText(s string, size float32, style fyne.TextStyle) fyne.Size {
	if size <= 0 {
		return fyne.Size{}
	}
	return fyne.MeasureText(s, size, style)
}

// fitSize returns the largest text size not above want at which s fits in width.
func fitSize(s string, want, width float32, style fyne.TextStyle) float32 {
	if s == "" || width <= 0 {
		return want
	}
	w := measureText(s, want, style).Width
	if w <= width {
		return want
	}
	return want * width / w * 0.98
}

// wrapRef is the text size at which wrapping measures words; their widths at any other size are
// scaled from it (see shapedSize). Fyne keeps a measurement of every distinct string and size it
// is asked for until it has gone a minute unused, so measuring every line prefix at every size
// textBlock tries kept about 1 MB of them alive for one ruling's paragraph, the kiosk's largest
// growth over the demo game. Measured word by word at one size, a paragraph adds only the words
// the kiosk had not shown before.
const wrapRef = 100

// shapedSize is the size Fyne's text shaper sets a font at for a text size: sizes are held in
// 64ths of a pixel and the font is set at the next whole pixel size, so 19.2 and 20 measure alike.
// Widths at whole sizes are in proportion to the size (TestWrapMeasuredIsAGreedyWrap checks this
// against Fyne's own measure).
func shapedSize(size float32) float32 {
	return float32((int(float64(size)*64) + 63) >> 6)
}

// wrapLines breaks s into lines no wider than width at the given size (words longer than a line
// stand alone).
func wrapLines(s string, size, width float32, style fyne.TextStyle) []string {
	lines, _ := wrapMeasured(s, size, width, style)
	return lines
}

// wrapMeasured is wrapLines that also returns the width of the widest line at size.
func wrapMeasured(s string, size, width float32, style fyne.TextStyle) (lines []string, widest float32) {
	scale := shapedSize(size) / wrapRef
	space := measureText(" ", wrapRef, style).Width * scale
	for _, para := range strings.Split(s, "\n") {
		line, lineW := "", float32(0)
		for _, w := range strings.Fields(para) {
			ww := measureText(w, wrapRef, style).Width * scale
			switch {
			case line == "":
				line, lineW = w, ww
			case lineW+space+ww > width:
				lines, widest = append(lines, line), max(widest, lineW)
				line, lineW = w, ww
			default:
				line, lineW = line+" "+w, lineW+space+ww
			}
		}
		if line != "" {
			lines, widest = append(lines, line), max(widest, lineW)
		}
	}
	return lines, widest
}

// textBlock is a stack of canvas.Text lines drawn from a wrapped paragraph.
type textBlock struct {
	lines []*canvas.Text
	col   color.Color
	style fyne.TextStyle
	align fyne.TextAlign
}

// set lays text out in the rectangle (pos, sz) at no more than maxSize, shrinking until it fits.
// It returns the objects to draw.
func (tb *textBlock) set(s string, pos fyne.Position, sz fyne.Size, maxSize float32) []fyne.CanvasObject {
	size := maxSize
	var lines []string
	for size > 8 {
		var w float32
		lines, w = wrapMeasured(s, size, sz.Width, tb.style)
		if float32(len(lines))*size*1.3 <= sz.Height && w <= sz.Width {
			break
		}
		size *= 0.95
	}
	for len(tb.lines) < len(lines) {
		tb.lines = append(tb.lines, canvas.NewText("", tb.col))
	}
	tb.lines = tb.lines[:len(lines)]
	objs := make([]fyne.CanvasObject, 0, len(lines))
	total := float32(len(lines)) * size * 1.3
	y := pos.Y + (sz.Height-total)/2
	for i, l := range lines {
		t := tb.lines[i]
		t.Text, t.TextSize, t.Color, t.TextStyle, t.Alignment = l, size, tb.col, tb.style, tb.align
		t.Move(fyne.NewPos(pos.X, y+float32(i)*size*1.3))
		t.Resize(fyne.NewSize(sz.Width, size*1.3))
		objs = append(objs, t)
	}
	return objs
}

// glyphRow draws a line that changes every second, a clock's time, as one canvas.Text per
// character. Fyne's GL painter keeps a texture for every distinct string it draws until the string
// has been off screen for a minute, so a clock drawn as whole strings piled up a new texture each
// second: 60 to 90 of them alive per running clock, about 6 MB of the kiosk's heap at 1280x720.
// Drawn per character, the textures are the dozen glyphs a clock uses, made once and reused.
type glyphRow struct {
	glyphs []*canvas.Text
}

// set lays s out centred in the box (pos, sz), one glyph after another at their own widths, and
// returns the objects to draw.
func (g *glyphRow) set(s string, pos fyne.Position, sz fyne.Size, size float32, col color.Color, style fyne.TextStyle) []fyne.CanvasObject {
	runes := []rune(s)
	for len(g.glyphs) < len(runes) {
		g.glyphs = append(g.glyphs, canvas.NewText("", col))
	}
	widths := make([]float32, len(runes))
	var total float32
	for i, r := range runes {
		widths[i] = measureText(string(r), size, style).Width
		total += widths[i]
	}
	x := pos.X + (sz.Width-total)/2
	objs := make([]fyne.CanvasObject, len(runes))
	for i, r := range runes {
		t := g.glyphs[i]
		t.Text, t.Color, t.TextStyle, t.TextSize, t.Alignment = string(r), col, style, size, fyne.TextAlignLeading
		t.Move(fyne.NewPos(x, pos.Y))
		t.Resize(fyne.NewSize(widths[i], sz.Height))
		x += widths[i]
		objs[i] = t
	}
	return objs
}

// digitsAsZero replaces every decimal digit of s with 0. Noto Sans digits are tabular (all as
// wide as 0), so a clock's text is measured by its shape ("0:00", "00:00 (0)"): a handful of
// strings for Fyne's measurement cache instead of a new one every second.
func digitsAsZero(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return '0'
		}
		return r
	}, s)
}
