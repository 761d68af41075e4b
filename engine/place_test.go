package engine

import (
	"slices"
	"strings"
	"testing"
)

// position parses rows of ".XO" (row 0 on top).
func position(rows ...string) []Color {
	var out []Color
	for _, r := range rows {
		for _, ch := range r {
			switch ch {
			case 'X':
				out = append(out, Black)
			case 'O':
				out = append(out, White)
			default:
				out = append(out, Empty)
			}
		}
	}
	return out
}

func gtpList(size int, ps []Point) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.GTP(size))
	}
	slices.Sort(s)
	return strings.Join(s, " ")
}

func TestPlace(t *testing.T) {
	tests := []struct {
		name     string
		pos      []Color
		at       string
		c        Color
		captured string
		suicide  string
		libs     int
	}{
		{"a lone stone", position(".....", ".....", ".....", ".....", "....."), "C3", Black, "", "", 4},
		{"a corner capture", position("OX...", ".....", ".....", ".....", "....."), "A4", Black, "A5", "", 3},
		{"suicide", position(".X...", "X....", ".....", ".....", "....."), "A5", White, "", "A5", 0},
		{"capturing is not suicide", position(".XO..", "XO...", "O....", ".....", "....."), "A5", White, "A4 B5", "", 2},
		{"a two-stone chain's liberties", position(".....", ".X...", ".....", ".....", "....."), "B3", Black, "", "", 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePoint(tt.at, 5)
			if err != nil {
				t.Fatal(err)
			}
			before := slices.Clone(tt.pos)
			pl, err := Place(tt.pos, 5, p, tt.c)
			if err != nil {
				t.Fatal(err)
			}
			if got := gtpList(5, pl.Captured); got != tt.captured {
				t.Errorf("captured %q, want %q", got, tt.captured)
			}
			if got := gtpList(5, pl.Suicide); got != tt.suicide {
				t.Errorf("suicide %q, want %q", got, tt.suicide)
			}
			if pl.Liberties != tt.libs {
				t.Errorf("liberties %d, want %d", pl.Liberties, tt.libs)
			}
			if !slices.Equal(before, tt.pos) {
				t.Error("Place changed the position it was given")
			}
		})
	}
}

func TestPlaceRefuses(t *testing.T) {
	pos := position("X....", ".....", ".....", ".....", ".....")
	for _, tc := range []struct {
		name string
		pos  []Color
		size int
		p    Point
		c    Color
	}{
		{"occupied", pos, 5, Point{0, 0}, White},
		{"off the board", pos, 5, Point{5, 0}, White},
		{"wrong length", pos[:20], 5, Point{1, 1}, White},
		{"no colour", pos, 5, Point{1, 1}, Empty},
	} {
		if _, err := Place(tc.pos, tc.size, tc.p, tc.c); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func TestLiberties(t *testing.T) {
	pos := position("XO...", "X....", ".....", ".....", ".....")
	for _, tc := range []struct {
		at   string
		want int
	}{{"A5", 2}, {"A4", 2}, {"B5", 2}, {"C3", 0}} {
		p, _ := ParsePoint(tc.at, 5)
		if got := Liberties(pos, 5, p); got != tc.want {
			t.Errorf("Liberties at %s = %d, want %d", tc.at, got, tc.want)
		}
	}
}
