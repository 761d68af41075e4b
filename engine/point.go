// Package engine is Tengen's rules engine: positions, legality (ko, superko, suicide), handicap,
// the end of the game and counting, under a ruleset made of independent parameters (see Rules).
//
// The board is a flat array with a border, chains carry pseudo-liberty counts maintained incrementally,
// and every position is hashed with Zobrist keys; superko is a lookup in an open-addressing table
// from position hash to the move number that produced it, so no move rescans the history.
// The package is pure Go and imports nothing else of Tengen.
package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Color is the colour of a point or of a player.
type Color int8

// The point colours. Empty is also "no player" (for example the owner of a neutral point).
const (
	Empty Color = iota
	Black
	White
)

// border marks the cells around the board in the internal flat array.
const border Color = 3

// Opponent returns the other player's colour (Empty stays Empty).
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return c
}

// String returns "black", "white" or "empty".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	case Empty:
		return "empty"
	}
	return "Color(" + strconv.Itoa(int(c)) + ")"
}

// title returns "Black" or "White" for sentences.
func (c Color) title() string {
	switch c {
	case Black:
		return "Black"
	case White:
		return "White"
	}
	return c.String()
}

// MinSize and MaxSize bound the board sizes the engine supports.
const (
	MinSize = 2
	MaxSize = 25
)

// gtpLetters are the GTP column letters, without I.
const gtpLetters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// Point is an intersection: X is the column from the left (0 = GTP column A), Y the row from the top
// (0 = SGF 'a' = GTP row Size), both as seen from Black's side of the board.
type Point struct{ X, Y int }

// GTP returns the point in GTP notation ("D4") on a board of the given size, or "??" when it is off that board.
func (p Point) GTP(size int) string {
	if size < MinSize || size > MaxSize || !p.In(size) {
		return "??"
	}
	return string(gtpLetters[p.X]) + strconv.Itoa(size-p.Y)
}

// In reports whether p lies on a board of the given size.
func (p Point) In(size int) bool { return p.X >= 0 && p.Y >= 0 && p.X < size && p.Y < size }

// ErrBadPoint is wrapped by every ParsePoint error.
var ErrBadPoint = errors.New("not a board point")

// ParsePoint reads a GTP vertex such as "D4" or "q16" (case-insensitive, no column I) on a board of the
// given size. "pass" is not a point: the caller handles it.
func ParsePoint(s string, size int) (Point, error) {
	if size < MinSize || size > MaxSize {
		return Point{}, fmt.Errorf("%w: board size %d out of range", ErrBadPoint, size)
	}
	if len(s) < 2 || len(s) > 3 {
		return Point{}, fmt.Errorf("%w: %q", ErrBadPoint, s)
	}
	col := strings.IndexByte(gtpLetters, upper(s[0]))
	if col < 0 || col >= size {
		return Point{}, fmt.Errorf("%w: %q: column out of range", ErrBadPoint, s)
	}
	row := 0
	for i := 1; i < len(s); i++ {
		d := s[i]
		if d < '0' || d > '9' || (i == 1 && d == '0') {
			return Point{}, fmt.Errorf("%w: %q: bad row", ErrBadPoint, s)
		}
		row = row*10 + int(d-'0')
	}
	if row < 1 || row > size {
		return Point{}, fmt.Errorf("%w: %q: row out of range", ErrBadPoint, s)
	}
	return Point{X: col, Y: size - row}, nil
}

func upper(b byte) byte {
	if b >= 'a' && b <= 'z' {
		return b - 'a' + 'A'
	}
	return b
}

// Move is a stone of Color at Point, or a pass by Color when Pass is set.
type Move struct {
	Color Color
	Point Point
	Pass  bool
}

// String renders the move as GTP would ("B D4", "W pass") on a 19x19 board; see GTP for other sizes.
func (m Move) String() string { return m.GTP(19) }

// GTP renders the move as "B D4" or "W pass" for a board of the given size.
func (m Move) GTP(size int) string {
	c := "B"
	if m.Color == White {
		c = "W"
	}
	if m.Pass {
		return c + " pass"
	}
	return c + " " + m.Point.GTP(size)
}
