package ui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// fitSize returns the largest text size not above want at which s fits in width.
func fitSize(s string, want, width float32, style fyne.TextStyle) float32 {
	if s == "" || width <= 0 {
		return want
	}
	w := fyne.MeasureText(s, want, style).Width
	if w <= width {
		return want
	}
	return want * width / w * 0.98
}

// wrapLines breaks s into lines no wider than width at the given size (words longer than a line
// stand alone).
func wrapLines(s string, size, width float32, style fyne.TextStyle) []string {
	var out []string
	for _, para := range strings.Split(s, "\n") {
		words := strings.Fields(para)
		line := ""
		for _, w := range words {
			try := w
			if line != "" {
				try = line + " " + w
			}
			if line != "" && fyne.MeasureText(try, size, style).Width > width {
				out = append(out, line)
				line = w
				continue
			}
			line = try
		}
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// widest is the width of the widest of lines at size.
func widest(lines []string, size float32, style fyne.TextStyle) float32 {
	var w float32
	for _, l := range lines {
		w = max(w, fyne.MeasureText(l, size, style).Width)
	}
	return w
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
		lines = wrapLines(s, size, sz.Width, tb.style)
		if float32(len(lines))*size*1.3 <= sz.Height && widest(lines, size, tb.style) <= sz.Width {
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
		widths[i] = fyne.MeasureText(string(r), size, style).Width
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
