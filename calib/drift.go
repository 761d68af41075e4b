package calib

import (
	"fmt"
	"math"

	"gocv.io/x/gocv"
)

// DriftReport says whether a frame still matches a calibration.
type DriftReport struct {
	// Moved is true when the grid no longer lies on the board's lines: recalibrate (Refind).
	Moved bool
	// Contrast is the line evidence on the expected grid against between it, 0..1
	// (near the calibration's Confidence when nothing moved).
	Contrast float64
	// Reason explains Moved in a few words ("" when not moved).
	Reason string
	// Test is the test that found the move (DriftNone when not moved).
	Test DriftTest
}

// DriftTest names one of Check's tests, so that a caller can tell a sign the board showed from
// the start (CheckPast) from a new one.
type DriftTest uint8

// DriftTests is a set of Check's tests.
type DriftTests uint32

// With returns the set with t added.
func (s DriftTests) With(t DriftTest) DriftTests { return s | 1<<t }

// Has reports whether t is in the set.
func (s DriftTests) Has(t DriftTest) bool { return s&(1<<t) != 0 }

// Check's tests. The edge tests are one per side, DriftEdgeMissing or DriftLineBeyond plus the
// side (0 top, 1 right, 2 bottom, 3 left, in the grid's own rows and columns); the moved copies
// one per move, DriftFitsMoved plus its number.
const (
	DriftNone        DriftTest = iota
	DriftNoLines               // the grid's lines barely stand out: everything after is unjudged
	DriftEdgeMissing           // an edge line is not there (four tests)
	_
	_
	_
	DriftLineBeyond // a grid line one spacing beyond an edge (four tests)
	_
	_
	_
	DriftFitsMoved // a copy of the grid moved a third of a spacing fits better (eight tests, one per move)
	_
	_
	_
	_
	_
	_
	_
	DriftStonesOff // the black stones no longer sit on the grid's points (StoneFit.Holds; asked when DriftNoLines is known)
)

// Check measures, cheaply, whether frame still matches cal: it samples the line map along the
// expected grid lines and along slightly moved copies of the grid; if a moved copy fits better,
// or the lines are gone, or a line appears just beyond an edge, the board or camera moved.
// A hand over the board also lowers the contrast, so callers should require a few consecutive
// Moved reports before acting. A grid bent by a lens term is sampled along its bent lines.
func Check(frame gocv.Mat, cal Calibration) (DriftReport, error) {
	return CheckPast(frame, cal, 0)
}

// CheckPast is Check passing over the tests in known, which the board's own frame failed when it
// was found (a board's edge against a dark table read as a line beyond the grid, an edge line
// faint under a lamp): a sign that was there from the start says nothing about a move, and the
// other tests still run. Each moved copy of the grid is its own test, so passing over one leaves
// the other seven moves. The lines' contrast (DriftNoLines) rests under every other line test:
// a board whose lines never stood out (a dim board found by its stones) is watched by its stones
// instead (DriftStonesOff: FitStones must still find them on its points).
func CheckPast(frame gocv.Mat, cal Calibration, known DriftTests) (DriftReport, error) {
	if err := cal.Validate(); err != nil {
		return DriftReport{}, err
	}
	if err := cal.CheckImage(frame.Cols(), frame.Rows()); err != nil {
		return DriftReport{}, err
	}
	if known.Has(DriftNoLines) {
		return checkStones(frame, cal)
	}
	w, err := prepareWith(frame, checkWorkSize, false, lineFilter{light: cal.LightLines, compact: true})
	if err != nil {
		return DriftReport{}, err
	}
	defer w.close()
	return w.check(cal, known), nil
}

// checkWorkSize is the longer side drift checks work at; coarser than finding, it is enough to
// see a shift of a quarter spacing.
const checkWorkSize = 800

// toWork maps corners in the frame's pixels (a calibration's) into work pixels.
func (w *workImage) toWork(corners [4]Point2) [4]Point2 {
	var cs [4]Point2
	for i, p := range corners {
		cs[i] = Point2{(p.X+0.5)*w.sx - 0.5, (p.Y+0.5)*w.sy - 0.5}
	}
	return cs
}

// lensToWork is the frame's lens l in work pixels: the same term about the centre's work pixel,
// the half-diagonal scaled (the work image is the frame scaled alike both ways, to a pixel).
func (w *workImage) lensToWork(l lensModel) lensModel {
	return lensModel{k: l.k, cx: (l.cx+0.5)*w.sx - 0.5, cy: (l.cy+0.5)*w.sy - 0.5, rn: l.rn * math.Sqrt(w.sx*w.sy)}
}

// check is Check on a prepared frame.
func (w *workImage) check(cal Calibration, known DriftTests) DriftReport {
	// The grid in the work image's pinhole picture, and the lens that bends it onto the lines.
	l := cal.lens()
	var pinhole [4]Point2
	for i, c := range cal.Corners {
		pinhole[i] = l.straighten(c)
	}
	cs := w.toWork(pinhole)
	bend := w.lensToWork(l)
	cap := lineCap(&w.lines)
	n := cal.Size
	on, off, _ := bentGridEvidence(&w.lines, n, n, cs, bend, cap, false)
	rep := DriftReport{}
	if on > 0 {
		rep.Contrast = math.Max(0, (on-off)/(on+1))
	}
	base := on - off
	if rep.Contrast < 0.3 {
		rep.Moved, rep.Reason, rep.Test = true, fmt.Sprintf("grid lines not found (contrast %.2f)", rep.Contrast), DriftNoLines
		return rep
	}
	h, ok := gridH(n, n, cs)
	if !ok {
		rep.Moved, rep.Reason, rep.Test = true, "degenerate calibration", DriftNoLines
		return rep
	}
	// Each edge line must be there and no line one spacing beyond it with the crossing lines
	// running on to it (a shift by a whole spacing keeps the lattice aligned but breaks this).
	// The crossing lines are what tell a grid line from the board's own edge: a pale board's
	// side face or its edge against a dark table reads as a line out there, with bare margin
	// before it. They are judged as the finder judges a lattice that continues (the stubs as most
	// lines show them: an edge stone's rim reaches into the gap on its own line only).
	r := evidenceReader{lines: &w.lines, h: h, cap: cap, along: fineAlong, bend: bend}
	last := float64(n - 1)
	// Small offsets tolerate harmless sub-line misalignment.
	var edges, beyond [4]float64
	for d := -0.15; d <= 0.151; d += 0.05 {
		e := [4]float64{r.rowLine(d, n), r.colLine(last+d, n), r.rowLine(last+d, n), r.colLine(d, n)}
		b := [4]float64{r.rowLine(-1+d, n), r.colLine(last+1+d, n), r.rowLine(last+1+d, n), r.colLine(-1+d, n)}
		for s := 0; s < 4; s++ {
			edges[s] = math.Max(edges[s], e[s])
			beyond[s] = math.Max(beyond[s], b[s])
		}
	}
	outStubs := r.gapStubsQuantile(n, n, 1, 0.5)
	for s := 0; s < 4; s++ {
		if t := DriftEdgeMissing + DriftTest(s); edges[s] < 0.3*on && !known.Has(t) {
			rep.Moved, rep.Reason, rep.Test = true, fmt.Sprintf("the %s edge line is missing", sideNames[[4]int{1, 3, 0, 2}[s]]), t
			return rep
		}
		if t := DriftLineBeyond + DriftTest(s); min(beyond[s], outStubs[s]) > 0.5*on && !known.Has(t) {
			rep.Moved, rep.Reason, rep.Test = true, fmt.Sprintf("a line appears beyond the %s edge", sideNames[[4]int{1, 3, 0, 2}[s]]), t
			return rep
		}
	}
	// Moved copies of the grid, a third of a spacing away: shifts, a rotation, a scaling.
	const d = 0.35
	m := float64(n-1) / 2
	moves := []func(u, v float64) (float64, float64){
		func(u, v float64) (float64, float64) { return u + d, v },
		func(u, v float64) (float64, float64) { return u - d, v },
		func(u, v float64) (float64, float64) { return u, v + d },
		func(u, v float64) (float64, float64) { return u, v - d },
		func(u, v float64) (float64, float64) { return u + d*(v-m)/m, v - d*(u-m)/m },
		func(u, v float64) (float64, float64) { return u - d*(v-m)/m, v + d*(u-m)/m },
		func(u, v float64) (float64, float64) { return m + (u-m)*(1+d/m), m + (v-m)*(1+d/m) },
		func(u, v float64) (float64, float64) { return m + (u-m)*(1-d/m), m + (v-m)*(1-d/m) },
	}
	grid := [4]Point2{{0, 0}, {float64(n - 1), 0}, {float64(n - 1), float64(n - 1)}, {0, float64(n - 1)}}
	for i, mv := range moves {
		var c [4]Point2
		for k, g := range grid {
			u, v := mv(g.X, g.Y)
			c[k] = applyH(h, Point2{u, v})
		}
		t := DriftFitsMoved + DriftTest(i)
		if known.Has(t) {
			continue
		}
		on2, off2, _ := bentGridEvidence(&w.lines, n, n, c, bend, cap, true)
		if on2-off2 > base {
			rep.Moved, rep.Test = true, t
			rep.Reason = fmt.Sprintf("grid fits better moved (variant %d: %.1f > %.1f)", i, on2-off2, base)
			return rep
		}
	}
	return rep
}

// checkStones is the drift check of a board whose lines do not stand out: the board or the camera
// moved when the black stones no longer sit on the grid (StoneFit.Holds).
func checkStones(frame gocv.Mat, cal Calibration) (DriftReport, error) {
	fit, err := FitStones(frame, cal)
	if err != nil {
		return DriftReport{}, err
	}
	if fit.Holds() {
		return DriftReport{}, nil
	}
	return DriftReport{Moved: true, Test: DriftStonesOff, Reason: "the stones no longer sit on the grid's points: " + fit.String()}, nil
}

// Refind finds the board again after it or the camera was bumped: a full search restricted to
// the calibrated size, keeping which side Black sits on. It returns ErrNoBoard if the board
// cannot be found (for example while a hand covers it).
func Refind(frame gocv.Mat, cal Calibration) (Calibration, error) {
	if err := cal.Validate(); err != nil {
		return Calibration{}, err
	}
	if err := cal.CheckImage(frame.Cols(), frame.Rows()); err != nil {
		return Calibration{}, err
	}
	c, err := Find(frame, FindOptions{Size: cal.Size})
	if err != nil {
		return Calibration{}, fmt.Errorf("calib: refind: %w", err)
	}
	// Corners are ordered by image position, so for any bump smaller than an eighth of a turn
	// (a square board turned further is indistinguishable from a smaller opposite turn) the
	// same image edge is still Black's.
	c.BlackSide = cal.BlackSide
	return c, nil
}
