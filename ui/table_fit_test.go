package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tengen/referee"
)

// The table at every display size, in every language, with every kind of banner and with a ruling
// in large type: no two parts overlap, every text lies inside its part, and the move number is not
// under the buttons.
func TestTableFitsEveryLanguage(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	d := fyne.CurrentApp().Driver()
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		for _, sz := range allDisplays {
			ts := NewTableScreen(nil, nil)
			w := test.NewWindow(ts.Content())
			w.SetPadded(false)
			w.Resize(sz)
			cases := bannerCases(t)
			rulings := illegalRulings(t)
			for i, tc := range cases {
				for _, withRuling := range []bool{false, true} {
					st := playingState(t)
					tc.mod(&st)
					if withRuling {
						r := rulings[(i*7)%len(rulings)]
						r.MoveNumber = st.MoveNumber
						st.Rulings = []referee.Verdict{r}
					}
					ts.SetView(TableViewOf(st, tc.cond))
					ts.Content().Refresh()
					name := fmt.Sprintf("%s %vx%v %s ruling=%v", l.Code, sz.Width, sz.Height, tc.name, withRuling)
					var shown []rect
					var objs []fyne.CanvasObject
					for _, o := range []fyne.CanvasObject{ts.Board, ts.White, ts.Black, ts.Banner, ts.move, ts.status, ts.menu, ts.rulings, ts.Ruling} {
						if !o.Visible() {
							continue
						}
						r := rect{d.AbsolutePositionForObject(o).Subtract(d.AbsolutePositionForObject(ts.Content())), o.Size()}
						if o == ts.move {
							m := fyne.MeasureText(ts.move.Text, ts.move.TextSize, ts.move.TextStyle)
							r.size = fyne.NewSize(m.Width, ts.move.TextSize*1.2)
						}
						if r.pos.X < -0.5 || r.pos.Y < -0.5 || r.pos.X+r.size.Width > sz.Width+0.5 || r.pos.Y+r.size.Height > sz.Height+0.5 {
							t.Errorf("%s: %T at %v %v is off the screen", name, o, r.pos, r.size)
						}
						for j, s := range shown {
							if r.overlaps(s) {
								t.Errorf("%s: %T at %v %v overlaps %T at %v %v", name, o, r.pos, r.size, objs[j], s.pos, s.size)
							}
						}
						shown, objs = append(shown, r), append(objs, o)
					}
					for _, o := range []fyne.CanvasObject{ts.Banner, ts.Ruling, ts.White, ts.Black} {
						if o.Visible() {
							checkTextsFit(t, name, o)
						}
					}
					// A ruling gives way to an alert that asks the players for something else.
					if want := withRuling && !st.Banner.Kind.Alert(); want != ts.RulingShown() {
						t.Errorf("%s: ruling shown %v", name, ts.RulingShown())
					}
					if t.Failed() {
						w.Close()
						return
					}
				}
			}
			w.Close()
		}
	}
}
