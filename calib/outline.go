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

// outlineSearch is the grid search by the board's outlines quads (in work pixels): the most
// confident of outlineCandidates (bestCandidate's choice), for Find's last pass. Where the lines
// are too faint to place or confirm a grid in an outline, the black stones may
// (outlineStoneGrid).
func outlineSearch(quads [][4]Point2) gridSearch {
	return func(_ context.Context, w *workImage, sizes []int, stones *stoneFinder) (gridFit, error) {
		cands := outlineCandidates(w, quads, sizes, lineCap(&w.lines))
		if stones != nil && (len(cands) == 0 || maxConf(cands) < DefaultMinConfidence) {
			stones.find(w) // the blobs, with or without a lattice of their own
			for _, q := range quads {
				g, ok := outlineStoneGrid(q, sizes, stones.blobs, w.lines.w, w.lines.h)
				if !ok {
					// A dim frame's stones, judged against the board around them.
					g, ok = outlineStoneGrid(q, sizes, dimStoneBlobs(&w.gray, q), w.lines.w, w.lines.h)
				}
				if ok {
					cands = append(cands, g)
				}
			}
		}
		best, ok := bestCandidate(cands, w.lines.w, w.lines.h)
		if !ok {
			return gridFit{}, fmt.Errorf("%w: no board outline", ErrNoBoard)
		}
		return best, nil
	}
}

// greyOutlines returns the board outlines in img reduced to maxSide (boardOutlines), in those
// work pixels, sx and sy of them per frame pixel.
func greyOutlines(img gocv.Mat, maxSide int) (quads [][4]Point2, sx, sy float64) {
	grey, sx, sy := shrinkToGray(img, maxSide)
	defer grey.Close()
	g, err := grayFromMat(grey)
	if err != nil {
		return nil, sx, sy
	}
	return boardOutlines(&g), sx, sy
}

// colourOutlines is boardOutlines on the frame's colour: the edges of each channel of its CIE
// Lab picture (reduced to maxSide, in whose pixels they are), at thresholds set from that
// channel's own spread, taken together. A wooden board on a table about as bright as it differs
// from it in colour, where the grey picture shows no edge. A grey frame has none.
func colourOutlines(img gocv.Mat, maxSide int) [][4]Point2 {
	if img.Channels() != 3 {
		return nil
	}
	small := img
	if sz, ok := shrunkSize(img, maxSide); ok {
		small = gocv.NewMat()
		defer small.Close()
		gocv.Resize(img, &small, sz, 0, 0, gocv.InterpolationArea)
	}
	lab := gocv.NewMat()
	defer lab.Close()
	gocv.CvtColor(small, &lab, gocv.ColorBGRToLab)
	edges := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(0, 0, 0, 0), small.Rows(), small.Cols(), gocv.MatTypeCV8UC1)
	defer edges.Close()
	for _, ch := range gocv.Split(lab) {
		blur, e, mean, sd := gocv.NewMat(), gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
		gocv.GaussianBlur(ch, &blur, image.Pt(5, 5), 0, 0, gocv.BorderDefault)
		gocv.MeanStdDev(blur, &mean, &sd)
		spread := float32(sd.GetDoubleAt(0, 0))
		gocv.Canny(blur, &e, max(8, 0.5*spread), max(16, spread))
		gocv.BitwiseOr(edges, e, &edges)
		for _, m := range []gocv.Mat{ch, blur, e, mean, sd} {
			m.Close()
		}
	}
	return edgeOutlines(edges)
}

// dimStoneBlobs is findDimStoneBlobs on the grey work image g, inside the outline q.
func dimStoneBlobs(g *grayPlane, q [4]Point2) []stoneBlob {
	gray, err := gocv.NewMatFromBytes(g.h, g.w, gocv.MatTypeCV8UC1, g.pix)
	if err != nil {
		return nil
	}
	defer gray.Close()
	return findDimStoneBlobs(gray, q)
}

// maxConf is the highest confidence among cands.
func maxConf(cands []gridFit) float64 {
	m := 0.0
	for _, c := range cands {
		m = max(m, c.conf)
	}
	return m
}

// The stones' grid in an outline: a person who cannot make out a dim board's lines still sees
// its edge against the table and its stones sitting on points in rows. The outline bounds the
// grid and the stones fix its size and margin: a grid of the wrong size or margin inside the same
// outline puts the stones near its edges off its points. Only black stones are looked for
// (findStoneBlobs), a dark disc on the wood being the one stone a dim frame shows plainly.
const (
	// outlineStonesMove is the farthest, in spacings, a corner of the grid fitted to the stones
	// may lie from where the outline put it.
	outlineStonesMove = 0.75
	// outlineMarginStep is the step of the margins tried, from the first to the last of
	// outlineMargins.
	outlineMarginStep = 0.025
	// outlineNearOff is the most, in spacings, the stones may sit off a grid's points on average
	// for the grid to be fitted to them where they sit on no grid of the outline's.
	outlineNearOff = 0.25
)

// outlineStoneGrid returns the grid of one of sizes inside the board outline q (TL, TR, BR, BL in
// the work pixels of a w x ht picture) on whose intersections the black stones blobs sit best: the
// size and margin (outlineMargins' range, in steps of outlineMarginStep) with the least mean
// distance of the stones inside from their nearest intersections, each blob's middle read on the
// plane of the stones' middles (stonesFitGrid), kept when they sit on its points (StoneFit.sitOn:
// at least stonesMin inside, stonesOn of them within a quarter spacing of one, their mean distance
// at most stonesOff, the size of a stone on that grid). That grid is then fitted to the stones
// themselves (fitToStones) and must still meet those conditions. Where they sit on no such grid
// but within outlineNearOff of one, that one is fitted to them twice, and must then meet them and
// lie within outlineStonesMove of where the outline put it. Its confidence is
// DefaultMinConfidence: as sure as a grid whose lines show, which the kiosk takes without reading
// it again, since a dim board's lines would not show there either.
func outlineStoneGrid(q [4]Point2, sizes []int, blobs []stoneBlob, w, ht int) (gridFit, bool) {
	h, ok := gridH(2, 2, q)
	if !ok || len(blobs) < stonesMin {
		return gridFit{}, false
	}
	// The size and margin the stones sit best on; where none has them on its points (the
	// outline's corners off: a hand, a bowl or the board's side along its near edge), the one they
	// sit nearest, which the stones themselves must then place.
	var best, near gridFit
	bestOff, nearOff := math.Inf(1), outlineNearOff
	for _, s := range sizes {
		for a := outlineMargins[0]; a <= outlineMargins[len(outlineMargins)-1]+1e-9; a += outlineMarginStep {
			g := gridFit{cols: s, rows: s, corners: insetCorners(h, s, a)}
			f := stonesFitGrid(g, blobs, w, ht)
			switch {
			case f.sitOn() && f.MeanOff < bestOff:
				best, bestOff = g, f.MeanOff
			case f.Inside >= stonesMin && f.MeanOff < nearOff:
				near, nearOff = g, f.MeanOff
			}
		}
	}
	rounds := 1
	if best.cols == 0 {
		best, rounds = near, 2
	}
	if best.cols == 0 {
		return gridFit{}, false
	}
	// The outline's corners can be off where no stone is (a hand, a bowl or the board's side
	// against its edge): the grid is fitted to the stones themselves, each at the intersection
	// it sits nearest, and kept only when they span most of it and it still lies where the
	// outline put it. A grid they only sat near is fitted twice, the second time to the stones
	// on the first fit's points.
	refit := best
	for r := 0; r < rounds; r++ {
		var ok bool
		if refit, ok = fitToStones(refit, blobs, w, ht); !ok {
			return gridFit{}, false
		}
	}
	if rounds > 1 && !cornersWithin(refit, best, outlineStonesMove) {
		return gridFit{}, false
	}
	if !stonesFitGrid(refit, blobs, w, ht).sitOn() {
		return gridFit{}, false
	}
	refit.conf = DefaultMinConfidence
	return refit, true
}

// fitToStones returns g fitted by least squares to the blobs inside it that sit within a quarter
// spacing of an intersection, each taken to that intersection; it fails when they span less than
// stonesSpan of the grid along either axis, or when the fitted grid's corners lie more than
// outlineStonesMove spacings from g's.
func fitToStones(g gridFit, blobs []stoneBlob, w, ht int) (gridFit, bool) {
	inv, ok := g.blobsToGrid(w, ht)
	if !ok {
		return gridFit{}, false
	}
	var src, dst []Point2
	lo, hi := Point2{X: math.Inf(1), Y: math.Inf(1)}, Point2{X: math.Inf(-1), Y: math.Inf(-1)}
	for _, b := range blobs {
		p := applyH(inv, Point2{b.x, b.y})
		if !onBoard(p, g.cols, g.rows) || offPoint(p) >= 0.25 {
			continue
		}
		n := Point2{math.Round(p.X), math.Round(p.Y)}
		src, dst = append(src, n), append(dst, Point2{b.x, b.y})
		lo = Point2{math.Min(lo.X, n.X), math.Min(lo.Y, n.Y)}
		hi = Point2{math.Max(hi.X, n.X), math.Max(hi.Y, n.Y)}
	}
	if len(src) < stonesMin || hi.X-lo.X < stonesSpan*float64(g.cols-1) || hi.Y-lo.Y < stonesSpan*float64(g.rows-1) {
		return gridFit{}, false
	}
	// The fit is the plane of the stones' middles; the grid is on the board below it.
	tops, ok := fitHomography(src, dst)
	if !ok {
		return gridFit{}, false
	}
	h := liftGrid(tops, -stoneLift, w, ht)
	u, v := float64(g.cols-1), float64(g.rows-1)
	out := gridFit{cols: g.cols, rows: g.rows}
	for i, c := range [4]Point2{{0, 0}, {u, 0}, {u, v}, {0, v}} {
		out.corners[i] = applyH(h, c)
		// How far the corner moved, in spacings of the outline's grid (its stones' plane).
		if q := applyH(inv, applyH(tops, c)); math.Hypot(q.X-c.X, q.Y-c.Y) > outlineStonesMove {
			return gridFit{}, false
		}
	}
	return out, true
}

// stonesFitGrid is how the black stones blobs sit on g's points (measureStones), the middle of
// each blob read on the plane of the stones' middles (blobsToGrid) in a w x ht picture.
func stonesFitGrid(g gridFit, blobs []stoneBlob, w, ht int) StoneFit {
	hg, ok := gridH(g.cols, g.rows, g.corners)
	if !ok {
		return StoneFit{}
	}
	inv, ok := blobsToGrid(hg, w, ht)
	if !ok {
		return StoneFit{}
	}
	sp := centreSpacing(func(u, v float64) Point2 { return applyH(hg, Point2{u, v}) }, g.cols, g.rows)
	return measureStones(blobs, g.cols, func(p Point2) Point2 { return applyH(inv, p) }, sp, nil)
}

// cornersWithin reports whether every corner of g lies within d spacings of ref's, in ref's grid.
func cornersWithin(g, ref gridFit, d float64) bool {
	q, c, ok := ref.cornersIn(g)
	if !ok {
		return false
	}
	for i := range q {
		if math.Hypot(q[i].X-c[i].X, q[i].Y-c[i].Y) > d {
			return false
		}
	}
	return true
}

// cornersIn returns g's corners in ref's grid units (col, row), and ref's own corners there;
// false when ref has no homography.
func (ref gridFit) cornersIn(g gridFit) (q, c [4]Point2, ok bool) {
	inv, ok := ref.pixelToGrid()
	if !ok {
		return q, c, false
	}
	u, v := float64(ref.cols-1), float64(ref.rows-1)
	c = [4]Point2{{0, 0}, {u, 0}, {u, v}, {0, v}}
	for i, p := range g.corners {
		q[i] = applyH(inv, p)
	}
	return q, c, true
}

// outlineCandidates proposes a grid of each allowed size inside each of the board outlines
// quads (in work pixels), placed and refined by the line evidence (bestPlacement), with its
// confidence.
func outlineCandidates(w *workImage, quads [][4]Point2, sizes []int, cap float32) []gridFit {
	var out []gridFit
	for _, q := range quads {
		h, ok := gridH(2, 2, q)
		if !ok {
			continue
		}
		for _, s := range sizes {
			cands := make([]gridFit, 0, len(outlineMargins))
			for _, a := range outlineMargins {
				cands = append(cands, gridFit{cols: s, rows: s, corners: insetCorners(h, s, a)})
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
	return edgeOutlines(edges)
}

// edgeOutlines returns the convex quadrilaterals (TL, TR, BR, BL) that the outer contours of the
// edge map edges form (its edges thickened first, so a board's edge broken by noise closes),
// each covering outlineMinArea to outlineMaxArea of the picture: a contour's convex hull
// simplified to four corners, and, where that is not the same, the quadrilateral its straight
// sides bound (sidesQuad), which a bowl or a sleeve touching the board does not bend.
func edgeOutlines(edges gocv.Mat) [][4]Point2 {
	kernel := gocv.GetStructuringElement(gocv.MorphRect, image.Pt(3, 3))
	defer kernel.Close()
	gocv.Dilate(edges, &edges, kernel)
	contours := gocv.FindContours(edges, gocv.RetrievalExternal, gocv.ChainApproxSimple)
	defer contours.Close()
	total := float64(edges.Cols() * edges.Rows())
	var out [][4]Point2
	for i := 0; i < contours.Size(); i++ {
		c := contours.At(i)
		if a := gocv.ContourArea(c); a < outlineMinArea*total {
			continue
		}
		pts := c.ToPoints()
		hull := convexHull(pts)
		if a := polygonArea(hull); a < outlineMinArea*total {
			continue
		}
		q, ok := quadOf(hull)
		if ok && polygonArea(hull) <= outlineMaxArea*total {
			out = append(out, q)
		}
		// Something that touches the board joins its contour: its straight sides still bound it.
		if s, found := sidesQuad(pts, edges.Cols(), edges.Rows()); found && !(ok && nearQuad(s, q, 0.02*quadPerimeter(q))) {
			out = append(out, s)
		}
	}
	return out
}

// nearQuad reports whether each corner of a lies within tol of b's (both ordered alike).
func nearQuad(a, b [4]Point2, tol float64) bool {
	for i := range a {
		if math.Hypot(a[i].X-b[i].X, a[i].Y-b[i].Y) > tol {
			return false
		}
	}
	return true
}

// quadPerimeter is the length of q's four sides.
func quadPerimeter(q [4]Point2) float64 {
	var n float64
	for i, a := range q {
		b := q[(i+1)%4]
		n += math.Hypot(b.X-a.X, b.Y-a.Y)
	}
	return n
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

// InsetGrid returns the grid of size lines inside the board outline q (TL, TR, BR, BL in the
// pixels of a w x h frame) with margin spacings between its outer lines and each side of the
// outline, as a board prints its grid in the middle of its face; it fails as FromCorners does.
func InsetGrid(q [4]Point2, size int, margin float64, w, h int) (Calibration, error) {
	hq, ok := gridH(2, 2, q)
	if !ok {
		return Calibration{}, fmt.Errorf("%w: the outline is not a quadrilateral", ErrCorners)
	}
	return FromCorners(w, h, size, insetCorners(hq, size, margin))
}

// insetCorners returns the corner intersections (TL, TR, BR, BL) of the grid of size lines inside
// the outline whose homography from the unit square is hq, margin spacings in from each side.
func insetCorners(hq [9]float64, size int, margin float64) [4]Point2 {
	m := margin / (float64(size-1) + 2*margin)
	return [4]Point2{applyH(hq, Point2{m, m}), applyH(hq, Point2{1 - m, m}),
		applyH(hq, Point2{1 - m, 1 - m}), applyH(hq, Point2{m, 1 - m})}
}

// Margins are the distances from a grid's outer lines to a board outline around it, in grid
// spacings: top, bottom, left and right as the grid's rows and columns run.
type Margins [4]float64

// Board margins an outline must show to frame a grid (Margins.Even): within the range of
// outlineMargins with some slack, and each side within outlineEven of the opposite one, since
// a board's grid is printed in the middle of its face. A grid a line off leaves one margin a
// spacing wider than the opposite one.
const (
	outlineEvenMin = 0.25
	outlineEvenMax = 1.65
	outlineEven    = 0.3
)

// Even reports whether the margins are a board's around its own grid: each between a quarter
// and about one and a half spacings, and each within 0.3 spacing of the opposite side's.
func (m Margins) Even() bool {
	for _, v := range m {
		if !(v >= outlineEvenMin && v <= outlineEvenMax) {
			return false
		}
	}
	return math.Abs(m[0]-m[1]) <= outlineEven && math.Abs(m[2]-m[3]) <= outlineEven
}

// Balanced returns the move by whole lines (columns, rows; at most two each way) after which the
// margins are a board's around the grid with opposite sides within tol spacing of each other, and
// whether there is one. A grid whose points the stones bear out, at the board's spacing, can still
// sit a line or two off the board's own lines where those are too faint to tell: each line it
// sits off leaves one margin two spacings wider than the opposite one, so a tol well under one
// spacing still tells a line's move apart from a board's uneven edge or a slightly bent fit.
func (m Margins) Balanced(tol float64) (cols, rows int, ok bool) {
	du, dv := math.Round((m[3]-m[2])/2), math.Round((m[1]-m[0])/2)
	if !(math.Abs(du) <= 2 && math.Abs(dv) <= 2) {
		return 0, 0, false
	}
	moved := Margins{m[0] + dv, m[1] - dv, m[2] + du, m[3] - du}
	for _, v := range moved {
		if !(v >= outlineEvenMin && v <= outlineEvenMax) {
			return 0, 0, false
		}
	}
	if math.Abs(moved[0]-moved[1]) > tol || math.Abs(moved[2]-moved[3]) > tol {
		return 0, 0, false
	}
	return int(du), int(dv), true
}

// OutlineMargins returns the margins of each board outline in img around c's grid: the grey
// picture's outlines (boardOutlines), not the colour's, which Find trusts only for a sure fit.
// An outline that does not enclose the grid gives negative margins.
func OutlineMargins(img gocv.Mat, c Calibration) ([]Margins, error) {
	if err := checkFrame(img); err != nil {
		return nil, err
	}
	if err := c.CheckImage(img.Cols(), img.Rows()); err != nil {
		return nil, err
	}
	quads, sx, sy := greyOutlines(img, defaultWorkSize)
	var out []Margins
	for _, q := range framePixels(quads, sx, sy) {
		if m, ok := c.MarginsTo(q); ok {
			out = append(out, m)
		}
	}
	return out, nil
}

// MarginsTo returns the margins of the board outline q (four corners in frame pixels, in any
// order around it) around c's grid, and false where they cannot be measured. An outline that
// does not enclose the grid gives negative margins.
func (c Calibration) MarginsTo(q [4]Point2) (Margins, bool) {
	last := float64(c.Size - 1)
	var rows, cols [4]float64
	for i, p := range q {
		at := c.ImageToGrid(p)
		rows[i], cols[i] = at.Y, at.X
	}
	// The outline's two corners nearest the grid's first row, and so on: the grid and the
	// outline may be ordered from different corners.
	slices.Sort(rows[:])
	slices.Sort(cols[:])
	m := Margins{-(rows[0] + rows[1]) / 2, (rows[2]+rows[3])/2 - last, -(cols[0] + cols[1]) / 2, (cols[2]+cols[3])/2 - last}
	return m, !math.IsNaN(m[0] + m[1] + m[2] + m[3])
}

// FramedByOutline reports whether a board outline in img frames c's grid evenly (Margins.Even),
// and gives that outline's margins: the board's edge against the table says where the grid
// lies when its lines are too faint or blurred to show at the points. A grid a line off, of
// the wrong size, or on a lattice of the table has no such outline around it.
func FramedByOutline(img gocv.Mat, c Calibration) (Margins, bool) {
	ms, err := OutlineMargins(img, c)
	if err != nil {
		return Margins{}, false
	}
	for _, m := range ms {
		if m.Even() {
			return m, true
		}
	}
	return Margins{}, false
}
