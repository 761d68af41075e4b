package ui

import (
	"fmt"
	"image"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tengen/engine"
)

// pointRect returns the image rectangle around intersection p of board b (half a spacing each way).
func pointRect(img image.Image, sz fyne.Size, b *Board, p engine.Point, frac float32) image.Rectangle {
	g := boardGeometry(b.Size(), b.View().Size)
	c := b.Position().AddXY(g.x0+float32(p.X)*g.step, g.y0+float32(p.Y)*g.step)
	d := g.step * frac
	return image.Rectangle{Min: scale(img, sz, c.SubtractXY(d, d)), Max: scale(img, sz, c.AddXY(d, d))}
}

func TestCountScreen(t *testing.T) {
	newTestApp(t)
	for _, sz := range displays {
		t.Run(fmt.Sprintf("%vx%v", sz.Width, sz.Height), func(t *testing.T) {
			var toggled []engine.Point
			var agreed []engine.Color
			cs := NewCountScreen(CountHandlers{
				ToggleDead: func(p engine.Point) { toggled = append(toggled, p) },
				Agree:      func(c engine.Color) { agreed = append(agreed, c) },
			})
			v := demoCount(t)
			cs.SetView(v)
			img := capture(t, fmt.Sprintf("count-%vx%v", sz.Width, sz.Height), cs.Content(), sz)
			// The dead white stone on C7 is crossed in red.
			if n := countNear(img, pointRect(img, sz, cs.Board, engine.Point{X: 2, Y: 2}, 0.4), colIllegal, 40); n < 10 {
				t.Errorf("C7: %d red pixels, want a cross", n)
			}
			// Black territory on A9 is shaded black (a small square on the wood).
			if n := countNear(img, pointRect(img, sz, cs.Board, engine.Point{X: 0, Y: 0}, 0.15), colBlack, 40); n < 10 {
				t.Errorf("A9: %d dark pixels, want black territory", n)
			}
			// White territory on J1 is shaded white.
			if n := countNear(img, pointRect(img, sz, cs.Board, engine.Point{X: 8, Y: 8}, 0.15), colWhite, 30); n < 10 {
				t.Errorf("J1: %d white pixels, want white territory", n)
			}
			// The breakdown and the result.
			if got, want := cs.result.Text, "Black wins by 3.5 points"; got != want {
				t.Errorf("result %q, want %q", got, want)
			}
			if cs.cells[8][1].Text != fmt.Sprintf("%g", v.Score.Black.Total) {
				t.Errorf("black total %q", cs.cells[8][1].Text)
			}
			if !cs.agreeB.Disabled() || cs.agreeW.Disabled() {
				t.Error("black has agreed: only white's button should be active")
			}
			// A tap on the dead group asks to toggle it; a tap on an empty point does nothing.
			g := boardGeometry(cs.Board.Size(), 9)
			test.TapAt(cs.Board, fyne.NewPos(g.x0+2*g.step+2, g.y0+2*g.step-3))
			test.TapAt(cs.Board, fyne.NewPos(g.x0, g.y0))
			if len(toggled) != 1 || toggled[0] != (engine.Point{X: 2, Y: 2}) {
				t.Errorf("toggled %v, want [C7]", toggled)
			}
			test.Tap(cs.agreeW)
			if len(agreed) != 1 || agreed[0] != engine.White {
				t.Errorf("agreed %v", agreed)
			}
		})
	}
}

func TestCountScreenEnded(t *testing.T) {
	newTestApp(t)
	menu := 0
	cs := NewCountScreen(CountHandlers{Menu: func() { menu++ }})
	v := demoCount(t)
	v.Ended, v.WhiteAgreed = true, true
	cs.SetView(v)
	capture(t, "count-ended-800x480", cs.Content(), displays[0])
	if cs.agreeB.Visible() || cs.resumeW.Visible() {
		t.Error("agree and resume buttons after the result")
	}
	if cs.title.Text != "Game over · AGA" {
		t.Errorf("title %q", cs.title.Text)
	}
	test.Tap(cs.menu)
	if menu != 1 {
		t.Error("the menu button does nothing")
	}
}
