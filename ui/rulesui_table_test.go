package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee"
)

// The screens on a real referee under Japanese rules, from the stop to the dame question: the
// counting board marks the open dame the referee names, "Play it out" starts a confirmation by play
// that the game screen then shows, "End confirmation" brings the count back, and when both players
// agree with dame still open the screen says what to do next.
func TestJapaneseScreensOnARealReferee(t *testing.T) {
	newTestApp(t)
	tab, err := referee.Open(referee.Options{JournalDir: t.TempDir(), GamesDir: t.TempDir(), NoSync: true,
		CheckPIN: func(pin string) bool { return pin == "1234" }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tab.Close() })
	var app *App
	update := func() { app.Update(tab.State(), Conditions{}) }
	act := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		update()
	}
	app, _ = appWindow(t, displays[0], Handlers{
		Press:             func(p clock.Press) { act(tab.Press(p)) },
		StartConfirmation: func(c engine.Color) error { act(tab.StartConfirmation(c, time.Now())); return nil },
		EndConfirmation:   func() error { act(tab.EndConfirmation(time.Now())); return nil },
		PassForKo:         func(p engine.Point) error { act(tab.PassForKo(p, time.Now())); return nil },
	})
	act(tab.Setup(referee.Setup{Rules: "japanese", Size: 9, Black: referee.Player{Name: "Ann"}, White: referee.Player{Name: "Bo"}}, time.Now()))
	play := func(m string) {
		t.Helper()
		act(tab.Director("1234", referee.DirectorAction{Kind: referee.DirectorPlay, Move: m}, time.Now()))
	}
	for y := 1; y <= 9; y++ {
		play(fmt.Sprintf("D%d", y))
		play(fmt.Sprintf("F%d", y))
	}
	play("pass")
	play("pass")
	st := tab.State()
	if st.Phase != referee.PhaseMarking || len(st.Dame.Open) != 9 {
		t.Fatalf("phase %v, open dame %v", st.Phase, st.Dame.Open)
	}
	cs := app.Count()
	if app.Current() != cs.Content() {
		t.Fatal("the count is not on screen after the stop")
	}
	rings := 0
	for _, m := range cs.Board.View().Marks {
		if m.Kind == MarkDame && m.Point.X == 4 {
			rings++
		}
	}
	if rings != 9 {
		t.Errorf("%d open dame ringed on the E line, want 9", rings)
	}
	if !strings.HasPrefix(cs.steps.Text, "Open dame at E9, E8, E7, E6, E5, E4, E3, E2, E1: fill them") || !strings.Contains(saidText(st.Banner), cs.steps.Text) {
		t.Errorf("instructions %q, the referee says %q", cs.steps.Text, saidText(st.Banner))
	}
	checkCountLayout(t, "after the stop", cs)
	for _, p := range textsIn(cs.steps) {
		if p.t.TextSize < 11 {
			t.Errorf("instructions drawn at %.1f px", p.t.TextSize)
		}
	}
	test.Tap(cs.playOut)
	test.Tap(cs.firstW)
	if c := tab.State().Confirmation; c == nil || c.ToMove != engine.White {
		t.Fatalf("confirmation %+v", c)
	}
	cf := app.Confirm()
	if app.Current() != cf.Content() || cf.moves.Text != "No moves yet: these moves are not moves of the game." {
		t.Fatalf("the confirmation is not on screen (moves %q)", cf.moves.Text)
	}
	test.Tap(cf.end)
	if app.Current() != cs.Content() || tab.State().Confirmation != nil {
		t.Fatal("the count is not back after the confirmation")
	}
	// Both agree with the dame open: the referee asks, and the screen says what to do next.
	test.Tap(cs.agreeB)
	test.Tap(cs.agreeW)
	if st := tab.State(); !st.Dame.Asked || st.Phase != referee.PhaseMarking {
		t.Fatalf("asked %v, phase %v", st.Dame.Asked, st.Phase)
	}
	if cs.steps.Text != "Open dame remain: fill them (a stone on each), or both players agree again to count them as filled." {
		t.Errorf("asked: %q", cs.steps.Text)
	}
	// Both agree again: the dame count as filled and the game is over.
	test.Tap(cs.agreeB)
	test.Tap(cs.agreeW)
	if st := tab.State(); st.Phase != referee.PhaseEnded || !cs.result.Visible() {
		t.Errorf("phase %v after the second agreement", st.Phase)
	}
}
