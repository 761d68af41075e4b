package calib

import (
	"cmp"
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"
)

// A board's outline is often not a quadrilateral in the edge map: a bowl, a lid or a hand that
// touches the board's edge joins its contour, and the convex hull then reaches around both. Its
// four sides still run straight along most of their length, so they are found as the longest
// straight runs of the contour, joined where they lie on one line (a side broken by the object
// in front of it), and the quadrilateral they bound is kept when they cover most of it.

// Bars of the side fit: a straight run is kept from sideMinRun of the contour's length; runs
// join a side within sideJoinAngle radians and sideJoinGap of the length (at least
// sideJoinGapMin pixels) of its line; each side of the quadrilateral must be covered by runs
// along sideMinCover of it, and all four along sideMinTotal of its perimeter. The
// sideCandidates longest sides are tried, four at a time.
const (
	sideMinRun     = 0.02
	sideJoinAngle  = 5 * math.Pi / 180
	sideJoinGap    = 0.01
	sideJoinGapMin = 3
	sideMinCover   = 0.4
	sideMinTotal   = 0.6
	sideCandidates = 7
)

// sideLine is a straight side of a contour: a line through p along the unit vector d, fitted to
// the straight runs joined on it (their end points, two per run, and lengths).
type sideLine struct {
	p, d Point2
	ends []Point2
	lens []float64
}

// add joins the run from a to b (n long) to the line and fits the line to all its runs again, by
// total least squares on their end points, each weighted by its run's length.
func (s *sideLine) add(a, b Point2, n float64) {
	s.ends = append(s.ends, a, b)
	s.lens = append(s.lens, n)
	var sw, mx, my float64
	for i, p := range s.ends {
		w := s.lens[i/2]
		sw += w
		mx += w * p.X
		my += w * p.Y
	}
	mx, my = mx/sw, my/sw
	var sxx, sxy, syy float64
	for i, p := range s.ends {
		w, x, y := s.lens[i/2], p.X-mx, p.Y-my
		sxx += w * x * x
		sxy += w * x * y
		syy += w * y * y
	}
	th := 0.5 * math.Atan2(2*sxy, sxx-syy)
	s.p, s.d = Point2{mx, my}, Point2{math.Cos(th), math.Sin(th)}
}

// along is how far along the line q's foot lies from p.
func (s *sideLine) along(q Point2) float64 {
	return (q.X-s.p.X)*s.d.X + (q.Y-s.p.Y)*s.d.Y
}

// cover is the length of the stretch of the line between a and b (on it) that its runs cover.
func (s *sideLine) cover(a, b Point2) float64 {
	lo, hi := s.along(a), s.along(b)
	return s.covered(min(lo, hi), max(lo, hi))
}

// covered is the length of the line between lo and hi along it that its runs cover. Runs that
// lie side by side count once: a thin line's contour runs along both its sides.
func (s *sideLine) covered(lo, hi float64) float64 {
	spans := make([][2]float64, 0, len(s.lens))
	for i := 0; i+1 < len(s.ends); i += 2 {
		x, y := s.along(s.ends[i]), s.along(s.ends[i+1])
		if x, y = max(min(x, y), lo), min(max(x, y), hi); x < y {
			spans = append(spans, [2]float64{x, y})
		}
	}
	slices.SortFunc(spans, func(u, v [2]float64) int { return cmp.Compare(u[0], v[0]) })
	n, reached := 0.0, lo
	for _, sp := range spans {
		if sp[1] > reached {
			n += sp[1] - max(sp[0], reached)
			reached = sp[1]
		}
	}
	return n
}

// dist is the distance of q from the line.
func (s *sideLine) dist(q Point2) float64 {
	return math.Abs((q.X-s.p.X)*s.d.Y - (q.Y-s.p.Y)*s.d.X)
}

// cross is where lines s and t meet, false for parallel lines.
func (s *sideLine) cross(t *sideLine) (Point2, bool) {
	den := s.d.X*t.d.Y - s.d.Y*t.d.X
	if math.Abs(den) < 1e-6 {
		return Point2{}, false
	}
	k := ((t.p.X-s.p.X)*t.d.Y - (t.p.Y-s.p.Y)*t.d.X) / den
	return Point2{s.p.X + k*s.d.X, s.p.Y + k*s.d.Y}, true
}

// contourSides returns the straight sides of contour, the longest covered first: the edges of
// its polygon simplified to half a percent of its length, of sideMinRun of that length or more,
// joined where they lie on one line.
func contourSides(contour []image.Point) []*sideLine {
	pv := gocv.NewPointVectorFromPoints(contour)
	defer pv.Close()
	length := gocv.ArcLength(pv, true)
	simple := gocv.ApproxPolyDP(pv, 0.005*length, true)
	pts := simple.ToPoints()
	simple.Close()
	type run struct {
		a, b Point2
		n    float64
	}
	var runs []run
	for i, a := range pts {
		b := pts[(i+1)%len(pts)]
		n := math.Hypot(float64(b.X-a.X), float64(b.Y-a.Y))
		if n >= sideMinRun*length {
			runs = append(runs, run{Point2{float64(a.X), float64(a.Y)}, Point2{float64(b.X), float64(b.Y)}, n})
		}
	}
	slices.SortStableFunc(runs, func(x, y run) int { return cmp.Compare(y.n, x.n) })
	gap := math.Max(sideJoinGapMin, sideJoinGap*length)
	var sides []*sideLine
	for _, r := range runs {
		i := slices.IndexFunc(sides, func(s *sideLine) bool {
			sin := math.Abs((r.b.X-r.a.X)*s.d.Y-(r.b.Y-r.a.Y)*s.d.X) / r.n
			return sin < math.Sin(sideJoinAngle) && s.dist(r.a) < gap && s.dist(r.b) < gap
		})
		if i < 0 {
			sides = append(sides, &sideLine{})
			i = len(sides) - 1
		}
		sides[i].add(r.a, r.b, r.n)
	}
	whole := func(s *sideLine) float64 { return s.covered(math.Inf(-1), math.Inf(1)) }
	slices.SortStableFunc(sides, func(x, y *sideLine) int { return cmp.Compare(whole(y), whole(x)) })
	return sides
}

// sidesQuad returns the quadrilateral (TL, TR, BR, BL) bounded by four of contour's straight
// sides (contourSides, the sideCandidates longest) that they cover best: each side along
// sideMinCover of its length or more, all four along sideMinTotal of the perimeter, convex,
// its corners within a tenth of the w x h picture's size of it, of a board face's area.
func sidesQuad(contour []image.Point, w, h int) ([4]Point2, bool) {
	sides := contourSides(contour)
	if len(sides) < 4 {
		return [4]Point2{}, false
	}
	sides = sides[:min(len(sides), sideCandidates)]
	total := float64(w * h)
	var best [4]Point2
	bestCover := 0.0
	n := len(sides)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for d := b + 1; d < n; d++ {
				for e := d + 1; e < n; e++ {
					// Four lines follow one another around a quadrilateral in one of three orders.
					for _, four := range [3][4]*sideLine{
						{sides[a], sides[b], sides[d], sides[e]},
						{sides[a], sides[b], sides[e], sides[d]},
						{sides[a], sides[d], sides[b], sides[e]},
					} {
						q, cover, ok := boundedQuad(four, w, h)
						if !ok || cover <= bestCover {
							continue
						}
						if a := quadArea(q); a < outlineMinArea*total || a > outlineMaxArea*total {
							continue
						}
						best, bestCover = q, cover
					}
				}
			}
		}
	}
	if bestCover < sideMinTotal {
		return [4]Point2{}, false
	}
	return orderCorners(best), true
}

// boundedQuad returns the quadrilateral whose sides lie on the four lines in order around it,
// and the share of its perimeter their runs cover; false when it is not convex, a corner lies
// more than a tenth of the w x h picture outside it, or a side is covered along less than
// sideMinCover of it.
func boundedQuad(four [4]*sideLine, w, h int) ([4]Point2, float64, bool) {
	var q [4]Point2
	for i := range q {
		p, ok := four[i].cross(four[(i+1)%4])
		if !ok || p.X < -0.1*float64(w) || p.X > 1.1*float64(w) || p.Y < -0.1*float64(h) || p.Y > 1.1*float64(h) {
			return q, 0, false
		}
		q[i] = p
	}
	if !convexQuad(q) {
		return q, 0, false
	}
	var perimeter, covered float64
	for i := range four {
		// Side i runs between the corners it makes with the lines before and after it.
		a, b := q[(i+3)%4], q[i]
		n := math.Hypot(b.X-a.X, b.Y-a.Y)
		got := four[i].cover(a, b)
		if got < sideMinCover*n {
			return q, 0, false
		}
		perimeter += n
		covered += got
	}
	return q, covered / perimeter, true
}

// convexQuad reports whether q's corners turn the same way at each corner.
func convexQuad(q [4]Point2) bool {
	var sign float64
	for i := range q {
		a, b, c := q[i], q[(i+1)%4], q[(i+2)%4]
		turn := (b.X-a.X)*(c.Y-b.Y) - (b.Y-a.Y)*(c.X-b.X)
		if turn == 0 || sign*turn < 0 {
			return false
		}
		sign = turn
	}
	return true
}
