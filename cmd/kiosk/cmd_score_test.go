package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tengen/engine/sgf"
	"tengen/internal/shareddata"
)

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func TestScoreFixtures(t *testing.T) {
	wall := filepath.Join("testdata", "score", "wall.sgf")
	fox := filepath.Join("testdata", "score", "foxkomi.sgf")
	cases := []struct {
		name     string
		args     []string
		code     int
		result   string
		contains []string
		stderr   string
	}{
		// wall.sgf (5x5): a black wall on column B, a white wall on column C, a black stone at E5 in
		// White's area, KM 0.5, RU Japanese.
		{name: "territory, all alive: E5 spoils White's area (Japanese seki rule)", args: []string{wall}, result: "B+4.5",
			contains: []string{"rules: japanese (RU[Japanese], territory), komi 0.5 (KM)"}},
		{name: "territory, E5 dead", args: []string{"--dead", "E5", wall}, result: "W+6.5",
			contains: []string{"dead stones: 1", "  territory             5       10", "  dead taken            0        1", "  total                 5     11.5"}},
		{name: "area, e5 dead (lowercase)", args: []string{"--rules", "chinese", "--dead", "e5", wall}, result: "W+5.5",
			contains: []string{"rules: chinese (--rules, area)", "  stones                5        5", "  total                10     15.5"}},
		{name: "a dead stone marks its whole chain", args: []string{"--dead", "C3", wall}, result: "B+23.5",
			contains: []string{"dead stones: 5", "  dead taken            5        0"}},
		{name: "AGA area: pass stones shown (White owes the last pass, rule 11), not counted", args: []string{"--rules", "aga", "--dead", "E5", wall}, result: "W+5.5",
			contains: []string{"  pass stones           2        1  (not counted)"}},
		{name: "Fox komi in hundredths", args: []string{fox}, result: "W+12.5",
			contains: []string{"komi 7.5 (KM[750] read as hundredths)"}},
		{name: "dead point empty", args: []string{"--dead", "D3", wall}, code: 1, stderr: "--dead D3: the point is empty"},
		{name: "dead point off board", args: []string{"--dead", "Z9", wall}, code: 1, stderr: "--dead Z9"},
		{name: "unparseable file", args: []string{filepath.Join("testdata", "check", "dir", "truncated.sgf")}, code: 1, stderr: "truncated.sgf: byte 31"},
		{name: "missing file", args: []string{"nope.sgf"}, code: 1, stderr: "nope.sgf"},
		{name: "no file", args: nil, code: 2},
		{name: "two files", args: []string{wall, fox}, code: 2},
		{name: "unknown rules", args: []string{"--rules", "martian", wall}, code: 2, stderr: "unknown rules"},
		{name: "game out of range", args: []string{"--game", "2", wall}, code: 1, stderr: "there is no game 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := runCmd(t, runScore, tc.args...)
			if code != tc.code {
				t.Fatalf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			if tc.result != "" && lastLine(out) != tc.result {
				t.Errorf("result %q, want %q\n%s", lastLine(out), tc.result, out)
			}
			for _, s := range tc.contains {
				if !strings.Contains(out, s) {
					t.Errorf("output lacks %q:\n%s", s, out)
				}
			}
			if !strings.Contains(errOut, tc.stderr) {
				t.Errorf("stderr %q lacks %q", errOut, tc.stderr)
			}
		})
	}
}

// TestScoreSelfplayCorpus scores every GNU Go self-play game (all dead stones captured before the
// end) under Chinese rules and compares with the recorded RE.
func TestScoreSelfplayCorpus(t *testing.T) {
	dir := shareddata.Path(t, "sgf-corpus", "gnugo-selfplay-9x9-resolved")
	files, err := filepath.Glob(filepath.Join(dir, "*.sgf"))
	if err != nil || len(files) != 150 {
		t.Fatalf("%d files (%v), want 150", len(files), err)
	}
	numeric := regexp.MustCompile(`^[BW]\+[0-9.]+$|^0$`)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := sgf.ReadRecord(data)
		if err != nil {
			t.Fatal(err)
		}
		if !numeric.MatchString(rec.Result) {
			t.Fatalf("%s: RE[%s] is not a count", f, rec.Result)
		}
		out, errOut, code := runCmd(t, runScore, "--rules", "chinese", f)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", f, code, errOut)
		}
		if got := lastLine(out); got != rec.Result {
			t.Errorf("%s: scored %s, RE[%s]\n%s", filepath.Base(f), got, rec.Result, out)
		}
	}
}

// TestScoreJapaneseArt8Corpus counts finished Japanese-rules games whose final position has every dead
// stone taken off and some dame left open, as recorded, with kiosk score --rules japanese: the referee's
// count (open dame regarded as filled) gives the recorded result; --literal-dame (art. 8 read literally,
// every stone next to an open dame in seki) gives the figures the kiosk used to print.
func TestScoreJapaneseArt8Corpus(t *testing.T) {
	dir := shareddata.Path(t, "sgf-corpus")
	cases := []struct {
		file    string
		game    string
		want    string // RE
		literal string
	}{
		{"tygem-9d-2005-11/tygem-2005-11-part1.sgf", "431", "B+7.5", "W+3.5"},
		{"tygem-9d-2005-11/tygem-2005-11-part2.sgf", "83", "B+3.5", "W+1.5"},
		{"tygem-9d-2005-11/tygem-2005-11-part2.sgf", "599", "W+9.5", "B+5.5"},
		{"tygem-9d-2005-11/tygem-2005-11-part2.sgf", "784", "W+7.5", "W+4.5"},
		{"tygem-9d-2005-11/tygem-2005-11-part2.sgf", "864", "W+3.5", "B+2.5"},
		{"tygem-9d-2005-11/tygem-2005-11-part4.sgf", "310", "B+6.5", "W+11.5"},
		{"tygem-9d-2005-11/tygem-2005-11-part4.sgf", "602", "W+7.5", "B+5.5"},
		{"yenw-computer-go-dataset-AI/Jin-Mao-Ce-Shi/0819.sgf", "1", "W+2.5", "B+9.5"},
	}
	for _, tc := range cases {
		t.Run(tc.file+"#"+tc.game, func(t *testing.T) {
			f := filepath.Join(dir, filepath.FromSlash(tc.file))
			out, errOut, code := runCmd(t, runScore, "--rules", "japanese", "--game", tc.game, f)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if !strings.Contains(out, "open dame regarded as filled") || !strings.Contains(out, "stones in seki: 0") {
				t.Errorf("output lacks the dame line or finds a seki:\n%s", out)
			}
			if got := lastLine(out); got != tc.want {
				t.Errorf("scored %s, recorded %s\n%s", got, tc.want, out)
			}
			out, errOut, code = runCmd(t, runScore, "--rules", "japanese", "--literal-dame", "--game", tc.game, f)
			if code != 0 {
				t.Fatalf("--literal-dame: exit %d: %s", code, errOut)
			}
			if got := lastLine(out); got != tc.literal {
				t.Errorf("--literal-dame: scored %s, want %s\n%s", got, tc.literal, out)
			}
			// the recorded result is the record's own RE
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			col, err := sgf.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			fmt.Sscan(tc.game, &n)
			re, _ := col.Games[n-1].Get("RE")
			if re != tc.want {
				t.Errorf("RE[%s] in the record, table says %s", re, tc.want)
			}
		})
	}
}
