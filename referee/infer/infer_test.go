package infer

import (
	"errors"
	"math"
	"strings"
	"testing"

	"tengen/engine"
	"tengen/vision/observe"
)

// game plays the GTP moves ("B D4", "W pass", ...) on a fresh size x size game (Japanese rules:
// simple ko, so a ko retake is Ko).
func game(t testing.TB, size int, moves ...string) *engine.Game {
	t.Helper()
	r, err := engine.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(size, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range moves {
		f := strings.Fields(mv)
		c := engine.Black
		if f[0] == "W" {
			c = engine.White
		}
		m := engine.Move{Color: c, Pass: f[1] == "pass"}
		if !m.Pass {
			if m.Point, err = engine.ParsePoint(f[1], size); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := g.Play(m); err != nil {
			t.Fatalf("%s: %v", mv, err)
		}
	}
	return g
}

// sure is the probability a test reading gives its own stone (the same as observe.PointProbs gives a
// best guess without a confidence); the rest is shared by the others.
const sure = 0.995

// reading builds a reading with probabilities from a board picture (rows top first, '.', 'X',
// 'O', '?') where every point is read at probability sure, then sets the points of odd to the
// probabilities given.
func reading(t testing.TB, rows string, odd map[string]observe.Probs) observe.Observation {
	t.Helper()
	o, err := observe.ParseText(rows)
	if err != nil {
		t.Fatal(err)
	}
	o.Probs = make([]observe.Probs, len(o.Stones))
	for i, s := range o.Stones {
		for k := range o.Probs[i] {
			o.Probs[i][k] = (1 - sure) / 3
		}
		o.Probs[i][s] = sure
	}
	for v, p := range odd {
		q, err := engine.ParsePoint(v, o.Size)
		if err != nil {
			t.Fatal(err)
		}
		i := q.Y*o.Size + q.X
		o.Probs[i] = p
		o.Stones[i] = p.Likeliest()
	}
	return o
}

func vertexList(size int, ps []engine.Point) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.GTP(size)
	}
	return strings.Join(s, " ")
}

func misfitList(size int, ms []Misfit) string {
	ps := make([]engine.Point, len(ms))
	for i, m := range ms {
		ps[i] = m.Point
	}
	return vertexList(size, ps)
}

func TestRank(t *testing.T) {
	// 9x9 boards. Black captures a white stone on E5 with D5/F5/E6/E4 (the last being the move).
	captureGame := []string{"B D5", "W E5", "B F5", "W A1", "B E6", "W A2"}
	// A ko: Black's F5 captured White's E5; White may not retake at once (simple ko).
	koGame := []string{"B D5", "W E5", "B E6", "W F6", "B E4", "W F4", "B J9", "W G5", "B F5"}
	tests := []struct {
		name     string
		moves    []string
		press    engine.Color
		rows     string
		odd      map[string]observe.Probs
		clear    bool
		kind     Kind
		point    string // the move's point
		captured string
		next     string
		misfits  string
		unseen   string
		reason   engine.Reason
	}{
		{name: "a clean move", moves: []string{"B E5"}, press: engine.White, rows: `
.........
.........
.........
.........
....X.O..
.........
.........
.........
.........`, clear: true, kind: Move, point: "G5"},
		{name: "a misread point elsewhere does not spoil the move", moves: []string{"B E5", "W C3"}, press: engine.Black, rows: `
.........
.........
.........
.........
....X....
.........
..O...X..
.........
.........`, odd: map[string]observe.Probs{
			"H8": {0.3, 0.05, 0.6, 0.05},   // an empty point read as a white stone, 60 to 30
			"C3": {0.55, 0.01, 0.43, 0.01}, // White's stone read as empty, 55 to 43
		}, clear: true, kind: Move, point: "G3"},
		{name: "a stone read at 80% is the move (the press says a stone was placed)", moves: []string{"B E5"}, press: engine.White, rows: `
.........
.........
.........
.........
....X....
.........
.........
.........
.........`, odd: map[string]observe.Probs{"C3": {0.15, 0.03, 0.8, 0.02}}, clear: true, kind: Move, point: "C3"},
		{name: "a stone read likelier absent than present is not guessed", moves: []string{"B E5"}, press: engine.White, rows: `
.........
.........
.........
.........
....X....
.........
.........
.........
.........`, odd: map[string]observe.Probs{"C3": {0.6, 0.01, 0.38, 0.01}}, clear: false, kind: NoChange},
		{name: "no new stone", moves: []string{"B E5"}, press: engine.White, rows: `
.........
.........
.........
.........
....X....
.........
.........
.........
.........`, clear: false, kind: NoChange}, // a slip is said, not decided: the press's prior favours a missed stone
		{name: "a capture, the captured stone taken off", moves: captureGame, press: engine.Black, rows: `
.........
.........
.........
....X....
...X.X...
....X....
.........
O........
O........`, clear: true, kind: Move, point: "E4", captured: "E5"},
		{name: "a capture, the captured stone still on the board", moves: captureGame, press: engine.Black, rows: `
.........
.........
.........
....X....
...XOX...
....X....
.........
O........
O........`, clear: true, kind: CapturesOnBoard, point: "E4", captured: "E5"},
		{name: "a ko retaken at once is illegal", moves: koGame, press: engine.White, rows: `
........X
.........
.........
....XO...
...XOXO..
....XO...
.........
.........
.........`, clear: true, kind: Illegal, point: "E5", captured: "F5", reason: engine.Ko},
		{name: "a suicide is illegal", moves: []string{"B A2", "W J9", "B B1"}, press: engine.White, rows: `
........O
.........
.........
.........
.........
.........
.........
X........
OX.......`, clear: true, kind: Illegal, point: "A1", reason: engine.Suicide},
		{name: "a stone of the wrong colour", moves: []string{"B E5"}, press: engine.White, rows: `
.........
.........
.........
.........
....X....
.........
..X......
.........
.........`, clear: false, kind: WrongColor, point: "C3"},
		{name: "two plausible points: ambiguous", moves: []string{"B E5"}, press: engine.White, rows: `
.........
.........
.........
.........
....X....
.........
.........
.........
.........`, odd: map[string]observe.Probs{
			"C3": {0.4, 0.01, 0.58, 0.01},
			"G7": {0.42, 0.01, 0.56, 0.01},
		}, clear: false, kind: Move, point: "C3"},
		{name: "a stone moved: the board differs at both points", moves: []string{"B E5", "W C3"}, press: engine.Black, rows: `
.........
.........
.........
.........
....X....
.........
......X..
.........
...O.....`, clear: false, kind: MoveThenNext, point: "G3", next: "D1", misfits: "C3"},
		{name: "an obscured area", moves: []string{"B E5"}, press: engine.White, rows: `
.........
.........
.........
.........
....X....
.........
......O..
???......
???......`, clear: false, kind: Move, point: "G3", unseen: "A2 B2 C2 A1 B1 C1"},
		{name: "the opponent's next stone already on the board", moves: []string{"B E5"}, press: engine.White, rows: `
.........
.........
.........
.........
....X....
.........
......O..
.........
..X......`, clear: true, kind: MoveThenNext, point: "G3", next: "C1"},
		{name: "two new stones of the mover", moves: []string{"B E5"}, press: engine.White, rows: `
.........
.........
.........
.........
....X....
.........
......O..
.........
..O......`, clear: false, kind: Move, point: "G3", misfits: "C1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := game(t, 9, tc.moves...)
			before := g.Board()
			o := reading(t, tc.rows, tc.odd)
			r, err := Rank(g, tc.press, o)
			if err != nil {
				t.Fatal(err)
			}
			if !slicesEqual(before, g.Board()) || g.MoveNumber() != len(tc.moves) {
				t.Fatal("Rank changed the game")
			}
			b := r.Best
			if r.Clear() != tc.clear || b.Kind != tc.kind {
				t.Errorf("clear %v, best %v %s (margin %.2f, runner-up %v %s); want clear %v, %v",
					r.Clear(), b.Kind, b.Move.Point.GTP(9), r.Margin, r.RunnerUp.Kind, r.RunnerUp.Move.Point.GTP(9), tc.clear, tc.kind)
			}
			if tc.point != "" && b.Move.Point.GTP(9) != tc.point {
				t.Errorf("best at %s, want %s", b.Move.Point.GTP(9), tc.point)
			}
			if got := vertexList(9, b.Captured); got != tc.captured {
				t.Errorf("captured %q, want %q", got, tc.captured)
			}
			if tc.next != "" && b.Next.GTP(9) != tc.next {
				t.Errorf("next stone at %s, want %s", b.Next.GTP(9), tc.next)
			}
			if got := misfitList(9, r.Misfits); got != tc.misfits {
				t.Errorf("misfits %q, want %q", got, tc.misfits)
			}
			if got := vertexList(9, r.Unseen); got != tc.unseen {
				t.Errorf("unseen %q, want %q", got, tc.unseen)
			}
			if tc.reason != 0 && (b.Err == nil || b.Err.Reason != tc.reason) {
				t.Errorf("illegal reason %v, want %v", b.Err, tc.reason)
			}
			if r.RunnerUp.Kind != 0 && math.Abs(r.Margin-(b.LogLik+b.Kind.logPrior()-r.RunnerUp.LogLik-r.RunnerUp.Kind.logPrior())) > 1e-9 {
				t.Errorf("margin %v for best %v and runner-up %v", r.Margin, b.LogLik, r.RunnerUp.LogLik)
			}
			if r.RunnerUp.Kind != 0 && r.RunnerUp.Decision() == b.Decision() {
				t.Errorf("the runner-up %v makes the same decision as the best", r.RunnerUp)
			}
		})
	}
}

// TestRankBestGuessOnly: a reader that gives only its best guess (no probabilities, no
// confidence) is held to an exact match, as before probabilities: one stray stone makes the
// move and the stray stone equally likely (ambiguous), and a missing stone is a misfit.
func TestRankBestGuessOnly(t *testing.T) {
	g := game(t, 9, "B E5")
	for _, tc := range []struct {
		name, rows string
		clear      bool
		misfits    string
	}{
		{"exact", ".........\n.........\n.........\n.........\n....X....\n.........\n......O..\n.........\n.........", true, ""},
		{"a stone missing", ".........\n.........\n.........\n.........\n.........\n.........\n......O..\n.........\n.........", false, "E5"},
		{"one stone too many", ".........\n.........\n.........\n.........\n....X....\n.........\n......O..\n.........\n..O......", false, "C1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, err := observe.ParseText(tc.rows)
			if err != nil {
				t.Fatal(err)
			}
			o.Confidence = nil
			r, err := Rank(g, engine.White, o)
			if err != nil {
				t.Fatal(err)
			}
			if r.Clear() != tc.clear || misfitList(9, r.Misfits) != tc.misfits {
				t.Errorf("clear %v misfits %q (best %v %s, margin %.2f); want %v %q", r.Clear(), misfitList(9, r.Misfits),
					r.Best.Kind, r.Best.Move.Point.GTP(9), r.Margin, tc.clear, tc.misfits)
			}
		})
	}
}

// TestRankConfidenceOnly: a reader with a best guess and a confidence per point (as the vision
// package gives today): an unsure stray reading does not stop a clear move.
func TestRankConfidenceOnly(t *testing.T) {
	g := game(t, 9, "B E5")
	o, err := observe.ParseText(".........\n.........\n.........\n.........\n....X....\n.........\n......O..\n.........\n..X......")
	if err != nil {
		t.Fatal(err)
	}
	o.Confidence[2*9+2+6*9] = 0.55 // C1, the stray black stone, read at 55%
	r, err := Rank(g, engine.White, o)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Clear() || r.Best.Kind != Move || r.Best.Move.Point.GTP(9) != "G3" {
		t.Errorf("clear %v, best %v %s, margin %.2f, misfits %q", r.Clear(), r.Best.Kind, r.Best.Move.Point.GTP(9), r.Margin, misfitList(9, r.Misfits))
	}
}

func TestRankErrors(t *testing.T) {
	g := game(t, 9, "B E5")
	o := reading(t, strings.Repeat(".........\n", 9), nil)
	if _, err := Rank(g, engine.Black, o); !errors.Is(err, ErrNotToMove) {
		t.Errorf("black pressed on white's move: %v", err)
	}
	if _, err := Rank(g, engine.White, reading(t, strings.Repeat(".......\n", 7), nil)); !errors.Is(err, ErrSize) {
		t.Errorf("a 7x7 reading of a 9x9 game: %v", err)
	}
}

func TestRankSequence(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moves []string
		steps []engine.Move
		rows  string
		odd   map[string]observe.Probs
		clear bool
		want  string
	}{
		{name: "two moves seen together", moves: []string{"B E5"}, steps: []engine.Move{{Color: engine.White}, {Color: engine.Black}}, rows: `
.........
.........
.........
.........
....X....
.........
......O..
.........
..X......`, clear: true, want: "W G3 B C1"},
		{name: "a pass between", moves: []string{"B E5"}, steps: []engine.Move{{Color: engine.White, Pass: true}, {Color: engine.Black}}, rows: `
.........
.........
.........
.........
....X....
.........
.........
.........
..X......`, clear: true, want: "W pass B C1"},
		{name: "the second stone hardly seen", moves: []string{"B E5"}, steps: []engine.Move{{Color: engine.White}, {Color: engine.Black}}, rows: `
.........
.........
.........
.........
....X....
.........
......O..
.........
.........`, odd: map[string]observe.Probs{"C1": {0.95, 0.03, 0.01, 0.01}}, clear: false, want: "W G3 B C1"},
		{name: "a stone missing", moves: []string{"B E5"}, steps: []engine.Move{{Color: engine.White}, {Color: engine.Black}}, rows: `
.........
.........
.........
.........
....X....
.........
......O..
.........
.........`, clear: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := game(t, 9, tc.moves...)
			r, err := RankSequence(g, tc.steps, reading(t, tc.rows, tc.odd))
			if err != nil {
				t.Fatal(err)
			}
			if g.MoveNumber() != len(tc.moves) {
				t.Fatal("RankSequence changed the game")
			}
			var got []string
			for _, m := range r.Best.Moves {
				got = append(got, m.GTP(9))
			}
			if r.Clear() != tc.clear || (tc.want != "" && strings.Join(got, " ") != tc.want) {
				t.Errorf("clear %v %v (margin %.2f, misfits %q); want %v %s", r.Clear(), got, r.Margin, misfitList(9, r.Misfits), tc.clear, tc.want)
			}
		})
	}
}

func slicesEqual(a, b []engine.Color) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRankSince: a point misread alike at the last two confirmations of the board (glare) counts
// for nothing; one whose misreading has grown since counts for the growth; one seen only at the
// latest (a stone put down early), or that an earlier reading read rightly, keeps its evidence,
// even where the reader was in doubt (a stone put down on a glare pool).
func TestRankSince(t *testing.T) {
	g := game(t, 9, "B E5")
	empty := ".........\n.........\n.........\n.........\n....X....\n.........\n.........\n.........\n........."
	withC3 := ".........\n.........\n.........\n.........\n....X....\n.........\n..O......\n.........\n........."
	withG7 := ".........\n.........\n......O..\n.........\n....X....\n.........\n.........\n.........\n........."
	glare := map[string]observe.Probs{"G7": {0.02, 0.01, 0.97, 0}}
	now := reading(t, withC3, glare)
	withGlare, without := reading(t, empty, glare), reading(t, empty, nil)
	weaker := reading(t, empty, map[string]observe.Probs{"G7": {0.19, 0.01, 0.8, 0}})
	inDoubt := reading(t, empty, map[string]observe.Probs{"G7": {0.55, 0.01, 0.44, 0}})
	for _, tc := range []struct {
		name       string
		now        observe.Observation
		prevs      []observe.Observation
		clear      bool
		best       string
		persistent string
	}{
		{"no earlier reading", now, nil, false, "", ""},
		{"glare at the latest only", now, []observe.Observation{without, withGlare}, false, "", ""},
		{"glare at both", now, []observe.Observation{withGlare, withGlare}, true, "C3", "G7"},
		{"glare weaker at the older", now, []observe.Observation{weaker, withGlare}, true, "C3", "G7"},
		{"glare in doubt at the older, read empty", now, []observe.Observation{inDoubt, withGlare}, false, "", ""},
		{"a stone put down where the reader was in doubt", reading(t, withG7, nil), []observe.Observation{inDoubt, inDoubt}, true, "G7", ""},
		{"a stone put down where the reader saw glare weakly", reading(t, withG7, nil), []observe.Observation{weaker, weaker}, true, "G7", "G7"},
		{"an earlier reading of another size", now, []observe.Observation{reading(t, strings.Repeat(".......\n", 7), nil), withGlare}, false, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := RankSince(g, engine.White, tc.now, tc.prevs...)
			if err != nil {
				t.Fatal(err)
			}
			if r.Clear() != tc.clear || vertexList(9, r.Persistent) != tc.persistent {
				t.Errorf("clear %v (best %v %s, margin %.2f), persistent %q; want %v %q", r.Clear(), r.Best.Kind,
					r.Best.Move.Point.GTP(9), r.Margin, vertexList(9, r.Persistent), tc.clear, tc.persistent)
			}
			if tc.clear && r.Best.Move.Point.GTP(9) != tc.best {
				t.Errorf("best %s, want %s", r.Best.Move.Point.GTP(9), tc.best)
			}
		})
	}
}
