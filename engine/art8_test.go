package engine

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// TestJapaneseArt8Dame counts positions under Japanese rules (art. 8: eye points of stones in seki are
// not territory) the way a referee does, every dame that can be filled safely regarded as filled, and
// with Rules.LiteralDame, where any live stone next to an open dame is in seki.
func TestJapaneseArt8Dame(t *testing.T) {
	tests := []struct {
		name     string
		rows     []string
		komi     float64
		want     string // the referee's count
		seki     int    // stones in seki in that count
		literal  string // art. 8 read literally
		terrB    int
		terrW    int
		litTerrB int
		sekiDame string // the seki's shared liberties (OpenDame), when the test names them
	}{
		{
			// Black B7 A6 B6 C6 (eye A7) and White D7 D6 E6 F6 F7 (eye E7) share C7: whoever fills
			// it is left in atari. The eyes are not territory; the walls' territory is.
			name: "real seki with eyes",
			rows: []string{
				". X . O . O X",
				"X X X O O O X",
				"O O O X X X X",
				". O X X . . .",
				"O O X . . . .",
				". O X . . . .",
				". O X . . . .",
			},
			want: "B+12", seki: 9, literal: "B+12", terrB: 15, terrW: 3, litTerrB: 15,
		},
		{
			// White C7 C6 C5 and Black E7 E6 E5 D5 have only D7 and D6, which neither can fill.
			name: "seki without eyes",
			rows: []string{
				". X O . X O .",
				"X X O . X O O",
				". X O X X O .",
				"X X X O O O O",
				". . X O . . .",
				". . X O . . .",
				". . X O . . .",
			},
			want: "W+3", seki: 7, literal: "W+3", terrB: 8, terrW: 11, litTerrB: 8,
		},
		{
			// The table game: 45 points of Black territory to White's 9, one dame (G5) left open
			// between the walls. Read literally both walls are in seki and komi decides.
			name: "open dame next to ordinary territory",
			rows: []string{
				". . . . . X X O .",
				". . . . . X X O .",
				". . . . . X X O .",
				". . . . . X X O .",
				". . . . . X . O .",
				". . . . . X O O .",
				". . . . . X O O .",
				". . . . . X O O .",
				". . . . . X O O .",
			},
			komi: 6.5, want: "B+29.5", seki: 0, literal: "W+6.5", terrB: 45, terrW: 9, litTerrB: 0,
		},
		{
			// A hane-seki: Black's hane at the edge, C9 C8, stands inside White's group A9 A8 B8
			// B7 C7 D7 E7 D8 E8 E9, and the two share their only liberties B9 and D9. Whoever
			// fills either is left in atari (or puts both in atari, the opponent capturing first),
			// so neither is a dame that can be filled: the 12 stones are in seki and B9 D9 stay
			// open. Black's outer wall lives with G9 J9 and 51 points below.
			name: "hane-seki",
			rows: []string{
				"O . X . O X . X .",
				"O O X O O X X X X",
				"X O O O O X . . .",
				"X X X X X X . . .",
				". . . . . . . . .",
				". . . . . . . . .",
				". . . . . . . . .",
				". . . . . . . . .",
				". . . . . . . . .",
			},
			want: "B+53", seki: 12, literal: "B+53", terrB: 53, terrW: 0, litTerrB: 53, sekiDame: "[B9 D9]",
		},
		{
			// D9 is open between Black's wall on C and White's on D, in front of White's 45 points:
			// White closes it (the region behind it is White's), not Black, whose stone there
			// would break into White's territory.
			name: "an open dame in front of a wide territory",
			rows: []string{
				". . X . . . . . .",
				". . X O . . . . .",
				". . X O . . . . .",
				". . X O . . . . .",
				". . X O . . . . .",
				". . X O . . . . .",
				". . X O . . . . .",
				". . X O . . . . .",
				". . X O . . . . .",
			},
			komi: 6.5, want: "W+33.5", seki: 0, literal: "W+6.5", terrB: 18, terrW: 45, litTerrB: 0,
		},
		{
			// D5 touches only Black, E5 only White: neither is a dame until the other is filled.
			name: "a dame that can be filled only after another one",
			rows: []string{
				". . X X O O .",
				". . X X O O .",
				". . X . . O .",
				". . X X O O .",
				". . X X O O .",
				". . X X O O .",
				". . X X O O .",
			},
			want: "B+7", seki: 0, literal: "0", terrB: 14, terrW: 7, litTerrB: 0,
		},
		{
			// KataGo's GroupTaxSekiScoring board: a real seki at H9 J8 (Black H8 J9 against White's
			// top and right groups, whose eyes F9 and J6 are lost) and an ordinary dame at G3 that
			// White fills, closing E3 F3. Read literally G3 puts both main groups in seki too.
			name: "real seki beside an open dame",
			rows: []string{
				". X . X O . O . X",
				". . . X O O O X .",
				". X X X X X X O O",
				"X O O O O O X O .",
				"X O . O . O X O O",
				"X O O O O O X X X",
				"X X X O . . . O O",
				". X X X O O O O .",
				". X . X O . O . O",
			},
			komi: 0.5, want: "B+1.5", seki: 12, literal: "W+0.5", terrB: 9, terrW: 7, litTerrB: 0,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, literal := range []bool{false, true} {
				r, _ := Preset("japanese")
				r.LiteralDame = literal
				g := diagramRules(t, r, Black, tt.rows...)
				g.SetKomi(tt.komi)
				s, err := g.Score(nil)
				if err != nil {
					t.Fatal(err)
				}
				if literal {
					if s.Result != tt.literal || s.Black.Territory != tt.litTerrB {
						t.Errorf("literal: %s, black territory %d; want %s, %d", s.Result, s.Black.Territory, tt.literal, tt.litTerrB)
					}
					continue
				}
				if s.Result != tt.want || len(s.Seki) != tt.seki || s.Black.Territory != tt.terrB || s.White.Territory != tt.terrW {
					t.Errorf("%s, %d stones in seki, territory B %d W %d; want %s, %d, %d %d",
						s.Result, len(s.Seki), s.Black.Territory, s.White.Territory, tt.want, tt.seki, tt.terrB, tt.terrW)
				}
				if tt.sekiDame != "" {
					fillable, seki, err := g.OpenDame(nil)
					var names []string
					for _, p := range seki {
						names = append(names, p.GTP(g.Size()))
					}
					if got := fmt.Sprint(names); err != nil || len(fillable) != 0 || got != tt.sekiDame {
						t.Errorf("open dame %v, seki dame %s, %v; want none, %s", fillable, got, err, tt.sekiDame)
					}
				}
				for _, p := range s.Seki {
					if g.At(p) == Empty {
						t.Errorf("seki lists %v, an empty point", p)
					}
				}
				if s.Black.Stones+s.White.Stones != countStones(g) {
					t.Errorf("stones %d+%d: dame regarded as filled were counted as stones", s.Black.Stones, s.White.Stones)
				}
			}
		})
	}
}

func countStones(g *Game) int {
	n := 0
	for _, c := range g.Board() {
		if c != Empty {
			n++
		}
	}
	return n
}

// TestJapaneseArt8DameFilling fills the dame after the stop (art. 8: the players fill the dame
// before counting): only an open dame takes a stone, the stone is no move, the count and the open
// dame list use it, and resuming play takes the dame stones off again.
func TestJapaneseArt8DameFilling(t *testing.T) {
	r, _ := Preset("japanese")
	r.LiteralDame = true // read literally, so that the count shows whether the dame was filled
	g := diagramRules(t, r, Black,
		". . . . . X X O .",
		". . . . . X X O .",
		". . . . . X X O .",
		". . . . . X X O .",
		". . . . . X . O .",
		". . . . . X O O .",
		". . . . . X O O .",
		". . . . . X O O .",
		". . . . . X O O .",
	)
	g.SetKomi(6.5)
	dame := pt(t, g, "G5")
	if err := g.FillDame(Move{Color: Black, Point: dame}, nil); !errors.Is(err, ErrNotStopped) {
		t.Fatalf("fill before the stop: %v, want ErrNotStopped", err)
	}
	mustPlay(t, g, "B pass", "W pass")
	fillable, seki, err := g.OpenDame(nil)
	if err != nil || len(fillable) != 1 || fillable[0] != dame || len(seki) != 0 {
		t.Fatalf("open dame %v, seki %v, %v; want [G5], none", fillable, seki, err)
	}
	for _, tc := range []struct {
		m    string
		want error
	}{
		{"A1", ErrNotDame}, // Black's territory
		{"J1", ErrNotDame}, // White's territory
		{"F5", ErrIllegalMove},
	} {
		m := Move{Color: Black, Point: pt(t, g, tc.m)}
		if err := g.FillDame(m, nil); !errors.Is(err, tc.want) {
			t.Errorf("fill %s: %v, want %v", tc.m, err, tc.want)
		}
	}
	moves := g.MoveNumber()
	if err := g.FillDame(Move{Color: White, Point: dame}, nil); err != nil {
		t.Fatal(err)
	}
	if g.MoveNumber() != moves || g.ToMove() != Black || g.At(dame) != White {
		t.Errorf("after the fill: %d moves, %v to move, %v at G5; want %d, black, white", g.MoveNumber(), g.ToMove(), g.At(dame), moves)
	}
	if fillable, _, _ := g.OpenDame(nil); len(fillable) != 0 {
		t.Errorf("open dame after the fill: %v", fillable)
	}
	s, err := g.Score(nil)
	if err != nil || s.Result != "B+29.5" {
		t.Errorf("count with the dame filled (read literally): %s, %v; want B+29.5", s.Result, err)
	}
	if got := g.DameFilled(); len(got) != 1 || got[0].Point != dame {
		t.Errorf("dame filled %v", got)
	}
	if err := g.TakeBackFill(pt(t, g, "A1")); !errors.Is(err, ErrNotFilled) {
		t.Errorf("take back A1: %v, want ErrNotFilled", err)
	}
	if err := g.TakeBackFill(dame); err != nil || g.At(dame) != Empty {
		t.Fatalf("take back G5: %v, %v there", err, g.At(dame))
	}
	if s, _ := g.Score(nil); s.Result != "W+6.5" {
		t.Errorf("count with G5 open again, read literally: %s, want W+6.5", s.Result)
	}
	if err := g.FillDame(Move{Color: Black, Point: dame}, nil); err != nil {
		t.Fatal(err)
	}
	if err := g.Resume(White); err != nil {
		t.Fatal(err)
	}
	if g.At(dame) != Empty || len(g.DameFilled()) != 0 {
		t.Errorf("resuming play left the dame stone on G5")
	}
	if err := verify(g); err != nil {
		t.Error(err)
	}
}

// TestJapaneseArt8FillOnlyOpenDame: after the stop only the open dame OpenDame names can be
// filled (art. 8). White's territory behind a gap in White's wall touches Black through the gap,
// but it is territory once the gap is filled: a stone there is refused, the gap is filled first,
// and a seki's shared liberty is never filled.
func TestJapaneseArt8FillOnlyOpenDame(t *testing.T) {
	r, _ := Preset("japanese")
	gap := []string{
		". . X . . . . . .",
		". . X O . . . . .",
		". . X O . . . . .",
		". . X O . . . . .",
		". . X O . . . . .",
		". . X O . . . . .",
		". . X O . . . . .",
		". . X O . . . . .",
		". . X O . . . . .",
	}
	seki := []string{ // Black's and White's inner groups share C1 and E1, and neither can fill one
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		"X X X X X X . . .",
		"O O O O O X . . .",
		"X X X X O X . . .",
		"O O O X O X . . .",
		". X O X O X . . .",
		"O . O . O X . . .",
	}
	for _, tc := range []struct {
		name    string
		diagram []string
		fill    string
		color   Color
		want    error // nil: filled
	}{
		{"the gap", gap, "D9", White, nil},
		{"the gap, by the other colour", gap, "D9", Black, nil},
		{"territory behind the gap", gap, "F5", Black, ErrNotDame},
		{"the far corner behind the gap", gap, "J1", White, ErrNotDame},
		{"the filler's own territory", gap, "A5", Black, ErrNotDame},
		{"a seki's shared liberty", seki, "D1", Black, ErrNotDame},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := diagramRules(t, r, Black, tc.diagram...)
			mustPlay(t, g, "B pass", "W pass")
			open, _, err := g.OpenDame(nil)
			if err != nil {
				t.Fatal(err)
			}
			p := pt(t, g, tc.fill)
			err = g.FillDame(Move{Color: tc.color, Point: p}, nil)
			if !errors.Is(err, tc.want) || (err == nil) != slices.Contains(open, p) {
				t.Fatalf("fill %s: %v, want %v (open dame %v)", tc.fill, err, tc.want, open)
			}
			if err := verify(g); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestJapaneseArt8DameNextToADeadStone: a dame next to a stone marked dead is filled like any other
// (art. 8: the dead stone is off the board for the count, and the fill's safety is judged without
// it), but not by the dead stone's own colour, whose stone would join it; the dead stone's own
// point is regarded as filled and not named, since the stone stands there until the count.
func TestJapaneseArt8DameNextToADeadStone(t *testing.T) {
	r, _ := Preset("japanese")
	// Columns D and E are open between Black's wall C and White's wall F; White's stone D5 is
	// marked dead.
	rows := []string{
		". . X . . O . . .",
		". . X . . O . . .",
		". . X . . O . . .",
		". . X . . O . . .",
		". . X O . O . . .",
		". . X . . O . . .",
		". . X . . O . . .",
		". . X . . O . . .",
		". . X . . O . . .",
	}
	for _, tc := range []struct {
		fill  string
		color Color
		want  error
		same  bool // the count is the same: the fill closes Black's wall as the count regarded
	}{
		{"D4", Black, nil, true},        // next to White's dead D5
		{"D6", Black, nil, true},        // the same, above it
		{"E5", Black, nil, false},       // the same, on its right (the gap is then shared otherwise)
		{"D4", White, ErrNotDame, true}, // White's stone would join the dead D5
		{"E5", White, ErrNotDame, true}, // the same
		{"D5", Black, ErrIllegalMove, true},
	} {
		t.Run(fmt.Sprintf("%v %s", tc.color, tc.fill), func(t *testing.T) {
			g := diagramRules(t, r, Black, rows...)
			mustPlay(t, g, "B pass", "W pass")
			dead := []Point{pt(t, g, "D5")}
			open, _, err := g.OpenDame(dead)
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(open, pt(t, g, "D5")) || !slices.Contains(open, pt(t, g, "D4")) || !slices.Contains(open, pt(t, g, "D6")) || !slices.Contains(open, pt(t, g, "E5")) {
				t.Fatalf("open dame %v: want D4, D6 and E5, not the dead stone's D5", open)
			}
			before, err := g.Score(dead)
			if err != nil {
				t.Fatal(err)
			}
			err = g.FillDame(Move{Color: tc.color, Point: pt(t, g, tc.fill)}, dead)
			if !errors.Is(err, tc.want) {
				t.Fatalf("fill %s: %v, want %v", tc.fill, err, tc.want)
			}
			if err := verify(g); err != nil {
				t.Error(err)
			}
			// A dame filled as the count regarded it changes no territory count.
			if after, err := g.Score(dead); err != nil || (tc.same && after.Result != before.Result) {
				t.Errorf("count %s after the fill, %s before (%v)", after.Result, before.Result, err)
			}
		})
	}
}
