package main

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"tengen/referee"
)

// After game over one director action files the game (the record in the games directory, the
// journal and its SGF archived in a dated folder) and readies the table; setting up the next game
// after game over does the same by itself instead of refusing ("one game per journal directory").
func TestNextGame(t *testing.T) {
	dir, games := t.TempDir(), t.TempDir()
	k := &kiosk{log: slog.New(slog.DiscardHandler), demo: true}
	k.pinCheck, k.pinLockedFor = k.checkPIN()
	tab, err := referee.Open(referee.Options{JournalDir: dir, GamesDir: games, CheckPIN: k.pinCheck, NoSync: true,
		Logger: k.log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tab.Close() })
	k.tab = tab
	h := k.handlers()
	setup := referee.Setup{Rules: "aga", Size: 9, Black: referee.Player{Name: "Ann"}, White: referee.Player{Name: "Bo"}, Event: "Cup"}
	play := func() {
		t.Helper()
		if err := h.Setup(setup); err != nil {
			t.Fatalf("set-up: %v", err)
		}
		if err := h.Director(demoPIN, referee.DirectorAction{Kind: referee.DirectorEnd, Result: "B+R"}); err != nil {
			t.Fatal(err)
		}
		if st := tab.State(); st.Phase != referee.PhaseEnded {
			t.Fatalf("phase %v after the result", st.Phase)
		}
	}
	play()
	if err := h.NextGame("9999"); !errors.Is(err, referee.ErrBadPIN) {
		t.Fatalf("a wrong PIN: %v", err)
	}
	if err := h.NextGame(demoPIN); err != nil {
		t.Fatal(err)
	}
	if st := tab.State(); st.Phase != referee.PhaseSetup {
		t.Fatalf("phase %v after the next game", st.Phase)
	}
	archived, _ := filepath.Glob(filepath.Join(dir, "done", "*", "journal*"))
	filed, _ := filepath.Glob(filepath.Join(games, "*.sgf"))
	if len(archived) == 0 || len(filed) != 1 {
		t.Fatalf("archived %v, filed %v", archived, filed)
	}
	// The second game ends too; setting up the third files it without being asked.
	play()
	setup.Black.Name = "Cy"
	if err := h.Setup(setup); err != nil {
		t.Fatalf("set-up after game over: %v", err)
	}
	if st := tab.State(); st.Phase != referee.PhaseReady || st.Setup.Black.Name != "Cy" {
		t.Fatalf("phase %v, black %q", st.Phase, st.Setup.Black.Name)
	}
	done, err := os.ReadDir(filepath.Join(dir, "done"))
	if err != nil || len(done) != 2 {
		t.Fatalf("archive folders %v (%v)", done, err)
	}
	// During a game set-up is still refused (the screens say it in words).
	if err := h.Setup(setup); !errors.Is(err, referee.ErrPhase) {
		t.Fatalf("set-up during a game: %v", err)
	}
}
