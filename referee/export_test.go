package referee

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"tengen/engine"
)

// TestExportSGF: the director's export needs the PIN, refuses before a game exists, and writes the
// record as it stands.
func TestExportSGF(t *testing.T) {
	h := newHarness(t, 9, withDirector)
	dir := t.TempDir()
	if _, err := h.tab.ExportSGF(pin, dir, h.now()); !errors.Is(err, ErrNoGame) {
		t.Fatalf("before set-up: %v, want ErrNoGame", err)
	}
	start(h, nil)
	h.move(engine.Black, "E5")
	if _, err := h.tab.ExportSGF("wrong", dir, h.now()); !errors.Is(err, ErrBadPIN) {
		t.Fatalf("wrong PIN: %v, want ErrBadPIN", err)
	}
	path, err := h.tab.ExportSGF(pin, dir, h.now())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), ";B[ee]") {
		t.Fatalf("exported SGF lacks the move B E5:\n%s", b)
	}

	nodir := newHarness(t, 9, nil)
	if _, err := nodir.tab.ExportSGF(pin, dir, nodir.now()); !errors.Is(err, ErrNoDirector) {
		t.Fatalf("no PIN configured: %v, want ErrNoDirector", err)
	}
}

// TestWrongPINsJournaledOutsideTheLock: every wrong PIN, on the export as on the other director
// actions, leaves a refused record in the journal (the export's used to leave no trace, so every
// PIN could be tried unseen), and the PIN is checked without the table's lock held (the check is
// a key derivation; the screens and buttons must not wait for it).
func TestWrongPINsJournaledOutsideTheLock(t *testing.T) {
	var tab *Table
	h := newHarness(t, 9, func(o *Options) {
		o.CheckPIN = func(p string) bool {
			done := make(chan struct{})
			go func() { _ = tab.State(); close(done) }() // takes the table's lock
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Error("the PIN was checked with the table's lock held")
			}
			return p == pin
		}
	})
	tab = h.tab
	start(h, nil)
	tab = h.tab
	h.move(engine.Black, "E5")
	dir := t.TempDir()
	for i := 0; i < 3; i++ {
		if _, err := h.tab.ExportSGF("9999", dir, h.now()); !errors.Is(err, ErrBadPIN) {
			t.Fatalf("wrong PIN: %v", err)
		}
	}
	if err := h.tab.Director("9999", DirectorAction{Kind: DirectorPause}, h.now()); !errors.Is(err, ErrBadPIN) {
		t.Fatalf("wrong PIN: %v", err)
	}
	if _, err := h.tab.ExportSGF(pin, dir, h.now()); err != nil {
		t.Fatal(err)
	}
	kinds := map[DirectorKind]int{}
	for _, r := range h.journaled() {
		if r.ev.Kind == kindDenied && r.ev.Director != nil {
			kinds[r.ev.Director.Kind]++
		}
		if strings.Contains(string(r.raw), "9999") {
			t.Errorf("a PIN is in the journal: %s", r.raw)
		}
	}
	if kinds[DirectorExport] != 3 || kinds[DirectorPause] != 1 || len(kinds) != 2 {
		t.Errorf("refused records %v, want 3 exports and 1 pause", kinds)
	}
	h.reopen() // the audit records replay as nothing
	if got := h.movesGTP(); got != "B E5" {
		t.Errorf("after reopening: %q", got)
	}
}

// TestLockedPINSaysSo: a PIN refused while the guard is locked says so on the banner, with the
// minutes left, instead of only "wrong PIN".
func TestLockedPINSaysSo(t *testing.T) {
	locked := time.Duration(0)
	h := newHarness(t, 9, func(o *Options) {
		o.CheckPIN = func(p string) bool { return p == pin && locked == 0 }
		o.PINLockedFor = func() time.Duration { return locked }
	})
	start(h, nil)
	for _, tc := range []struct {
		locked time.Duration
		says   string
	}{
		{0, "Wrong director PIN"},
		{90 * time.Second, "try again in 2 min"},
	} {
		locked = tc.locked
		if err := h.tab.Director("1111", DirectorAction{Kind: DirectorPause}, h.now()); !errors.Is(err, ErrBadPIN) {
			t.Fatalf("%v", err)
		}
		if got := h.tab.State().Banner.Message; !strings.Contains(got, tc.says) {
			t.Errorf("locked %v: banner %q, want %q", tc.locked, got, tc.says)
		}
	}
}

// TestPINLockJournaled: the director PIN's lock is journaled once, with its length and the wrong
// PINs that made it (for the hall's dashboard), and replays as nothing.
func TestPINLockJournaled(t *testing.T) {
	h := newHarness(t, 9, nil)
	start(h, nil)
	h.move(engine.Black, "E5")
	at := h.now()
	if err := h.tab.PINLocked(at, 2*time.Minute, 6); err != nil {
		t.Fatal(err)
	}
	var locks []event
	for _, r := range h.journaled() {
		if r.ev.Kind == kindPINLocked {
			locks = append(locks, r.ev)
		}
	}
	if len(locks) != 1 || locks[0].Lockout != 2*time.Minute || locks[0].Wrong != 6 || !locks[0].At.Equal(at) {
		t.Fatalf("lock records %+v, want one of 2m after 6 wrong PINs at %v", locks, at)
	}
	h.reopen()
	if got := h.movesGTP(); got != "B E5" {
		t.Errorf("after reopening: %q", got)
	}
	if err := h.tab.PINLocked(time.Time{}, time.Minute, 5); err != nil {
		t.Errorf("a second lock after reopening: %v", err)
	}
}
