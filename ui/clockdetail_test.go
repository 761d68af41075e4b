package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2/test"

	"tengen/referee"
)

// The line under each clock's time (prisoners, pass stones, periods, paused) is drawn at 14 px or
// more at 800x480 in every language, inside its clock face, in every clock state of the table.
func TestClockDetailReadable(t *testing.T) {
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
			for i, mod := range []func(*referee.State){
				func(*referee.State) {},
				func(st *referee.State) { st.White.PassStones, st.Black.Prisoners = 2, 12 },
				func(st *referee.State) { st.Phase, st.ClocksPaused = referee.PhaseHalted, true },
				func(st *referee.State) { st.White.Clock.Text, st.White.Clock.Flagged = "0:00", true },
				func(st *referee.State) {
					st.Phase, st.ClocksPaused, st.White.PassStones, st.Black.PassStones, st.Black.Prisoners = referee.PhaseHalted, true, 3, 2, 14
				},
			} {
				st := playingState(t)
				mod(&st)
				ts.SetView(TableViewOf(st, Conditions{}))
				ts.Content().Refresh()
				name := fmt.Sprintf("%s %vx%v case %d", l.Code, sz.Width, sz.Height, i)
				for _, face := range []*ClockFace{ts.Black, ts.White} {
					checkTextsFit(t, name, face)
					for _, pt := range textsIn(face) {
						if pt.t.TextSize < 14 {
							t.Errorf("%s: %q drawn at %.1f px", name, pt.t.Text, pt.t.TextSize)
						}
					}
				}
			}
			w.Close()
		}
	}
}
