package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tengen/internal/shareddata"
)

func TestReplayUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"a", "b"}, {"--speed", "-1", "x"}} {
		var out, errb bytes.Buffer
		err := runReplay(context.Background(), args, &out, &errb)
		var ee exitError
		if !errors.As(err, &ee) || ee.code != 2 {
			t.Errorf("%q: %v, want exit status 2", args, err)
		}
	}
	var out, errb bytes.Buffer
	if err := runReplay(context.Background(), []string{"--help"}, &out, &errb); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("--help: %v", err)
	}
	if !strings.Contains(errb.String(), "presses.txt") {
		t.Errorf("help does not describe the press script:\n%s", errb.String())
	}
	if err := runReplay(context.Background(), []string{t.TempDir()}, &out, &errb); err == nil || !strings.Contains(err.Error(), "press script") {
		t.Errorf("directory without a script: %v", err)
	}
}

// TestReplayLabels replays imago-tests t1 from its labels (flags after SOURCE), then resumes on
// the same journal, which must change nothing.
func TestReplayLabels(t *testing.T) {
	dir := shareddata.Path(t, "vision-eval", "imago-tests", "t1")
	script, _ := filepath.Abs(filepath.Join("..", "..", "referee", "replay", "testdata", "t1.presses"))
	sgfPath := filepath.Join(t.TempDir(), "t1.sgf")
	journalDir := t.TempDir()
	args := []string{dir, "--script", script, "--labels", "--journal", journalDir, "--out", sgfPath, "--rules", "chinese", "--time", "10m"}
	var out, errb bytes.Buffer
	if err := runReplay(context.Background(), args, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "10: White") || !strings.Contains(out.String(), "phase playing, 10 moves") {
		t.Errorf("output:\n%s", out.String())
	}
	first, err := os.ReadFile(sgfPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(first), "RU[Chinese]") || !strings.Contains(string(first), "TM[600]") {
		t.Errorf("flags not applied:\n%s", first)
	}
	out.Reset()
	if err := runReplay(context.Background(), args, &out, &errb); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(sgfPath)
	if !bytes.Equal(first, again) || !strings.Contains(out.String(), "resumed") {
		t.Errorf("resuming a finished session changed the record or did not say so:\n%s", out.String())
	}
}
