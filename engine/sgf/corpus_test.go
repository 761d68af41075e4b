package sgf

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"tengen/engine"
	"tengen/internal/shareddata"
)

// corpusFiles lists the .sgf/.SGF files under dir.
func corpusFiles(tb testing.TB, dir string) []string {
	tb.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.EqualFold(filepath.Ext(path), ".sgf") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}

// TestCorpusReads reads every game of the shared corpus into records and checks the game and move
// counts against the corpus MANIFEST.
func TestCorpusReads(t *testing.T) {
	root := shareddata.Path(t, "sgf-corpus")
	// Games and moves as MANIFEST.md counts them, except yenw: its 1,192,771 moves leave out the 2,724
	// moves of the 15 games its replayer stopped in (index.tsv: 14 with setup in node 1, counted as 0
	// moves, and Sweeper/0008.sgf, the move on an occupied point).
	want := map[string][2]int{
		"yenw-computer-go-dataset-AI": {7259, 1192771 + 2724},
		"tygem-9d-2005-11":            {3710, 801670},
		"gnugo-regression-games":      {479, 82490},
		"gnugo-selfplay-9x9-resolved": {150, 9220},
	}
	for set, w := range want {
		t.Run(set, func(t *testing.T) {
			games, moves, setupAfterRoot := 0, 0, 0
			for _, f := range corpusFiles(t, filepath.Join(root, set)) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				recs, err := ReadRecords(data)
				if err != nil {
					t.Errorf("%s: %v", f, err)
					continue
				}
				for _, r := range recs {
					games++
					moves += r.MoveCount()
					for _, m := range r.Moves {
						if len(m.Setup) > 0 {
							setupAfterRoot++
							break
						}
					}
				}
			}
			if games != w[0] || moves != w[1] {
				t.Errorf("games %d moves %d, MANIFEST says %d and %d", games, moves, w[0], w[1])
			}
			t.Logf("%s: %d games, %d moves, %d with setup after the root", set, games, moves, setupAfterRoot)
		})
	}
}

// TestCorpusAudit replays every game of the shared corpus under Japanese, Chinese and AGA rules and
// checks the illegal moves found against the list established in docs/corpus.md: under Japanese
// rules (simple ko) only the defective Sweeper/0008.sgf record (White "plays" on the occupied G16
// thirteen times); under positional (Chinese) and situational (AGA) superko also the games that
// repeat a whole-board position.
func TestCorpusAudit(t *testing.T) {
	root := shareddata.Path(t, "sgf-corpus")
	sweeper := "yenw-computer-go-dataset-AI/Sweeper/0008.sgf "
	var occupied []string
	for _, n := range []int{242, 246, 252, 258, 262, 270, 274, 278, 282, 286, 288, 290, 292} {
		occupied = append(occupied, sweeper+"move "+itoa(n)+" White G16: occupied")
	}
	heeroy := "gnugo-regression-games/nngs/gnugo-3.1.22-heeroy-200201252006.sgf "
	tygem := "tygem-9d-2005-11/tygem-2005-11-part1.sgf#tygem-76264211 "
	jinmao := "yenw-computer-go-dataset-AI/Jin-Mao-Ce-Shi/0034.sgf "
	uec := "yenw-computer-go-dataset-AI/The-11th-Computer-Go-UEC-Cup/"
	wago := "yenw-computer-go-dataset-AI/The-2nd-World-AI-Go-Open-2018/0010.sgf "
	situational := []string{
		heeroy + "move 462 White A3: situational superko",
		tygem + "move 218 White K17: situational superko",
		tygem + "move 219 Black A12: situational superko",
		tygem + "move 220 White D12: situational superko",
		tygem + "move 221 Black K18: situational superko",
		tygem + "move 222 White L16: situational superko",
		jinmao + "move 254 White B18: situational superko",
	}
	positional := []string{
		heeroy + "move 443 Black A2: positional superko",
		heeroy + "move 447 Black A2: positional superko",
		heeroy + "move 451 Black A2: positional superko",
		heeroy + "move 462 White A3: positional superko",
		uec + "0015.sgf move 374 White N1: positional superko",
		uec + "0037.sgf move 308 White P19: positional superko",
		uec + "0054.sgf move 317 Black A17: positional superko",
		uec + "0054.sgf move 325 Black A17: positional superko",
		wago + "move 319 Black A18: positional superko",
	}
	for _, s := range situational[1:] {
		positional = append(positional, strings.Replace(s, "situational", "positional", 1))
	}
	want := map[string][]string{
		"japanese": occupied,
		"aga":      append(append([]string{}, occupied...), situational...),
		"chinese":  append(append([]string{}, occupied...), positional...),
	}
	// Under simple ko the same repetitions are legal: Game.Repetition reports them.
	wantRepeats := []string{heeroy + "move 462", tygem + "move 218", tygem + "move 219", tygem + "move 220",
		tygem + "move 221", tygem + "move 222", jinmao + "move 254"}

	got := map[string][]string{}
	var repeats []string
	games := 0
	for _, f := range corpusFiles(t, root) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		col, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		rel, _ := filepath.Rel(root, f)
		rel = filepath.ToSlash(rel)
		// The streaming replay must agree with the tree replay, game by game.
		japanese, _ := engine.Preset("japanese")
		var streamed []string
		err = ReplayAll(data, func(*Record) engine.Rules { return japanese }, func(i int, rp *Replay, rec *Record, err error) {
			if err != nil {
				t.Fatalf("%s game %d: %v", rel, i, err)
			}
			streamed = append(streamed, fmt.Sprintf("%d moves, %d illegal, %d notes, %d repetitions",
				rp.Moves, len(rp.Illegal), len(rp.Notes), len(rp.Repetitions)))
		})
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if len(streamed) != len(col.Games) {
			t.Fatalf("%s: ReplayAll saw %d games, Parse %d", rel, len(streamed), len(col.Games))
		}
		for gi, g := range col.Games {
			games++
			name := rel
			if len(col.Games) > 1 {
				gn, _ := g.Get("GN")
				name += "#" + gn
			}
			for _, rn := range []string{"japanese", "aga", "chinese"} {
				rules, err := engine.Preset(rn)
				if err != nil {
					t.Fatal(err)
				}
				rp, rec, err := ReplayGame(g, rules)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if rn == "japanese" {
					tree := fmt.Sprintf("%d moves, %d illegal, %d notes, %d repetitions",
						rp.Moves, len(rp.Illegal), len(rp.Notes), len(rp.Repetitions))
					if s := streamed[gi]; s != tree {
						t.Errorf("%s: ReplayAll %s, ReplayGame %s", name, s, tree)
					}
				}
				for _, il := range rp.Illegal {
					got[rn] = append(got[rn], name+" move "+itoa(il.Number)+" "+moveText(il.Move, rec.Size)+": "+il.Err.Reason.String())
				}
				if rn == "japanese" {
					for _, r := range rp.Repetitions {
						repeats = append(repeats, name+" move "+itoa(r.Number))
					}
				}
			}
		}
	}
	if games != 11598 {
		t.Errorf("games = %d, want 11598", games)
	}
	for rn, w := range want {
		slices.Sort(w)
		g := got[rn]
		slices.Sort(g)
		if !slices.Equal(g, w) {
			t.Errorf("%s: illegal moves\n%s\nwant\n%s", rn, strings.Join(g, "\n"), strings.Join(w, "\n"))
		}
	}
	slices.Sort(repeats)
	slices.Sort(wantRepeats)
	if !slices.Equal(repeats, wantRepeats) {
		t.Errorf("repetitions under simple ko:\n%s\nwant\n%s", strings.Join(repeats, "\n"), strings.Join(wantRepeats, "\n"))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestCorpusRoundTrip writes every corpus file back out and reads it again: the trees must be equal,
// every value valid UTF-8 (16 yenw files are not valid UTF-8 and get U+FFFD), and every record must
// survive MarshalSGF.
func TestCorpusRoundTrip(t *testing.T) {
	root := shareddata.Path(t, "sgf-corpus")
	invalid := 0
	for _, f := range corpusFiles(t, root) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(data) {
			invalid++
		}
		c, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		c2, err := Parse(c.Marshal())
		if err != nil {
			t.Fatalf("%s: rewritten: %v", f, err)
		}
		if err := treesEqual(c, c2); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, g := range c.Games {
			for n := g; n != nil; {
				for _, p := range n.Props {
					for _, v := range p.Values {
						if !utf8.ValidString(v) {
							t.Fatalf("%s: %s value %q is not UTF-8", f, p.ID, v)
						}
					}
				}
				if len(n.Children) == 0 {
					break
				}
				n = n.Children[0]
			}
			r, err := RecordFromTree(g)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			r2, err := ReadRecord(r.MarshalSGF())
			if err != nil {
				t.Fatalf("%s: rewritten record: %v", f, err)
			}
			if d := recordDiff(r, r2); d != "" {
				t.Fatalf("%s: record changed: %s", f, d)
			}
		}
	}
	if invalid != 16 {
		t.Errorf("%d files are not valid UTF-8; MANIFEST.md says 16", invalid)
	}
}
