package sgf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tengen/engine"
)

// recordDiff describes how two records differ, ignoring byte offsets and warnings ("" if equal).
func recordDiff(a, b *Record) string {
	strip := func(r *Record) Record {
		c := *r
		c.Warnings = nil
		c.Moves = nil
		for _, m := range r.Moves {
			m.Offset = 0
			c.Moves = append(c.Moves, m)
		}
		return c
	}
	x, y := strip(a), strip(b)
	if reflect.DeepEqual(x, y) {
		return ""
	}
	return fmt.Sprintf("\n%+v\nvs\n%+v", x, y)
}

func TestReadRecord(t *testing.T) {
	src := `(;GM[1]FF[4]CA[UTF-8]SZ[19]KM[0.5]HA[2]RU[AGA]PB[Kim]BR[5d]PW[Lee]WR[6d]DT[2024-05-01]
EV[Open]RO[3]PC[Denver]RE[W+2.5]GN[r3t1]GC[table 1]C[root comment]TM[3600]OT[5x30 byo-yomi]
AB[dp][pd]
;W[qp]WL[3590.5]OW[5]C[first]
;B[]BL[3500]
;AB[aa:ab]C[director: setup]
;W[tt]
;B[ss])`
	r, err := ReadRecord([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := &Record{
		Size: 19, Komi: 0.5, HasKomi: true, Handicap: 2, Rules: "AGA",
		BlackName: "Kim", BlackRank: "5d", WhiteName: "Lee", WhiteRank: "6d",
		Date: "2024-05-01", Event: "Open", Round: "3", Place: "Denver", Result: "W+2.5",
		GameName: "r3t1", GameComment: "table 1", Comment: "root comment", TimeLimit: 3600,
		Overtime: "5x30 byo-yomi",
		Setup:    []Stone{{engine.Black, engine.Point{X: 3, Y: 15}}, {engine.Black, engine.Point{X: 15, Y: 3}}},
		Moves: []Move{
			{Color: engine.White, Point: engine.Point{X: 16, Y: 15}, Comment: "first",
				WhiteTime: TimeLeft{Seconds: 3590.5, HasSeconds: true, Periods: 5, HasPeriods: true}},
			{Color: engine.Black, Pass: true, BlackTime: TimeLeft{Seconds: 3500, HasSeconds: true}},
			{Setup: []Stone{{engine.Black, engine.Point{X: 0, Y: 0}}, {engine.Black, engine.Point{X: 0, Y: 1}}},
				Comment: "director: setup"},
			{Color: engine.White, Pass: true},
			{Color: engine.Black, Point: engine.Point{X: 18, Y: 18}},
		},
	}
	if d := recordDiff(r, want); d != "" {
		t.Error(d)
	}
	if r.MoveCount() != 4 {
		t.Errorf("MoveCount = %d, want 4", r.MoveCount())
	}
	r2, err := ReadRecord(r.MarshalSGF())
	if err != nil {
		t.Fatal(err)
	}
	if d := recordDiff(r, r2); d != "" {
		t.Errorf("round trip: %s", d)
	}
}

func TestRecordErrors(t *testing.T) {
	cases := []struct {
		name, src, msg string
		offset         int
	}{
		{"rectangular", "(;SZ[19:13])", "rectangular", 2},
		{"size word", "(;SZ[big])", "board size", 2},
		{"not go", "(;GM[2])", "not a game of Go", 2},
		{"off board", "(;SZ[9];B[jj])", "off the 9x9 board", 8},
		{"tt on 9x9 is a pass", "(;SZ[9];B[tt])", "", 0},
		{"bad point", "(;B[a])", "two letters", 2},
		{"two moves", "(;B[aa]W[bb])", "two moves", 7},
		{"setup off board", "(;SZ[5]AB[aa:ff])", "AB", 7},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadRecord([]byte(tc.src))
			if tc.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want *SyntaxError", err)
			}
			if se.Offset != tc.offset || !strings.Contains(se.Msg, tc.msg) {
				t.Errorf("got %v, want offset %d and %q", se, tc.offset, tc.msg)
			}
		})
	}
}

func TestRecordWarnings(t *testing.T) {
	r, err := ReadRecord([]byte("(;KM[six]HA[7.5];B[aa]BL[soon])"))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Warnings) != 3 || r.HasKomi || r.Handicap != 0 {
		t.Errorf("warnings = %q, komi %v, handicap %d", r.Warnings, r.HasKomi, r.Handicap)
	}
}

func TestParseSeconds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{{"1800", 1800, true}, {"90.5", 90.5, true}, {"30:00", 1800, true}, {"1:00:30", 3630, true},
		{"1:75", 0, false}, {"x", 0, false}, {"-5", 0, false}, {"1:2:3:4", 0, false}, {"NaN", 0, false}} {
		got, err := parseSeconds(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseSeconds(%q) = %v, %v", tc.in, got, err)
		}
	}
}

func TestExpandPoints(t *testing.T) {
	pts, err := ExpandPoints([]string{"cc:aa", "dd"}, 19)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 10 || pts[0] != (engine.Point{X: 0, Y: 0}) || pts[9] != (engine.Point{X: 3, Y: 3}) {
		t.Errorf("points = %v", pts)
	}
	// Overlapping rectangles never list a point twice.
	pts, err = ExpandPoints([]string{"bb", "aa:cc", "bb:dd", "aa:cc"}, 19)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 14 || pts[0] != (engine.Point{X: 1, Y: 1}) {
		t.Errorf("overlapping rectangles: %d points %v", len(pts), pts)
	}
}

func TestRecordLargeBoardTT(t *testing.T) {
	r, err := ReadRecord([]byte("(;SZ[21];B[tt];W[])"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Moves[0].Pass || r.Moves[0].Point != (engine.Point{X: 19, Y: 19}) || !r.Moves[1].Pass {
		t.Errorf("moves = %+v", r.Moves)
	}
}

// TestMarshalGolden checks the writer's exact layout on a record built as the referee builds one.
func TestMarshalGolden(t *testing.T) {
	r := &Record{
		Size: 9, Komi: 7, HasKomi: true, Rules: "AGA", BlackName: "Ana [A] \\ B", WhiteName: "Bo",
		Date: "2026-11-21", Event: "Club night", Round: "1", Place: "Table 4", Result: "B+R",
		Application: "Tengen:dev", TimeLimit: 600, Overtime: "5x30 byo-yomi",
		Moves: []Move{
			{Color: engine.Black, Point: engine.Point{X: 4, Y: 4}, BlackTime: TimeLeft{Seconds: 598.25, HasSeconds: true}},
			{Color: engine.White, Point: engine.Point{X: 2, Y: 6}, WhiteTime: TimeLeft{Seconds: 590, HasSeconds: true}},
			{Color: engine.Black, Pass: true, BlackTime: TimeLeft{Seconds: 30, HasSeconds: true, Periods: 4, HasPeriods: true},
				Comment: "referee: Black passed (pass stone to White)"},
			{Comment: "referee: Black resigned"},
		},
	}
	out := r.MarshalSGF()
	golden := filepath.Join("testdata", "record.golden")
	if *update {
		os.WriteFile(golden, out, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(want) {
		t.Errorf("MarshalSGF =\n%s\nwant\n%s", out, want)
	}
	back, err := ReadRecord(out)
	if err != nil {
		t.Fatal(err)
	}
	if d := recordDiff(r, back); d != "" {
		t.Error(d)
	}
}
