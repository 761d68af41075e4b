package referee

import (
	"slices"
	"strings"
	"testing"

	"tengen/engine"
)

// FuzzParseVertices: GNU Go's dead-stone reply (final_status_list) is read as points on the board,
// each written back in GTP form to a vertex of the reply; anything else is an error.
func FuzzParseVertices(f *testing.F) {
	for _, s := range []string{"", "A1 B2\nC3", "pass", "J9 T19", "I5", "Z1", "A0 A26", "a1\tb2  c3", "A1 ?"} {
		f.Add(s, 19)
		f.Add(s, 9)
	}
	f.Fuzz(func(t *testing.T, text string, size int) {
		ps, err := ParseVertices(text, size)
		if err != nil {
			return
		}
		fields := strings.Fields(strings.ToUpper(text))
		for _, p := range ps {
			if !p.In(size) {
				t.Fatalf("ParseVertices(%q, %d): %v off the board", text, size, p)
			}
			found := false
			for _, f := range fields {
				found = found || f == p.GTP(size)
			}
			if !found {
				t.Fatalf("ParseVertices(%q, %d): %v (%s) is not in the reply", text, size, p, p.GTP(size))
			}
		}
	})
}

// FuzzParseBoardText: a journaled board is read back only when it has size*size points, and
// written again as text that reads back to the same board.
func FuzzParseBoardText(f *testing.F) {
	f.Add(9, strings.Repeat(".", 81))
	f.Add(9, strings.Repeat("XO.", 27))
	f.Add(2, "X?O.")
	f.Add(19, "X")
	f.Add(25, strings.Repeat("\u00e9", 625))
	f.Fuzz(func(t *testing.T, size int, text string) {
		o, err := parseBoardText(size, text)
		if err != nil {
			return
		}
		if len(o.Stones) != size*size {
			t.Fatalf("%d points read for size %d", len(o.Stones), size)
		}
		again, err := parseBoardText(size, boardText(o))
		if err != nil || !slices.Equal(again.Stones, o.Stones) {
			t.Fatalf("board %q written back as %q reads %v, %v", text, boardText(o), again.Stones, err)
		}
	})
}

// FuzzParseDirectorMove: the director's move entry is "pass" or a point on the board.
func FuzzParseDirectorMove(f *testing.F) {
	for _, s := range []string{"pass", " PASS ", "D4", "d4", "T19", "I3", "A0", "", "Q16 "} {
		f.Add(s, 19)
		f.Add(s, 9)
	}
	f.Fuzz(func(t *testing.T, s string, size int) {
		m, err := parseMove(s, size)
		if err != nil {
			return
		}
		if m.Pass {
			if !strings.EqualFold(strings.TrimSpace(s), "pass") {
				t.Fatalf("parseMove(%q) is a pass", s)
			}
			return
		}
		if !m.Point.In(size) {
			t.Fatalf("parseMove(%q, %d) = %v: off the board", s, size, m.Point)
		}
		if again, err := engine.ParsePoint(m.Point.GTP(size), size); err != nil || again != m.Point {
			t.Fatalf("%v written as %s reads back as %v, %v", m.Point, m.Point.GTP(size), again, err)
		}
	})
}
