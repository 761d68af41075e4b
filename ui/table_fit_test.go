package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2/test"

	"tengen/referee"
)

// The table at every display size, in every language, with every kind of banner and with a ruling
// in large type: no two parts overlap, every text lies inside its part, and the move number is not
// under the buttons.
func TestTableFitsEveryLanguage(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
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
					checkTableLayout(t, name, ts, sz)
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
