package ui

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tengen/engine"
)

// allDisplays are the sizes the table is tried at (the 7" display, HD, full HD).
var allDisplays = []fyne.Size{{Width: 800, Height: 480}, {Width: 1280, Height: 720}, {Width: 1920, Height: 1080}}

// The board is drawn with its coordinates on all four sides at every size and board size: the
// column letters A-T without I above and below, the row numbers left and right, each inside the
// board's wood, clear of the stones, and none overlapping another.
func TestBoardCoordinates(t *testing.T) {
	newTestApp(t)
	for _, n := range []int{9, 13, 19} {
		for _, sz := range allDisplays {
			t.Run(fmt.Sprintf("%dx%d-%vx%v", n, n, sz.Width, sz.Height), func(t *testing.T) {
				ts := NewTableScreen(nil, nil)
				w := test.NewWindow(ts.Content())
				defer w.Close()
				w.SetPadded(false)
				w.Resize(sz)
				st := playingState(t)
				st.Size = n
				st.Board = make([]engine.Color, n*n)
				for i := range st.Board { // stones on the edges, where the coordinates are closest
					if p := (engine.Point{X: i % n, Y: i / n}); p.X == 0 || p.Y == 0 || p.X == n-1 || p.Y == n-1 {
						st.Board[i] = engine.Color(1 + i%2)
					}
				}
				st.LastMove = nil
				ts.SetView(TableViewOf(st, Conditions{}))
				if n == 19 && sz.Width == 800 {
					capture(t, "coords-19x19-800x480", ts.Content(), sz)
				}
				var letters, numbers []string
				x0, y0, step := ts.Board.Geometry()
				bp := fyne.CurrentApp().Driver().AbsolutePositionForObject(ts.Board)
				gridMin := bp.AddXY(x0-step/2, y0-step/2) // the stones' area
				gridMax := bp.AddXY(x0+float32(n-1)*step+step/2, y0+float32(n-1)*step+step/2)
				type box struct{ a, b fyne.Position }
				var boxes []box
				for _, pt := range textsIn(ts.Board) {
					if pt.t.FontSource != nil {
						continue // the board's shapes
					}
					// The letters' ink: the text's width, and 0.8 of its size about the middle of its line.
					s := fyne.MeasureText(pt.t.Text, pt.t.TextSize, pt.t.TextStyle)
					a := pt.pos.AddXY((pt.t.Size().Width-s.Width)/2, (pt.t.Size().Height-0.8*pt.t.TextSize)/2)
					b := a.AddXY(s.Width, 0.8*pt.t.TextSize)
					if a.X >= gridMin.X && b.X <= gridMax.X && a.Y >= gridMin.Y && b.Y <= gridMax.Y ||
						a.X < gridMax.X && b.X > gridMin.X && a.Y < gridMax.Y && b.Y > gridMin.Y {
						t.Errorf("%q at %v-%v overlaps the stones (%v-%v)", pt.t.Text, a, b, gridMin, gridMax)
					}
					bs := ts.Board.Size()
					if a.X < bp.X || a.Y < bp.Y || b.X > bp.X+bs.Width || b.Y > bp.Y+bs.Height {
						t.Errorf("%q at %v-%v outside the board", pt.t.Text, a, b)
					}
					for _, o := range boxes {
						if a.X < o.b.X && b.X > o.a.X && a.Y < o.b.Y && b.Y > o.a.Y {
							t.Errorf("%q at %v-%v overlaps another coordinate", pt.t.Text, a, b)
						}
					}
					boxes = append(boxes, box{a, b})
					if pt.t.TextSize < 9 {
						t.Errorf("%q drawn at %.1f px", pt.t.Text, pt.t.TextSize)
					}
					if pt.t.Text[0] >= 'A' && pt.t.Text[0] <= 'Z' {
						letters = append(letters, pt.t.Text)
					} else {
						numbers = append(numbers, pt.t.Text)
					}
				}
				want := strings.Split("ABCDEFGHJKLMNOPQRST"[:n], "")
				var wantL, wantN []string
				for i, l := range want {
					wantL = append(wantL, l, l)
					wantN = append(wantN, fmt.Sprint(i+1), fmt.Sprint(i+1))
				}
				sort.Strings(letters)
				sort.Strings(numbers)
				sort.Strings(wantL)
				sort.Strings(wantN)
				if fmt.Sprint(letters) != fmt.Sprint(wantL) || fmt.Sprint(numbers) != fmt.Sprint(wantN) {
					t.Errorf("coordinates %v %v, want %v %v", letters, numbers, wantL, wantN)
				}
			})
		}
	}
}
