package referee

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"tengen/engine"
	"tengen/referee/infer"
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

// fixes says, point by point, how to make the board match the game: one phrase a point, each
// ending with ";" but the last, which ends with ".".
func fixes(size int, ms []mismatch) []Phrase {
	out := make([]Phrase, 0, len(ms))
	for i, m := range ms {
		v := m.P.GTP(size)
		last := i == len(ms)-1
		var p Phrase
		switch {
		case m.Obscured && last:
			p = phrase("{{.Point}} cannot be seen.", "Point", v)
		case m.Obscured:
			p = phrase("{{.Point}} cannot be seen;", "Point", v)
		case m.Want == engine.Empty && last:
			p = phrase("take the {{.Stone}} stone off {{.Point}}.", "Stone", stoneWord(m.Seen), "Point", v)
		case m.Want == engine.Empty:
			p = phrase("take the {{.Stone}} stone off {{.Point}};", "Stone", stoneWord(m.Seen), "Point", v)
		case m.Seen == engine.Empty && last:
			p = phrase("put the {{.Stone}} stone back on {{.Point}}.", "Stone", stoneWord(m.Want), "Point", v)
		case m.Seen == engine.Empty:
			p = phrase("put the {{.Stone}} stone back on {{.Point}};", "Stone", stoneWord(m.Want), "Point", v)
		case last:
			p = phrase("{{.Point}} should hold a {{.Want}} stone, not a {{.Seen}} one.", "Point", v, "Want", stoneWord(m.Want), "Seen", stoneWord(m.Seen))
		default:
			p = phrase("{{.Point}} should hold a {{.Want}} stone, not a {{.Seen}} one;", "Point", v, "Want", stoneWord(m.Want), "Seen", stoneWord(m.Seen))
		}
		out = append(out, p)
	}
	return out
}

// maxListed is how many points a banner names before it summarises the rest.
const maxListed = 8

// differsSays is the banner for a board that does not match the game: where, why (phrases ending
// with "."), and the fix. Long lists are cut (the verdict's Points keep every point for the screen).
func differsSays(size int, why []Phrase, ms []mismatch) []Phrase {
	shown := ms
	if len(ms) > maxListed {
		shown = ms[:maxListed]
	}
	pts := vertices(size, pointsOf(shown))
	more := fmt.Sprint(len(ms) - len(shown))
	var says []Phrase
	switch {
	case len(ms) > len(shown) && len(why) > 0:
		says = append(says, phrase("Board differs from the game at {{.Points}} and {{.More}} more:", "Points", pts, "More", more))
	case len(ms) > len(shown):
		says = append(says, phrase("Board differs from the game at {{.Points}} and {{.More}} more.", "Points", pts, "More", more))
	case len(why) > 0:
		says = append(says, phrase("Board differs from the game at {{.Points}}:", "Points", pts))
	default:
		says = append(says, phrase("Board differs from the game at {{.Points}}.", "Points", pts))
	}
	says = append(says, why...)
	says = append(says, phrase("To fix:"))
	says = append(says, fixes(size, shown)...)
	if len(ms) > len(shown) {
		says = append(says, phrase("The other {{.More}} points likewise.", "More", more))
	}
	return says
}

// wrongColour says why a stone of colour placed is wrong when it is c's move.
func wrongColour(placed, c engine.Color) []Phrase {
	return []Phrase{phrase("a {{.Stone}} stone was placed but it is {{.Color}}'s move.", "Stone", stoneWord(placed), "Color", title(c))}
}

// restDiffers says that c's new stone on point is seen but the rest of the board differs.
func restDiffers(c engine.Color, point string) []Phrase {
	return []Phrase{phrase("{{.Color}}'s new stone on {{.Point}} is seen, but the rest of the board does not match.", "Color", title(c), "Point", point)}
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

// fits reports whether reading o shows board want: every point seen and none read, by
// infer.MisfitLogOdds or more, as something else (with best guesses only: exactly want).
func fits(size int, want []engine.Color, o observe.Observation) bool {
	sc, err := infer.NewScorer(o, size)
	if err != nil {
		return false
	}
	return sc.Fits(want)
}

// changes lists the points where reading o contradicts board want, in row-major order: the
// points not seen, and those read, by infer.MisfitLogOdds or more, as something else (with best
// guesses only: exactly diff). An unsure reading is not a change.
func changes(size int, want []engine.Color, o observe.Observation) []mismatch {
	sc, err := infer.NewScorer(o, size)
	if err != nil {
		return diff(size, want, o)
	}
	return misfitsOf(size, sc.Unseen(), sc.Misfits(want), want)
}

// misfitsOf turns unseen points and misfits into mismatches, in row-major order.
func misfitsOf(size int, unseen []engine.Point, mis []infer.Misfit, want []engine.Color) []mismatch {
	out := make([]mismatch, 0, len(unseen)+len(mis))
	for _, p := range unseen {
		out = append(out, mismatch{P: p, Want: want[p.Y*size+p.X], Obscured: true})
	}
	for _, m := range mis {
		out = append(out, mismatch{P: m.Point, Want: m.Want, Seen: m.Seen})
	}
	slices.SortStableFunc(out, func(a, b mismatch) int {
		if a.P.Y != b.P.Y {
			return a.P.Y - b.P.Y
		}
		return a.P.X - b.P.X
	})
	return slices.CompactFunc(out, func(a, b mismatch) bool { return a.P == b.P })
}

// probAlphabet codes one probability of the journal's reading: the character at index q stands
// for exp(-q/4), q = 0..63 (quarter nats, down to 1.4e-7).
const probAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

// probsText encodes the reading's per-point probabilities for the journal (so that a replay
// decides on exactly what the live table decided on): four characters per point, row-major, one
// per reading (Empty, Black, White, Obscured; see probAlphabet). It is "" when the reading says
// nothing beyond its best guesses (no probabilities, no confidence below the fallback's), which a
// replay rebuilds from the board text alone.
func probsText(o observe.Observation) string {
	if o.Probs == nil {
		plain := true
		for _, c := range o.Confidence {
			if c < 0.995 {
				plain = false
				break
			}
		}
		if plain {
			return ""
		}
	}
	b := make([]byte, 0, 4*len(o.Stones))
	for i := range o.Stones {
		p := o.PointProbs(i)
		for _, v := range p {
			q := 63
			if v > 0 {
				q = int(math.Round(-4 * math.Log(float64(v))))
			}
			b = append(b, probAlphabet[min(max(q, 0), 63)])
		}
	}
	return string(b)
}

// parseProbsText sets o.Probs from probsText's encoding ("" leaves o as it is).
func parseProbsText(o *observe.Observation, text string) error {
	if text == "" {
		return nil
	}
	if len(text) != 4*len(o.Stones) {
		return fmt.Errorf("referee: journaled probabilities: %d characters for %d points", len(text), len(o.Stones))
	}
	o.Probs = make([]observe.Probs, len(o.Stones))
	for i := range o.Probs {
		for k := range 4 {
			q := strings.IndexByte(probAlphabet, text[4*i+k])
			if q < 0 {
				return fmt.Errorf("referee: journaled probabilities: bad character %q", text[4*i+k])
			}
			o.Probs[i][k] = float32(math.Exp(-float64(q) / 4))
		}
	}
	return nil
}

// journalForm returns o as the journal keeps it: the best guesses and the probabilities as
// probsText rounds them. The live table decides on this form, as a replay does.
func journalForm(o observe.Observation) observe.Observation {
	j, err := parseBoardText(o.Size, boardText(o))
	if err != nil {
		return o
	}
	if err := parseProbsText(&j, probsText(o)); err != nil {
		return o
	}
	j.Time, j.Seq = o.Time, o.Seq
	return j
}
