package main

import (
	"errors"
	"fmt"
	"log/slog"
	"testing"

	"tengen/engine"
	"tengen/referee"
)

// The Japanese rules' intents of the screens reach the referee through the kiosk's handlers: the
// confirmation by play starts with the colour chosen, a pass for a ko goes to the Table (refused
// there when no ko is banned), the confirmation ends, and agreeing to no result is the Table's to
// refuse when no position repeated.
func TestJapaneseIntentsReachTheTable(t *testing.T) {
	k := &kiosk{log: slog.New(slog.DiscardHandler), demo: true}
	k.pinCheck, k.pinLockedFor = k.checkPIN()
	tab, err := referee.Open(referee.Options{JournalDir: t.TempDir(), GamesDir: t.TempDir(), CheckPIN: k.pinCheck, PINLockedFor: k.pinLockedFor, NoSync: true,
		Logger: k.log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tab.Close() })
	k.tab = tab
	h := k.handlers()
	if err := h.Setup(referee.Setup{Rules: "japanese", Size: 9, Black: referee.Player{Name: "Ann"}, White: referee.Player{Name: "Bo"}}); err != nil {
		t.Fatal(err)
	}
	// Black's wall on the D line, White's on the F line: the E line is open dame.
	for y := 1; y <= 9; y++ {
		for _, m := range []string{fmt.Sprintf("D%d", y), fmt.Sprintf("F%d", y)} {
			if err := h.Director(demoPIN, referee.DirectorAction{Kind: referee.DirectorPlay, Move: m}); err != nil {
				t.Fatalf("%s: %v", m, err)
			}
		}
	}
	if err := h.AgreeVoid(engine.Black); !errors.Is(err, referee.ErrPhase) {
		t.Errorf("agreeing to no result without a repetition: %v", err)
	}
	for i := 0; i < 2; i++ {
		if err := h.Director(demoPIN, referee.DirectorAction{Kind: referee.DirectorPlay, Move: "pass"}); err != nil {
			t.Fatal(err)
		}
	}
	st := tab.State()
	if st.Phase != referee.PhaseMarking || !st.Dame.Applies || len(st.Dame.Open) != 9 {
		t.Fatalf("after the stop: phase %v, dame %+v", st.Phase, st.Dame)
	}
	if err := h.StartConfirmation(engine.White); err != nil {
		t.Fatal(err)
	}
	if c := tab.State().Confirmation; c == nil || c.ToMove != engine.White {
		t.Fatalf("confirmation %+v", c)
	}
	ko, _ := engine.ParsePoint("E5", 9)
	if err := h.PassForKo(ko); err != nil {
		t.Fatalf("pass for a ko: %v", err)
	}
	if c := tab.State().Confirmation; c == nil || c.ToMove != engine.White {
		t.Errorf("a pass for a ko that is not banned changed the turn: %+v", c)
	}
	if err := h.EndConfirmation(); err != nil {
		t.Fatal(err)
	}
	if st := tab.State(); st.Confirmation != nil || st.Phase != referee.PhaseMarking {
		t.Errorf("after the end: phase %v, confirmation %+v", st.Phase, st.Confirmation)
	}
}
