package calib

import (
	"math"
	"math/rand/v2"
	"sort"
)

// vec3 is a homogeneous 2-D point or line.
type vec3 [3]float64

func cross(a, b vec3) vec3 {
	return vec3{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}

func dot(a, b vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

func (a vec3) unit() vec3 {
	n := math.Sqrt(dot(a, a))
	if n == 0 {
		return a
	}
	return vec3{a[0] / n, a[1] / n, a[2] / n}
}

// frameNorm maps work pixels to a conditioned frame centred on the image with unit half-size,
// so homogeneous arithmetic stays well scaled.
type frameNorm struct{ cx, cy, f float64 }

func (n frameNorm) pt(x, y float64) vec3 { return vec3{(x - n.cx) / n.f, (y - n.cy) / n.f, 1} }

// normSeg is a segment in the conditioned frame, with its line (a²+b²=1).
type normSeg struct {
	p, q, mid vec3
	line      vec3
	w         float64 // length in work pixels
}

// vanishing is one family of parallel board lines: their common (maybe infinite) point and the
// segments that agree with it.
type vanishing struct {
	v       vec3
	inliers []int
	support float64 // summed inlier length
}

// vpTolerance is how far (work pixels) a segment's ends may lie from the line joining its
// midpoint to a vanishing point.
const vpTolerance = 1.3

// segResidual is the distance in work pixels of s's ends from the line through s's midpoint and v.
func segResidual(s *normSeg, v vec3, f float64) float64 {
	l := cross(s.mid, v)
	n := math.Hypot(l[0], l[1])
	if n < 1e-12 {
		return math.Inf(1)
	}
	d1 := math.Abs(dot(l, s.p)) / n
	d2 := math.Abs(dot(l, s.q)) / n
	return math.Max(d1, d2) * f
}

// findVanishing extracts up to maxVP line families from segs by repeated RANSAC, each
// removing its inliers from the pool. It is deterministic (fixed seed).
func findVanishing(segs []normSeg, f float64, maxVP int) []vanishing {
	rng := rand.New(rand.NewPCG(1, 2))
	used := make([]bool, len(segs))
	var out []vanishing
	for len(out) < maxVP {
		var pool []int
		var cum []float64
		total := 0.0
		for i := range segs {
			if !used[i] {
				pool = append(pool, i)
				total += segs[i].w
				cum = append(cum, total)
			}
		}
		if len(pool) < 6 {
			break
		}
		pick := func() int {
			r := rng.Float64() * total
			return pool[sort.SearchFloat64s(cum, r)%len(pool)]
		}
		best := vanishing{}
		for it := 0; it < 300; it++ {
			i, j := pick(), pick()
			if i == j {
				continue
			}
			v := cross(segs[i].line, segs[j].line).unit()
			if v == (vec3{}) {
				continue
			}
			sup := 0.0
			for _, k := range pool {
				if segResidual(&segs[k], v, f) < vpTolerance {
					sup += segs[k].w
				}
			}
			if sup > best.support {
				best = vanishing{v: v, support: sup}
			}
		}
		if best.support == 0 {
			break
		}
		// Refine by least squares over the inliers, twice.
		for round := 0; round < 3; round++ {
			best.inliers = best.inliers[:0]
			best.support = 0
			for _, k := range pool {
				if segResidual(&segs[k], best.v, f) < vpTolerance*1.5 {
					best.inliers = append(best.inliers, k)
					best.support += segs[k].w
				}
			}
			if round == 2 || len(best.inliers) < 3 {
				break
			}
			best.v = meetingPoint(segs, best.inliers)
		}
		if len(best.inliers) < 4 {
			break
		}
		for _, k := range best.inliers {
			used[k] = true
		}
		out = append(out, best)
	}
	return out
}

// smallestEigenvector returns the unit eigenvector of the symmetric 3x3 matrix m (row-major)
// with the smallest eigenvalue, by Jacobi rotations.
func smallestEigenvector(m [9]float64) vec3 {
	a := m
	v := [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1}
	for sweep := 0; sweep < 50; sweep++ {
		off := a[1]*a[1] + a[2]*a[2] + a[5]*a[5]
		if off < 1e-24 {
			break
		}
		for _, pq := range [3][2]int{{0, 1}, {0, 2}, {1, 2}} {
			p, q := pq[0], pq[1]
			apq := a[p*3+q]
			if math.Abs(apq) < 1e-30 {
				continue
			}
			theta := (a[q*3+q] - a[p*3+p]) / (2 * apq)
			t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
			c := 1 / math.Sqrt(t*t+1)
			s := t * c
			for k := 0; k < 3; k++ { // A = Jᵀ A J
				akp, akq := a[k*3+p], a[k*3+q]
				a[k*3+p] = c*akp - s*akq
				a[k*3+q] = s*akp + c*akq
			}
			for k := 0; k < 3; k++ {
				apk, aqk := a[p*3+k], a[q*3+k]
				a[p*3+k] = c*apk - s*aqk
				a[q*3+k] = s*apk + c*aqk
			}
			for k := 0; k < 3; k++ {
				vkp, vkq := v[k*3+p], v[k*3+q]
				v[k*3+p] = c*vkp - s*vkq
				v[k*3+q] = s*vkp + c*vkq
			}
		}
	}
	best := 0
	for i := 1; i < 3; i++ {
		if a[i*3+i] < a[best*3+best] {
			best = i
		}
	}
	return vec3{v[0*3+best], v[1*3+best], v[2*3+best]}.unit()
}

// directionAngle is the angle (0..π) of the direction from the frame centre towards v.
func directionAngle(v vec3) float64 {
	// Direction from the origin (frame centre) to v, valid for finite and infinite v.
	dx, dy := v[0], v[1]
	if v[2] < 0 {
		dx, dy = -dx, -dy
	}
	a := math.Atan2(dy, dx)
	if a < 0 {
		a += math.Pi
	}
	if a >= math.Pi {
		a -= math.Pi
	}
	return a
}

// angleBetween is the unsigned angle between two undirected directions, 0..π/2.
func angleBetween(a, b float64) float64 {
	d := math.Abs(a - b)
	if d > math.Pi/2 {
		d = math.Pi - d
	}
	return d
}

// latticeVanishing estimates the two line families' vanishing points again from the segments
// the lattice g (in work pixels) explains: those lying along one of its directions, within
// latticeReach lines of it. A first lattice found through vanishing points a little off (stone
// rims and clutter drawn into the family's fit) lies a line or more off at one side, yet still
// tells the board's lines from the rest; their own vanishing points rectify the board evenly.
// It reports false when either family has too few segments.
func latticeVanishing(g gridFit, segs []normSeg, n frameNorm) (rows, cols vanishing, ok bool) {
	inv, ok := g.pixelToGrid()
	if !ok {
		return rows, cols, false
	}
	lu, lv := float64(g.cols-1)+latticeReach, float64(g.rows-1)+latticeReach
	toGrid := func(p vec3) Point2 { return applyH(inv, Point2{p[0]*n.f + n.cx, p[1]*n.f + n.cy}) }
	var ri, ci []int
	for k := range segs {
		a, b, m := toGrid(segs[k].p), toGrid(segs[k].q), toGrid(segs[k].mid)
		if m.X < -latticeReach || m.X > lu || m.Y < -latticeReach || m.Y > lv {
			continue
		}
		du, dv := math.Abs(b.X-a.X), math.Abs(b.Y-a.Y)
		switch {
		case dv < latticeSlope*du:
			ri = append(ri, k)
		case du < latticeSlope*dv:
			ci = append(ci, k)
		}
	}
	rows, okr := refitVanishing(segs, ri, n.f)
	cols, okc := refitVanishing(segs, ci, n.f)
	return rows, cols, okr && okc
}

// latticeReach is how many lines beyond a lattice's edge lines latticeVanishing takes segments
// from: a lattice a line or two off still covers the board. latticeSlope is the largest slope,
// in the lattice's own coordinates, of a segment taken as one of its lines (about 8 degrees:
// a family's vanishing point off enough to smear the rectified profile tilts the lines by a
// few).
const (
	latticeReach = 3.0
	latticeSlope = 0.14
)

// refitVanishing is the least-squares vanishing point of the segments idx, weighted by length,
// fitted four times, each time without the segments more than twice vpTolerance off the last
// fit. It reports false with fewer than four segments left.
func refitVanishing(segs []normSeg, idx []int, f float64) (vanishing, bool) {
	in := append([]int(nil), idx...)
	var v vanishing
	for round := 0; round < 4; round++ {
		if len(in) < 4 {
			return vanishing{}, false
		}
		v = vanishing{v: meetingPoint(segs, in)}
		kept := in[:0]
		for _, k := range in {
			if segResidual(&segs[k], v.v, f) < 2*vpTolerance {
				kept = append(kept, k)
				v.support += segs[k].w
			}
		}
		in = kept
	}
	if len(in) < 4 {
		return vanishing{}, false
	}
	v.inliers = in
	return v, true
}

// segments returns segs in the conditioned frame, each with its line.
func (n frameNorm) segments(segs []segment) []normSeg {
	out := make([]normSeg, len(segs))
	for i, s := range segs {
		p, q := n.pt(s.x1, s.y1), n.pt(s.x2, s.y2)
		l := cross(p, q)
		ln := math.Hypot(l[0], l[1])
		out[i] = normSeg{p: p, q: q, mid: n.pt((s.x1+s.x2)/2, (s.y1+s.y2)/2), line: vec3{l[0] / ln, l[1] / ln, l[2] / ln}, w: s.len}
	}
	return out
}

// nearLattice reports whether every corner of g lies within d of ref's spacings from one of
// ref's corners: a grid rectified again on ref's own lines mends ref, it does not move to
// another part of the picture.
func nearLattice(g, ref gridFit, d float64) bool {
	q, c, ok := ref.cornersIn(g)
	if !ok {
		return false
	}
	for _, p := range q {
		near := false
		for _, rc := range c {
			near = near || math.Hypot(p.X-rc.X, p.Y-rc.Y) <= d
		}
		if !near {
			return false
		}
	}
	return true
}

// refitFloor is the least confidence at which a grid rectified again is kept as a candidate:
// vision.FindBoard's LowMinConfidence, the least it takes any grid at. A weaker one would only
// be one more weak lattice for the stones to vouch for (findGrid), which moved right grids off.
const refitFloor = 0.3

// meetingPoint is the point the lines of the segments idx pass nearest, in least squares
// weighted by length: the smallest eigenvector of the sum of their lines' outer products.
func meetingPoint(segs []normSeg, idx []int) vec3 {
	var m [9]float64
	for _, k := range idx {
		l, w := segs[k].line, segs[k].w
		for a := 0; a < 3; a++ {
			for b := 0; b < 3; b++ {
				m[a*3+b] += w * l[a] * l[b]
			}
		}
	}
	return smallestEigenvector(m)
}
