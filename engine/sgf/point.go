package sgf

import (
	"fmt"
	"strings"

	"tengen/engine"
)

// MaxSize is the largest board SGF can describe (coordinates a..z, A..Z).
const MaxSize = 52

func coordIndex(c byte) int {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a')
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 26
	}
	return -1
}

func coordLetter(i int) byte {
	if i < 26 {
		return byte('a' + i)
	}
	return byte('A' + i - 26)
}

// ParseMove reads the value of a B or W property on a size x size board: "" is a pass, and so is
// "tt" on boards up to 19x19 (the FF[3] convention); anything else must be a point on the board.
func ParseMove(v string, size int) (p engine.Point, pass bool, err error) {
	v = strings.TrimSpace(v)
	if v == "" || v == "tt" && size <= 19 {
		return engine.Point{}, true, nil
	}
	p, err = ParsePoint(v, size)
	return p, false, err
}

// ParsePoint reads a two-letter SGF point ("dd") on a size x size board: the first letter is the
// column from the left, the second the row from the top, 'a' = 0.
func ParsePoint(v string, size int) (engine.Point, error) {
	if len(v) != 2 {
		return engine.Point{}, fmt.Errorf("%q is not a point: a point is two letters", v)
	}
	x, y := coordIndex(v[0]), coordIndex(v[1])
	if x < 0 || y < 0 {
		return engine.Point{}, fmt.Errorf("%q is not a point: coordinates are letters a-z, A-Z", v)
	}
	if x >= size || y >= size {
		return engine.Point{}, fmt.Errorf("point %q is off the %dx%d board", v, size, size)
	}
	return engine.Point{X: x, Y: y}, nil
}

// FormatPoint writes p as a two-letter SGF point.
func FormatPoint(p engine.Point) string {
	return string([]byte{coordLetter(p.X), coordLetter(p.Y)})
}

// ExpandPoints reads a point list (the values of AB, AW, AE and similar properties), expanding
// compressed rectangles "aa:cc" into every point they cover. Once a rectangle appears, points already
// listed are not repeated, so that the list never exceeds the board however the rectangles overlap.
func ExpandPoints(values []string, size int) ([]engine.Point, error) {
	var pts []engine.Point
	var seen []bool // allocated at the first rectangle
	add := func(p engine.Point) {
		if seen != nil {
			i := p.Y*size + p.X
			if seen[i] {
				return
			}
			seen[i] = true
		}
		pts = append(pts, p)
	}
	for _, v := range values {
		v = strings.TrimSpace(v)
		a, b, rect := strings.Cut(v, ":")
		p1, err := ParsePoint(a, size)
		if err != nil {
			return nil, err
		}
		if !rect {
			add(p1)
			continue
		}
		p2, err := ParsePoint(b, size)
		if err != nil {
			return nil, err
		}
		if seen == nil {
			seen = make([]bool, size*size)
			kept := pts[:0]
			for _, p := range pts {
				if i := p.Y*size + p.X; !seen[i] {
					seen[i] = true
					kept = append(kept, p)
				}
			}
			pts = kept
		}
		x0, x1 := min(p1.X, p2.X), max(p1.X, p2.X)
		y0, y1 := min(p1.Y, p2.Y), max(p1.Y, p2.Y)
		for y := y0; y <= y1; y++ {
			for x := x0; x <= x1; x++ {
				add(engine.Point{X: x, Y: y})
			}
		}
	}
	return pts, nil
}
