package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tengen/engine"
)

// count19 is a 19x19 marking with stones all over the board.
func count19() CountView {
	const n = 19
	v := CountView{Board: BoardView{Size: n, Stones: make([]engine.Color, n*n)}, Rules: "AGA", Area: true}
	for i := range v.Board.Stones {
		switch p := (engine.Point{X: i % n, Y: i / n}); {
		case p.X < 9 && (p.X+p.Y)%3 != 0:
			v.Board.Stones[i] = engine.Black
		case p.X > 9 && (p.X+p.Y)%3 != 0:
			v.Board.Stones[i] = engine.White
		}
	}
	return v
}

// On 19x19 at 800x480 the points are too close together to tap one by one: the first tap zooms in
// on that part of the board, where every point is at least 48 px from the next, a tap there marks
// the stone tapped, and "Whole board" goes back. On 9x9 the board is not zoomed.
func TestZoomedMarking(t *testing.T) {
	newTestApp(t)
	var toggled []engine.Point
	cs := NewCountScreen(CountHandlers{ToggleDead: func(p engine.Point) { toggled = append(toggled, p) }})
	w := test.NewWindow(cs.Content())
	defer w.Close()
	w.SetPadded(false)
	w.Resize(displays[0])
	cs.SetView(count19())
	if _, _, step := cs.Board.Geometry(); step >= minTapTarget {
		t.Fatalf("the whole 19x19 board has points %.1f px apart: nothing to test", step)
	}
	if cs.steps.Text != "Tap the part of the board with dead stones to zoom in." {
		t.Errorf("instructions %q", cs.steps.Text)
	}
	capture(t, "count-19x19-800x480", cs.Content(), displays[0])
	// Tap near Q16 (X 15, Y 3): zoom in around it, nothing marked.
	target := engine.Point{X: 15, Y: 3}
	tapPoint(cs.Board, target)
	from, k, zoomed := cs.Board.Zoomed()
	if !zoomed || len(toggled) != 0 {
		t.Fatalf("the first tap marked %v instead of zooming", toggled)
	}
	if !inWindow(target, from, k) {
		t.Errorf("zoomed on %v side %d, which does not hold the point tapped %v", from, k, target)
	}
	x0, y0, step := cs.Board.Geometry()
	if step < minTapTarget {
		t.Errorf("zoomed points are %.1f px apart, want >= %d", step, minTapTarget)
	}
	if !cs.whole.Visible() {
		t.Error("no way back to the whole board")
	}
	capture(t, "count-19x19-zoomed-800x480", cs.Content(), displays[0])
	// Every point of the window is on screen inside the board, and a tap on each marks that one.
	bs := cs.Board.Size()
	for y := from.Y; y < from.Y+k; y++ {
		for x := from.X; x < from.X+k; x++ {
			p := engine.Point{X: x, Y: y}
			c := fyne.NewPos(x0+float32(x)*step, y0+float32(y)*step)
			if c.X-step/2 < -0.5 || c.Y-step/2 < -0.5 || c.X+step/2 > bs.Width+0.5 || c.Y+step/2 > bs.Height+0.5 {
				t.Fatalf("%v's tap target at %v is off the board widget %v", p, c, bs)
			}
			toggled = nil
			// A tap anywhere in the point's target square, a little off its centre, marks it.
			test.TapAt(cs.Board, c.AddXY(step*0.4, -step*0.4))
			want := 0
			if count19().Board.At(p) != engine.Empty {
				want = 1
			}
			if len(toggled) != want || want == 1 && toggled[0] != p {
				t.Fatalf("a tap on %v marked %v", p, toggled)
			}
		}
	}
	// The stones outside the window are not drawn.
	for _, pt := range textsIn(cs.Board) {
		pos := pt.pos.Subtract(fyne.CurrentApp().Driver().AbsolutePositionForObject(cs.Board))
		if pos.X < -1 || pos.Y < -1 || pos.X+pt.t.Size().Width > bs.Width+1 || pos.Y+pt.t.Size().Height > bs.Height+1 {
			t.Fatalf("%q drawn at %v, outside the board widget %v", pt.t.Text, pos, bs)
		}
	}
	test.Tap(cs.whole)
	if _, _, zoomed := cs.Board.Zoomed(); zoomed || cs.whole.Visible() {
		t.Error("whole board did not go back")
	}
	// 9x9: taps mark at once.
	toggled = nil
	v := demoCount(t)
	cs.SetView(v)
	tapPoint(cs.Board, engine.Point{X: 2, Y: 2})
	if _, _, zoomed := cs.Board.Zoomed(); zoomed || fmt.Sprint(toggled) != fmt.Sprint([]engine.Point{{X: 2, Y: 2}}) {
		t.Errorf("9x9: zoomed %v, marked %v", zoomed, toggled)
	}
	if _, _, step := cs.Board.Geometry(); step < minTapTarget {
		t.Errorf("9x9 at 800x480: points %.1f px apart", step)
	}
}
