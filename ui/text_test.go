package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tengen/clock"
	"tengen/engine"
)

// TestWrapMeasuredIsAGreedyWrap checks the wrap that measures words at one size and scales them
// against Fyne's own measure of each whole line: every line of more than one word fits the width,
// no line could have taken the next line's first word, and the widest width reported is the
// widest line's. The sizes are those textBlock tries when it shrinks a ruling's text to fit.
func TestWrapMeasuredIsAGreedyWrap(t *testing.T) {
	test.NewTempApp(t)
	texts := []string{
		"Illegal move: AGA rule 6: this would repeat the position after move 20 with Black to play. " +
			"White takes the stone on E5 back and passes instead (AGA rule 8), handing one pass stone to Black.",
		"Black D1 captures 1: remove the captured stones at D2. The move counts once they are off the board.",
		"Both players agree the game is over.\nTap the stones that are dead, then accept the count.",
		"W", "", "\n\n", "averyveryverylongwordthatcannotbebroken next",
	}
	// The scaled widths round differently from a measure of the whole line, in proportion to its
	// length: by up to 0.3 pixels on a line 700 wide (0.05%).
	slack := func(w float32) float32 { return 0.05 + w/1000 }
	for _, style := range []fyne.TextStyle{{}, {Bold: true}} {
		for _, text := range texts {
			for _, width := range []float32{120, 333, 700} {
				for size := float32(40); size > 8; size *= 0.95 {
					lines, widest := wrapMeasured(text, size, width, style)
					if got := strings.Join(lines, " "); got != strings.Join(strings.Fields(text), " ") {
						t.Fatalf("wrap of %q lost or changed words: %q", text, got)
					}
					var measuredWidest float32
					for i, l := range lines {
						w := fyne.MeasureText(l, size, style).Width
						measuredWidest = max(measuredWidest, w)
						if strings.Contains(l, " ") && w > width+slack(width) {
							t.Errorf("size %.1f width %.0f: line %q is %.1f wide", size, width, l, w)
						}
						if i+1 < len(lines) && !strings.Contains(text, l+"\n") {
							next := strings.Fields(lines[i+1])[0]
							if w2 := fyne.MeasureText(l+" "+next, size, style).Width; w2 < width-slack(width) {
								t.Errorf("size %.1f width %.0f: line %q could have taken %q (%.1f wide)", size, width, l, next, w2)
							}
						}
					}
					if d := widest - measuredWidest; d > slack(widest) || d < -slack(widest) {
						t.Errorf("size %.1f width %.0f: widest %.2f, measured %.2f", size, width, widest, measuredWidest)
					}
				}
			}
		}
	}
}

// hiddenUpdate sets the view of a clock face and a board that have no size, as the kiosk does to
// its screens not on show whenever the table changes; tick changes the clock's time.
func hiddenUpdate(c *ClockFace, b *Board, tick int) {
	c.SetView(SideView{Color: engine.Black, Name: "Honinbo", ToMove: true,
		Clock: clock.Display{Side: clock.Black, Text: fmt.Sprintf("9:%02d", tick%60)}})
	b.SetView(BoardView{Size: 19})
}

// BenchmarkHiddenScreensUpdate is the cost of one such update (the README's figure).
func BenchmarkHiddenScreensUpdate(b *testing.B) {
	newTestApp(b)
	c, bd := NewClockFace(SideView{Color: engine.Black, Name: "Honinbo"}), NewBoard()
	b.ReportAllocs()
	tick := 0
	for b.Loop() {
		tick++
		hiddenUpdate(c, bd, tick)
	}
}

// TestHiddenScreensMeasureNothing: a clock face and a board not yet given a size (the screens not
// on show are laid out at zero size whenever the table changes) measure their texts as nothing.
// Fyne keeps no measurement at size 0 and shapes such a text afresh every time: 465 allocations
// for one glyph, which every hidden clock did every second.
func TestHiddenScreensMeasureNothing(t *testing.T) {
	newTestApp(t)
	if n := testing.AllocsPerRun(20, func() { measureText("9:57", 0, fyne.TextStyle{Bold: true}) }); n != 0 {
		t.Errorf("measuring at size 0 allocates %v times", n)
	}
	c := NewClockFace(SideView{Color: engine.Black, Name: "Honinbo"})
	b := NewBoard()
	tick := 0
	allocs := testing.AllocsPerRun(20, func() {
		tick++
		hiddenUpdate(c, b, tick)
	})
	// A few dozen for the views themselves; measuring the texts would add hundreds per glyph.
	if allocs > 200 {
		t.Errorf("updating a hidden clock and board allocates %v times", allocs)
	}
}
