package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tengen/referee/journal"
)

// TestJournalInUse: a replay started on a journal another process holds (here, this test) exits
// non-zero with "journal in use by PID N" and leaves the journal as it was.
func TestJournalInUse(t *testing.T) {
	dir := t.TempDir()
	j, _, _, err := journal.Open(dir, journal.WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.Append([]byte(`{"seq":1,"k":"setup"}`)); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, journal.FileName))
	var stdout, stderr bytes.Buffer
	code := dispatch([]string{"replay", "--demo", "--labels", "--journal", dir}, &stdout, &stderr)
	if code == 0 {
		t.Fatalf("replay on a journal in use exited 0:\n%s", stdout.String())
	}
	if want := fmt.Sprintf("in use by PID %d", os.Getpid()); !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q does not say %q", stderr.String(), want)
	}
	after, _ := os.ReadFile(filepath.Join(dir, journal.FileName))
	if !bytes.Equal(before, after) {
		t.Error("the refused replay changed the journal")
	}
}
