// Package observe holds what the camera saw on the board as plain Go data (no GoCV), and the
// stability filter that turns a stream of frame readings into board observations the referee can trust.
package observe

import (
	"errors"
	"fmt"
	"image"
	"strings"
	"time"
)

// Stone is the reading of one intersection.
type Stone uint8

// The four readings of an intersection. Obscured means something other than the board or a stone
// covers the point (a hand, an arm, a sleeve, a deep shadow): its true state is unknown.
const (
	Empty Stone = iota
	Black
	White
	Obscured
)

// String returns "empty", "black", "white" or "obscured".
func (s Stone) String() string {
	switch s {
	case Empty:
		return "empty"
	case Black:
		return "black"
	case White:
		return "white"
	case Obscured:
		return "obscured"
	}
	return fmt.Sprintf("Stone(%d)", uint8(s))
}

// Rune returns the one-character form used by `kiosk detect`: '.', 'X', 'O' or '?'.
func (s Stone) Rune() rune {
	switch s {
	case Empty:
		return '.'
	case Black:
		return 'X'
	case White:
		return 'O'
	}
	return '?'
}

// StoneFromRune parses the characters written by Rune, plus 'B'/'W' and lower case.
func StoneFromRune(r rune) (Stone, error) {
	switch r {
	case '.', '+':
		return Empty, nil
	case 'X', 'x', 'B', 'b':
		return Black, nil
	case 'O', 'o', 'W', 'w':
		return White, nil
	case '?':
		return Obscured, nil
	}
	return 0, fmt.Errorf("observe: %q is not a stone character", r)
}

// Observation is the reading of a whole board from one camera frame, in board coordinates:
// row 0 is the top row as seen from Black's side (GTP row Size), column 0 is the left (GTP column A).
type Observation struct {
	Size       int
	Stones     []Stone   // Size*Size, row-major (index y*Size+x)
	Confidence []float32 // per point, 0..1; may be nil when unknown
	// Probs is, per point, the reader's probability of each reading (indexed by Stone: Empty,
	// Black, White, Obscured; each row sums to 1). It may be nil when the reader gives only its
	// best guess; PointProbs then derives probabilities from Stones and Confidence.
	Probs []Probs
	Time  time.Time // when the frame was captured
	Seq   uint64    // frame number from the source
}

// New returns an all-empty observation of a size x size board with full confidence.
func New(size int) Observation {
	o := Observation{Size: size, Stones: make([]Stone, size*size), Confidence: make([]float32, size*size)}
	for i := range o.Confidence {
		o.Confidence[i] = 1
	}
	return o
}

// At returns the reading at column x, row y; Obscured outside the board.
func (o Observation) At(x, y int) Stone {
	if x < 0 || y < 0 || x >= o.Size || y >= o.Size || y*o.Size+x >= len(o.Stones) {
		return Obscured
	}
	return o.Stones[y*o.Size+x]
}

// AtPoint is At for an image.Point (X column, Y row).
func (o Observation) AtPoint(p image.Point) Stone { return o.At(p.X, p.Y) }

// Valid reports whether the observation is well formed (size and slice lengths agree).
func (o Observation) Valid() error {
	if o.Size < 2 || o.Size > 25 {
		return fmt.Errorf("observe: board size %d out of range 2..25", o.Size)
	}
	if len(o.Stones) != o.Size*o.Size {
		return fmt.Errorf("observe: %d stones for a %dx%d board", len(o.Stones), o.Size, o.Size)
	}
	if o.Confidence != nil && len(o.Confidence) != len(o.Stones) {
		return fmt.Errorf("observe: %d confidences for %d points", len(o.Confidence), len(o.Stones))
	}
	if o.Probs != nil && len(o.Probs) != len(o.Stones) {
		return fmt.Errorf("observe: %d probability rows for %d points", len(o.Probs), len(o.Stones))
	}
	for i, s := range o.Stones {
		if s > Obscured {
			return fmt.Errorf("observe: point %d holds invalid stone %d", i, s)
		}
	}
	return nil
}

// AnyObscured reports whether at least one point is Obscured.
func (o Observation) AnyObscured() bool {
	for _, s := range o.Stones {
		if s == Obscured {
			return true
		}
	}
	return false
}

// Count returns how many points hold s.
func (o Observation) Count(s Stone) int {
	n := 0
	for _, v := range o.Stones {
		if v == s {
			n++
		}
	}
	return n
}

// SameStones reports whether o and p have the same size and the same reading at every point.
func (o Observation) SameStones(p Observation) bool {
	if o.Size != p.Size || len(o.Stones) != len(p.Stones) {
		return false
	}
	for i := range o.Stones {
		if o.Stones[i] != p.Stones[i] {
			return false
		}
	}
	return true
}

// Clone returns a deep copy, so the caller may keep it while the producer reuses its buffers.
func (o Observation) Clone() Observation {
	c := o
	c.Stones = append([]Stone(nil), o.Stones...)
	if o.Confidence != nil {
		c.Confidence = append([]float32(nil), o.Confidence...)
	}
	if o.Probs != nil {
		c.Probs = append([]Probs(nil), o.Probs...)
	}
	return c
}

// TakeReadings copies p's per-point confidences and probabilities into o, reusing o's buffers,
// and leaves o's stones, time and sequence number alone: o is a board still showing the same
// stones, and p its newest frame, whose readings are the freshest evidence. A nil slice of p
// leaves o's as it is.
func (o *Observation) TakeReadings(p Observation) {
	if p.Confidence != nil {
		o.Confidence = append(o.Confidence[:0], p.Confidence...)
	}
	if p.Probs != nil {
		o.Probs = append(o.Probs[:0], p.Probs...)
	}
}

// Probs is one point's probability of each reading, indexed by Stone.
type Probs [4]float32

// Likeliest returns the reading with the highest probability (the first of equals).
func (p Probs) Likeliest() Stone {
	best := Empty
	for k := range p {
		if p[k] > p[best] {
			best = Stone(k)
		}
	}
	return best
}

// PointProbs returns the probabilities of point i (row-major): the reader's own when it gave
// them, otherwise its best guess with its confidence and the rest shared by the other readings.
func (o Observation) PointProbs(i int) Probs {
	if i < 0 || i >= len(o.Stones) {
		return Probs{0, 0, 0, 1}
	}
	if o.Probs != nil && i < len(o.Probs) {
		return o.Probs[i]
	}
	s := o.Stones[i]
	if s > Obscured {
		s = Obscured
	}
	c := float32(1)
	if o.Confidence != nil && i < len(o.Confidence) {
		c = min(max(o.Confidence[i], 0.25), 1)
	}
	// A reader sure of itself is still wrong now and then: keep a floor for the others.
	c = min(c, 0.995)
	var p Probs
	for k := range p {
		p[k] = (1 - c) / 3
	}
	p[s] = c
	return p
}

// MinConfidence returns the lowest per-point confidence (1 when Confidence is nil or empty).
func (o Observation) MinConfidence() float32 {
	m := float32(1)
	for _, c := range o.Confidence {
		if c < m {
			m = c
		}
	}
	return m
}

// String renders the board as Size lines of Size characters ('.', 'X', 'O', '?'), each ending in a newline.
func (o Observation) String() string {
	var b strings.Builder
	for y := 0; y < o.Size; y++ {
		for x := 0; x < o.Size; x++ {
			b.WriteRune(o.At(x, y).Rune())
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ErrBadText is returned by ParseText for text that is not a square board.
var ErrBadText = errors.New("observe: not a board")

// ParseText reads the form written by String: Size lines of Size characters. Blank lines are
// skipped; tokens may also be space separated ('. B W' as in the vision-eval label files).
func ParseText(text string) (Observation, error) {
	var rows [][]Stone
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var row []Stone
		for _, r := range strings.ReplaceAll(line, " ", "") {
			s, err := StoneFromRune(r)
			if err != nil {
				return Observation{}, fmt.Errorf("%w: line %d: %w", ErrBadText, n+1, err)
			}
			row = append(row, s)
		}
		rows = append(rows, row)
	}
	size := len(rows)
	if size < 2 || size > 25 {
		return Observation{}, fmt.Errorf("%w: %d rows", ErrBadText, size)
	}
	o := New(size)
	for y, row := range rows {
		if len(row) != size {
			return Observation{}, fmt.Errorf("%w: row %d has %d points, want %d", ErrBadText, y+1, len(row), size)
		}
		copy(o.Stones[y*size:], row)
	}
	return o, nil
}
