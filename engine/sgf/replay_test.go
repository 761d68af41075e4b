package sgf

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"tengen/engine"
)

// koSetup is a ko on a 7x7 board: Black B7 (ba), A6 (ab), B5 (bc) around White B6 (bb); White C7
// (ca), D6 (db), C5 (cc) around the empty C6 (cb). Black C6 takes the ko.
const koSetup = "AB[ba][ab][bc]AW[bb][ca][db][cc]"

func replayString(t *testing.T, src, rules string) (*Replay, *Record) {
	t.Helper()
	c, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.Preset(rules)
	if err != nil {
		t.Fatal(err)
	}
	rp, rec, err := ReplayGame(c.Games[0], r)
	if err != nil {
		t.Fatal(err)
	}
	return rp, rec
}

func TestReplayGameCases(t *testing.T) {
	type tcase struct {
		name, src, rules string
		moves            int
		illegal          []string
		notes            []string
		repeats          int
	}
	cases := []tcase{
		{name: "ko retaken at once", src: "(;SZ[7]" + koSetup + ";B[cb];W[bb])", rules: "japanese",
			moves: 2, illegal: []string{"2 ko"}},
		{name: "ko retaken after a move elsewhere", src: "(;SZ[7]" + koSetup + ";B[cb];W[gg];B[ff];W[bb])", rules: "japanese",
			moves: 4},
		{name: "ko after two passes, Japanese: resumed, legal, a repetition", src: "(;SZ[7]" + koSetup + ";B[cb];W[];B[];W[bb])",
			rules: "japanese", moves: 4, notes: []string{"play resumed"}, repeats: 1},
		{name: "the same under positional superko", src: "(;SZ[7]" + koSetup + ";B[cb];W[];B[];W[bb])",
			rules: "chinese", moves: 4, illegal: []string{"4 positional superko"}, notes: []string{"play resumed"}},
		{name: "occupied point skipped, turn handed over", src: "(;SZ[7];B[dd];W[dd];B[ee])", rules: "japanese",
			moves: 3, illegal: []string{"2 occupied"}, notes: []string{"could not be replayed and was skipped"}},
		{name: "suicide", src: "(;SZ[7]AW[ba][ab];B[aa])", rules: "aga", moves: 1, illegal: []string{"1 suicide"}},
		{name: "suicide legal under New Zealand rules", src: "(;SZ[7]AW[ba][ab];B[aa])", rules: "new-zealand", moves: 1},
		{name: "same colour twice", src: "(;SZ[7];B[dd];B[ee];W[ff])", rules: "japanese", moves: 3,
			notes: []string{"Black moves twice in a row"}},
		{name: "filling one's own ko after moving twice is not a ko violation",
			src: "(;SZ[7]" + koSetup + ";B[cb];W[gg];B[ff];W[bb];W[cb])", rules: "japanese", moves: 5,
			notes: []string{"White moves twice"}},
		{name: "setup in node 1 is the starting position", src: "(;SZ[7];AB[dd][ee];W[cc];B[dc])", rules: "aga", moves: 2},
		{name: "setup after moves restarts", src: "(;SZ[7];B[dd];W[cc];AE[dd]AB[ee];B[dd])", rules: "japanese", moves: 3,
			notes: []string{"setup stones after move 2"}},
		{name: "variations are not replayed", src: "(;SZ[7];B[dd](;W[ee];B[ff])(;W[dd]))", rules: "japanese", moves: 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rp, _ := replayString(t, tc.src, tc.rules)
			if rp.Moves != tc.moves {
				t.Errorf("moves = %d, want %d", rp.Moves, tc.moves)
			}
			var got []string
			for _, il := range rp.Illegal {
				got = append(got, fmt.Sprintf("%d %s", il.Number, il.Err.Reason))
			}
			if strings.Join(got, ",") != strings.Join(tc.illegal, ",") {
				t.Errorf("illegal = %q, want %q", got, tc.illegal)
			}
			if len(rp.Notes) != len(tc.notes) {
				t.Errorf("notes = %+v, want %q", rp.Notes, tc.notes)
			} else {
				for i, n := range rp.Notes {
					if !strings.Contains(n.Text, tc.notes[i]) {
						t.Errorf("note %d = %q, want %q", i, n.Text, tc.notes[i])
					}
				}
			}
			if len(rp.Repetitions) != tc.repeats {
				t.Errorf("repetitions = %+v, want %d", rp.Repetitions, tc.repeats)
			}
		})
	}
}

func TestReplayHandicapAndKomi(t *testing.T) {
	rp, rec := replayString(t, "(;SZ[19]HA[2]AB[pd][dp];W[qp])", "chinese")
	if got := len(rp.Game.Handicap()); got != 2 {
		t.Errorf("handicap stones = %d, want 2", got)
	}
	if k := rp.Game.Komi(); k != 0.5 {
		t.Errorf("komi = %v, want the preset's handicap komi 0.5 (no KM)", k)
	}
	if rec.Handicap != 2 {
		t.Errorf("HA = %d", rec.Handicap)
	}
	rp, _ = replayString(t, "(;SZ[19]KM[3]AB[pd][dp];W[qp])", "chinese")
	if k := rp.Game.Komi(); k != 3 {
		t.Errorf("komi = %v, want KM 3", k)
	}
	// A problem position with both colours is plain setup, not handicap.
	rp, _ = replayString(t, "(;SZ[9]AB[cc][dd]AW[ee];B[ff])", "chinese")
	if len(rp.Game.Handicap()) != 0 || rp.Game.At(engine.Point{X: 4, Y: 4}) != engine.White {
		t.Errorf("setup position wrong: handicap %v", rp.Game.Handicap())
	}
}

func TestReplayRecordRefusesBadPoints(t *testing.T) {
	r := &Record{Size: 9, Moves: []Move{{Color: engine.Black, Point: engine.Point{X: 9, Y: 0}}}}
	rules, _ := engine.Preset("japanese")
	if _, err := ReplayRecord(r, rules); err == nil {
		t.Error("a move off the board was accepted")
	}
	r = &Record{Size: 9, Setup: []Stone{{Color: engine.Black, Point: engine.Point{X: -1, Y: 0}}}}
	if _, err := ReplayRecord(r, rules); err == nil {
		t.Error("a setup stone off the board was accepted")
	}
	r = &Record{Size: 9, Moves: []Move{{Color: engine.Black, Point: engine.Point{X: 4, Y: 4}}, {Color: engine.White, Pass: true}}}
	rp, err := ReplayRecord(r, rules)
	if err != nil || rp.Moves != 2 || rp.Game.At(engine.Point{X: 4, Y: 4}) != engine.Black {
		t.Errorf("ReplayRecord = %+v, %v", rp, err)
	}
}

func TestReplayAll(t *testing.T) {
	src := "(;GN[one]SZ[7]RU[Chinese]" + koSetup + ";B[cb];W[];B[];W[bb])\n" +
		"(;GN[two]SZ[19:13];B[aa])\n" +
		"(;GN[three]SZ[7](;B[dd];W[ee])(;B[ee];W[ee]))\n" +
		"(;GN[four]SZ[7];B[dd];W[dd" // cut off
	type res struct {
		game, moves, illegal int
		err                  string
	}
	var got []res
	rulesFor := func(r *Record) engine.Rules {
		name := PresetForRU(r.Rules)
		if name == "" {
			name = "japanese"
		}
		rules, _ := engine.Preset(name)
		return rules
	}
	err := ReplayAll([]byte(src), rulesFor, func(game int, rp *Replay, rec *Record, err error) {
		r := res{game: game}
		if err != nil {
			r.err = err.Error()
		} else {
			r.moves, r.illegal = rp.Moves, len(rp.Illegal)
		}
		got = append(got, r)
	})
	var se *SyntaxError
	if !errors.As(err, &se) || !strings.Contains(se.Msg, "never closed") {
		t.Errorf("err = %v, want the syntax error of game four", err)
	}
	want := []res{{1, 4, 1, ""}, {2, 0, 0, "sgf: byte 88: SZ[19:13]: rectangular boards are not supported, only square ones"}, {3, 2, 0, ""}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("games = %+v\nwant %+v", got, want)
	}
}

// ReplayAll reuses one Game across the games of a collection: each game must replay exactly as it does
// alone, with nothing left over from the game before (board, ko, superko history, prisoners, komi).
func TestReplayAllReusesCleanly(t *testing.T) {
	games := []string{
		"(;GN[a]SZ[7]KM[6.5]" + koSetup + ";B[cb];W[];B[];W[bb])",
		"(;GN[b]SZ[7];B[cb];W[bb];B[ab])",
		"(;GN[c]SZ[7]" + koSetup + ";B[cb];W[gg];B[ff];W[bb];W[cb])",
		"(;GN[d]SZ[9];B[ee];W[dd])",
		"(;GN[e]SZ[7]AB[dd][ee];W[cc];B[dc])",
		"(;GN[f]SZ[7];B[dd];W[dd];B[ee])",
	}
	rules, err := engine.Preset("chinese")
	if err != nil {
		t.Fatal(err)
	}
	summary := func(rp *Replay) string {
		g := rp.Game
		var illegal []string // Offset is file-relative, so it differs inside a collection
		for _, il := range rp.Illegal {
			illegal = append(illegal, fmt.Sprintf("%d %v %v", il.Number, il.Move, il.Err))
		}
		return fmt.Sprintf("moves %d illegal %v notes %v reps %v board %v komi %v prisoners %d/%d ko %v",
			rp.Moves, illegal, rp.Notes, rp.Repetitions, g.Board(), g.Komi(),
			g.Prisoners(engine.Black), g.Prisoners(engine.White), fmt.Sprint(g.KoPoint()))
	}
	var want []string
	for _, src := range games {
		c, err := Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		rp, _, err := ReplayGame(c.Games[0], rules)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, summary(rp))
	}
	var got []string
	err = ReplayAll([]byte(strings.Join(games, "\n")), func(*Record) engine.Rules { return rules },
		func(_ int, rp *Replay, _ *Record, err error) {
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, summary(rp))
		})
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Errorf("game %d in a collection:\n got %v\nwant %s", i+1, got[i:min(i+1, len(got))], want[i])
		}
	}
	// One Checker across files (one game each) keeps its Game between calls.
	var c Checker
	for i, src := range games {
		var one string
		err := c.ReplayAll([]byte(src), func(*Record) engine.Rules { return rules },
			func(_ int, rp *Replay, _ *Record, err error) {
				if err != nil {
					t.Fatal(err)
				}
				one = summary(rp)
			})
		if err != nil {
			t.Fatal(err)
		}
		if one != want[i] {
			t.Errorf("game %d through a Checker:\n got %s\nwant %s", i+1, one, want[i])
		}
	}
}
