package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tengen/config"
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

// Errors are printed in words, without the Go package prefixes of the messages they wrap
// ("referee: ", "journal: "), and still match with errors.Is: here the journal in use, and a
// configuration file that cannot be read.
func TestErrorsWithoutPackagePrefixes(t *testing.T) {
	dir := t.TempDir()
	j, _, _, err := journal.Open(dir, journal.WithoutSync())
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	var stdout, stderr bytes.Buffer
	if code := dispatch([]string{"replay", "--demo", "--labels", "--journal", dir}, &stdout, &stderr); code == 0 {
		t.Fatal("replay on a journal in use exited 0")
	}
	line := strings.TrimSpace(stderr.String())
	if !strings.HasPrefix(line, "kiosk replay: ") || !strings.Contains(line, "in use by PID") {
		t.Fatalf("stderr %q", line)
	}
	for _, p := range []string{"referee: ", "journal: ", "station: ", "replay: "} {
		if strings.Contains(strings.TrimPrefix(line, "kiosk replay: "), p) {
			t.Errorf("%q carries the package prefix %q", line, p)
		}
	}
	// A damaged game record: the SGF reader's error ("sgf: byte 31: ...") said in words.
	stdout.Reset()
	stderr.Reset()
	truncated := filepath.Join("testdata", "check", "dir", "truncated.sgf")
	if code := dispatch([]string{"score", truncated}, &stdout, &stderr); code != 1 {
		t.Errorf("score of a damaged record: exit %d", code)
	}
	if got, want := strings.TrimSpace(stderr.String()), "kiosk score: "+truncated+": byte 31: property value opened with '[' is never closed with ']'"; got != want {
		t.Errorf("stderr %q, want %q", got, want)
	}
	cfgErr := fmt.Errorf("demo set-up: %w", &config.Error{Path: "", Err: fmt.Errorf("referee: wrong director PIN: %w", os.ErrNotExist)})
	if got, want := errorWords(cfgErr), "demo set-up: wrong director PIN: file does not exist"; got != want {
		t.Errorf("errorWords = %q, want %q", got, want)
	}
	if !errors.Is(cfgErr, os.ErrNotExist) {
		t.Error("the error lost its chain")
	}
}
