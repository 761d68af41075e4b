package calib

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"gocv.io/x/gocv"
)

// FindOptions tunes Find. The zero value looks for 9x9, 13x13 and 19x19 boards.
type FindOptions struct {
	// Size, when not zero, is the only board size considered (MinSize..MaxSize).
	Size int
	// MinConfidence rejects weaker fits with ErrNoBoard; 0 means DefaultMinConfidence.
	MinConfidence float64
	// WorkSize is the longer image side used for finding; 0 means 1000 pixels.
	WorkSize int
	// Context, when set, lets a caller abandon a search (checked between candidates).
	Context context.Context
}

// DefaultMinConfidence is the least confidence Find accepts by default.
const DefaultMinConfidence = 0.5

// DefaultSizes are the board sizes Find looks for when FindOptions.Size is zero.
var defaultSizes = [...]int{9, 13, 19}

// Find locates the board in one frame (BGR, BGRA or grey): its size, the corner intersections,
// the lens's bending of the lines between them (fitFoundLens) and a confidence in 0..1. It returns an
// error wrapping ErrNoBoard when no grid is convincing, and ErrBadImage for an empty or
// unsupported Mat. Black's side defaults to the image bottom.
func Find(img gocv.Mat, opts FindOptions) (Calibration, error) {
	c, err := findStraight(img, opts)
	if err != nil {
		return c, err
	}
	return fitFoundLens(img, c)
}

// findStraight is Find without the lens term: the straight grid through the corners.
func findStraight(img gocv.Mat, opts FindOptions) (Calibration, error) {
	if opts.Size != 0 && (opts.Size < MinSize || opts.Size > MaxSize) {
		return Calibration{}, fmt.Errorf("%w: %d", ErrBoardSize, opts.Size)
	}
	// Almost every board has dark lines on a lighter surface; electronic and some painted
	// boards have light lines on a dark one. Try the common case first, then (for a weak or
	// missing fit) a wider line filter, which sees the lines of a blurred frame, then the same
	// on a smoothed frame (a blurred frame is often a noisy one too), then light lines through
	// the same three filters, then dark lines with the noise floor taken off, then the wide
	// filter on the frame with its contrast evened out, that pass's grid judged again on another
	// map (rescore), then the grids the board's outline proposes (outlineSearch): first the grey
	// picture's outlines, then the colour's; and last the grid the black stones place where
	// their lattice runs on past any board (stoneWindowSearch). An unsure fit of the first
	// passes is not the end either: the noise-floor and outline passes' sure grids replace it
	// where they contradict it (contradicted).
	stones := &stoneFinder{} // the passes share one grey work image, so one search for stones
	var dark, light, equalized passReport
	c, err := findPolarity(img, opts, lineFilter{}, stones, &dark)
	if (err == nil && c.Confidence >= DefaultMinConfidence) || (err != nil && !errors.Is(err, ErrNoBoard)) {
		return c, err
	}
	c2, err2 := bestPass(img, opts, []lineFilter{{wide: true}, {wide: true, smooth: true}}, stones)
	if err2 != nil && !errors.Is(err2, ErrNoBoard) {
		return c2, err2
	}
	if err2 == nil && (err != nil || c2.Confidence > c.Confidence) {
		c, err = c2, nil
	}
	// Light lines, whenever the first dark pass was not sure: on a board with light lines the
	// dark wood between them can pass for a lattice of dark lines. A light fit replaces a dark
	// one only when clearly better: on a crowded board both may find the same grid, and a
	// light-lined grid is checked further in its own polarity.
	c3, err3 := findPolarity(img, opts, lineFilter{light: true}, stones, &light)
	if err3 != nil && !errors.Is(err3, ErrNoBoard) {
		return c3, err3
	}
	if (err3 != nil || c3.Confidence < DefaultMinConfidence) && light.segments > dark.segments {
		// Light lines blur and break up in noise as dark ones do, so the same wider filters
		// follow, when the frame's straight lines are more light than dark. They see more of the
		// dark wood's own texture between light lines as well, and a weak light fit is not
		// checked in the polarity the board may really have, so only a sure fit counts from
		// them, whatever bar the caller set.
		sure := opts
		sure.MinConfidence = DefaultMinConfidence
		cw, errw := bestPass(img, sure, []lineFilter{{light: true, wide: true}, {light: true, wide: true, smooth: true}}, stones)
		if errw != nil && !errors.Is(errw, ErrNoBoard) {
			return cw, errw
		}
		if errw == nil && (err3 != nil || cw.Confidence > c3.Confidence) {
			c3, err3 = cw, nil
		}
	}
	if err3 == nil && (err != nil || c3.Confidence > c.Confidence+lightMargin) {
		return c3, nil
	}
	if err == nil {
		if c.Confidence < DefaultMinConfidence {
			if other, ok := contradicted(img, opts, stones, c); ok {
				return other, nil
			}
		}
		return c, nil
	}
	// Then dark lines again with the line map's noise floor taken off: in a dim, noisy frame
	// the filter's response to noise is most of a faint line's own, so every grid's lines seem
	// to stand out from nothing. On 900 rendered photos this found 11 more boards (1 wrong).
	if c4, err4 := findPolarity(img, opts, lineFilter{floor: true}, stones, nil); err4 == nil || !errors.Is(err4, ErrNoBoard) {
		return c4, err4
	}
	// And once more on the frame with its contrast evened out tile by tile, through the wide
	// filter: a blurred board under a dim or glaring lamp whose lines stand a few levels from
	// the wood. Evening out the contrast raises the noise and the clutter's edges as well, so
	// only a sure fit counts here, whatever bar the caller set: on 600 rendered photos this
	// found 4 more boards (and a fifth at 0.40), none wrong, and on 264 Roboflow photos it had
	// also fitted a wrong grid at 0.44 (a hand over a faintly printed board).
	c5, err5 := findPolarity(img, opts, lineFilter{equalize: true, wide: true}, stones, &equalized)
	if err5 != nil && !errors.Is(err5, ErrNoBoard) {
		return c5, err5
	}
	if err5 == nil && c5.Confidence >= DefaultMinConfidence {
		return c5, nil
	}
	// Last of all, the equalized pass's grid is judged again on the line map with its noise
	// floor taken off. Evening out the contrast raises a noisy frame's noise with its lines, so
	// that pass can place a grid right and yet judge it weak on its own map, while the map that
	// judges it fairly found too few segments to place it. (The other dark passes' grids are not
	// judged again: the plain pass's map is the same map with its floor, and the noise-floor pass
	// searched it itself. Judging them again found a wrong grid on a Roboflow photo.)
	if c6, err6 := rescore(img, opts, equalized.grid); err6 == nil || !errors.Is(err6, ErrNoBoard) {
		return c6, err6
	}
	// Last, the board's outline against the table places the grid where its lines are too
	// faint, blurred or noisy for any pass to find their lattice (outlineSearch), judged in the
	// plain and the smoothed wide line maps. It comes last: offered beside the lines' own
	// candidates, a 9x9 lattice inside a 19x19 board's outline won in the plain map (0.53)
	// before the wide pass could find the board (0.72).
	//
	// The best grid each outline search placed below its bar is kept with the refusal
	// (BelowBar), for a caller with other evidence to judge it by.
	var below []Calibration
	quads, sx, sy := greyOutlines(img, opts.workSize())
	outlines := framePixels(quads, sx, sy)
	c7, weak, err7 := outlinePass(img, opts, stones, quads)
	if err7 == nil || !errors.Is(err7, ErrNoBoard) {
		return c7, err7
	}
	if weak.Size != 0 {
		below = append(below, weak)
	}
	// And the outlines of the frame's colour, for a wooden board on a table about as bright as
	// it. Only a sure fit counts from them, whatever bar the caller set: on 1,500 rendered
	// photos they found 3 more boards (all at 0.50, the confidence of a grid the black stones
	// place in an outline), and at the caller's bar they had also found two wrong 9x9 grids on
	// 264 Roboflow photos, at 0.31 and 0.32.
	if colour := colourOutlines(img, opts.workSize()); len(colour) > 0 {
		outlines = append(outlines, framePixels(colour, sx, sy)...)
		sure := opts
		sure.MinConfidence = DefaultMinConfidence
		c8, weak, err8 := outlinePass(img, sure, stones, colour)
		if err8 == nil || !errors.Is(err8, ErrNoBoard) {
			return c8, err8
		}
		if weak.Size != 0 {
			below = append(below, weak)
		}
	}
	// Last of all, the grid the black stones place where their lattice runs wider than any board
	// (stoneWindowSearch), at a confidence under the sure bar.
	if cw, errw := findWith(img, opts, lineFilter{}, stones, nil, stoneWindowSearch); errw == nil {
		return cw, nil
	}
	if len(below) > 0 || len(outlines) > 0 {
		return Calibration{}, &BelowBar{Grids: below, Outlines: outlines, err: err}
	}
	return Calibration{}, err
}

// framePixels returns quads, in work pixels sx and sy of which make a frame pixel, in frame pixels.
func framePixels(quads [][4]Point2, sx, sy float64) [][4]Point2 {
	out := make([][4]Point2, len(quads))
	for i, q := range quads {
		for j, p := range q {
			out[i][j] = Point2{(p.X+0.5)/sx - 0.5, (p.Y+0.5)/sy - 0.5}
		}
	}
	return out
}

// BelowBar is Find's refusal when its last passes found the board's outlines against the table:
// it holds the grids they placed that did not clear its bar (the best the grey picture's
// outlines place, then the best the colour's, each in view), and the outlines themselves. A
// caller with other evidence may judge them (vision.FindBoard asks the learned reader); the
// outline itself is none, for it frames them by construction. It wraps the refusal Find would
// give without them.
type BelowBar struct {
	// Grids are the outlines' grids below the bar, grey first, straight (no lens term), each
	// with its confidence.
	Grids []Calibration
	// Outlines are the board outlines the frame shows (TL, TR, BR, BL in frame pixels), grey
	// first: where no grid's lines show in one, a caller that can read the points may still place
	// a grid inside it (vision's outlineRead).
	Outlines [][4]Point2
	err      error
}

// Error is the refusal's message.
func (e *BelowBar) Error() string { return e.err.Error() }

// Unwrap is the refusal (an ErrNoBoard, or ErrNotInView).
func (e *BelowBar) Unwrap() error { return e.err }

// Bent returns the grids with the lens term fitted in frame (the frame Find refused) as Find
// fits it to a grid it finds; only a caller that judges them pays for the fit.
func (e *BelowBar) Bent(frame gocv.Mat) []Calibration {
	out := make([]Calibration, len(e.Grids))
	for i, g := range e.Grids {
		out[i] = g
		if bent, err := fitFoundLens(frame, g); err == nil {
			out[i] = bent
		}
	}
	return out
}

// outlinePass is the search by the board's outlines quads through outlineFilters at opts' bar
// (bestPassWith); on a refusal it also returns the most confident grid placed in view below the
// bar (Size 0 when none).
func outlinePass(img gocv.Mat, opts FindOptions, stones *stoneFinder, quads [][4]Point2) (c, weak Calibration, err error) {
	c, err = bestPassWith(img, opts, outlineFilters[:], stones, outlineSearch(quads), &weak)
	return c, weak, err
}

// outlineFilters are the line maps in which the grids the board's outlines propose are placed
// and judged: the plain one and the smoothed wide one.
var outlineFilters = [...]lineFilter{{}, {wide: true, smooth: true}}

// edgeLinesSeen reports whether all four of g's edge lines show in the line map as a seen line
// does in confidence (seenLine of the grid's mean line evidence). A grid fitted to a lattice
// bent by the lens, or a line off, can leave one edge line on bare wood and still explain the
// other lines well; a grid placed in one pass's map and judged in another's must not.
func edgeLinesSeen(lines *plane, g gridFit, cap float32) bool {
	h, ok := gridH(g.cols, g.rows, g.corners)
	if !ok || g.on <= 0 {
		return false
	}
	r := evidenceReader{lines: lines, h: h, cap: cap, along: fineAlong}
	lu, lv := float64(g.cols-1), float64(g.rows-1)
	for _, e := range [...]float64{r.rowLine(0, g.cols), r.colLine(lu, g.rows), r.rowLine(lv, g.cols), r.colLine(0, g.rows)} {
		if e < seenLine*g.on {
			return false
		}
	}
	return true
}

// passReport is what one pass of Find saw, for the passes after it.
type passReport struct {
	segments int      // straight line segments found in its line map
	grid     proposal // its grid wholly in view, kept or refused
}

// proposal is a grid in the frame's pixels; size 0 when there is none.
type proposal struct {
	size    int
	corners [4]Point2
}

// rescore judges the proposal p on the line map with its noise floor taken off (refined there
// first, by a fraction of a pixel), and returns it as Find would.
func rescore(img gocv.Mat, opts FindOptions, p proposal) (Calibration, error) {
	if p.size == 0 {
		return Calibration{}, fmt.Errorf("%w: nothing to judge again", ErrNoBoard)
	}
	if opts.Context != nil && opts.Context.Err() != nil {
		return Calibration{}, fmt.Errorf("calib: find: %w", opts.Context.Err())
	}
	w, err := prepareWith(img, opts.workSize(), true, lineFilter{floor: true})
	if err != nil {
		return Calibration{}, err
	}
	cap := lineCap(&w.lines)
	g := gridFit{cols: p.size, rows: p.size, corners: w.toWork(p.corners)}
	g = refineGrid(&w.lines, g, cap, 1, 0.12, false)
	if !g.inView(w.lines.w, w.lines.h) {
		return Calibration{}, ErrNotInView
	}
	if !edgeLinesSeen(&w.lines, g, cap) {
		return Calibration{}, fmt.Errorf("%w: the best grid's edge lines do not all show", ErrNoBoard)
	}
	// By the lines alone (no gray plane): the stones sit as well on a lattice a few whole lines
	// off, and a grid its own pass judged weak gets no benefit of the doubt here.
	g.conf = g.confidence(&w.lines, nil, cap)
	c, err := w.calibration(img.Cols(), img.Rows(), g)
	if err != nil {
		return Calibration{}, err
	}
	if minConf := opts.minConfidence(); c.Confidence < minConf {
		return Calibration{}, fmt.Errorf("%w: best grid %dx%d has confidence %.2f (< %.2f)", ErrNoBoard, g.cols, g.rows, c.Confidence, minConf)
	}
	return c, nil
}

// workSize is WorkSize with its default.
func (o FindOptions) workSize() int {
	if o.WorkSize <= 0 {
		return defaultWorkSize
	}
	return o.WorkSize
}

// minConfidence is MinConfidence with its default.
func (o FindOptions) minConfidence() float64 {
	if o.MinConfidence == 0 {
		return DefaultMinConfidence
	}
	return o.MinConfidence
}

// bestPass runs findPolarity with each of the filters fs in turn and returns the most confident
// fit, stopping at a sure one (DefaultMinConfidence); when none fits, the first pass's refusal.
func bestPass(img gocv.Mat, opts FindOptions, fs []lineFilter, stones *stoneFinder) (Calibration, error) {
	return bestPassWith(img, opts, fs, stones, findGrid, nil)
}

// bestPassWith is bestPass with the grid search of its choice. When weak is not nil, it receives
// the most confident grid a pass placed in view below opts' bar.
func bestPassWith(img gocv.Mat, opts FindOptions, fs []lineFilter, stones *stoneFinder, search gridSearch, weak *Calibration) (Calibration, error) {
	var best Calibration
	var bestErr error
	for i, f := range fs {
		c, err := findWith(img, opts, f, stones, nil, search)
		if err != nil && !errors.Is(err, ErrNoBoard) {
			return c, err
		}
		var low *weakFit
		if weak != nil && errors.As(err, &low) && low.cal.Confidence > weak.Confidence {
			*weak = low.cal
		}
		if i == 0 || err == nil && (bestErr != nil || c.Confidence > best.Confidence) {
			best, bestErr = c, err
		}
		if bestErr == nil && best.Confidence >= DefaultMinConfidence {
			break
		}
	}
	return best, bestErr
}

// contradicted looks again at an unsure fit c of the first passes (dark, wide and light lines)
// with the passes that otherwise run only when every earlier one has failed, at the sure bar, and
// returns a sure grid of theirs that contradicts c, if any:
//
//   - the noise-floor pass's, when it is more confident by floorMargin and another answer
//     (otherBoard). An unsure grid may be one the noise explains: the plain map's response to a
//     noisy frame's grain is most of a faint line's, and a grid squeezed onto a third of a
//     crowded board's rows was the plain pass's best (`render-boards -seed 6005` scene 35, at
//     0.36), where the noise-floor pass found the board's own grid at 0.74;
//   - the grid the board's outline and the stones in it place (the grey outlines', then the
//     colour's), when it lies more than outlineApart spacings from c at a corner. That grid
//     stands on other evidence than the lines: the board's edge, and the stones on its points.
func contradicted(img gocv.Mat, opts FindOptions, stones *stoneFinder, c Calibration) (Calibration, bool) {
	sure := opts
	sure.MinConfidence = DefaultMinConfidence
	if f, err := findPolarity(img, sure, lineFilter{floor: true}, stones, nil); err == nil &&
		f.Confidence > c.Confidence+floorMargin && otherBoard(c, f) {
		return f, true
	}
	grey, _, _ := greyOutlines(img, opts.workSize())
	for _, quads := range [][][4]Point2{grey, colourOutlines(img, opts.workSize())} {
		if len(quads) == 0 {
			continue
		}
		if o, _, err := outlinePass(img, sure, stones, quads); err == nil && apart(c, o, outlineApart) {
			return o, true
		}
	}
	return Calibration{}, false
}

// floorMargin is how much more confident than an unsure fit of the earlier passes the noise-floor
// pass's sure fit must be to replace it (contradicted), as a light fit must be to replace a dark
// one (lightMargin).
const floorMargin = 0.1

// otherBoard reports whether grids a and b are two different answers, not one board's grid placed
// two ways: another size, or a corner of b more than otherBoardSpacings from every corner of a
// (apart). Where the noise-floor pass's sure grid placed the same board as an unsure one (with
// floorMargin alone, on 1,800 renders and 264 Roboflow photos), it put 4 grids closer by more
// than 0.05 spacing, 1 further, and 2 right grids wrong (`-seed 6008` scene 111: 0.27 spacing
// off, the sure grid 0.87; Roboflow 76bae3ded80e); where it contradicted it, it put right the two
// grids that were wrong (4.3 and 12 spacings off).
func otherBoard(a, b Calibration) bool {
	return apart(a, b, otherBoardSpacings)
}

// otherBoardSpacings is how far, in spacings, a corner of one grid may lie from the nearest
// corner of another for otherBoard to take them as one board's: a grid a line off at a corner
// lies one spacing away, so two spacings leave room for that and a bend.
const otherBoardSpacings = 2

// outlineApart is how far, in spacings, the grid a board's outline and its stones place may lie
// from an unsure fit of the lines at a corner before it replaces that fit (contradicted): past
// most of a spacing, the lines' grid is a line off (on crowded late-game renders, unsure fits 1.25
// to 1.64 spacings off were put within 0.35 of the drawn corners); nearer, the lines place the
// grid more finely than the edge and the stones (the two right grids it moved went 0.11 to 0.27
// and 0.14 to 0.29 spacing off).
const outlineApart = 0.75

// apart reports whether grids a and b are of different sizes, or a corner of b lies more than d
// of a's spacings from every corner of a. It is cornersWithin's test for calibrations in frame
// pixels, whose corners two passes may list from different corners of the board.
func apart(a, b Calibration, d float64) bool {
	if a.Size != b.Size {
		return true
	}
	last := float64(a.Size - 1)
	for _, p := range b.Corners {
		g, near := a.ImageToGrid(p), math.Inf(1)
		for _, q := range [...]Point2{{X: 0, Y: 0}, {X: last, Y: 0}, {X: last, Y: last}, {X: 0, Y: last}} {
			near = math.Min(near, math.Hypot(g.X-q.X, g.Y-q.Y))
		}
		if !(near <= d) {
			return true
		}
	}
	return false
}

// lightMargin is how much more confident than a weak dark-line fit a light-line fit must be to
// replace it.
const lightMargin = 0.1

// findPolarity is Find with one line filter; stones keeps the stones' lattice between passes.
// When rep is not nil, it receives what the pass saw.
func findPolarity(img gocv.Mat, opts FindOptions, f lineFilter, stones *stoneFinder, rep *passReport) (Calibration, error) {
	return findWith(img, opts, f, stones, rep, findGrid)
}

// gridSearch places the best grid of one of sizes in a prepared frame (findGrid, outlineSearch).
type gridSearch func(ctx context.Context, w *workImage, sizes []int, stones *stoneFinder) (gridFit, error)

// findWith is findPolarity with the grid search of its choice.
func findWith(img gocv.Mat, opts FindOptions, f lineFilter, stones *stoneFinder, rep *passReport, search gridSearch) (Calibration, error) {
	w, err := prepareWith(img, opts.workSize(), true, f)
	if err != nil {
		return Calibration{}, err
	}
	if rep != nil {
		rep.segments = len(w.segs)
	}
	sizes := defaultSizes[:]
	if opts.Size != 0 {
		sizes = []int{opts.Size}
	}
	fit, err := search(opts.Context, w, sizes, stones)
	if err != nil {
		return Calibration{}, err
	}
	minConf := opts.minConfidence()
	if !fit.inView(w.lines.w, w.lines.h) {
		if fit.conf < minConf {
			// A grid the lines hardly bear out says nothing of where the board is: on a blurred
			// late-game render the plain pass's best grid (0.07) ran off the picture while the
			// board lay wholly in it, and the refusal must not tell the players to move the camera,
			// nor keep the reader from the board's outline (vision.FindBoard).
			return Calibration{}, fmt.Errorf("%w: best grid %dx%d has confidence %.2f (< %.2f) and runs out of the picture",
				ErrNoBoard, fit.cols, fit.rows, fit.conf, minConf)
		}
		return Calibration{}, ErrNotInView
	}
	c, err := w.calibration(img.Cols(), img.Rows(), fit)
	if err != nil {
		return Calibration{}, err
	}
	if rep != nil {
		rep.grid = proposal{size: fit.cols, corners: c.Corners}
	}
	c.LightLines = f.light
	if c.Confidence < minConf {
		return Calibration{}, &weakFit{cal: c, err: fmt.Errorf("%w: best grid %dx%d has confidence %.2f (< %.2f)", ErrNoBoard, fit.cols, fit.rows, c.Confidence, minConf)}
	}
	return c, nil
}

// weakFit is findWith's refusal of a grid below the caller's bar, keeping the grid for the
// outline passes (outlinePass).
type weakFit struct {
	cal Calibration
	err error
}

func (e *weakFit) Error() string { return e.err.Error() }
func (e *weakFit) Unwrap() error { return e.err }

// calibration converts a fit in work pixels into a Calibration for the original frame.
func (w *workImage) calibration(iw, ih int, fit gridFit) (Calibration, error) {
	var cs [4]Point2
	for i, p := range fit.corners {
		cs[i] = Point2{(p.X+0.5)/w.sx - 0.5, (p.Y+0.5)/w.sy - 0.5}
	}
	cs = orderCorners(cs)
	c := Calibration{
		Version: FormatVersion, ImageWidth: iw, ImageHeight: ih, Size: fit.cols,
		Corners: cs, BlackSide: Bottom, Confidence: fit.conf,
	}
	if err := c.Validate(); err != nil {
		return Calibration{}, fmt.Errorf("%w: found grid is not usable: %v", ErrNoBoard, err)
	}
	return c, nil
}

// orderCorners puts four corners in TL, TR, BR, BL order as seen on screen: clockwise around
// their centre, starting with the one nearest the image's top-left.
func orderCorners(c [4]Point2) [4]Point2 {
	cx := (c[0].X + c[1].X + c[2].X + c[3].X) / 4
	cy := (c[0].Y + c[1].Y + c[2].Y + c[3].Y) / 4
	idx := []int{0, 1, 2, 3}
	sort.Slice(idx, func(a, b int) bool {
		return math.Atan2(c[idx[a]].Y-cy, c[idx[a]].X-cx) < math.Atan2(c[idx[b]].Y-cy, c[idx[b]].X-cx)
	})
	// Angles increase clockwise on screen (y down). Start at the corner pointing up-left.
	first := 0
	bestD := math.Inf(1)
	for i, k := range idx {
		a := math.Atan2(c[k].Y-cy, c[k].X-cx)
		d := math.Abs(math.Remainder(a-(-3*math.Pi/4), 2*math.Pi))
		if d < bestD {
			bestD, first = d, i
		}
	}
	var out [4]Point2
	for i := 0; i < 4; i++ {
		out[i] = c[idx[(first+i)%4]]
	}
	return out
}

// findGrid runs the pipeline on a prepared frame: line families, rectification, lattice fit per
// size, refinement, and returns the best-scoring grid. Where the lines fit weakly, the stones'
// lattice (found once per frame by stones, which may be nil) adds candidates.
func findGrid(ctx context.Context, w *workImage, sizes []int, stones *stoneFinder) (gridFit, error) {
	if len(w.segs) < 8 {
		return gridFit{}, fmt.Errorf("%w: too few straight lines (%d)", ErrNoBoard, len(w.segs))
	}
	n := frameNorm{cx: float64(w.lines.w) / 2, cy: float64(w.lines.h) / 2, f: float64(max(w.lines.w, w.lines.h)) / 2}
	segs := n.segments(w.segs)
	// Six families: clutter with straight lines (a striped cloth, a table's grain, a mat) can
	// take the first few, all in nearly one direction.
	vps := findVanishing(segs, n.f, 6)
	cap := lineCap(&w.lines)
	dirs := make([]float64, len(vps))
	inside := make([]bool, len(vps))
	for i, v := range vps {
		dirs[i] = segmentDirection(segs, v.inliers)
		inside[i] = vpInFrame(v.v, float64(w.lines.w)/2/n.f, float64(w.lines.h)/2/n.f)
	}
	var cands []gridFit
	tried := 0
	for i := 0; i < len(vps); i++ {
		for j := i + 1; j < len(vps); j++ {
			if ctx != nil && ctx.Err() != nil {
				return gridFit{}, fmt.Errorf("calib: find: %w", ctx.Err())
			}
			// The families' lines must cross at a good angle where they are seen (the direction
			// from the frame's centre to a vanishing point says little for a board off to one
			// side), and neither family may converge inside the picture: a board's lines meet
			// on the horizon, out of a picture that shows the whole board, while the rims of
			// stones and other clutter can line up towards any point.
			if angleBetween(dirs[i], dirs[j]) < 30*math.Pi/180 || inside[i] || inside[j] {
				continue
			}
			if tried == 3 {
				break
			}
			tried++
			fits := fitPair(w, n, vps[i], vps[j], segs, sizes, cap)
			cands = append(cands, fits...)
			if b, ok := bestCandidate(cands, w.lines.w, w.lines.h); ok && b.inView(w.lines.w, w.lines.h) && b.conf > clearConfidence {
				return b, nil // clear enough; other line families are distractors
			}
		}
	}
	cands = rectifyAgain(w, n, segs, sizes, cap, cands)
	// Lines hidden by stones fit weakly or not at all: the stones' own lattice may place the
	// grid (at a confidence that needs a further check, unless its lines bear it out).
	if b, ok := bestCandidate(cands, w.lines.w, w.lines.h); !ok || b.conf < DefaultMinConfidence || !b.inView(w.lines.w, w.lines.h) {
		if stones == nil {
			stones = &stoneFinder{}
		}
		for i := range cands {
			cands[i].conf = stones.vouch(w, cands[i])
		}
		cands = append(cands, stones.candidates(w, sizes, cap)...)
	}
	best, ok := bestCandidate(cands, w.lines.w, w.lines.h)
	if !ok {
		return gridFit{}, fmt.Errorf("%w: no regular lattice of lines", ErrNoBoard)
	}
	return best, nil
}

// segmentDirection is the mean direction (0..π) of the segments idx, weighted by length (an
// axial mean: directions a half-turn apart are the same).
func segmentDirection(segs []normSeg, idx []int) float64 {
	var c, s float64
	for _, k := range idx {
		d := segs[k].q
		a := math.Atan2(d[1]-segs[k].p[1], d[0]-segs[k].p[0])
		c += segs[k].w * math.Cos(2*a)
		s += segs[k].w * math.Sin(2*a)
	}
	a := math.Atan2(s, c) / 2
	if a < 0 {
		a += math.Pi
	}
	return a
}

// vpInFrame reports whether the vanishing point v lies inside the picture, shrunk by a tenth
// (hw, hh: the picture's half-width and half-height in normalised units).
func vpInFrame(v vec3, hw, hh float64) bool {
	if math.Abs(v[2]) < 1e-9 {
		return false
	}
	x, y := v[0]/v[2], v[1]/v[2]
	return math.Abs(x) < 0.9*hw && math.Abs(y) < 0.9*hh
}

// clearConfidence is the confidence at which a grid wholly in view ends the search.
const clearConfidence = 0.8

// bestCandidate picks, of the candidate grids, the most confident one wholly in view; failing
// that, the most confident one (which Find refuses as not in view). A grid running out of the
// picture loses to any in view that is nearly as confident.
func bestCandidate(cands []gridFit, w, h int) (gridFit, bool) {
	best, bestIn := -1, -1
	for i, c := range cands {
		if best < 0 || c.conf > cands[best].conf {
			best = i
		}
		if c.inView(w, h) && (bestIn < 0 || c.conf > cands[bestIn].conf) {
			bestIn = i
		}
	}
	if best < 0 {
		return gridFit{}, false
	}
	if bestIn >= 0 && cands[bestIn].conf >= 0.7*cands[best].conf {
		return cands[bestIn], true
	}
	return cands[best], true
}

// fitPair fits lattice windows of several lengths to the canvas defined by two line families,
// refines each in the image, grows or trims it to the lines actually present and snaps it to an
// allowed size. It returns every distinct grid so found, with its confidence.
func fitPair(w *workImage, n frameNorm, va, vb vanishing, segs []normSeg, sizes []int, cap float32) []gridFit {
	r, ok := newRectifier(n, va, vb, segs)
	if !ok {
		return nil
	}
	px, py := r.profiles(&w.lines)
	type seed struct {
		x, y  window
		score float64
	}
	// Lattice windows are tried as seeds at 9 and 13 lines besides the allowed sizes: a short
	// window fits a part of the board even when the rectification is a little off (a steep
	// view), and growGrid extends it to the whole board.
	lengths := append([]int(nil), sizes...)
	for _, s := range [...]int{9, 13} {
		if !slices.Contains(lengths, s) {
			lengths = append(lengths, s)
		}
	}
	seeds := make([]seed, 0, len(lengths))
	for _, s := range lengths {
		wx, wy := bestWindow(px, s), bestWindow(py, s)
		if wx.n != 0 && wy.n != 0 && !math.IsInf(wx.score+wy.score, -1) {
			seeds = append(seeds, seed{wx, wy, wx.score + wy.score})
		}
	}
	sort.SliceStable(seeds, func(i, j int) bool { return seeds[i].score > seeds[j].score })
	var out, grown []gridFit
	for _, sd := range seeds {
		bx, by := sd.x, sd.y
		cs, ok := seedQuad(r, &bx, &by, float64(w.lines.w), float64(w.lines.h))
		if !ok {
			continue
		}
		g := refineGrid(&w.lines, gridFit{cols: bx.n, rows: by.n, corners: cs, lattice: sd.score}, cap, 2, 0.5, true)
		g = growGrid(&w.lines, g, cap)
		if slices.ContainsFunc(grown, func(o gridFit) bool { return sameGrid(o, g) }) {
			continue
		}
		grown = append(grown, g)
		best, ok := snapToSize(&w.lines, g, sizes, cap)
		if !ok {
			continue
		}
		var gray *grayPlane
		if w.gray.pix != nil {
			gray = &w.gray
		}
		best.conf = best.confidence(&w.lines, gray, cap)
		out = append(out, best)
		if big := slices.Max(sizes); best.cols < big && g.cols < big-2 && g.rows < big-2 && min(g.cols, g.rows) >= 7 {
			// snapToSize adds at most two lines an axis: a lattice grown well short of the largest
			// board (stones hiding lines late in a game) is also tried as part of one.
			if e, ok := expandToSize(&w.lines, g, big, w.lines.w, w.lines.h, cap); ok {
				e.conf = e.confidence(&w.lines, gray, cap)
				out = append(out, e)
			}
		}
		if !best.inView(w.lines.w, w.lines.h) {
			// A grid a line off (the board's edge or a shadow taken for its outer line, stones
			// hiding the real one) runs out of the picture; the same lattice moved a line back
			// in may be the whole board.
			out = append(out, shiftedIn(w, best, gray, cap)...)
		}
		if best.conf > clearConfidence && best.inView(w.lines.w, w.lines.h) {
			break
		}
	}
	return out
}

// shiftedIn returns the versions of g moved by one line (in either or both directions) that
// lie wholly in view, refined and with their confidence.
func shiftedIn(w *workImage, g gridFit, gray *grayPlane, cap float32) []gridFit {
	h, ok := gridH(g.cols, g.rows, g.corners)
	if !ok {
		return nil
	}
	lu, lv := float64(g.cols-1), float64(g.rows-1)
	var out []gridFit
	for _, d := range [...][2]float64{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-1, -1}, {-1, 1}, {1, -1}, {1, 1}} {
		c := gridFit{cols: g.cols, rows: g.rows, lattice: g.lattice, corners: [4]Point2{
			applyH(h, Point2{d[0], d[1]}), applyH(h, Point2{lu + d[0], d[1]}),
			applyH(h, Point2{lu + d[0], lv + d[1]}), applyH(h, Point2{d[0], lv + d[1]})}}
		if !c.inView(w.lines.w, w.lines.h) {
			continue
		}
		c = refineGrid(&w.lines, c, cap, 1, 0.12, false)
		if !c.inView(w.lines.w, w.lines.h) {
			continue
		}
		c.conf = c.confidence(&w.lines, gray, cap)
		out = append(out, c)
	}
	return out
}

// sameGrid reports whether two grown lattices are the same (same size, corners within a
// pixel or two), so that seeds growing into the same lattice are snapped only once.
func sameGrid(a, b gridFit) bool {
	return a.cols == b.cols && a.rows == b.rows && nearQuad(a.corners, b.corners, 1.5)
}

// seedQuad maps the lattice windows bx, by back to the image. A window's lines are a seed for
// refineGrid and growGrid, not the answer: under a slightly wrong rectification or with stones
// hiding an edge line, the best window can sit a few lines off the board and run past the
// image. Rather than discarding the whole line family pair, it trims such a window, one edge
// line at a time from the side furthest outside the image, until the seed lies in view;
// growGrid later restores any board lines the trim removed.
func seedQuad(r rectifier, bx, by *window, w, h float64) ([4]Point2, bool) {
	const minLines = 5
	for {
		x0, x1 := bx.start, bx.start+float64(bx.n-1)*bx.step
		y0, y1 := by.start, by.start+float64(by.n-1)*by.step
		canvas := [4][2]float64{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}
		var cs [4]Point2
		for i, p := range canvas {
			x, y, ok := r.fromCanvas.applyPt(p[0], p[1])
			if !ok {
				return cs, false
			}
			cs[i] = Point2{x, y}
		}
		if checkQuad(orderCorners(cs), w, h) == nil {
			return cs, true
		}
		// The corner furthest outside the image and the direction it is out in.
		worst, worstCorner, inX := 0.0, -1, false
		for i, p := range cs {
			ex := max(-p.X, p.X-(w-1))
			ey := max(-p.Y, p.Y-(h-1))
			if ex > worst {
				worst, worstCorner, inX = ex, i, true
			}
			if ey > worst {
				worst, worstCorner, inX = ey, i, false
			}
		}
		if worstCorner < 0 {
			return cs, false // inside the image yet not a usable quad
		}
		// The canvas axes follow the families, not the image: of the two edge lines through
		// that corner (sides 0 top, 1 right, 2 bottom, 3 left), drop the one whose removal
		// pulls the corner furthest in.
		sides := [4][2]int{{0, 3}, {0, 1}, {1, 2}, {2, 3}}[worstCorner]
		best, bestEx := -1, math.Inf(1)
		for _, side := range sides {
			if (side%2 == 0 && by.n <= minLines) || (side%2 == 1 && bx.n <= minLines) {
				continue
			}
			u, v := canvas[worstCorner][0], canvas[worstCorner][1]
			switch side {
			case 0:
				v += by.step
			case 1:
				u -= bx.step
			case 2:
				v -= by.step
			case 3:
				u += bx.step
			}
			x, y, ok := r.fromCanvas.applyPt(u, v)
			if !ok {
				continue
			}
			ex := max(-x, x-(w-1), 0)
			if !inX {
				ex = max(-y, y-(h-1), 0)
			}
			if ex < bestEx {
				best, bestEx = side, ex
			}
		}
		switch best {
		case 0:
			by.start += by.step
			by.n--
		case 1:
			bx.n--
		case 2:
			by.n--
		case 3:
			bx.start += bx.step
			bx.n--
		default:
			return cs, false
		}
	}
}

// snapToSize turns a cols x rows lattice into a square one of an allowed size, trying every way
// of adding or removing up to two lines per axis, and keeps the best by image evidence.
func snapToSize(lines *plane, g gridFit, sizes []int, cap float32) (gridFit, bool) {
	h, ok := gridH(g.cols, g.rows, g.corners)
	if !ok {
		return gridFit{}, false
	}
	var cands []gridFit
	big := slices.Max(sizes)
	for _, s := range sizes {
		dc, dr := s-g.cols, s-g.rows
		// Stones along an edge can hide a few lines from growGrid: up to 6 lines may be missing
		// on one axis when the other axis is close.
		if max(g.cols, g.rows) > big {
			// A lattice grown past the largest size (a blurred frame shows a frame line and the
			// edge; stones in a bowl or a score sheet's ruled lines beside the board can continue
			// its lattice at its spacing) is that size, placed anywhere in it: a smaller board
			// inside it would be a part of the board.
			if s != big || min(max(dc, 0), max(dr, 0)) > 2 || max(dc, dr) > 6 {
				continue
			}
		} else if min(abs(dc), abs(dr)) > 2 || max(abs(dc), abs(dr)) > 6 || s < max(g.cols, g.rows)-1 {
			// growGrid only adds lines it has seen: a board has at least that many (one may be
			// a frame line or the board's edge, so allow one less).
			continue
		}
		// Split each axis change between the two sides in every way, and also try the lattice
		// shifted by one line (a decorative frame line or the board's edge can pass for a line).
		ec, er := 1, 1
		if abs(dc) > 2 {
			ec = 0
		}
		if abs(dr) > 2 {
			er = 0
		}
		for left := min(0, dc) - ec; left <= max(0, dc)+ec; left++ {
			for top := min(0, dr) - er; top <= max(0, dr)+er; top++ {
				u0, u1 := -float64(left), float64(g.cols-1+dc-left)
				v0, v1 := -float64(top), float64(g.rows-1+dr-top)
				cands = append(cands, gridFit{cols: s, rows: s, lattice: g.lattice, corners: latticeQuad(h, u0, v0, u1, v1)})
			}
		}
	}
	return bestPlacement(lines, cands, cap)
}

// bestPlacement picks, of grids placed over the same lattice, the one the image evidence fits
// best: a first, unrefined reading ranks them (strong lines on the grid, weak between and
// beyond, and lines running up to every edge); only the best few are refined.
func bestPlacement(lines *plane, cands []gridFit, cap float32) (gridFit, bool) {
	rank := func(c gridFit) float64 { return c.score() + 0.5*minStubs(lines, c, cap) }
	scores := make([]float64, len(cands))
	for i := range cands {
		c := &cands[i]
		c.on, c.off, c.out = gridEvidence(lines, c.cols, c.rows, c.corners, cap, true)
		scores[i] = rank(*c)
	}
	order := make([]int, len(cands))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return scores[order[i]] > scores[order[j]] })
	best, bestScore := gridFit{}, math.Inf(-1)
	for _, k := range order[:min(len(order), snapRefined)] {
		c := refineGrid(lines, cands[k], cap, 1, 0.5, true)
		if v := rank(c); v > bestScore {
			best, bestScore = c, v
		}
	}
	if best.cols == 0 {
		return gridFit{}, false
	}
	return refineGrid(lines, best, cap, 0.5, 0.12, false), true
}

// expandToSize places the s x s grid that contains the cols x rows lattice g (same spacing and
// perspective) where the image evidence fits it best, for a lattice grown short of the board:
// late in a game stones hide whole lines, and growGrid stops at the first one it cannot see, so
// a 19x19 board can grow to 9 or 13 lines and be taken for a smaller board. Every placement
// whose corners lie near the w x h work picture is ranked unrefined (the lattice's perspective,
// carried past its lines, is a little off until refined); the best few are refined.
func expandToSize(lines *plane, g gridFit, s int, w, h int, cap float32) (gridFit, bool) {
	hm, ok := gridH(g.cols, g.rows, g.corners)
	if !ok || g.cols > s || g.rows > s {
		return gridFit{}, false
	}
	var cands []gridFit
	for left := 0; left <= s-g.cols; left++ {
		for top := 0; top <= s-g.rows; top++ {
			u0, v0 := -float64(left), -float64(top)
			u1, v1 := u0+float64(s-1), v0+float64(s-1)
			c := gridFit{cols: s, rows: s, lattice: g.lattice, corners: latticeQuad(hm, u0, v0, u1, v1)}
			if checkQuad(orderCorners(c.corners), float64(w), float64(h)) == nil {
				cands = append(cands, c)
			}
		}
	}
	return bestPlacement(lines, cands, cap)
}

// snapRefined is how many of snapToSize's candidates, ranked unrefined, are refined.
const snapRefined = 4

// minStubs is the weakest side's line evidence in the outermost gap: near zero when a grid edge
// lies out in the board's margin.
func minStubs(lines *plane, g gridFit, cap float32) float64 {
	h, ok := gridH(g.cols, g.rows, g.corners)
	if !ok {
		return 0
	}
	r := evidenceReader{lines: lines, h: h, cap: cap, along: coarseAlong}
	st := r.gapStubs(g.cols, g.rows, -1)
	return min(st[0], st[1], st[2], st[3])
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// rectifyAgain adds to cands, while the best of them is below DefaultMinConfidence, the grids
// fitPair finds through the vanishing points of the lines that best lattice explains
// (latticeVanishing), up to three times while each round's best is more confident. A weak
// lattice may be the board's rectified through vanishing points a little off (stone rims drawn
// into a family's fit; `render-boards -seed 6001` scene 73's rows sloped 1.3 lines across the
// canvas and its best window lay 1.5 lines off). A grid so found is kept only when it is more
// confident than the lattice it mends, at refitFloor or more, and near it (nearLattice, a line
// beyond the segments it was fitted to): on `-seed 6007` scene 180 a grid 7 spacings from its
// seed, 11 from the board, came out at 0.63.
func rectifyAgain(w *workImage, n frameNorm, segs []normSeg, sizes []int, cap float32, cands []gridFit) []gridFit {
	for round := 0; round < 3; round++ {
		b, ok := bestCandidate(cands, w.lines.w, w.lines.h)
		if !ok || b.conf >= DefaultMinConfidence {
			break
		}
		ra, rb, ok := latticeVanishing(b, segs, n)
		if !ok {
			break
		}
		// More confident by over a hundredth: a refit of the same lattice comes out within one.
		for _, f := range fitPair(w, n, ra, rb, segs, sizes, cap) {
			if f.conf >= refitFloor && f.conf > b.conf+0.01 && nearLattice(f, b, latticeReach+1) {
				cands = append(cands, f)
			}
		}
		if nb, ok := bestCandidate(cands, w.lines.w, w.lines.h); !ok || nb.conf <= b.conf {
			break
		}
	}
	return cands
}
