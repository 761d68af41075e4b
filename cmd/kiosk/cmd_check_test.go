package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"tengen/internal/shareddata"
)

// runCmd runs a subcommand's run function and returns its output and exit status as dispatch would.
func runCmd(t *testing.T, run func(context.Context, []string, io.Writer, io.Writer) error, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), args, &out, &errb)
	code := 0
	var ee exitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.code
	default:
		errb.WriteString(errorWords(err)) // as dispatch prints it
		code = 1
	}
	return out.String(), errb.String(), code
}

func TestCheckFixtures(t *testing.T) {
	dir := filepath.Join("testdata", "check")
	cases := []struct {
		name     string
		args     []string
		code     int
		contains []string
		absent   []string
	}{
		{
			name: "clean game",
			args: []string{filepath.Join(dir, "clean.sgf")},
			code: 0,
			contains: []string{"clean.sgf: 1 game, 13 moves: ok",
				"games: 1, moves: 13, illegal: 0, unreadable: 0"},
		},
		{
			name: "ko under the record's rules (RU Japanese)",
			args: []string{filepath.Join(dir, "ko.sgf")},
			code: 1,
			contains: []string{"ko.sgf: 1 game, 2 moves: 1 illegal",
				"move 2 White B6: Japanese rules art. 6: ko; White may not retake the ko at B6 at once",
				"games: 1, moves: 2, illegal: 1, unreadable: 0"},
		},
		{
			name: "superko after two passes: legal under Japanese rules",
			args: []string{"--rules", "japanese", filepath.Join(dir, "superko.sgf")},
			code: 0,
			contains: []string{"superko.sgf: 1 game, 4 moves: ok",
				"note: move 4: White plays after two passes stopped the game: play resumed"},
		},
		{
			name:     "superko after two passes: illegal under Chinese rules (RU)",
			args:     []string{filepath.Join(dir, "superko.sgf")},
			code:     1,
			contains: []string{"move 4 White B6: Chinese rules: this would repeat the board position after move 0 (positional superko)"},
		},
		{
			name:     "situational superko under AGA",
			args:     []string{"--rules", "aga", filepath.Join(dir, "superko.sgf")},
			code:     1,
			contains: []string{"move 4 White B6: AGA rule 6: this would repeat the position after move 0 with Black to play"},
		},
		{
			name: "directory: recursion, .SGF, collections, bad files, setup in node 1",
			args: []string{"--rules", "japanese", filepath.Join(dir, "dir")},
			code: 1,
			contains: []string{
				"setup-node1.sgf: 1 game, 3 moves: ok",
				"collection.SGF: 2 games, 4 moves: 1 illegal, 1 unreadable",
				"game 2 (rectangular): unreadable: byte 52: SZ[19:13]: rectangular boards are not supported",
				"game 3 (ko game): move 2 White B6: Japanese rules art. 6",
				"truncated.sgf: unreadable: byte 31: property value opened with '[' is never closed with ']'",
				"games: 3, moves: 7, illegal: 1, unreadable: 2",
			},
			absent: []string{"notes.txt"},
		},
		{
			name: "a file cut off after a complete game: that game is checked",
			args: []string{filepath.Join(dir, "partial.sgf")},
			code: 2,
			contains: []string{"partial.sgf: 1 game, 2 moves: 1 unreadable",
				"  unreadable after game 1 (the rest of the file is not checked): byte 49:",
				"games: 1, moves: 2, illegal: 0, unreadable: 1"},
		},
		{
			name:     "unreadable only: exit 2",
			args:     []string{filepath.Join(dir, "clean.sgf"), filepath.Join(dir, "dir", "truncated.sgf"), filepath.Join(dir, "missing.sgf")},
			code:     2,
			contains: []string{"missing.sgf: unreadable:", "games: 1, moves: 13, illegal: 0, unreadable: 2"},
		},
		{
			name:     "quiet hides clean files",
			args:     []string{"--quiet", filepath.Join(dir, "clean.sgf"), filepath.Join(dir, "ko.sgf")},
			code:     1,
			contains: []string{"ko.sgf: 1 game, 2 moves: 1 illegal", "games: 2, moves: 15, illegal: 1"},
			absent:   []string{"clean.sgf"},
		},
		{name: "no arguments", args: nil, code: 2},
		{name: "unknown rules", args: []string{"--rules", "martian", filepath.Join(dir, "clean.sgf")}, code: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCmd(t, runCheck, tc.args...)
			if code != tc.code {
				t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			for _, s := range tc.contains {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tc.absent {
				if strings.Contains(out, s) {
					t.Errorf("output mentions %q:\n%s", s, out)
				}
			}
			if tc.code == 0 || tc.code == 1 {
				lines := strings.Split(strings.TrimSpace(out), "\n")
				if !strings.HasPrefix(lines[len(lines)-1], "games: ") {
					t.Errorf("last line %q is not the summary", lines[len(lines)-1])
				}
			}
		})
	}
}

// TestCheckCorpusJapanese audits the whole shared corpus under Japanese rules: every game replays,
// and the only illegal moves are the thirteen of the defective Sweeper/0008.sgf record (see
// docs/corpus.md).
func TestCheckCorpusJapanese(t *testing.T) {
	corpus := shareddata.Path(t, "sgf-corpus")
	out, errOut, code := runCmd(t, runCheck, "--rules", "japanese", "--quiet", corpus)
	if code != 1 {
		t.Errorf("exit status %d, want 1 (Sweeper/0008.sgf)\n%s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if last := lines[len(lines)-1]; last != "games: 11598, moves: 2088875, illegal: 13, unreadable: 0" {
		t.Errorf("summary %q", last)
	}
	illegal := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "  move ") {
			illegal++
			if !strings.Contains(l, "White G16: Japanese rules art. 3: G16 is not empty") {
				t.Errorf("unexpected illegal move: %s", l)
			}
		}
		if strings.HasSuffix(l, "illegal") && !strings.Contains(l, filepath.Join("Sweeper", "0008.sgf")) {
			t.Errorf("unexpected file with illegal moves: %s", l)
		}
	}
	if illegal != 13 {
		t.Errorf("%d illegal move lines, want 13", illegal)
	}
	// Of the seven games that repeat a whole-board position (docs/corpus.md), three repeat it with
	// the same player to move (the heeroy NNGS game, tygem-76264211, Jin-Mao-Ce-Shi 0034): they are
	// reported under Japanese art. 12. The other four repeat only the board, after a 3-move cycle.
	if n := strings.Count(out, "repetition: move "); n != 3 {
		t.Errorf("%d games reported with a repetition, want 3", n)
	}
}

// TestCheckJapaneseArt12: KataGo's triple ko (../shared/rules-cases) goes round its cycle twice.
// Under Japanese rules every move is legal and the first that recreates an earlier whole-board
// position is reported (art. 12: the game may end with no result); under AGA rules it is illegal.
func TestCheckJapaneseArt12(t *testing.T) {
	file := shareddata.Path(t, "rules-cases", "katago", "katago-triple-ko-simple.sgf")
	out, _, code := runCmd(t, runCheck, "--rules", "japanese", file)
	want := "repetition: move 6 White F5 recreates the whole-board position after move 0 (Japanese rules art. 12: the game may end with no result); 6 more moves repeat a position"
	if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "12 moves: ok") {
		t.Errorf("japanese: exit %d, output lacks %q:\n%s", code, want, out)
	}
	out, _, code = runCmd(t, runCheck, "--rules", "aga", file)
	if code != 1 || strings.Contains(out, "repetition:") || !strings.Contains(out, "move 6 White F5: AGA rule 6") {
		t.Errorf("aga: exit %d:\n%s", code, out)
	}
}
