package referee

import (
	"bufio"
	"context"
	"strings"
	"testing"
	"time"

	"tengen/engine"
	"tengen/internal/testenv"
)

func TestReadResponse(t *testing.T) {
	tests := []struct {
		in, want, err string
		id            int
	}{
		{in: "=1 B2 C3\n\n", id: 1, want: "B2 C3"},
		{in: "= \n\n", id: 1, want: ""},
		{in: "\n\n=7 A1\nB2\n\n", id: 7, want: "A1\nB2"},
		{in: "?3 illegal move\n\n", id: 3, err: "engine refused: illegal move"},
		{in: "=4 x\n\n", id: 5, err: "does not match"},
		{in: "hello\n\n", id: 1, err: "malformed"},
		{in: "", id: 1, err: "closed"},
		{in: "=2 D4", id: 2, want: "D4"},
	}
	for _, tc := range tests {
		got, err := ReadResponse(bufio.NewReader(strings.NewReader(tc.in)), tc.id)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: err %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestParseVertices(t *testing.T) {
	ps, err := ParseVertices("B2 c3\npass T19", 19)
	if err != nil || len(ps) != 3 || ps[0] != (engine.Point{X: 1, Y: 17}) {
		t.Fatalf("%v %v", ps, err)
	}
	if _, err := ParseVertices("B2 Z99", 19); err == nil {
		t.Fatal("bad vertex accepted")
	}
}

func FuzzReadResponse(f *testing.F) {
	for _, s := range []string{"=1 B2 C3\n\n", "?1 no\n\n", "= \n\n", "=1 A1\nB2\n\n", "\x00=\n", "=99999999999999999999 x\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		text, err := ReadResponse(bufio.NewReader(strings.NewReader(in)), 1)
		if err == nil {
			_, _ = ParseVertices(text, 19)
		}
	})
}

func TestGNUGoProposer(t *testing.T) {
	g, ok := GNUGo("")
	if !ok {
		testenv.Missing(t, "GNU Go (gnugo) is not installed at %s", DefaultGNUGo)
	}
	mv := func(c engine.Color, v string) engine.Move {
		p, _ := engine.ParsePoint(v, 9)
		return engine.Move{Color: c, Point: p}
	}
	pos := Position{Size: 9, Komi: 7.5, Moves: []engine.Move{
		mv(engine.Black, "E5"), mv(engine.White, "B2"), mv(engine.Black, "C3"), mv(engine.Black, "D3"),
		{Color: engine.White, Pass: true}, {Color: engine.Black, Pass: true}}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dead, err := g.ProposeDead(ctx, pos)
	if err != nil {
		t.Fatal(err)
	}
	if len(dead) != 1 || dead[0].GTP(9) != "B2" {
		t.Fatalf("dead %v, want B2", dead)
	}
	// A cancelled context ends the conversation with an error, never a hang.
	ctx2, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := g.ProposeDead(ctx2, pos); err == nil {
		t.Fatal("cancelled proposal succeeded")
	}
	// An illegal move in the record is reported.
	bad := pos
	bad.Moves = append([]engine.Move{}, mv(engine.Black, "E5"), mv(engine.White, "E5"))
	if _, err := g.ProposeDead(context.Background(), bad); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("illegal record: %v", err)
	}
}
