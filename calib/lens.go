package calib

import (
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"

	"tengen/internal/homography"
)

// Lens limits: a Calibration's Lens outside them is refused (ErrCorrupt). Below MinLens the
// model folds the frame's corners back on themselves; above MaxLens no camera a table uses bends.
const (
	MinLens = -0.25
	MaxLens = 0.5
)

// lensModel is one radial term about the frame's centre: a frame pixel d is where a pinhole camera
// would have put c + (d-c)(1 + k r^2), r being d's distance from the centre c in half-diagonals.
// Positive k is barrel distortion (straight lines bow outward), negative pincushion.
type lensModel struct {
	k, cx, cy, rn float64
}

func (c Calibration) lens() lensModel {
	w, h := float64(c.ImageWidth), float64(c.ImageHeight)
	return lensModel{k: c.Lens, cx: w / 2, cy: h / 2, rn: math.Hypot(w, h) / 2}
}

// straighten maps a frame pixel to the pinhole picture, where the board's lines are straight.
func (l lensModel) straighten(p Point2) Point2 {
	if l.k == 0 || l.rn == 0 {
		return p
	}
	dx, dy := (p.X-l.cx)/l.rn, (p.Y-l.cy)/l.rn
	f := 1 + l.k*(dx*dx+dy*dy)
	return Point2{l.cx + dx*f*l.rn, l.cy + dy*f*l.rn}
}

// bend maps a pixel of the pinhole picture to the frame (the inverse of straighten), by Newton's
// method on the radius.
func (l lensModel) bend(p Point2) Point2 {
	if l.k == 0 || l.rn == 0 {
		return p
	}
	ux, uy := (p.X-l.cx)/l.rn, (p.Y-l.cy)/l.rn
	ru := math.Hypot(ux, uy)
	if ru == 0 {
		return p
	}
	rd := ru
	for range 12 {
		d := 1 + 3*l.k*rd*rd
		if d <= 0.05 {
			break // past the fold of a strong pincushion: no frame pixel maps there
		}
		step := (rd*(1+l.k*rd*rd) - ru) / d
		rd -= step
		if math.Abs(step) < 1e-10 {
			break
		}
	}
	s := rd / ru
	return Point2{l.cx + ux*s*l.rn, l.cy + uy*s*l.rn}
}

// checkLens refuses a lens term that is not a number or outside MinLens..MaxLens.
func checkLens(k float64) error {
	if math.IsNaN(k) || k < MinLens || k > MaxLens {
		return fmt.Errorf("%w: lens term %v outside %g..%g", ErrCorrupt, k, MinLens, MaxLens)
	}
	return nil
}

// Lens fitting: the terms tried, and what a term must show to be kept.
const (
	// lensStep and lensSteps are the coarse search, 0 to 0.3 (a strong webcam lens); the best
	// term is then refined in steps of lensStep/4 around it. Only barrel terms are tried: a
	// wide lens above a board bows lines outward. Tried both ways on the labelled photos, a
	// pincushion term was fitted to a Roboflow photo whose straight grid sat a little off its
	// faint lines, where bending either way raised the contrast, and read it worse.
	lensStep  = 0.02
	lensSteps = 15
	// lensGain is how much more line contrast the best term must show than none.
	lensGain = 0.02
	// lensMoveMin is the least term for which the finder's corners move with it (fitFoundLens).
	// A term under it is mostly the refinement's, run down toward its floor (lensStep/4) while
	// the corners chased the lines' contrast: on late-game renders drawn with no lens such moves
	// took right grids from 0.03 to 0.10-0.12 spacing off. At 0.02, the search's first step, they
	// go either way (the gomrade photo 2/67: a corner from 0.20 to 0.27 spacing off the one
	// verified by eye). Terms of 0.025 to 0.04 are a weak lens's, and matter on a tilted board,
	// whose near corners lie far out in the frame: one put a board seen at 43 degrees right (0.60
	// to 0.28 spacing off, TestFindFollowsAWeakLensOnATiltedBoard). It was 0.04 until 2026-12-02.
	lensMoveMin = 0.025
	// lensStonesMin is the fewest black stones on the board by which stonesAgree judges a move.
	lensStonesMin = 8
	// lensStonesSlack is how much further off their points, on average in spacings, the stones
	// may sit on moved corners than on the found ones.
	lensStonesSlack = 0.05
)

// FitLens returns cal with the Lens term under which its grid lies best on the board's lines in
// frame, the corners kept where they are. A homography through four corners is a pinhole
// camera's grid; a wide lens bows the lines between them, a fifth of a spacing or more at a
// 19x19 board's edges, which is where the reader would then look beside its stones. The lines'
// contrast is measured along every grid line for barrel terms from 0 to 0.3, and the best term
// is kept only when it is a lens's doing (lensImage.keep). Otherwise Lens is 0. A calibration's
// frames never change the term, so it is fitted once, when the corners are set; Find fits it to
// the boards it finds with fitFoundLens, which moves their corners with it.
func FitLens(frame gocv.Mat, cal Calibration) (Calibration, error) {
	li, err := newLensImage(frame, cal)
	if err != nil {
		return cal, err
	}
	defer li.close()
	return li.fitFixed(), nil
}

// fitFixed is FitLens on a prepared frame.
func (li *lensImage) fitFixed() Calibration {
	straight := li.straight()
	best, bestS := straight, li.score(straight)
	at := func(k float64) Calibration {
		c := straight
		c.Lens = k
		return c
	}
	for i := 1; i <= lensSteps; i++ {
		c := at(lensStep * float64(i))
		if s := li.score(c); s > bestS {
			best, bestS = c, s
		}
	}
	coarse := best.Lens
	for i := -3; i <= 3; i++ {
		k := coarse + lensStep/4*float64(i)
		if i == 0 || k <= 0 {
			continue
		}
		c := at(k)
		if s := li.score(c); s > bestS {
			best, bestS = c, s
		}
	}
	if !li.keep(best, at(-best.Lens)) {
		return li.result(straight)
	}
	return li.result(best)
}

// fitFoundLens is FitLens for a grid the finder fitted: a straight grid fitted to a bent board's
// lines lies on them in the middle and off them at the corners (a little too large under a
// barrel lens), so the corners move with the term. For each term the corners are those whose bent
// grid comes nearest the found one (withLensFor), over all its intersections and, for a grid found
// at lensAnchorMin or more, over its middle half alone (lensAnchors); each way's best term's
// corners and term are then moved a coordinate at a time while the lines' contrast rises
// (refineCorners), and the grid that shows its lines better is kept as FitLens keeps a term. A
// term under lensMoveMin is no lens's doing but the refinement's (see there), so there the corners
// stay and FitLens decides the term.
func fitFoundLens(frame gocv.Mat, cal Calibration) (Calibration, error) {
	li, err := newLensImage(frame, cal)
	if err != nil {
		return cal, err
	}
	defer li.close()
	straight := li.straight()
	straightS := li.score(straight)
	// The best term for each way of matching the found grid, each then refined; the best refined.
	best, bestS, anchor := straight, straightS, lensAnchors[0]
	anchors := lensAnchors[:]
	if cal.Confidence < lensAnchorMin {
		anchors = anchors[:1]
	}
	for _, inner := range anchors {
		start, startS := straight, straightS
		for i := 1; i <= lensSteps; i++ {
			c, ok := withLensFor(straight, lensStep*float64(i), inner)
			if !ok {
				continue
			}
			if s := li.score(c); s > startS {
				start, startS = c, s
			}
		}
		if start.Lens == 0 {
			continue
		}
		if c, s := li.refineCorners(start, startS); s > bestS {
			best, bestS, anchor = c, s, inner
		}
	}
	if best.Lens == 0 {
		return li.fitFixed(), nil
	}
	opposite, ok := withLensFor(straight, -best.Lens, anchor)
	if best.Lens < lensMoveMin || !ok || !li.keep(best, opposite) || !li.stonesAgree(straight, best) {
		return li.fitFixed(), nil
	}
	return li.result(best), nil
}

// refineCorners moves c's corners and term a coordinate at a time, in steps of 0.1, 0.05 and
// 0.025 spacing, while its lines' contrast (score, s at the start) rises, and returns the grid it
// ends on and its score.
func (li *lensImage) refineCorners(c Calibration, s float64) (Calibration, float64) {
	sp := li.straight().Spacing()
	for _, step := range []float64{0.1, 0.05, 0.025} {
		for range 4 {
			moved := false
			for i := range 9 { // the eight corner coordinates, then the term
				for _, d := range []float64{step, -step} {
					m := c
					switch {
					case i == 8:
						m.Lens = max(lensStep/4, m.Lens+d/5)
					case i%2 == 0:
						m.Corners[i/2].X += d * sp
					default:
						m.Corners[i/2].Y += d * sp
					}
					if m.Validate() != nil {
						continue
					}
					if ms := li.score(m); ms > s {
						c, s, moved = m, ms, true
						break
					}
				}
			}
			if !moved {
				break
			}
		}
	}
	return c, s
}

// stonesAgree reports whether the black stones sit on moved's intersections about as well as on
// straight's (lensStonesSlack): a lens moves the stones with the lines, so the corners it moves
// must carry the stones along. The lines alone can gain contrast from a grid pulled off the
// board's edge rows (a crowded screen capture of a flat board, Roboflow 2ce631f40396, passed
// every line condition with its corners drawn 0.7 spacing inwards, its stones 0.25 spacing off
// their points on average instead of 0.07), and there the edge stones are left behind. With fewer
// than lensStonesMin stones on the board the lines decide alone.
func (li *lensImage) stonesAgree(straight, moved Calibration) bool {
	var off0, off1 float64
	n := 0
	for _, b := range findStoneBlobs(li.gray) {
		p := Point2{b.x, b.y}
		g0, g1 := straight.ImageToGrid(p), moved.ImageToGrid(p)
		if !onBoard(g0, straight.Size, straight.Size) {
			continue
		}
		off0 += offPoint(g0)
		off1 += offPoint(g1)
		n++
	}
	return n < lensStonesMin || off1 <= off0+lensStonesSlack*float64(n)
}

// lensAnchors are the shares of a found grid, about its middle, that fitFoundLens matches a bent
// grid to (withLensFor): all of it, or its middle half both ways. The finder's straight grid
// matches a bent board's lines in the middle and is too large at the corners, and a bent grid
// matched to all of it takes half of that error in: on late-game 19x19 renders through a barrel
// lens, grids found 0.6 to 0.8 spacing off at a corner came out 0.5 to 0.8 off matched to all
// their intersections and 0.2 to 0.3 off matched to their middle half, whose lines they showed
// better. Only a grid found at lensAnchorMin or more is matched by its middle half too.
var lensAnchors = [...]float64{1, 0.5}

// lensAnchorMin is the least confidence of a found grid whose middle fitFoundLens trusts
// (lensAnchors): the bar under which vision.FindBoard asks whether a grid's stones sit between its
// points (vision.CentreBelow), since a grid found under it may be off in the middle. Such grids'
// middle halves bent two right grids found at 0.40 and 0.36 (half a spacing across the stones)
// 0.8 and 0.9 spacing off at a corner, one the black stones placed in the board's outline (given
// DefaultMinConfidence, its middle on the stones) 0.5 off, and a hand-drawn 13x13 grid found at
// 0.51 (Roboflow 820b7ea01ecb) up to 0.6 spacing inwards, its stones left off their points.
const lensAnchorMin = 0.65

// withLensFor returns a calibration with lens term k whose grid matches cal's straight grid as
// closely as a bent grid can over the share inner of it about its middle (1: all of it): cal's
// intersections there straightened by k, a homography fitted to them by least squares, and its
// corners bent back. ok is false when they make no calibration.
func withLensFor(cal Calibration, k, inner float64) (Calibration, bool) {
	c := cal
	c.Lens = k
	l := c.lens()
	h := cal.GridToImage()
	src := make([][2]float64, 0, cal.Size*cal.Size)
	dst := make([][2]float64, 0, cal.Size*cal.Size)
	mid, reach := float64(cal.Size-1)/2, inner*float64(cal.Size-1)/2+1e-9
	for row := 0; row < cal.Size; row++ {
		for col := 0; col < cal.Size; col++ {
			if math.Abs(float64(col)-mid) > reach || math.Abs(float64(row)-mid) > reach {
				continue
			}
			p := l.straighten(applyH(h, Point2{float64(col), float64(row)}))
			src = append(src, [2]float64{float64(col), float64(row)})
			dst = append(dst, [2]float64{p.X, p.Y})
		}
	}
	m, ok := homography.Fit(src, dst)
	if !ok {
		return cal, false
	}
	n := float64(cal.Size - 1)
	for i, g := range [4]Point2{{0, 0}, {n, 0}, {n, n}, {0, n}} {
		c.Corners[i] = l.bend(applyH([9]float64(m), g))
	}
	return c, c.Validate() == nil
}

// lensImage is a frame made ready for judging lens terms of one board: its grey pixels and the
// grid-line samples of the board's straight grid, in the lines' polarity.
type lensImage struct {
	gray    gocv.Mat
	g       grayPlane // a view of gray's pixels
	cal     Calibration
	light   bool // the caller's LightLines, given back by result
	samples []lineSample
}

// newLensImage prepares frame for judging lens terms of cal's board; the caller closes it.
func newLensImage(frame gocv.Mat, cal Calibration) (*lensImage, error) {
	if err := cal.Validate(); err != nil {
		return nil, err
	}
	if err := cal.CheckImage(frame.Cols(), frame.Rows()); err != nil {
		return nil, err
	}
	gray, err := lensGray(frame, cal.Spacing())
	if err != nil {
		return nil, err
	}
	pix, err := gray.DataPtrUint8()
	if err != nil || len(pix) != gray.Cols()*gray.Rows() {
		gray.Close()
		return nil, fmt.Errorf("%w: grey frame: %v", ErrBadImage, err)
	}
	// A view of OpenCV's memory, read while gray is open: no copy on the Go heap.
	li := &lensImage{gray: gray, g: grayPlane{w: gray.Cols(), h: gray.Rows(), pix: pix}, cal: cal, light: cal.LightLines}
	li.cal.Lens = 0
	li.samples = lineSamples(&li.g, li.cal)
	// The lines' polarity as they show with no term: corners set by hand do not say it.
	dark, light := li.cal, li.cal
	dark.LightLines, light.LightLines = false, true
	li.cal.LightLines = li.score(light) > li.score(dark)
	return li, nil
}

func (li *lensImage) close() { li.gray.Close() }

// result is c as the caller gets it: in the caller's polarity, the term to four decimals.
func (li *lensImage) result(c Calibration) Calibration {
	c.LightLines = li.light
	c.Lens = math.Round(c.Lens*1e4) / 1e4
	return c
}

// straight is the board's calibration with no lens term, in the polarity its lines show.
func (li *lensImage) straight() Calibration { return li.cal }

// score is the mean contrast of c's grid lines (lineContrast).
func (li *lensImage) score(c Calibration) float64 {
	s, _ := lineContrast(&li.g, c, li.samples)
	return s
}

// keep says whether a lens term is a lens's doing: its grid shows lensGain more line contrast
// than the straight one, more along each of the board's four sides (their outer thirds), and the
// same grid bent the other way shows less than the straight one (a straight grid a little off
// its lines gains from a bend either way).
func (li *lensImage) keep(bent, opposite Calibration) bool {
	base, sides0 := lineContrast(&li.g, li.straight(), li.samples)
	s, sides := lineContrast(&li.g, bent, li.samples)
	if bent.Lens <= 0 || base <= 0 || s < base*(1+lensGain) || li.score(opposite) >= base {
		return false
	}
	for i := range sides {
		if sides[i] <= sides0[i] {
			return false
		}
	}
	return true
}

// lensGray is the frame in grey, smoothed a little so that a line a pixel wide is seen from
// a fraction of a pixel beside it. The caller closes it.
func lensGray(frame gocv.Mat, spacing float64) (gocv.Mat, error) {
	gray := gocv.NewMat()
	switch {
	case frame.Empty():
	case frame.Type() == gocv.MatTypeCV8UC1:
		frame.CopyTo(&gray)
	case frame.Type() == gocv.MatTypeCV8UC3:
		gocv.CvtColor(frame, &gray, gocv.ColorBGRToGray)
	case frame.Type() == gocv.MatTypeCV8UC4:
		gocv.CvtColor(frame, &gray, gocv.ColorBGRAToGray)
	}
	if gray.Empty() || !gray.IsContinuous() {
		gray.Close()
		return gocv.Mat{}, fmt.Errorf("%w: need 8-bit grey, BGR or BGRA pixels, got %v (%dx%d)", ErrBadImage, frame.Type(), frame.Cols(), frame.Rows())
	}
	sigma := max(0.8, spacing/40)
	gocv.GaussianBlur(gray, &gray, image.Pt(0, 0), sigma, sigma, gocv.BorderReplicate)
	return gray, nil
}

// lineSample is where lineContrast looks: a point on a grid line and the two points a third of a
// spacing to either side of it, in grid coordinates, and the board edge it is nearest to (left,
// top, right, bottom) when it lies in the board's outer third, or -1.
type lineSample struct {
	on, a, b Point2
	side     int
}

// lineSamples lists every fifth of a spacing along every grid line of cal whose three points lie
// in g on the straight grid through the corners: lineContrast judges every lens term on the same
// samples, and one a term bends out of the frame counts as no contrast.
func lineSamples(g *grayPlane, cal Calibration) []lineSample {
	straight := cal
	straight.Lens = 0
	at := straight.GridMapper()
	inFrame := func(p Point2) bool {
		q := at(p.X, p.Y)
		_, ok := g.bilinear(q.X, q.Y)
		return ok
	}
	n := float64(cal.Size - 1)
	const side, step = 0.3, 0.2
	out := make([]lineSample, 0, 2*(cal.Size)*(int(n/step)+1))
	for i := 0; i <= int(n); i++ {
		fi := float64(i)
		for j := 0; float64(j)*step <= n+1e-9; j++ {
			t := float64(j) * step
			for _, q := range [2]lineSample{
				{on: Point2{fi, t}, a: Point2{fi - side, t}, b: Point2{fi + side, t}}, // across column line i
				{on: Point2{t, fi}, a: Point2{t, fi - side}, b: Point2{t, fi + side}}, // across row line i
			} {
				if !inFrame(q.on) || !inFrame(q.a) || !inFrame(q.b) {
					continue
				}
				d := [4]float64{q.on.X, q.on.Y, n - q.on.X, n - q.on.Y}
				q.side = 0
				for k := range d {
					if d[k] < d[q.side] {
						q.side = k
					}
				}
				if d[q.side] >= n/3 {
					q.side = -1
				}
				out = append(out, q)
			}
		}
	}
	return out
}

// lineContrast is the mean contrast of cal's grid lines in g at the samples: how much darker the
// line is than the board to either side (or lighter, for light lines), counted from 0 up to a cap
// so that a stone's rim or a shadow does not outweigh the lines. sides is the same on the samples
// nearest each of the board's edges in its outer third, where a lens bends the grid most.
func lineContrast(g *grayPlane, cal Calibration, samples []lineSample) (all float64, sides [4]float64) {
	if len(samples) == 0 {
		return 0, sides
	}
	at := cal.GridMapper()
	sign := 1.0
	if cal.LightLines {
		sign = -1
	}
	const cap = 40.0
	var sum float64
	var sideSum [4]float64
	var sideCount [4]int
	for _, q := range samples {
		p0, p1, p2 := at(q.on.X, q.on.Y), at(q.a.X, q.a.Y), at(q.b.X, q.b.Y)
		c, ok0 := g.bilinear(p0.X, p0.Y)
		a, ok1 := g.bilinear(p1.X, p1.Y)
		b, ok2 := g.bilinear(p2.X, p2.Y)
		v := 0.0
		if ok0 && ok1 && ok2 {
			v = max(0, min(cap, sign*((a+b)/2-c)))
		}
		sum += v
		if q.side >= 0 {
			sideSum[q.side] += v
			sideCount[q.side]++
		}
	}
	for k := range sides {
		if sideCount[k] > 0 {
			sides[k] = sideSum[k] / float64(sideCount[k])
		}
	}
	return sum / float64(len(samples)), sides
}
