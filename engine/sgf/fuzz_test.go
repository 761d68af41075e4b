package sgf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"tengen/engine"
)

func addSeeds(f *testing.F) {
	f.Add([]byte("(;GM[1]FF[4]SZ[19]AB[aa:cc]C[a\\]b\\\\c\\\nd];B[dd];W[](;B[tt])(;W[ab]))"))
	f.Add([]byte("(;CA[ISO-8859-1]PB[M\xfcller])(;SZ[9];B[ee]BL[12.5]OB[3])"))
	f.Add([]byte("(;SZ[19:13];AddBlack[aa]\r\n;C[x\r\ny])"))
	f.Add([]byte("((;B[aa]))"))
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.sgf"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
}

// FuzzParse checks that any input either parses or yields a *SyntaxError inside the input, never a panic.
func FuzzParse(f *testing.F) {
	addSeeds(f)
	f.Add([]byte("(;SZ[5]AB[aa][bb]HA[2];W[cc];W[dd];B[];W[];B[ab];AW[ee];B[ba];W[bb])"))
	japanese, _ := engine.Preset("japanese")
	aga, _ := engine.Preset("aga")
	f.Fuzz(func(t *testing.T, data []byte) {
		// The streaming replay sees the same games, and the same syntax error, as Parse.
		var streamed []string
		serr := ReplayAll(data, func(*Record) engine.Rules { return japanese }, func(i int, rp *Replay, _ *Record, err error) {
			streamed = append(streamed, summary(rp, err))
		})
		c, err := Parse(data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
			if se.Offset < 0 || se.Offset > len(data) {
				t.Fatalf("offset %d outside input of %d bytes", se.Offset, len(data))
			}
			if serr == nil || serr.Error() != err.Error() {
				t.Fatalf("ReplayAll error %v, Parse error %v", serr, err)
			}
			return
		}
		if serr != nil || len(streamed) != len(c.Games) {
			t.Fatalf("ReplayAll: %d games, %v; Parse: %d games", len(streamed), serr, len(c.Games))
		}
		for i, g := range c.Games {
			rp, _, err := ReplayGame(g, japanese)
			if s := summary(rp, err); s != streamed[i] {
				t.Fatalf("game %d: ReplayAll %s, ReplayGame %s", i+1, streamed[i], s)
			}
		}
		// Every game converts to a record or fails with a *SyntaxError, and replays without a panic.
		for _, g := range c.Games {
			if _, err := RecordFromTree(g); err != nil {
				var se *SyntaxError
				if !errors.As(err, &se) {
					t.Fatalf("record error %v is not a *SyntaxError", err)
				}
				continue
			}
			for _, rules := range []engine.Rules{japanese, aga} {
				rp, _, err := ReplayGame(g, rules)
				if err == nil && rp.Game == nil {
					t.Fatal("replay without a game")
				}
			}
		}
	})
}

// FuzzRoundTrip checks that parse -> write -> parse gives the same tree, and that records survive
// MarshalSGF -> read unchanged.
func FuzzRoundTrip(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			return
		}
		out := c.Marshal()
		c2, err := Parse(out)
		if err != nil {
			t.Fatalf("reparse of written text failed: %v\n%q", err, out)
		}
		if err := treesEqual(c, c2); err != nil {
			t.Fatalf("tree changed: %v\n%q", err, out)
		}
		for _, g := range c.Games {
			r, err := RecordFromTree(g)
			if err != nil {
				continue
			}
			r2, err := ReadRecord(r.MarshalSGF())
			if err != nil {
				t.Fatalf("written record does not read back: %v\n%s", err, r.MarshalSGF())
			}
			if d := recordDiff(r, r2); d != "" {
				t.Fatalf("record changed: %s\n%s", d, r.MarshalSGF())
			}
		}
	})
}

// summary condenses a replay for comparisons.
func summary(rp *Replay, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%d moves, %d illegal, %d notes, %d repetitions", rp.Moves, len(rp.Illegal), len(rp.Notes), len(rp.Repetitions))
}
