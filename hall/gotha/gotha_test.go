package gotha

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tengen/hall/wire"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func load(t *testing.T) ([]byte, *Tournament) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "tournament.xml"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return data, tr
}

// TestParse: the players, games and parameters of a hand-written OpenGotha file.
func TestParse(t *testing.T) {
	_, tr := load(t)
	if tr.Name != "Tengen Cup 2026" || tr.Komi != 6.5 || tr.Size != 19 || tr.Rounds != 2 || tr.TimeControl != "60m+15/300s" {
		t.Fatalf("parameters: %+v", tr)
	}
	if len(tr.Players) != 6 || len(tr.Games) != 6 {
		t.Fatalf("%d players, %d games", len(tr.Players), len(tr.Games))
	}
	if p := tr.Players["NOVÁKJAN"]; p.Full() != "Jan Novák" || p.Rank != "2D" || p.Country != "CZ" {
		t.Fatalf("player %+v", p)
	}
}

// TestAssignments: round 2's tables with players, colours, handicap, komi and time control.
func TestAssignments(t *testing.T) {
	_, tr := load(t)
	as := tr.Assignments(2)
	want := []wire.Assignment{
		{Event: "Tengen Cup 2026", Round: 2, Table: 1, Black: wire.Player{Name: "Olga Ivanova", Rank: "3k"}, White: wire.Player{Name: "Anna Nowak", Rank: "3d"}, Komi: 6.5, TimeControl: "60m+15/300s", Size: 19},
		{Event: "Tengen Cup 2026", Round: 2, Table: 2, Black: wire.Player{Name: "Ivan Petrov", Rank: "1k"}, White: wire.Player{Name: "Jan Novák", Rank: "2d"}, Komi: 6.5, TimeControl: "60m+15/300s", Size: 19},
		{Event: "Tengen Cup 2026", Round: 2, Table: 3, Black: wire.Player{Name: "Luc Martin", Rank: "10k"}, White: wire.Player{Name: "Mary Ann van der Berg", Rank: "5k"}, Handicap: 4, Komi: 0.5, TimeControl: "60m+15/300s", Size: 19},
	}
	if len(as) != len(want) {
		t.Fatalf("%d assignments", len(as))
	}
	for i := range want {
		if as[i] != want[i] {
			t.Errorf("table %d:\n got %+v\nwant %+v", i+1, as[i], want[i])
		}
	}
}

// TestResultsBack: results set from the tables are written into the XML, which reads back with
// them and with everything else as it was; the EGF file matches its golden copy.
func TestResultsBack(t *testing.T) {
	orig, tr := load(t)
	for _, tc := range []struct {
		table int
		sgf   string
	}{{1, "W+12.5"}, {2, "B+R"}, {3, "0"}} {
		res, ok := ResultOf(tc.sgf)
		if !ok {
			t.Fatalf("ResultOf(%q) not known", tc.sgf)
		}
		if err := tr.SetResult(2, tc.table, res); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.SetResult(2, 9, ResultEqual); err == nil {
		t.Error("a result for an empty table was accepted")
	}
	if _, ok := ResultOf("Void"); ok {
		t.Error("Void has an OpenGotha result")
	}
	var out bytes.Buffer
	if err := tr.WriteXML(orig, &out); err != nil {
		t.Fatal(err)
	}
	back, err := Parse(out.Bytes())
	if err != nil {
		t.Fatalf("the written XML does not read back: %v\n%s", err, out.String())
	}
	got := map[int]string{}
	for _, g := range back.Games {
		if g.Round == 2 {
			got[g.Table] = g.Result
		}
	}
	if got[1] != ResultWhiteWins || got[2] != ResultBlackWins || got[3] != ResultEqual {
		t.Fatalf("results read back: %v", got)
	}
	for _, keep := range []string{`hdCeiling="9"`, `director="Tengen"`, `result="RESULT_WHITEWINS_BYDEF"`, `location="Kraków"`} {
		if !strings.Contains(out.String(), keep) {
			t.Errorf("the written XML lost %s", keep)
		}
	}
	var egf bytes.Buffer
	if err := back.WriteEGF(&egf); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "tournament.h9")
	if *update {
		if err := os.WriteFile(golden, egf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(egf.Bytes(), want) {
		t.Errorf("EGF results differ from %s:\n%s", golden, egf.String())
	}
}

// TestParseRefuses: what is not a tournament is said.
func TestParseRefuses(t *testing.T) {
	for name, src := range map[string]string{
		"not xml":         "hello",
		"unknown player":  `<Tournament><Players><Player name="A" firstName="B"/></Players><Games><Game blackPlayer="AB" whitePlayer="CD" roundNumber="1" tableNumber="1"/></Games></Tournament>`,
		"bad table":       `<Tournament><Players><Player name="A" firstName="B"/></Players><Games><Game blackPlayer="AB" whitePlayer="AB" roundNumber="1" tableNumber="x"/></Games></Tournament>`,
		"bad komi":        `<Tournament><TournamentParameterSet><GeneralParameterSet komi="lots"/></TournamentParameterSet></Tournament>`,
		"nameless player": `<Tournament><Players><Player firstName="B"/></Players></Tournament>`,
	} {
		if _, err := Parse([]byte(src)); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// FuzzParse: any file is read or refused with ErrFormat, never a panic, and what is read can be
// assigned, written back and exported.
func FuzzParse(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "tournament.xml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(`<Tournament><Players><Player name="A" firstName="B"/></Players><Games><Game blackPlayer="AB" whitePlayer="AB" roundNumber="1" tableNumber="1" result="RESULT_EQUAL_BYDEF"/></Games></Tournament>`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := Parse(b)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatal(err)
			}
			return
		}
		for r := 1; r <= tr.Rounds; r++ {
			for _, a := range tr.Assignments(r) {
				if a.Table < 1 || a.Table > wire.MaxTable {
					t.Fatalf("assignment to table %d", a.Table)
				}
			}
		}
		_ = tr.WriteXML(b, &bytes.Buffer{})
		_ = tr.WriteEGF(&bytes.Buffer{})
	})
}
