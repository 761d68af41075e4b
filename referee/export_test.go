package referee

import (
	"errors"
	"os"
	"strings"
	"testing"

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
