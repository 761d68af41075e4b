package referee

import (
	"fmt"
	"slices"
	"strings"

	"tengen/engine"
	"tengen/vision/observe"
)

// stoneColor converts an observed stone to an engine colour (Obscured counts as Empty; stable
// observations never hold it).
func stoneColor(s observe.Stone) engine.Color {
	switch s {
	case observe.Black:
		return engine.Black
	case observe.White:
		return engine.White
	}
	return engine.Empty
}

// mismatch is one point where the board seen differs from the board expected.
type mismatch struct {
	P        engine.Point
	Want     engine.Color
	Seen     engine.Color
	Obscured bool
}

// diff lists the points where seen differs from want, in row-major order (top row first).
func diff(size int, want []engine.Color, seen observe.Observation) []mismatch {
	var out []mismatch
	for i, w := range want {
		s := observe.Obscured
		if i < len(seen.Stones) {
			s = seen.Stones[i]
		}
		c := stoneColor(s)
		if c != w || s == observe.Obscured {
			out = append(out, mismatch{P: engine.Point{X: i % size, Y: i / size}, Want: w, Seen: c, Obscured: s == observe.Obscured})
		}
	}
	return out
}

// added returns the mismatches that are new stones on points that should be empty.
func added(ms []mismatch) []mismatch {
	var out []mismatch
	for _, m := range ms {
		if m.Want == engine.Empty && m.Seen != engine.Empty {
			out = append(out, m)
		}
	}
	return out
}

// vertices names points in GTP form ("D4, Q16"), in the order given.
func vertices(size int, ps []engine.Point) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.GTP(size)
	}
	return strings.Join(s, ", ")
}

func pointsOf(ms []mismatch) []engine.Point {
	ps := make([]engine.Point, len(ms))
	for i, m := range ms {
		ps[i] = m.P
	}
	return ps
}

// fixes says, point by point, how to make the board match the game.
func fixes(size int, ms []mismatch) string {
	parts := make([]string, 0, len(ms))
	for _, m := range ms {
		v := m.P.GTP(size)
		switch {
		case m.Obscured:
			parts = append(parts, fmt.Sprintf("%s cannot be seen", v))
		case m.Want == engine.Empty:
			parts = append(parts, fmt.Sprintf("take the %s stone off %s", m.Seen, v))
		case m.Seen == engine.Empty:
			parts = append(parts, fmt.Sprintf("put the %s stone back on %s", m.Want, v))
		default:
			parts = append(parts, fmt.Sprintf("%s should hold a %s stone, not a %s one", v, m.Want, m.Seen))
		}
	}
	return strings.Join(parts, "; ")
}

// maxListed is how many points a banner names before it summarises the rest.
const maxListed = 8

// differsMessage is the banner for a board that does not match the game. Long lists are cut
// (the verdict's Points keep every point for the screen).
func differsMessage(size int, why string, ms []mismatch) string {
	shown, more := ms, ""
	if len(ms) > maxListed {
		shown = ms[:maxListed]
		more = fmt.Sprintf(" and %d more", len(ms)-maxListed)
	}
	msg := "Board differs from the game at " + vertices(size, pointsOf(shown)) + more
	if why != "" {
		msg += ": " + why
	}
	return msg + ". To fix: " + fixes(size, shown) + more + "."
}

// sortedPoints returns ps sorted in row-major order, without duplicates.
func sortedPoints(ps []engine.Point) []engine.Point {
	out := slices.Clone(ps)
	slices.SortFunc(out, func(a, b engine.Point) int {
		if a.Y != b.Y {
			return a.Y - b.Y
		}
		return a.X - b.X
	})
	return slices.Compact(out)
}

// boardText renders a stable observation compactly for the journal: Size*Size characters
// '.', 'X', 'O', '?' in row-major order.
func boardText(o observe.Observation) string {
	var b strings.Builder
	b.Grow(len(o.Stones))
	for _, s := range o.Stones {
		b.WriteRune(s.Rune())
	}
	return b.String()
}

// parseBoardText reads boardText back.
func parseBoardText(size int, text string) (observe.Observation, error) {
	if size < 2 || size > 25 || len(text) != size*size {
		return observe.Observation{}, fmt.Errorf("referee: journaled board has %d points for size %d", len(text), size)
	}
	o := observe.New(size)
	for i, r := range text {
		s, err := observe.StoneFromRune(r)
		if err != nil {
			return observe.Observation{}, fmt.Errorf("referee: journaled board: %w", err)
		}
		o.Stones[i] = s
	}
	return o, nil
}

// sameBoard reports whether the observation shows exactly the board want.
func sameBoard(want []engine.Color, o observe.Observation) bool {
	if len(want) != len(o.Stones) {
		return false
	}
	for i, w := range want {
		if stoneColor(o.Stones[i]) != w || o.Stones[i] == observe.Obscured {
			return false
		}
	}
	return true
}
