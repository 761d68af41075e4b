package vision

import (
	"math"

	"tengen/vision/observe"
)

// Hands and sleeves reaching in over an edge of the board look like white stones on the edge
// points: bright, less red than wood, hiding the grid lines. Going outward from the point, strip
// by strip across the way, a stone shows its rim (a narrow dark line, the stone's outline or the
// gap between it and what lies beyond) and, on a board with a margin of wood, the board's colour
// again, if only in a thin strip before a white cloth beyond. A hand or a sleeve goes on, without
// a rim and of its own colour, over the margin and off the board. The profile is read from rimFrom
// to reachTo spacings out from the edge line; from reachFrom on every strip must keep the cover's
// colour.
const (
	rimFrom    = 0.35
	reachFrom  = 0.6
	reachTo    = 0.95
	reachAlong = 0.25 // half-length of each strip, in spacings
	rimDip     = 0.9  // a strip this much darker than both its neighbours is a rim
	maxProfile = 64   // longest profile in strips (the canonical spacing is at most 48)
	// reachBright: a strict hand keeps at least this share of the point's brightness over the margin.
	reachBright = 0.8
)

// markOutside sets s to tell which canonical pixels map (through toImg, canonical -> image)
// outside the w x h image: the warp replicates the image's border there, which is no evidence
// of anything.
func (s *sampler) markOutside(toImg canonMap, w, h int) {
	s.outside.aim(toImg, s.geom.Side(), w, h)
}

// outsideMap tells which pixels of a side x side canonical picture map outside the camera image.
// Each pixel is worked out the first time it is asked about and remembered: only the patches on
// and beyond the edge points that reachesOffBoard looks at ever are, so a Reader aimed at a new
// grid for a single read (outlineRead) does not map the whole picture.
type outsideMap struct {
	toImg   canonMap
	w, h    int
	side    int
	partial bool    // some pixel may lie outside (false: the whole square maps inside)
	memo    []uint8 // per pixel: 0 not yet asked, memoIn or memoOut
}

const (
	memoIn  = 1
	memoOut = 2
)

// aim points m at the map toImg of a side x side picture into a w x h image, forgetting what it
// knew of the map before.
func (m *outsideMap) aim(toImg canonMap, side, w, h int) {
	m.toImg, m.side, m.w, m.h = toImg, side, w, h
	// None outside: a homography in front of the camera maps the square onto its corners' hull.
	m.partial = toImg.bend != nil || !squareInside(toImg, float64(side-1), w, h)
	if !m.partial {
		return
	}
	if len(m.memo) != side*side {
		m.memo = make([]uint8, side*side)
	} else {
		clear(m.memo)
	}
}

// at reports whether canonical pixel (u, v) maps outside the image (or behind the camera).
func (m *outsideMap) at(u, v int) bool {
	if !m.partial {
		return false
	}
	i := v*m.side + u
	switch m.memo[i] {
	case memoIn:
		return false
	case memoOut:
		return true
	}
	x, y, ok := m.toImg.at(float64(u), float64(v))
	out := !ok || !(x >= 1 && y >= 1 && x <= float64(m.w)-2 && y <= float64(m.h)-2)
	m.memo[i] = memoIn
	if out {
		m.memo[i] = memoOut
	}
	return out
}

// squareInside reports whether the canonical square's corners (0 to last on each axis) all map
// in front of the camera and within the w x h image's border, as markOutside tells a pixel in.
func squareInside(toImg canonMap, last float64, w, h int) bool {
	for _, c := range [4][2]float64{{0, 0}, {last, 0}, {last, last}, {0, last}} {
		x, y, ok := toImg.at(c[0], c[1])
		if !ok || !(x >= 1 && y >= 1 && x <= float64(w)-2 && y <= float64(h)-2) {
			return false
		}
	}
	return true
}

// patchStats is the mean luminance and chromaticity of a rectangle of the canonical image.
type patchStats struct {
	y, r, g float64
	n       int
	outside bool // some of it lies outside the camera image
}

// patch measures the rectangle [x0,x1) x [y0,y1) of the canonical BGR image (clipped to it).
func (s *sampler) patch(pix []byte, x0, y0, x1, y1 int) patchStats {
	side := s.geom.Side()
	x0, y0 = max(x0, 0), max(y0, 0)
	x1, y1 = min(x1, side), min(y1, side)
	var sy, sr, sg, sb float64
	n := 0
	outside := false
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			p := y*side + x
			if s.outside.at(x, y) {
				outside = true
			}
			sy += float64(s.lum[p])
			sb += float64(pix[3*p])
			sg += float64(pix[3*p+1])
			sr += float64(pix[3*p+2])
			n++
		}
	}
	if n == 0 {
		return patchStats{}
	}
	tot := sr + sg + sb + 1e-9
	return patchStats{y: sy / float64(n), r: sr / tot, g: sg / tot, n: n, outside: outside}
}

// reachesOffBoard reports whether whatever covers edge point (c, r) goes on, with the same
// brightness and colour, over the board's margin: a hand or a sleeve, not a stone. x are the
// point's features (its colour relative to the board around it).
// With strict set, the cover must also stay about as bright as the point all over the margin
// (reachBright); a hand shaded at its edges passes only the lenient test.
func (s *sampler) reachesOffBoard(pix []byte, c, r int, x pointFeatures, strict bool) bool {
	g := s.geom
	sp := float64(g.Spacing)
	cx, cy := g.Spacing*(c+1), g.Spacing*(r+1)
	h := max(1, int(math.Round(0.15*sp)))
	centre := s.patch(pix, cx-h, cy-h, cx+h+1, cy+h+1)
	if centre.n == 0 {
		return false
	}
	// The board's colour here: the point's colour less its difference from the board.
	boardR, boardG := centre.r-x.DR, centre.g-x.DG
	rim, from, to := int(math.Round(rimFrom*sp)), int(math.Round(reachFrom*sp)), int(math.Round(reachTo*sp))
	along := max(1, int(math.Round(reachAlong*sp)))
	// dirs are the outward directions of this edge point (two at a corner).
	var dirs [4][2]int
	k := 0
	if c == 0 {
		dirs[k] = [2]int{-1, 0}
		k++
	}
	if c == g.Size-1 {
		dirs[k] = [2]int{1, 0}
		k++
	}
	if r == 0 {
		dirs[k] = [2]int{0, -1}
		k++
	}
	if r == g.Size-1 {
		dirs[k] = [2]int{0, 1}
		k++
	}
	var ys [maxProfile]float64
	for _, d := range dirs[:k] {
		hand := true
		n := 0
		for t := rim - 1; t <= to+1 && hand && n < maxProfile; t++ {
			var o patchStats
			if d[0] != 0 {
				x0 := cx + d[0]*t
				o = s.patch(pix, x0, cy-along, x0+1, cy+along+1)
			} else {
				y0 := cy + d[1]*t
				o = s.patch(pix, cx-along, y0, cx+along+1, y0+1)
			}
			if o.n == 0 || o.outside {
				hand = false // the strip falls off the canonical or the camera image: no evidence
				break
			}
			ys[n] = o.y
			n++
			toPoint := math.Hypot(o.r-centre.r, o.g-centre.g)
			toBoard := math.Hypot(o.r-boardR, o.g-boardG)
			switch {
			case t >= from && t <= to:
				hand = toPoint < 0.5*toBoard // the cover's colour all the way off the board
				if strict && o.y < reachBright*centre.y {
					hand = false
				}
			case t >= rim:
				hand = toPoint < 0.7*toBoard // a strip of board between stone and whatever lies beyond
			}
		}
		for i := 1; i+1 < n && hand; i++ {
			if ys[i] < rimDip*math.Min(ys[i-1], ys[i+1]) {
				hand = false
			}
		}
		if hand {
			return true
		}
	}
	return false
}

// markReaching turns into Obscured the edge points read as white stones whose cover goes on off
// the board (see reachesOffBoard): a hand must never be read as a stone. A point passing the strict
// test is a hand; then, along the edge, white points next to a hand whose cover passes the lenient
// test (the shaded side of the same hand) are too.
func markReaching(s *sampler, pix []byte, f []pointFeatures, size int, stones []observe.Stone, conf []float32) {
	edge := func(i int) bool {
		c, r := i%size, i/size
		return c == 0 || r == 0 || c == size-1 || r == size-1
	}
	found := false
	for i, x := range f {
		if stones[i] == observe.White && edge(i) && s.reachesOffBoard(pix, i%size, i/size, x, true) {
			stones[i], conf[i] = observe.Obscured, 0.5
			found = true
		}
	}
	for found {
		found = false
		for i, x := range f {
			if stones[i] != observe.White || !edge(i) {
				continue
			}
			c, r := i%size, i/size
			next := false
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nc, nr := c+d[0], r+d[1]
				if nc >= 0 && nr >= 0 && nc < size && nr < size && edge(nr*size+nc) && stones[nr*size+nc] == observe.Obscured {
					next = true
				}
			}
			if next && s.reachesOffBoard(pix, c, r, x, false) {
				stones[i], conf[i] = observe.Obscured, 0.5
				found = true
			}
		}
	}
}
