package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"tengen/clock"
	"tengen/engine"
)

// clockTexts returns the clock face's text objects in drawing order, and the time as read from
// its glyphs left to right.
func clockTexts(t *testing.T, c *ClockFace) (texts []*canvas.Text, time string) {
	t.Helper()
	for _, o := range test.WidgetRenderer(c).Objects() {
		if tx, ok := o.(*canvas.Text); ok {
			texts = append(texts, tx)
		}
	}
	var b strings.Builder
	lastX := float32(-1)
	for _, tx := range texts[1:] { // texts[0] is the name
		if tx.TextSize < texts[0].TextSize {
			break // the detail line
		}
		if tx.Position().X <= lastX {
			t.Errorf("glyph %q at x=%v is not right of the previous one (x=%v)", tx.Text, tx.Position().X, lastX)
		}
		lastX = tx.Position().X
		b.WriteString(tx.Text)
	}
	return texts, b.String()
}

// TestClockDrawsItsTimeFromAFewGlyphs: the time reads right, and ten minutes of ticking draw no
// more distinct strings than the digits, the colon and the overtime marks. Fyne keeps a texture
// per distinct string for a minute; a whole-string clock made a new one every second.
func TestClockDrawsItsTimeFromAFewGlyphs(t *testing.T) {
	newTestApp(t)
	c := NewClockFace(SideView{Color: engine.Black, Name: "Honinbo", ToMove: true})
	c.Resize(fyne.NewSize(400, 240))
	drawn := map[string]bool{}
	for s := 600; s >= 0; s-- {
		text := fmt.Sprintf("%d:%02d", s/60, s%60)
		if s < 30 {
			text = fmt.Sprintf("0:%02d (%d)", s, 3)
		}
		c.SetView(SideView{Color: engine.Black, Name: "Honinbo", ToMove: true, Clock: clock.Display{Side: clock.Black, Text: text}})
		c.Refresh()
		texts, got := clockTexts(t, c)
		if got != text {
			t.Fatalf("the clock reads %q, want %q", got, text)
		}
		for _, tx := range texts[1:] {
			if tx.TextSize >= texts[0].TextSize {
				drawn[tx.Text] = true
			}
		}
	}
	if len(drawn) > 14 {
		t.Errorf("ten minutes of ticking drew %d distinct strings, want at most 14 (digits, colon, space, brackets): %v", len(drawn), drawn)
	}
}
