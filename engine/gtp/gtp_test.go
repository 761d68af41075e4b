package gtp

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tengen/engine"
)

var update = flag.Bool("update", false, "rewrite golden files")

func newEngine(t testing.TB, rules string, size int) *Engine {
	t.Helper()
	r, err := engine.Preset(rules)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(Config{Rules: r, Size: size, Seed: 1, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// exec runs a command and returns (ok, result) without the framing.
func exec(t *testing.T, e *Engine, line string) (bool, string) {
	t.Helper()
	reply, _, ok := e.Exec(line)
	if !ok {
		t.Fatalf("%q: no reply", line)
	}
	if !strings.HasSuffix(reply, "\n\n") {
		t.Fatalf("%q: reply %q not terminated by an empty line", line, reply)
	}
	body := strings.TrimSuffix(reply, "\n\n")
	switch body[0] {
	case '=':
		return true, strings.TrimSpace(body[1:])
	case '?':
		return false, strings.TrimSpace(body[1:])
	}
	t.Fatalf("%q: reply %q", line, reply)
	return false, ""
}

func TestCommands(t *testing.T) {
	tests := []struct {
		rules, size string
		cmds        []string // "cmd => want" or "cmd =! error-prefix"
	}{
		{"aga", "9", []string{
			"protocol_version => 2",
			"name => Tengen referee",
			"known_command play => true",
			"known_command frobnicate => false",
			"frobnicate =! unknown command",
			"boardsize 30 =! unacceptable size",
			"boardsize x =! syntax error",
			"boardsize 5 => ",
			"play B C3 => ",
			"play B C3 =! illegal move",
			"play W C3 =! illegal move",
			"play X C3 =! syntax error",
			"play B Z9 =! syntax error",
			"play B =! syntax error",
			"list_stones black => C3",
			"list_stones white => ",
			"is_legal w C3 => 0",
			"is_legal w C4 => 1",
			"play W C4 => ",
			"play B pass => ",
			"captures black => 0",
			"undo => ",
			"undo => ",
			"undo => ",
			"undo =! cannot undo",
			"list_stones black => ",
		}},
		{"japanese", "5", []string{
			// a ko: B A2 B1 C2? build: W B3 A2? use a standard shape
			"play B B1 => ", "play W C1 => ", "play B A2 => ", "play W D2 => ",
			"play B B3 => ", "play W C3 => ", "play B C2 => ",
			"play W B2 => ", // captures C2: ko
			"captures white => 1",
			"is_legal b C2 => 0",
			"tengen-explain b C2 => Japanese rules art. 6: ko; Black may not retake the ko at C2 at once, play elsewhere first",
			"play B C2 =! illegal move",
			"play B E5 => ",
			"play W E4 => ",
			"is_legal b C2 => 1",
		}},
		{"aga", "9", []string{
			"fixed_handicap 2 => G7 C3",
			"fixed_handicap 2 =! board not empty",
			"list_stones black => G7 C3",
			"clear_board => ",
			"fixed_handicap 10 =! invalid handicap",
			"set_free_handicap A1 B2 C3 => ",
			"list_stones black => C3 B2 A1",
		}},
		{"aga", "19", []string{
			"fixed_handicap 9 => Q16 D4 Q4 D16 Q10 D10 K16 K4 K10",
		}},
		{"aga", "19", []string{
			"fixed_handicap 5 => Q16 D4 Q4 D16 K10",
		}},
		{"tromp-taylor", "5", []string{
			"komi 0 => ",
			"play B A1 => ",
			"final_score => B+25",
			"play W B1 => ", "play W A2 => ", // white surrounds; black A1 is captured by A2
			"captures white => 1",
			"final_score => W+25",
			"play B C3 => ",
			"tengen-set_dead C3 => ",
			"final_status_list dead => C3",
			"final_status_list alive => A2 B1",
			"final_score => W+25",
			"tengen-clear_dead => ",
			"final_score => W+2",
			"final_status_list nonsense =! syntax error",
		}},
		{"japanese", "5", []string{
			// walls on B and D, C3 an open dame (art. 8): regarded as filled, both walls' territory
			// counts; read literally both walls are in seki
			"komi 0 => ",
			"play B B1 => ", "play B B2 => ", "play B B3 => ", "play B B4 => ", "play B B5 => ", "play B C5 => ", "play B C4 => ",
			"play W D1 => ", "play W D2 => ", "play W D3 => ", "play W D4 => ", "play W D5 => ", "play W C2 => ", "play W C1 => ", "play W E5 => ",
			"final_score => B+1",
			"final_score literal-dame => 0",
			"final_status_list seki => ",
			"final_score nonsense =! syntax error",
			"final_score => B+1",
		}},
		{"chinese", "7", []string{
			// A seki without eyes (White C7 C6 C5, Black E7 E6 E5 D5 share D7 D6). Under area
			// counting it changes no count, but its stones are in seki, not alive, as GNU Go 3.8
			// answers (--chinese-rules: seki C7 C6 C5 E7 E6 D5 E5, W+3.0).
			"komi 0 => ",
			"play B B7 => ", "play B A6 => ", "play B B6 => ", "play B E7 => ", "play B E6 => ", "play B B5 => ", "play B D5 => ",
			"play B E5 => ", "play B A4 => ", "play B B4 => ", "play B C4 => ", "play B C3 => ", "play B C2 => ", "play B C1 => ",
			"play W C7 => ", "play W F7 => ", "play W C6 => ", "play W F6 => ", "play W G6 => ", "play W C5 => ", "play W F5 => ",
			"play W D4 => ", "play W E4 => ", "play W F4 => ", "play W G4 => ", "play W D3 => ", "play W D2 => ", "play W D1 => ",
			"final_status_list seki => C7 E7 C6 E6 C5 D5 E5",
			"final_status_list alive => B7 F7 A6 B6 F6 G6 B5 F5 A4 B4 C4 D4 E4 F4 G4 C3 D3 C2 D2 C1 D1",
			"final_score => W+3",
		}},
		{"aga", "9", []string{
			"komi abc =! syntax error",
			"komi 7.5 => ",
			"final_score => W+7.5",
			"genmove b => *",
			"genmove w => *",
			"all_legal x =! syntax error",
			"tengen-rules => aga: situational superko, area scoring, seki eyes count, suicide illegal, handicap bonus N-1, pass stones true, white moves last true, komi 7.5",
			"tengen-rules nonsense =! unknown rules",
			"tengen-rules japanese => ",
			"final_score => W+6.5",
			"42 name => 42 Tengen referee",
		}},
	}
	for i, tt := range tests {
		size := 9
		if tt.size != "" {
			size = map[string]int{"5": 5, "7": 7, "9": 9, "19": 19}[tt.size]
		}
		e := newEngine(t, tt.rules, size)
		for _, c := range tt.cmds {
			if k := strings.Index(c, " =! "); k >= 0 {
				ok, res := exec(t, e, c[:k])
				if ok || !strings.HasPrefix(res, c[k+4:]) {
					t.Errorf("table %d: %q: got ok=%v %q, want error %q", i, c[:k], ok, res, c[k+4:])
				}
				continue
			}
			k := strings.Index(c, " => ")
			if k < 0 {
				t.Fatalf("bad test line %q", c)
			}
			ok, res := exec(t, e, c[:k])
			want := strings.TrimSpace(c[k+4:])
			if !ok || (want != "*" && res != want) {
				t.Errorf("table %d: %q: got ok=%v %q, want %q", i, c[:k], ok, res, want)
			}
		}
	}
}

func TestAllLegalMatchesIsLegal(t *testing.T) {
	e := newEngine(t, "aga", 9)
	for i := 0; i < 60; i++ {
		c := "b"
		if i%2 == 1 {
			c = "w"
		}
		ok, all := exec(t, e, "all_legal "+c)
		if !ok {
			t.Fatal(all)
		}
		legal := map[string]bool{}
		for _, v := range strings.Fields(all) {
			legal[v] = true
		}
		for y := 1; y <= 9; y++ {
			for _, col := range "ABCDEFGHJ" {
				v := string(col) + string(rune('0'+y))
				_, r := exec(t, e, "is_legal "+c+" "+v)
				if (r == "1") != legal[v] {
					t.Fatalf("move %d: %s: is_legal %s, all_legal has %v", i, v, r, legal[v])
				}
			}
		}
		if ok, r := exec(t, e, "genmove "+c); !ok {
			t.Fatal(r)
		}
	}
}

func TestGenmoveFillsNoOwnEye(t *testing.T) {
	e := newEngine(t, "tromp-taylor", 5)
	for i := 0; i < 400; i++ {
		c := "b"
		if i%2 == 1 {
			c = "w"
		}
		col := engine.Black
		if c == "w" {
			col = engine.White
		}
		g := e.Game()
		before := g.Board()
		ok, v := exec(t, e, "genmove "+c)
		if !ok {
			t.Fatal(v)
		}
		if v == "pass" {
			continue
		}
		p, err := engine.ParsePoint(v, 5)
		if err != nil {
			t.Fatal(err)
		}
		_ = before
		g.Undo()
		if g.IsOwnEye(col, p) {
			t.Fatalf("genmove %s filled its own eye at %s", c, v)
		}
		if _, err := g.Play(engine.Move{Color: col, Point: p}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRunSession(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "session.gtp"))
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, "aga", 9)
	var out bytes.Buffer
	if err := e.Run(context.Background(), bytes.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "session.golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Bytes(), want) {
		t.Errorf("session output differs from %s:\n%s", golden, out.String())
	}
}

func TestPrintAndLoadSGF(t *testing.T) {
	e := newEngine(t, "aga", 9)
	for _, c := range []string{"fixed_handicap 2", "play W E5", "play B D5", "play W pass"} {
		if ok, r := exec(t, e, c); !ok {
			t.Fatalf("%s: %s", c, r)
		}
	}
	path := filepath.Join(t.TempDir(), "g.sgf")
	if ok, r := exec(t, e, "printsgf "+path); !ok {
		t.Fatal(r)
	}
	_, sgfText := exec(t, e, "printsgf")
	for _, want := range []string{"SZ[9]", "HA[2]", "AB[", ";W[ee]", ";B[de]", ";W[]"} {
		if !strings.Contains(sgfText, want) {
			t.Errorf("printsgf lacks %s: %s", want, sgfText)
		}
	}
	f := newEngine(t, "aga", 19)
	if ok, r := exec(t, f, "loadsgf "+path); !ok || r != "black" {
		t.Fatalf("loadsgf: %v %q", ok, r)
	}
	_, a := exec(t, e, "list_stones black")
	_, b := exec(t, f, "list_stones black")
	if a != b {
		t.Errorf("after loadsgf black %q, want %q", b, a)
	}
	if ok, r := exec(t, f, "loadsgf "+path+" 2"); !ok || r != "black" {
		t.Fatalf("loadsgf to move 2: %v %q", ok, r)
	}
	if _, r := exec(t, f, "list_stones white"); r != "E5" {
		t.Errorf("after loadsgf 2, white %q", r)
	}
	if ok, _ := exec(t, f, "loadsgf /nonexistent/x.sgf"); ok {
		t.Error("loadsgf of a missing file succeeded")
	}
}

func TestQuitEndsRun(t *testing.T) {
	e := newEngine(t, "aga", 9)
	var out bytes.Buffer
	err := e.Run(context.Background(), strings.NewReader("1 quit\nname\n"), &out)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "=1\n\n" {
		t.Errorf("got %q", out.String())
	}
}

func FuzzExec(f *testing.F) {
	for _, s := range []string{"play b d4", "1 boardsize 3", "genmove w", "is_legal b pass", "\x00\t#x",
		"fixed_handicap 9", "set_free_handicap a1 a1", "tengen-set_dead A1", "komi NaN", "loadsgf",
		"final_status_list seki", "undo", "all_legal w", "999999999999 name", "boardsize 2", "play w T19"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		e := newEngine(t, "aga", 5)
		for _, l := range []string{line, "play b c3", line, "genmove w", line, "showboard", "final_score"} {
			reply, _, ok := e.Exec(l)
			if !ok {
				continue
			}
			if reply == "" || (reply[0] != '=' && reply[0] != '?') || !strings.HasSuffix(reply, "\n\n") ||
				strings.Count(reply, "\n\n") != 1 {
				t.Fatalf("%q: bad reply %q", l, reply)
			}
			if strings.Contains(reply, "internal error") {
				t.Fatalf("%q: %s", l, reply)
			}
		}
	})
}

func TestRunStopsOnCancel(t *testing.T) {
	e := newEngine(t, "aga", 9)
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	var out bytes.Buffer
	go func() { errc <- e.Run(ctx, pr, &out) }()
	if _, err := pw.Write([]byte("name\n")); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run after cancel: %v", err)
	}
}

// TestRunSurvivesAnOverlongLine: a line over MaxLine is answered with an error and skipped; the
// commands around it are answered, and the last line needs no newline.
func TestRunSurvivesAnOverlongLine(t *testing.T) {
	e := newEngine(t, "aga", 9)
	in := "1 name\n" + strings.Repeat("x", MaxLine+10) + "\n2 boardsize 9\n3 protocol_version"
	var out strings.Builder
	if err := e.Run(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatalf("Run: %v", err)
	}
	replies := strings.Split(strings.TrimSpace(out.String()), "\n\n")
	if len(replies) != 4 || !strings.HasPrefix(replies[0], "=1 ") || !strings.HasPrefix(replies[1], "? line too long") ||
		replies[2] != "=2" || replies[3] != "=3 2" {
		t.Fatalf("replies %q", replies)
	}
}

// TestHandicapKomiAndFourPasses: without a komi command a handicap game uses its rules' handicap
// komi (0.5 under AGA rules), as kiosk score and the table do; after four passes no stone can be
// marked dead (AGA rule 10), and final_score says so instead of ignoring the marking.
func TestHandicapKomiAndFourPasses(t *testing.T) {
	e := newEngine(t, "aga", 9)
	run := func(cmd string) string {
		t.Helper()
		reply, _, _ := e.Exec(cmd)
		return strings.TrimSpace(reply)
	}
	if got := run("fixed_handicap 2"); !strings.HasPrefix(got, "=") {
		t.Fatalf("fixed_handicap: %q", got)
	}
	if e.game.Komi() != 0.5 {
		t.Fatalf("komi after fixed_handicap with none set: %v, want the AGA handicap komi 0.5", e.game.Komi())
	}
	for _, c := range []string{"play white pass", "play black pass", "play white pass", "play black pass"} {
		if got := run(c); got != "=" {
			t.Fatalf("%s: %q", c, got)
		}
	}
	if got := run("tengen-set_dead C3"); !strings.HasPrefix(got, "?") || !strings.Contains(got, "AGA rule 10") {
		t.Fatalf("set_dead after four passes: %q", got)
	}

	e2 := newEngine(t, "aga", 9)
	if reply, _, _ := e2.Exec("komi 6.5"); strings.TrimSpace(reply) != "=" {
		t.Fatal(reply)
	}
	e2.Exec("fixed_handicap 2")
	if e2.game.Komi() != 6.5 {
		t.Fatalf("komi the controller set: %v after fixed_handicap, want 6.5", e2.game.Komi())
	}
}
