// Package shapefont builds a small TrueType font whose glyphs are the board's shapes: a disc, the
// rim of a white stone, a square and a cross.
//
// The kiosk draws the board's stones, star points, territory and dead marks as text in this font.
// With a software GL driver such as Mesa's llvmpipe, every Fyne circle or rectangle is a draw with
// its own uniforms, and each costs tens of kilobytes of driver memory per frame (about 37 KB per
// circle). Text objects with the same string, size, colour and font share one texture and one
// draw state, so a full 19x19 board costs a handful of states instead of hundreds.
//
// Every glyph fills an em square centred on the text box: the font's ascent and descent are half
// an em each and every advance is one em. A text of size d in this font is therefore a d x d box
// with the shape centred in it.
package shapefont

import (
	"bytes"
	"encoding/binary"
	"math"

	"tengen/internal/sfnt"
)

// The runes that draw each shape (in the Private Use Area, so they never collide with text).
const (
	Disc   rune = 0xE000 // a filled circle touching the box's sides: a stone or a star point
	Rim    rune = 0xE001 // a ring inside the box's edge, RimWidth of the radius wide: a white stone's outline
	Square rune = 0xE002 // a filled square filling the box: territory
	Cross  rune = 0xE003 // a diagonal cross, CrossWidth of the box wide: a dead stone
)

// Shape proportions, as fractions of the box.
const (
	RimWidth   = 0.05 // of the radius
	CrossWidth = 0.14 // of the side: the thickness of each stroke
)

// unitsPerEm is the font's design grid; half an em is the radius of the disc.
const (
	unitsPerEm = 2048
	half       = unitsPerEm / 2
)

// point is one outline point in font units (y up).
type point struct {
	x, y    int16
	onCurve bool
}

// contour is one closed outline; clockwise contours fill, anticlockwise ones cut holes.
type contour []point

// glyph is one outline glyph; a nil glyph is empty (the space and .notdef).
type glyph []contour

// shapes are the glyphs in order; glyph 0 is .notdef and glyph 1 the space.
func shapes() (runes []rune, glyphs []glyph) {
	rim := half * (1 - RimWidth)
	return []rune{0, ' ', Disc, Rim, Square, Cross}, []glyph{
		nil,
		nil,
		{circle(half, true)},
		{circle(half, true), circle(rim, false)},
		{clockwise(contour{{0, half, true}, {unitsPerEm, half, true}, {unitsPerEm, -half, true}, {0, -half, true}})},
		cross(),
	}
}

// circle is a circle of radius r around the box's centre made of eight quadratic arcs (an error
// under 0.1% of the radius), clockwise when cw is set.
func circle(r float64, cw bool) contour {
	const n = 8
	c := make(contour, 0, 2*n)
	step := 2 * math.Pi / n
	sign := -1.0 // clockwise: decreasing angle
	if !cw {
		sign = 1
	}
	ctrl := r / math.Cos(step/2)
	for i := 0; i < n; i++ {
		a := math.Pi/2 + sign*float64(i)*step
		c = append(c, at(r, a, true), at(ctrl, a+sign*step/2, false))
	}
	return c
}

// at is the point at distance r and angle a from the box's centre.
func at(r, a float64, on bool) point {
	return point{x: round(half + r*math.Cos(a)), y: round(r * math.Sin(a)), onCurve: on}
}

// cross is two strokes along the box's diagonals, CrossWidth of the side thick, with square ends
// inside the box, as one twelve-sided outline (so that it fills the same under the even-odd and
// the non-zero rule).
func cross() glyph {
	h := CrossWidth * unitsPerEm / 2 // half the stroke's thickness
	a := half - h/math.Sqrt2         // where each stroke ends, so that its corners stay inside the box
	k := h / math.Sqrt2              // a corner's offset from the stroke's end, along each axis
	m := h * math.Sqrt2              // where two strokes' edges meet, on the axes
	pts := [][2]float64{
		{0, m}, {a - k, a + k}, {a + k, a - k},
		{m, 0}, {a + k, -a + k}, {a - k, -a - k},
		{0, -m}, {-a + k, -a - k}, {-a - k, -a + k},
		{-m, 0}, {-a - k, a - k}, {-a + k, a + k},
	}
	c := make(contour, len(pts))
	for i, p := range pts {
		c[i] = point{x: round(half + p[0]), y: round(p[1]), onCurve: true}
	}
	return glyph{clockwise(c)}
}

// clockwise returns c in clockwise order (negative signed area, y up).
func clockwise(c contour) contour {
	area := 0
	for i := range c {
		j := (i + 1) % len(c)
		area += int(c[i].x)*int(c[j].y) - int(c[j].x)*int(c[i].y)
	}
	if area > 0 {
		for i, j := 0, len(c)-1; i < j; i, j = i+1, j-1 {
			c[i], c[j] = c[j], c[i]
		}
	}
	return c
}

func round(v float64) int16 { return int16(math.Round(v)) }

// Build returns the font file (TrueType, with the tables a text shaper needs: cmap, glyf, head,
// hhea, hmtx, loca, maxp). The result is the same on every call.
func Build() []byte {
	runes, glyphs := shapes()
	var glyf, loca bytes.Buffer
	hmtx := new(bytes.Buffer)
	maxPoints, maxContours := 0, 0
	for _, g := range glyphs {
		be(&loca, uint32(glyf.Len()))
		xmin := encodeGlyph(&glyf, g)
		be(hmtx, uint16(unitsPerEm), xmin)
		n := 0
		for _, c := range g {
			n += len(c)
		}
		maxPoints, maxContours = max(maxPoints, n), max(maxContours, len(g))
	}
	be(&loca, uint32(glyf.Len()))

	head := new(bytes.Buffer)
	be(head, uint16(1), uint16(0), uint32(0x00010000), uint32(0), uint32(0x5F0F3CF5),
		uint16(0x000B), uint16(unitsPerEm), int64(0), int64(0),
		int16(0), int16(-half), int16(unitsPerEm), int16(half),
		uint16(0), uint16(8), int16(2), int16(1), int16(0))

	hhea := new(bytes.Buffer)
	be(hhea, uint32(0x00010000), int16(half), int16(-half), int16(0), uint16(unitsPerEm),
		int16(0), int16(0), int16(unitsPerEm), int16(1), int16(0), int16(0),
		int16(0), int16(0), int16(0), int16(0), int16(0), uint16(len(glyphs)))

	maxp := new(bytes.Buffer)
	be(maxp, uint32(0x00010000), uint16(len(glyphs)), uint16(maxPoints), uint16(maxContours),
		uint16(0), uint16(0), uint16(2), uint16(0), uint16(0), uint16(0), uint16(0), uint16(0),
		uint16(0), uint16(0), uint16(0))

	tables := []sfnt.Table{
		{Tag: "cmap", Data: cmap(runes)},
		{Tag: "glyf", Data: glyf.Bytes()},
		{Tag: "head", Data: head.Bytes()},
		{Tag: "hhea", Data: hhea.Bytes()},
		{Tag: "hmtx", Data: hmtx.Bytes()},
		{Tag: "loca", Data: loca.Bytes()},
		{Tag: "maxp", Data: maxp.Bytes()},
	}
	return sfnt.Assemble(tables)
}

// encodeGlyph appends g in the glyf format (4-byte aligned) and returns its left side bearing.
func encodeGlyph(w *bytes.Buffer, g glyph) int16 {
	if len(g) == 0 {
		return 0
	}
	xmin, ymin, xmax, ymax := int16(math.MaxInt16), int16(math.MaxInt16), int16(math.MinInt16), int16(math.MinInt16)
	for _, c := range g {
		for _, p := range c {
			xmin, ymin, xmax, ymax = min(xmin, p.x), min(ymin, p.y), max(xmax, p.x), max(ymax, p.y)
		}
	}
	be(w, int16(len(g)), xmin, ymin, xmax, ymax)
	end := -1
	for _, c := range g {
		end += len(c)
		be(w, uint16(end))
	}
	be(w, uint16(0)) // no instructions
	for _, c := range g {
		for _, p := range c {
			flag := byte(0) // coordinates as 16-bit deltas
			if p.onCurve {
				flag = 1
			}
			w.WriteByte(flag)
		}
	}
	var prev int16
	for _, c := range g {
		for _, p := range c {
			be(w, p.x-prev)
			prev = p.x
		}
	}
	prev = 0
	for _, c := range g {
		for _, p := range c {
			be(w, p.y-prev)
			prev = p.y
		}
	}
	for w.Len()%4 != 0 {
		w.WriteByte(0)
	}
	return xmin
}

// cmap maps each rune to its glyph index with one format 4 subtable (Windows, Unicode BMP); rune 0
// (.notdef) is left out.
func cmap(runes []rune) []byte {
	type segment struct{ start, end, delta uint16 }
	var segs []segment
	for gid, r := range runes {
		if r == 0 {
			continue
		}
		segs = append(segs, segment{uint16(r), uint16(r), uint16(gid) - uint16(r)})
	}
	segs = append(segs, segment{0xFFFF, 0xFFFF, 1})
	n := len(segs)
	sub := new(bytes.Buffer)
	search := 1
	sel := 0
	for search*2 <= n {
		search *= 2
		sel++
	}
	be(sub, uint16(4), uint16(16+8*n), uint16(0), uint16(2*n), uint16(2*search), uint16(sel), uint16(2*(n-search)))
	for _, s := range segs {
		be(sub, s.end)
	}
	be(sub, uint16(0))
	for _, s := range segs {
		be(sub, s.start)
	}
	for _, s := range segs {
		be(sub, s.delta)
	}
	for range segs {
		be(sub, uint16(0))
	}
	out := new(bytes.Buffer)
	be(out, uint16(0), uint16(1), uint16(3), uint16(1), uint32(12))
	out.Write(sub.Bytes())
	return out.Bytes()
}

// be appends values in big-endian order.
func be(w *bytes.Buffer, values ...any) {
	for _, v := range values {
		_ = binary.Write(w, binary.BigEndian, v) // writes to a bytes.Buffer do not fail
	}
}
