package calib

import (
	"math"
	"sort"

	"tengen/internal/homography"
)

// mat3 is a row-major 3x3 matrix acting on homogeneous points.
type mat3 [9]float64

// mul is the product m b (internal/homography's).
func (m mat3) mul(b mat3) mat3 {
	return mat3(homography.Matrix(m).Mul(homography.Matrix(b)))
}

func (m mat3) apply(v vec3) vec3 {
	return vec3{
		m[0]*v[0] + m[1]*v[1] + m[2]*v[2],
		m[3]*v[0] + m[4]*v[1] + m[5]*v[2],
		m[6]*v[0] + m[7]*v[1] + m[8]*v[2],
	}
}

// applyPt maps a work pixel through m, reporting false if it lands at or behind infinity.
func (m mat3) applyPt(x, y float64) (float64, float64, bool) {
	v := m.apply(vec3{x, y, 1})
	if v[2] <= 1e-9 {
		return 0, 0, false
	}
	return v[0] / v[2], v[1] / v[2], true
}

// rectifier maps work pixels to a square canvas in which the two line families are axis-parallel
// and evenly spaced: family A horizontal, family B vertical.
type rectifier struct {
	toCanvas   mat3 // work pixel -> canvas
	fromCanvas mat3
	size       int
}

const canvasSize = 640

// newRectifier builds the projective rectification from two vanishing points (in the
// conditioned frame) and fits the canvas to the inlier segments. It fails when the vanishing
// points are inconsistent with a board seen from the front.
func newRectifier(n frameNorm, va, vb vanishing, segs []normSeg) (rectifier, bool) {
	norm := mat3{1 / n.f, 0, -n.cx / n.f, 0, 1 / n.f, -n.cy / n.f, 0, 0, 1}
	h := cross(va.v, vb.v)
	if math.Abs(h[2]) < 1e-9 {
		return rectifier{}, false
	}
	hp := mat3{1, 0, 0, 0, 1, 0, h[0] / h[2], h[1] / h[2], 1}
	da, db := hp.apply(va.v), hp.apply(vb.v)
	// After hp both vanishing points are at infinity: da, db are the line directions.
	det := da[0]*db[1] - db[0]*da[1]
	if math.Abs(det) < 1e-12 {
		return rectifier{}, false
	}
	// A maps da -> (1,0) and db -> (0,1).
	a := mat3{db[1] / det, -db[0] / det, 0, -da[1] / det, da[0] / det, 0, 0, 0, 1}
	r := a.mul(hp).mul(norm)
	// The horizon must not cross the board: every inlier end must map in front.
	var xs, ys []float64
	for _, fam := range []vanishing{va, vb} {
		for _, k := range fam.inliers {
			for _, p := range []vec3{segs[k].p, segs[k].q} {
				px, py := p[0]*n.f+n.cx, p[1]*n.f+n.cy
				x, y, ok := r.applyPt(px, py)
				if !ok {
					return rectifier{}, false
				}
				xs = append(xs, x)
				ys = append(ys, y)
			}
		}
	}
	if len(xs) < 8 {
		return rectifier{}, false
	}
	sort.Float64s(xs)
	sort.Float64s(ys)
	q := func(s []float64, f float64) float64 { return s[int(f*float64(len(s)-1))] }
	x0, x1 := q(xs, 0.01), q(xs, 0.99)
	y0, y1 := q(ys, 0.01), q(ys, 0.99)
	if !(x1 > x0) || !(y1 > y0) {
		return rectifier{}, false
	}
	mx, my := 0.15*(x1-x0), 0.15*(y1-y0)
	x0, x1, y0, y1 = x0-mx, x1+mx, y0-my, y1+my
	c := float64(canvasSize)
	t := mat3{c / (x1 - x0), 0, -x0 * c / (x1 - x0), 0, c / (y1 - y0), -y0 * c / (y1 - y0), 0, 0, 1}
	to := t.mul(r)
	from, ok := invert3(to)
	if !ok {
		return rectifier{}, false
	}
	return rectifier{toCanvas: to, fromCanvas: from, size: canvasSize}, true
}

// profiles warps the line map into the canvas and returns, per canvas column, the evidence for
// a vertical line there and, per canvas row, for a horizontal one. Directional erosion keeps
// lines of the wanted direction and drops the crossing ones. The canvas is warped a row at a
// time into a window of the rows the vertical erosion needs, not as a whole picture.
func (r rectifier) profiles(lines *plane) (px, py []float64) {
	n := r.size
	const half = 6 // erosion half-length in canvas pixels
	const win = 2*half + 1
	ring := make([]float32, win*n)
	row := func(y int) []float32 { i := y % win; return ring[i*n : (i+1)*n] }
	fm := r.fromCanvas
	warp := func(y int) {
		out := row(y)
		for x := range out {
			out[x] = 0
			if sx, sy, ok := fm.applyPt(float64(x), float64(y)); ok {
				out[x] = lines.at(sx, sy)
			}
		}
	}
	for y := 0; y < min(half, n); y++ {
		warp(y)
	}
	px = make([]float64, n)
	py = make([]float64, n)
	for y := 0; y < n; y++ {
		if y+half < n {
			warp(y + half)
		}
		// Vertical erosion: the minimum over a vertical run (nothing near the top and bottom).
		if y >= half && y+half < n {
			for x := 0; x < n; x++ {
				mv := float32(math.MaxFloat32)
				for d := -half; d <= half; d++ {
					mv = min(mv, row(y + d)[x])
				}
				px[x] += float64(mv)
			}
		}
		// Horizontal erosion along the row (nothing near the left and right edges).
		cur := row(y)
		for x := half; x+half < n; x++ {
			mh := float32(math.MaxFloat32)
			for _, v := range cur[x-half : x+half+1] {
				mh = min(mh, v)
			}
			py[y] += float64(mh)
		}
	}
	return normalizeProfile(px), normalizeProfile(py)
}

// normalizeProfile smooths p, removes its median (the background level) and scales it so the
// strongest peaks are near 1.
func normalizeProfile(p []float64) []float64 {
	n := len(p)
	s := make([]float64, n)
	k := []float64{0.06, 0.24, 0.4, 0.24, 0.06}
	for i := range p {
		for j, w := range k {
			ii := min(n-1, max(0, i+j-2))
			s[i] += w * p[ii]
		}
	}
	sorted := append([]float64(nil), s...)
	sort.Float64s(sorted)
	med := sorted[n/2]
	top := sorted[n-1-n/100] - med
	if top <= 0 {
		top = 1
	}
	for i := range s {
		s[i] = (s[i] - med) / top
	}
	return s
}

// sample reads p at fractional position x (linear interpolation); outside reads as 0.
func sample(p []float64, x float64) float64 {
	if !(x >= 0 && x <= float64(len(p)-1)) {
		return 0
	}
	i := int(x)
	if i >= len(p)-1 {
		return p[len(p)-1]
	}
	f := x - float64(i)
	return p[i]*(1-f) + p[i+1]*f
}

// window is a run of n evenly spaced lines in a profile: first line at start, spacing step.
type window struct {
	n           int
	start, step float64
	score       float64
}

// windowScore rates n lines at start+k*step: strong on the lines, weak half-way between them and
// weak one step beyond either end (a board has no line there).
func windowScore(p []float64, n int, start, step float64) float64 {
	var vals [MaxSize]float64
	var alt [2]float64
	for k := 0; k < n; k++ {
		vals[k] = sample(p, start+float64(k)*step)
		alt[k%2] += vals[k]
	}
	// A lattice at half the true spacing has every other line in an empty gap: its even and
	// odd lines differ in strength as no real board's do, so that difference counts against it.
	alternation := math.Abs(alt[0]/float64((n+1)/2) - alt[1]/float64(n/2))
	// Hidden lines (covered by stones) should not sink a window; the weakest few count less.
	sort.Float64s(vals[:n])
	trim := n / 6
	on := 0.0
	for _, v := range vals[trim:n] {
		on += v
	}
	on /= float64(n - trim)
	// Between two lattice lines there must be no line at all: take the strongest evidence
	// anywhere inside each gap (this rejects lattices whose spacing is 1.5 or 2.25 lines).
	off := 0.0
	for k := 0; k < n-1; k++ {
		m := 0.0
		for f := 0.25; f <= 0.76; f += 0.0625 {
			if v := sample(p, start+(float64(k)+f)*step); v > m {
				m = v
			}
		}
		off += m
	}
	off /= float64(n - 1)
	out := math.Max(math.Max(0, sample(p, start-step)), math.Max(0, sample(p, start+float64(n)*step)))
	return on - off - 0.8*out - alternation
}

// bestWindow searches every start and spacing for n lines in p, coarse then fine. The coarse
// grid (1 px of spacing, 1.5 px of start) is too sparse for narrow lines over a long window:
// a window a few tenths of a pixel off in spacing misses its far lines and can lose to one
// that sits a line or two off the board. So the best few distinct coarse windows are each
// refined, and the best refined one wins.
func bestWindow(p []float64, n int) window {
	const keep = 4
	l := float64(len(p))
	var cands [keep]window
	for i := range cands {
		cands[i].score = math.Inf(-1)
	}
	worst := 0 // index of the weakest kept candidate
	minStep := l * 0.25 / float64(n-1)
	maxStep := l * 0.95 / float64(n-1)
	for step := minStep; step <= maxStep; step += 1 {
		span := step * float64(n-1)
		for start := 0.0; start+span <= l-1; start += 1.5 {
			s := windowScore(p, n, start, step)
			if s <= cands[worst].score {
				continue
			}
			w := window{n: n, start: start, step: step, score: s}
			// The same lattice seen at a neighbouring start or spacing replaces its weaker
			// self rather than crowding out a different lattice.
			slot := worst
			for i, c := range cands {
				if c.n != 0 && math.Abs(c.start-start) < 0.5*step && math.Abs(c.start+c.step*float64(n-1)-start-span) < 0.5*step {
					slot = i
					break
				}
			}
			if s <= cands[slot].score {
				continue
			}
			cands[slot] = w
			for i := range cands {
				if cands[i].score < cands[worst].score {
					worst = i
				}
			}
		}
	}
	best := window{n: n, score: math.Inf(-1)}
	for _, c := range cands {
		if c.n == 0 {
			continue
		}
		for step := c.step - 1; step <= c.step+1; step += 0.1 {
			for start := c.start - 1.5; start <= c.start+1.5; start += 0.25 {
				if s := windowScore(p, n, start, step); s > best.score {
					best = window{n: n, start: start, step: step, score: s}
				}
			}
		}
	}
	return best
}
