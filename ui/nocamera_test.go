package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tengen/referee"
)

// No camera at the start: the table says what is missing, how to fix it, and how to play on (the
// director enters the moves), in every language, readable at 800x480; the director's panel
// enters a move.
func TestNoCameraAtTheStart(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	st := playingState(t)
	st.Phase, st.MoveNumber, st.LastMove, st.ToMove = referee.PhaseReady, 0, nil, 1
	st.Banner = referee.Verdict{Kind: referee.VerdictInfo, Says: []referee.Phrase{{Text: "The game has started: {{.Color}} to play.", Args: map[string]string{"Color": "Black"}}}}
	english := ""
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		v := TableViewOf(st, Conditions{CameraLost: true}).Ruling
		if v.Title != tr("No picture from the camera") || !strings.Contains(v.Text, "kiosk.toml") || !strings.Contains(v.Text, tr("Director")) {
			t.Errorf("%s: banner %+v", l.Code, v)
		}
		if l.Code == "en" {
			english = v.Text
		} else if v.Text == english {
			t.Errorf("%s: left in English", l.Code)
		}
		ts := NewTableScreen(nil, nil)
		w := test.NewWindow(ts.Content())
		w.SetPadded(false)
		w.Resize(displays[0])
		ts.SetView(TableViewOf(st, Conditions{CameraLost: true}))
		if l.Code == "en" || l.Code == "ru" {
			capture(t, "nocamera-"+l.Code+"-800x480", ts.Content(), displays[0])
		}
		if !ts.RulingShown() {
			t.Errorf("%s: the notice is not shown in large type", l.Code)
		}
		checkTextsFit(t, l.Code+" no-camera notice", ts.Ruling)
		checkTextsFit(t, l.Code+" no-camera banner", ts.Banner)
		for _, pt := range textsIn(ts.Ruling) {
			if pt.t.TextSize < 20 && pt.t.Text != tr("Tap to close") {
				t.Errorf("%s: %q at %.1f px", l.Code, pt.t.Text, pt.t.TextSize)
			}
		}
		w.Close()
	}
	if err := SetLanguage("en"); err != nil {
		t.Fatal(err)
	}
	// Once a move is recorded the usual camera banner is back.
	st.Phase = referee.PhasePlaying
	if v := TableViewOf(st, Conditions{CameraLost: true}); v.Banner.Title == "No picture from the camera" || v.RulingID == "no-camera" {
		t.Error("the start's banner during play")
	}
	var acts []referee.DirectorAction
	d := NewDirectorScreen(DirectorHandlers{Act: func(pin string, a referee.DirectorAction) error { acts = append(acts, a); return nil }, Check: checkPIN})
	w := test.NewWindow(d.Content())
	defer w.Close()
	d.pin = "2468"
	d.key("OK")
	d.Move.SetText("D4")
	tapDirector(t, d, "Play this move (no camera)")
	if fmt.Sprint(acts) != fmt.Sprint([]referee.DirectorAction{{Kind: referee.DirectorPlay, Move: "D4"}}) {
		t.Errorf("actions %v", acts)
	}
}

// tapDirector taps the director panel's button labelled label.
func tapDirector(t *testing.T, d *DirectorScreen, label string) {
	t.Helper()
	for _, o := range test.LaidOutObjects(d.Content()) {
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
