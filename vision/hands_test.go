package vision

import (
	"fmt"
	"testing"

	"tengen/vision/observe"
)

// canvas is a synthetic canonical BGR image for testing the classifier's geometry.
type canvas struct {
	g   canonGeom
	pix []byte
}

func newCanvas(g canonGeom, bgr [3]byte) *canvas {
	side := g.Side()
	c := &canvas{g: g, pix: make([]byte, 3*side*side)}
	c.fill(0, 0, side, side, bgr)
	return c
}

func (c *canvas) set(x, y int, bgr [3]byte) {
	side := c.g.Side()
	if x < 0 || y < 0 || x >= side || y >= side {
		return
	}
	copy(c.pix[3*(y*side+x):], bgr[:])
}

func (c *canvas) fill(x0, y0, x1, y1 int, bgr [3]byte) {
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			c.set(x, y, bgr)
		}
	}
}

// disc draws a filled disc with a one-pixel outline of another colour.
func (c *canvas) disc(cx, cy int, r float64, body, rim [3]byte) {
	ri := int(r) + 2
	for dy := -ri; dy <= ri; dy++ {
		for dx := -ri; dx <= ri; dx++ {
			d2 := float64(dx*dx + dy*dy)
			switch {
			case d2 <= (r-1)*(r-1):
				c.set(cx+dx, cy+dy, body)
			case d2 <= r*r:
				c.set(cx+dx, cy+dy, rim)
			}
		}
	}
}

var (
	wood  = [3]byte{70, 150, 200} // BGR
	cloth = [3]byte{225, 225, 225}
	stone = [3]byte{215, 215, 212}
	skin  = [3]byte{170, 185, 220}
	shade = [3]byte{120, 130, 140}
	ink   = [3]byte{20, 30, 40}
)

// woodBoard draws a 19x19 board whose wooden margin is margin spacings wide, on a white cloth.
func woodBoard(g canonGeom, margin float64) *canvas {
	c := newCanvas(g, cloth)
	sp := g.Spacing
	m := int(margin * float64(sp))
	c.fill(sp-m, sp-m, sp*g.Size+m+1, sp*g.Size+m+1, wood)
	c.drawGrid(g, ink)
	return c
}

// drawGrid draws the size x size grid lines of g, one pixel wide, in bgr.
func (c *canvas) drawGrid(g canonGeom, bgr [3]byte) {
	sp := g.Spacing
	for i := 1; i <= g.Size; i++ {
		c.fill(sp*i, sp, sp*i+1, sp*g.Size+1, bgr)
		c.fill(sp, sp*i, sp*g.Size+1, sp*i+1, bgr)
	}
}

// readCanvas samples every point of c and classifies it as the reader does, then, when reach is
// true, marks reaching hands; it returns the features and what each point reads as.
func readCanvas(g canonGeom, c *canvas, reach bool) ([]pointFeatures, []observe.Stone) {
	s := newSampler(g)
	f := make([]pointFeatures, g.Size*g.Size)
	s.extract(c.pix, f)
	stones := make([]observe.Stone, len(f))
	conf := make([]float32, len(f))
	classify(f, g.Size, Params{}.withDefaults(), stones, conf, &scratch{}, nil, nil)
	if reach {
		markReaching(s, c.pix, f, g.Size, stones, conf)
	}
	return f, stones
}

// wantOneWhite checks that the point at reads white and every other point empty.
func wantOneWhite(t *testing.T, g canonGeom, f []pointFeatures, stones []observe.Stone, at int) {
	t.Helper()
	for i, st := range stones {
		want := observe.Empty
		if i == at {
			want = observe.White
		}
		if st != want {
			t.Errorf("c%d r%d read %v, want %v (features %+v)", i%g.Size, i/g.Size, st, want, f[i])
		}
	}
}

// TestHandOverEdgeIsObscured: a white stone on an edge point stays a stone, whether a wide wooden
// margin or a narrow one with a white cloth beyond surrounds it; a hand reaching in over the
// same edge to that point is Obscured, never a stone.
func TestHandOverEdgeIsObscured(t *testing.T) {
	g := canonFor(19)
	sp := g.Spacing
	r0 := 0.47 * float64(sp)
	cases := []struct {
		name string
		draw func(c *canvas)
		// margin of wood around the grid, in spacings
		margin float64
		want   observe.Stone
	}{
		{"stone, wide margin", func(c *canvas) { c.disc(sp, 10*sp, r0, stone, shade) }, 0.9, observe.White},
		{"stone, narrow margin on cloth", func(c *canvas) { c.disc(sp, 10*sp, r0, stone, shade) }, 0.55, observe.White},
		{"stone at a corner on cloth", func(c *canvas) { c.disc(sp, sp, r0, stone, shade) }, 0.55, observe.White},
		{"hand over the left edge", func(c *canvas) {
			c.fill(0, 9*sp+sp/3, sp+sp/3, 11*sp-sp/3, skin) // a finger from off the board to just past the point
		}, 0.9, observe.Obscured},
		{"sleeve over a corner", func(c *canvas) { c.fill(0, 0, sp+sp/2, sp+sp/2, skin) }, 0.9, observe.Obscured},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := woodBoard(g, tc.margin)
			tc.draw(c)
			f, stones := readCanvas(g, c, true)
			var at int
			switch tc.name {
			case "stone at a corner on cloth", "sleeve over a corner":
				at = 0
			default:
				at = 9 * g.Size
			}
			if stones[at] != tc.want {
				t.Errorf("point read %v (features %+v), want %v", stones[at], f[at], tc.want)
			}
			for i, st := range stones {
				if i != at && st != observe.Empty && st != observe.Obscured {
					t.Errorf("point c%d r%d read %v, want empty", i%g.Size, i/g.Size, st)
				}
			}
		})
	}
}

// TestGridOffByPixelsMakesNoStones: an empty board where some lines sit a few canonical pixels off
// their calibrated places (corners clicked or found imprecisely) reads empty everywhere, and a white
// stone on it is still read.
func TestGridOffByPixelsMakesNoStones(t *testing.T) {
	g := canonFor(19)
	sp := g.Spacing
	for _, off := range []int{-3, -2, 2, 3} {
		t.Run(fmt.Sprintf("off %d px", off), func(t *testing.T) {
			c := newCanvas(g, wood)
			// The lines of the lower right part of the board are off (a corner clicked a little off).
			for i := 1; i <= g.Size; i++ {
				o := 0
				if i > 12 {
					o = off
				}
				c.fill(sp*i+o, sp, sp*i+o+1, sp*g.Size+1, ink)
				c.fill(sp, sp*i+o, sp*g.Size+1, sp*i+o+1, ink)
			}
			c.disc(9*sp, 9*sp, 0.47*float64(sp), stone, shade)
			f, stones := readCanvas(g, c, true)
			at := 8*g.Size + 8
			wantOneWhite(t, g, f, stones, at)
		})
	}
}

// TestCreamStoneOnWhiteBoard: a cream white stone barely brighter than a white paper board, and a
// little warmer, with no outline, is read as white from the grid lines it hides; the board around
// it stays empty.
func TestCreamStoneOnWhiteBoard(t *testing.T) {
	g := canonFor(19)
	sp := g.Spacing
	paper := [3]byte{200, 202, 204}
	grey := [3]byte{120, 120, 120}
	cream := [3]byte{196, 214, 226} // warmer than the paper: not neutral
	c := newCanvas(g, paper)
	c.drawGrid(g, grey)
	c.disc(7*sp, 5*sp, 0.47*float64(sp), cream, cream)
	f, stones := readCanvas(g, c, false)
	wantOneWhite(t, g, f, stones, 4*g.Size+6)
}

// TestMarkObscuredLinePolarity checks that a board whose lines are lighter than its wood (their
// contrast is negative) shows its lines for the hand test, while a patch of the same board with
// no lines at all (a hand) is still marked obscured. The light-line board was read with 69 of its
// empty points `?` before (a held-out Roboflow photo).
func TestMarkObscuredLinePolarity(t *testing.T) {
	const size = 9
	p := Params{}.withDefaults()
	cases := []struct {
		name       string
		boardLine  float64 // every empty point's InLine
		handLine   float64 // the InLine of a 3x3 patch in the middle
		wantHidden int     // points marked obscured
	}{
		{"dark lines, no hand", 0.2, 0.2, 0},
		{"dark lines, a hand hides them", 0.2, 0, 9},
		{"light lines, no hand", -0.2, -0.2, 0},
		{"light lines, a hand hides them", -0.2, 0, 9},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := make([]pointFeatures, size*size)
			for i := range f {
				f[i] = pointFeatures{Rel: 1, InLine: tc.boardLine, Chroma: 0.05, CellRel: 1, CellChroma: 0.05}
				if x, y := i%size, i/size; x >= 3 && x < 6 && y >= 3 && y < 6 {
					f[i].InLine = tc.handLine
				}
			}
			var sc scratch
			lv := measureLevels(f, p, &sc)
			stones := make([]observe.Stone, len(f))
			conf := make([]float32, len(f))
			markObscured(f, size, lv, p, stones, conf, &sc)
			hidden := 0
			for _, s := range stones {
				if s == observe.Obscured {
					hidden++
				}
			}
			if hidden != tc.wantHidden {
				t.Errorf("%d points obscured, want %d (levels: line %.2f)", hidden, tc.wantHidden, lv.line)
			}
		})
	}
}
