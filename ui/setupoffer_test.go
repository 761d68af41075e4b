package ui

import (
	"testing"

	"tengen/referee"
)

// TestSetupOfferedLive: a set-up offered while the kiosk runs (the hall's pairing arriving) fills
// the set-up screen at once when no game is set up, the form on show replaced; offered during a
// game, it waits and fills the next game's set-up, whichever way the next game comes (the
// director's Next game, or the referee's state going back to set-up), and only once.
func TestSetupOfferedLive(t *testing.T) {
	newTestApp(t)
	komi := 6.5
	pairing := func(round, black, white string) referee.Setup {
		return referee.Setup{Rules: "japanese", Size: 19, Komi: &komi, TimeControl: "60m+15/300s", Event: "Cup", Round: round, Table: "7",
			Black: referee.Player{Name: black, Rank: "3k"}, White: referee.Player{Name: white, Rank: "3d"}}
	}
	nextGames := 0
	a, _ := appWindow(t, displays[0], Handlers{
		SetupDefaults: referee.Setup{Rules: "japanese", Size: 19, Table: "7"},
		NextGame:      func(string) error { nextGames++; return nil },
	})
	a.Update(referee.State{Phase: referee.PhaseSetup}, Conditions{})
	if a.Current() != a.setupKB || a.setup.BlackName.Text != "" {
		t.Fatalf("before the pairing: set-up showing %v, black %q", a.Current() == a.setupKB, a.setup.BlackName.Text)
	}
	a.setup.BlackName.SetText("typed by hand")

	a.OfferSetup(pairing("3", "Olga Ivanova", "Anna Nowak"))
	s := a.setup
	if a.Current() != a.setupKB {
		t.Fatal("the offered set-up is not the one showing")
	}
	if s.BlackName.Text != "Olga Ivanova" || s.WhiteRank.Text != "3d" || s.Round.Text != "3" || s.Table.Text != "7" ||
		s.TimeControl.Text != "60m+15/300s" || s.Komi.Text != "6.5" {
		t.Fatalf("offered set-up shows black %q (%s) white rank %q round %q table %q time %q komi %q", s.BlackName.Text, s.BlackRank.Text,
			s.WhiteRank.Text, s.Round.Text, s.Table.Text, s.TimeControl.Text, s.Komi.Text)
	}

	// Offered during the game: the game's screens stay, the next game gets it.
	st := playingState(t)
	st.Setup = pairing("3", "Olga Ivanova", "Anna Nowak")
	a.Update(st, Conditions{})
	a.OfferSetup(pairing("4", "Jan Novák", "Ivan Petrov"))
	if a.Current() == a.setupKB || a.setup.Round.Text != "3" {
		t.Fatalf("an offer during the game changed the set-up (round %q) or the screen", a.setup.Round.Text)
	}
	st.Phase = referee.PhaseEnded
	a.Update(st, Conditions{})
	if err := a.nextGame("2468"); err != nil || nextGames != 1 {
		t.Fatalf("next game: %v (%d)", err, nextGames)
	}
	if s := a.setup; a.Current() != a.setupKB || s.BlackName.Text != "Jan Novák" || s.WhiteName.Text != "Ivan Petrov" || s.Round.Text != "4" {
		t.Fatalf("next game's set-up: black %q white %q round %q", s.BlackName.Text, s.WhiteName.Text, s.Round.Text)
	}

	// Offered during a game whose end goes back to set-up without the screens' Next game.
	st.Phase, st.Setup = referee.PhasePlaying, pairing("4", "Jan Novák", "Ivan Petrov")
	a.Update(st, Conditions{})
	a.OfferSetup(pairing("5", "Petar Georgiev", "Olga Ivanova"))
	a.Update(referee.State{Phase: referee.PhaseSetup}, Conditions{})
	if s := a.setup; a.Current() != a.setupKB || s.BlackName.Text != "Petar Georgiev" || s.Round.Text != "5" {
		t.Fatalf("set-up after the game: black %q round %q", s.BlackName.Text, s.Round.Text)
	}
	// Taken once: the following game's set-up does not bring round 5 back.
	a.setup.BlackName.SetText("")
	st.Phase = referee.PhasePlaying
	a.Update(st, Conditions{})
	st.Phase = referee.PhaseEnded
	a.Update(st, Conditions{})
	if err := a.nextGame("2468"); err != nil {
		t.Fatal(err)
	}
	if a.setup.BlackName.Text != "" || a.setup.Round.Text != "" {
		t.Fatalf("an offer taken twice: black %q round %q", a.setup.BlackName.Text, a.setup.Round.Text)
	}
}
