package engine

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"tengen/internal/shareddata"
)

var (
	reKomi    = regexp.MustCompile(`KM\[([-0-9.]+)\]`)
	reResult  = regexp.MustCompile(`RE\[([^\]]*)\]`)
	reProblem = regexp.MustCompile(`^move (\d+) (simple-ko|on occupied)`)
)

// TestAGAGamesAreaEqualsTerritory replays the 150 resolved GNU Go self-play games (every dead stone
// captured before the end, RE = the area count) under AGA rules with full legality checking, lets White
// make the owed last pass (AGA 11), and counts each game by area and by territory with pass stones: both
// margins must equal the recorded result (AGA rule 12).
func TestAGAGamesAreaEqualsTerritory(t *testing.T) {
	dir := shareddata.Path(t, "sgf-corpus", "gnugo-selfplay-9x9-resolved")
	files, err := filepath.Glob(filepath.Join(dir, "*.sgf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no games in %s: %v", dir, err)
	}
	area, _ := Preset("aga")
	terr, _ := Preset("aga-territory")
	passStones := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		km, err := strconv.ParseFloat(reKomi.FindStringSubmatch(string(data))[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		want := reResult.FindStringSubmatch(string(data))[1]
		su := readSetup(t, f, 9)
		var scores [2]Score
		for k, r := range []Rules{area, terr} {
			g, _ := NewGame(9, r)
			g.SetKomi(km)
			for i, m := range su.moves {
				if _, err := g.Play(m); err != nil {
					t.Fatalf("%s: move %d %s: %v", filepath.Base(f), i+1, m.GTP(9), err)
				}
			}
			if g.Phase() != Stopped {
				t.Fatalf("%s: game not stopped after the record's last two passes", filepath.Base(f))
			}
			if g.WhiteOwesPass() {
				if _, err := g.Play(Move{Color: White, Pass: true}); err != nil {
					t.Fatal(err)
				}
			}
			s, err := g.Score(nil)
			if err != nil {
				t.Fatal(err)
			}
			scores[k] = s
			passStones += s.Black.PassStones + s.White.PassStones
		}
		if scores[0].Result != want || scores[1].Result != want {
			t.Errorf("%s: area %s, territory %s, record %s", filepath.Base(f), scores[0].Result, scores[1].Result, want)
		}
	}
	if passStones == 0 {
		t.Error("no pass stones in any game: the test does not exercise AGA rule 7")
	}
}

// TestCorpusReplay replays the AI-game corpus (about 7,000 19x19 games, Japanese and Chinese rules) with
// full legality checking under simple ko, and counts whole-board repetitions under positional hashing;
// the counts must match the corpus index (an independent replayer's). -short replays every 10th game.
func TestCorpusReplay(t *testing.T) {
	dir := shareddata.Path(t, "sgf-corpus", "yenw-computer-go-dataset-AI")
	index, err := os.ReadFile(filepath.Join(dir, "index.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	japanese, _ := Preset("japanese")
	chinese, _ := Preset("chinese")
	games, moves, reps := 0, 0, 0
	for i, line := range regexp.MustCompile(`\r?\n`).Split(string(index), -1)[1:] {
		f := regexp.MustCompile(`\t`).Split(line, -1)
		if len(f) < 8 || (testing.Short() && i%10 != 0) {
			continue
		}
		wantReps, _ := strconv.Atoi(f[7])
		su := readSetup(t, filepath.Join(dir, f[0]), 19)
		// the test reader flattens variations: keep the main line's length from the index
		if n, err := strconv.Atoi(f[4]); err == nil && n > 0 && n < len(su.moves) {
			su.moves = su.moves[:n]
		}
		// the index's replay problems ("move 251 simple-ko recapture T6", "move 242 on occupied G16")
		// are illegal moves in the records: the engine must refuse exactly those
		badMove, badReason := 0, Reason(0)
		if m := reProblem.FindStringSubmatch(f[6]); m != nil {
			badMove, _ = strconv.Atoi(m[1])
			badReason = map[string]Reason{"simple-ko": Ko, "on occupied": Occupied}[m[2]]
		}
		legal, _ := NewGame(19, japanese)
		board, _ := NewGame(19, chinese)
		for _, g := range []*Game{legal, board} {
			if err := g.Setup(su.black, su.white, su.toMove); err != nil {
				t.Fatalf("%s: %v", f[0], err)
			}
		}
		if len(su.moves) > 0 {
			legal.SetToMove(su.moves[0].Color)
		}
		got := 0
		for k, m := range su.moves {
			if legal.Phase() == Stopped {
				legal.Resume(m.Color)
			}
			legal.SetToMove(m.Color)
			_, err := legal.Play(m)
			if k+1 == badMove && badReason == Ko && k > 0 && su.moves[k-1].Color == m.Color {
				// The index calls this a simple-ko recapture, but the same colour moved twice: the
				// player who took the ko fills it, which the ko rule allows (Li-Long/0047 move 251).
				badMove = -1
				if err != nil {
					t.Errorf("%s: move %d %s by the player who took the ko: %v", f[0], k+1, m.GTP(19), err)
					break
				}
			}
			if k+1 == badMove {
				if e, ok := err.(*IllegalMoveError); !ok || e.Reason != badReason {
					t.Errorf("%s: move %d %s: %v, index says %s", f[0], k+1, m.GTP(19), err, f[6])
				}
				badMove = -1
				break
			}
			if err != nil {
				t.Errorf("%s: move %d %s: %v", f[0], k+1, m.GTP(19), err)
				break
			}
			if _, err := board.Apply(m); err != nil {
				t.Fatalf("%s: move %d: %v", f[0], k+1, err)
			}
			if _, ok := board.Repetition(); ok {
				got++
			}
		}
		if badMove > 0 {
			t.Errorf("%s: the illegal move %d was not reached", f[0], badMove)
		}
		if badMove == 0 && got != wantReps {
			t.Errorf("%s: %d whole-board repetitions, index says %d", f[0], got, wantReps)
		}
		games++
		moves += len(su.moves)
		reps += got
	}
	if games == 0 {
		t.Fatal("no games replayed")
	}
	t.Logf("%d games, %d moves, %d whole-board repetitions", games, moves, reps)
}
