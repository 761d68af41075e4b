package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tengen/referee"
)

// tapButton taps the visible button labelled label on the app's screen.
func tapButton(t *testing.T, a *App, label string) {
	t.Helper()
	for _, o := range test.LaidOutObjects(a.Current()) {
		if bb, ok := o.(*bigButton); ok && bb.Text == label && bb.Visible() {
			test.Tap(bb)
			return
		}
		if b, ok := o.(*widget.Button); ok && b.Text == label && b.Visible() {
			test.Tap(b)
			return
		}
	}
	t.Fatalf("no button %q", label)
}

// After game over the counting screen offers the next game; the director's one action files the
// game and shows the next game's set-up, filled with this game's settings but not its players. A
// set-up refused during a game says why in words, not the referee's error.
func TestNextGameFromTheScreens(t *testing.T) {
	newTestApp(t)
	var pins []string
	var setups []referee.Setup
	setupErr := error(nil)
	a, _ := appWindow(t, displays[0], Handlers{
		NextGame: func(pin string) error {
			if pin != "2468" {
				return fmt.Errorf("checking: %w", referee.ErrBadPIN)
			}
			pins = append(pins, pin)
			return nil
		},
		Setup:    func(s referee.Setup) error { setups = append(setups, s); return setupErr },
		CheckPIN: checkPIN,
	})
	st := playingState(t)
	cv := demoCount(t)
	st.Phase, st.Score, st.Result = referee.PhaseEnded, &cv.Score, "B+3.5"
	st.Setup.Event, st.Setup.Table, st.Setup.Round = "Spring Open", "7", "2"
	a.Update(st, Conditions{})
	if a.Current() != a.Count().Content() || !a.Count().next.Visible() {
		t.Fatal("the final count does not offer the next game")
	}
	test.Tap(a.Count().next)
	if a.Screen() != ScreenDirector {
		t.Fatalf("next game shows screen %v, want the director's", a.Screen())
	}
	for _, k := range []string{"2", "4", "6", "8", "OK"} {
		tapButton(t, a, k)
	}
	tapButton(t, a, "File this game, set up the next")
	if len(pins) != 1 {
		t.Fatalf("next game asked %d times", len(pins))
	}
	if a.Current() != a.setupKB {
		t.Fatal("the next game's set-up is not showing")
	}
	s := a.setup
	if s.Event.Text != "Spring Open" || s.Table.Text != "7" || s.RulesPreset() != "aga" || s.Size.Selected != "9" ||
		s.BlackName.Text != "" || s.WhiteName.Text != "" || s.Round.Text != "" {
		t.Errorf("next set-up: event %q table %q rules %q size %q black %q white %q round %q", s.Event.Text, s.Table.Text,
			s.RulesPreset(), s.Size.Selected, s.BlackName.Text, s.WhiteName.Text, s.Round.Text)
	}
	capture(t, "next-setup-800x480", a.Current(), displays[0])
	// Refused during a game: in words.
	setupErr = fmt.Errorf("%w: the game is already set up (one game per journal directory)", referee.ErrPhase)
	test.Tap(s.Start)
	if strings.Contains(s.Message.Text, "journal") || !strings.Contains(s.Message.Text, "director") {
		t.Errorf("refusal says %q", s.Message.Text)
	}
}
