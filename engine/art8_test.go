package engine

import "testing"

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
