package calib

import (
	"context"
	"fmt"
	"image"
	"math"
	"slices"

	"gocv.io/x/gocv"
)

// The board's outline is the cue a person uses first: a goban's face stands out from the table
// around it even where its lines are too faint, blurred or hidden to form a lattice. Its
// quadrilateral, with the grid inside at some margin, proposes grids that the line evidence
// then places and judges like any other candidate.

// outlineMinArea and outlineMaxArea bound a board face's share of the picture.
const (
	outlineMinArea = 0.02
	outlineMaxArea = 0.95
)

// outlineMargins are the board margins tried, in grid spacings from the outer line to the
// board's edge: printed and wooden boards run from about a third to one and a half spacings.
var outlineMargins = [...]float64{0.3, 0.45, 0.6, 0.75, 0.9, 1.05, 1.2, 1.35, 1.5}

// outlineGrid is the grid search by the board's outline alone: the most confident of
// outlineCandidates (bestCandidate's choice), for Find's last pass.
func outlineGrid(_ context.Context, w *workImage, sizes []int, _ *stoneFinder) (gridFit, error) {
	best, ok := bestCandidate(outlineCandidates(w, sizes, lineCap(&w.lines)), w.lines.w, w.lines.h)
	if !ok {
		return gridFit{}, fmt.Errorf("%w: no board outline", ErrNoBoard)
	}
	return best, nil
}

// outlineCandidates proposes a grid of each allowed size inside each board outline found in
// the grey work image, placed and refined by the line evidence (bestPlacement), with its
// confidence.
func outlineCandidates(w *workImage, sizes []int, cap float32) []gridFit {
	if w.gray.pix == nil {
		return nil
	}
	var out []gridFit
	for _, q := range boardOutlines(&w.gray) {
		h, ok := gridH(2, 2, q)
		if !ok {
			continue
		}
		for _, s := range sizes {
			cands := make([]gridFit, 0, len(outlineMargins))
			for _, a := range outlineMargins {
				m := a / (float64(s-1) + 2*a)
				cands = append(cands, gridFit{cols: s, rows: s, corners: [4]Point2{
					applyH(h, Point2{m, m}), applyH(h, Point2{1 - m, m}),
					applyH(h, Point2{1 - m, 1 - m}), applyH(h, Point2{m, 1 - m})}})
			}
			g, ok := bestPlacement(&w.lines, cands, cap)
			if !ok {
				continue
			}
			g.conf = g.confidence(&w.lines, &w.gray, cap)
			out = append(out, g)
		}
	}
	return out
}

// boardOutlines returns the convex quadrilaterals (TL, TR, BR, BL) that the outer contours of
// the grey image's edges form, each covering outlineMinArea to outlineMaxArea of the picture.
// The edges are found with thresholds set from the picture's own median (a third below and
// above it), so a dim frame and a bright one are treated alike.
func boardOutlines(g *grayPlane) [][4]Point2 {
	src, err := gocv.NewMatFromBytes(g.h, g.w, gocv.MatTypeCV8UC1, g.pix)
	if err != nil {
		return nil
	}
	defer src.Close()
	blur := gocv.NewMat()
	defer blur.Close()
	gocv.GaussianBlur(src, &blur, image.Pt(5, 5), 0, 0, gocv.BorderDefault)
	med := float32(byteRank(g.pix, (len(g.pix)+1)/2)) // the median
	edges := gocv.NewMat()
	defer edges.Close()
	gocv.Canny(blur, &edges, max(10, 0.66*med), max(30, 1.33*med))
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	defer kernel.Close()
	gocv.Dilate(edges, &edges, kernel)
	contours := gocv.FindContours(edges, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer contours.Close()
	total := float64(g.w * g.h)
	var out [][4]Point2
	for i := 0; i < contours.Size(); i++ {
		c := contours.At(i)
		if a := gocv.ContourArea(c); a < outlineMinArea*total {
			continue
		}
		hull := convexHull(c.ToPoints())
		if a := polygonArea(hull); a < outlineMinArea*total || a > outlineMaxArea*total {
			continue
		}
		if q, ok := quadOf(hull); ok {
			out = append(out, q)
		}
	}
	return out
}

// quadOf simplifies a convex polygon to four corners (Douglas-Peucker, the tolerance raised
// from 2% to 8% of its perimeter until four are left), ordered TL, TR, BR, BL.
func quadOf(hull []image.Point) ([4]Point2, bool) {
	pv := gocv.NewPointVectorFromPoints(hull)
	defer pv.Close()
	per := gocv.ArcLength(pv, true)
	for eps := 0.02; eps <= 0.081; eps += 0.01 {
		approx := gocv.ApproxPolyDP(pv, eps*per, true)
		pts := approx.ToPoints()
		approx.Close()
		if len(pts) < 4 {
			return [4]Point2{}, false
		}
		if len(pts) == 4 {
			var q [4]Point2
			for i, p := range pts {
				q[i] = Point2{float64(p.X), float64(p.Y)}
			}
			return orderCorners(q), true
		}
	}
	return [4]Point2{}, false
}

// convexHull returns the convex hull of pts, counter-clockwise in image coordinates (Andrew's
// monotone chain).
func convexHull(pts []image.Point) []image.Point {
	if len(pts) < 3 {
		return pts
	}
	ps := slices.Clone(pts)
	slices.SortFunc(ps, func(a, b image.Point) int {
		if a.X != b.X {
			return a.X - b.X
		}
		return a.Y - b.Y
	})
	turn := func(o, a, b image.Point) int {
		return (a.X-o.X)*(b.Y-o.Y) - (a.Y-o.Y)*(b.X-o.X)
	}
	hull := make([]image.Point, 0, 2*len(ps))
	for _, p := range ps {
		for len(hull) >= 2 && turn(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	lower := len(hull) + 1
	for i := len(ps) - 2; i >= 0; i-- {
		p := ps[i]
		for len(hull) >= lower && turn(hull[len(hull)-2], hull[len(hull)-1], p) <= 0 {
			hull = hull[:len(hull)-1]
		}
		hull = append(hull, p)
	}
	return hull[:len(hull)-1]
}

// polygonArea is the area of a simple polygon (shoelace formula).
func polygonArea(p []image.Point) float64 {
	var a float64
	for i := range p {
		j := (i + 1) % len(p)
		a += float64(p[i].X*p[j].Y - p[j].X*p[i].Y)
	}
	return math.Abs(a) / 2
}
