package vision

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/vision/observe"
)

// DetectOptions says how to read a single photograph.
type DetectOptions struct {
	// Size, when not zero, is the board size to look for (9, 13, 19, ...).
	Size int
	// Calibration, when set, is used instead of finding the board. One without a lens term
	// (corners set by hand or by another program) has one fitted to the photo (calib.FitLens).
	Calibration *calib.Calibration
	// Params tunes the classifier (zero value: defaults).
	Params Params
}

// Detection is the board read from one photograph.
type Detection struct {
	Calibration calib.Calibration
	Reading     Reading // as seen in the image; its slices are owned by the Detection
	// Confidence combines the board finder's and the classifier's confidence (0..1).
	Confidence float64
}

// ErrNoBoard means no board was found in the image (it wraps calib.ErrNoBoard).
var ErrNoBoard = calib.ErrNoBoard

// DetectFile reads a photograph (raw pixels, EXIF rotation ignored) and reads the board in it.
func DetectFile(path string, opt DetectOptions) (Detection, error) {
	img, err := LoadImage(path)
	if err != nil {
		return Detection{}, err
	}
	defer img.Close()
	return Detect(img, opt)
}

// Detect finds the board in img (unless opt.Calibration is set) and reads every intersection.
func Detect(img gocv.Mat, opt DetectOptions) (Detection, error) {
	if img.Empty() {
		return Detection{}, fmt.Errorf("%w: empty image", ErrFrame)
	}
	var cal calib.Calibration
	if opt.Calibration != nil {
		cal = *opt.Calibration
		if opt.Size != 0 && opt.Size != cal.Size {
			return Detection{}, fmt.Errorf("vision: --size %d but the calibration is for %dx%d", opt.Size, cal.Size, cal.Size)
		}
		if cal.Lens == 0 && cal.CheckImage(img.Cols(), img.Rows()) == nil {
			bent, err := calib.FitLens(img, cal)
			if err != nil {
				return Detection{}, fmt.Errorf("vision: %w", err)
			}
			cal = bent
		}
	} else {
		c, err := FindBoard(img, opt.Size, opt.Params)
		if err != nil {
			return Detection{}, err
		}
		cal = c
	}
	var rd Reading
	if err := readOnce(img, cal, opt.Params, func(_ *Reader, r Reading) { rd = r.Clone() }); err != nil {
		return Detection{}, err
	}
	var mean float64
	for _, c := range rd.Confidence {
		mean += float64(c)
	}
	mean /= float64(len(rd.Confidence))
	return Detection{Calibration: cal, Reading: rd, Confidence: cal.Confidence * mean}, nil
}

// StillMinConfidence is the least board-finder confidence FindBoard accepts outright; weaker fits
// (down to LowMinConfidence) are accepted only when the reader sees the grid lines on most
// empty points of the grid CheckGrid settles on.
const (
	StillMinConfidence = calib.DefaultMinConfidence
	LowMinConfidence   = 0.3
)

// FindBoard finds the board in a still photograph for reading: calib.Find (a size of 0 lets it
// choose among 9, 13 and 19), then CheckGrid. A fit the finder is unsure of (often one line off,
// which CheckGrid corrects) is kept when, on the corrected grid, enough points show their
// grid-line cross clearly (linedEnough), or, on a crowded board, nearly every point shows its
// lines or holds a stone read surely (vouchedEnough), or, the finder's own grid unmoved, its edge
// lines lie on the board's and none beyond (edgesFit), or the black stones place it where its
// lines do not show (stonesPlace), unless it slid off a board the picture cuts (slidOffBoard) or the
// reader is unsure of too many of its points (readerUnsure); a fit the finder is sure of is judged
// as an unsure one when the reader is unsure of too many of its points (readerDoubts); otherwise
// the board is searched for again at the sure bar. Last, where every search failed
// (unless the finder's grid left the picture or slid off the board: calib.ErrNotInView), the
// grids the board's outline places below the finder's bars are judged by the reader
// (outlineGrid), and then the finder's own unsure grid by the reader and the outline together,
// moved by whole lines if the outline says so (phasedOnOutline); failing that it fails with an
// error wrapping calib.ErrNoBoard. A grid kept below the sure bar, whichever way, is refused when
// the reader sees a line of it filled end to end with stones of one colour (filledLine): no game
// does that, and a grid run off the board does; then the board is searched for again at the sure
// bar, as where findBoard's checks refuse an unsure fit.
func FindBoard(img gocv.Mat, size int, p Params) (calib.Calibration, error) {
	c, err := findBoard(img, size, p)
	if err != nil || c.Confidence >= StillMinConfidence {
		return c, err
	}
	return unlessFilled(img, c, size, p)
}

// unlessFilled is FindBoard's last check of c, a grid findBoard kept below the sure bar: c, unless
// the reader sees one of its lines filled (filledLine); then the board searched for again at the
// sure bar (findSurely), or, where that finds nothing else, the refusal naming the line.
func unlessFilled(img gocv.Mat, c calib.Calibration, size int, p Params) (calib.Calibration, error) {
	line, ok := filledLine(img, c, p)
	if !ok {
		return c, nil
	}
	if s, err := findSurely(img, size); err == nil && !sameGrid(s, c) {
		return s, nil
	}
	return calib.Calibration{}, fmt.Errorf("vision: %w: the best grid (confidence %.2f) reads its %s as stones of one colour end to end, as no game does: it runs off the board, over its edge or the table",
		calib.ErrNoBoard, c.Confidence, line)
}

// filledLine names the first line (row or column) of cal's grid that the learned reader reads as
// stones of one colour at every point, if any. Games between people do not fill a line so: among
// 4,500 game positions of the SGF corpus rendered as boards (most of them late in the game) not one
// line of a 9x9, 13x13 or 19x19 board did, and only 14 lines of 9x9 boards came within a point of
// it; nor does any of the corpus's 3,710 9-dan games at any tenth move (81,810 positions, the
// longest run of one colour 15). Programs do at times: 3 of the corpus's 7,259 computer games (a
// weak program filling its own edge, a game played on to move 541), 2 of GNU Go's 9x9 games of
// the 2006 Olympiad, and 8 of the 150 9x9 GNU Go self-play games played out until every dead stone
// is taken.
// A grid run a few lines off a board reads the board's dark edge or the table beside it so: of
// 48 wrong grids found on 2,700 renders, 5 held such a line; of 2,566 right ones, none. But a
// board set up for a photograph need not hold a game: 13 of the 264 Roboflow photos (boards laid
// out to train a stone detector) fill a line, on grids the finder is sure of (0.52 to 0.89), so
// FindBoard asks this only of the grids below its sure bar, which it judges by the reader anyway.
// A point the reader is unsure of may be either (filledRun).
func filledLine(img gocv.Mat, cal calib.Calibration, p Params) (string, bool) {
	p.HandTuned = false
	n := cal.Size
	point := func(axis, line, k int) int { // the k-th point of a row (axis 0) or a column (axis 1)
		if axis == 0 {
			return line*n + k
		}
		return k*n + line
	}
	name, found := "", false
	stones, conf := make([]observe.Stone, n), make([]float32, n)
	err := readOnce(img, cal, p, func(_ *Reader, rd Reading) {
		for axis, kind := range [2]string{"row", "column"} {
			for line := 0; line < n && !found; line++ {
				for k := range n {
					i := point(axis, line, k)
					stones[k], conf[k] = rd.Stones[i], rd.Confidence[i]
				}
				if filledRun(stones, conf) {
					name, found = fmt.Sprintf("%s %d (of %d, counted from the picture's %s)", kind, line+1, n, [2]string{"top", "left"}[axis]), true
				}
			}
		}
	})
	return name, err == nil && found
}

// filledLineSure is the probability under which filledRun takes a point's reading as unknown.
const filledLineSure = 0.9

// filledRun reports whether a line's readings (stones, with the reader's probability of each)
// are stones of one colour end to end. A point read with less than filledLineSure may be either
// colour, so it does not break the run, but most of the line's points must be sure. A hand or a
// sleeve over a board's dark edge leaves those points unsure, and how a retraining reads them
// varies: on the edge under a hand of `render-boards -seed 9902` scene 171, one retraining read 4 of
// the 19 points empty at 0.67 to 0.89 and 2 more black under 0.9, where the committed reader reads
// all 19 black.
func filledRun(stones []observe.Stone, conf []float32) bool {
	colour, unsure := observe.Empty, 0
	for k, st := range stones {
		if conf[k] < filledLineSure {
			unsure++
			continue
		}
		if (st != observe.Black && st != observe.White) || (colour != observe.Empty && st != colour) {
			return false
		}
		colour = st
	}
	return colour != observe.Empty && 2*unsure < len(stones)
}

// findBoard is FindBoard without the filled-line check.
func findBoard(img gocv.Mat, size int, p Params) (calib.Calibration, error) {
	c, err := calib.Find(img, calib.FindOptions{Size: size, MinConfidence: LowMinConfidence})
	if err != nil {
		// A grid that leaves the picture is refused for that: the outline's grids inside it are
		// no board (on Roboflow photos they were wrong 9x9 grids).
		if errors.Is(err, calib.ErrNoBoard) && !errors.Is(err, calib.ErrNotInView) {
			if o, ok := outlineGrid(img, err, size, p); ok {
				return o, nil
			}
		}
		return calib.Calibration{}, fmt.Errorf("vision: %w", err)
	}
	found := c
	c, centred := centreOnStones(img, c, p)
	c = CheckGrid(img, c, p)
	if c.Corners != found.Corners {
		// A grid CheckGrid moved a line has other corners, and its lens term is fitted to them
		// (the one it carried was fitted to a grid a line off).
		if bent, err := calib.FitLens(img, c); err == nil {
			c = bent
		}
	}
	doubted := !centred && readerDoubts(img, c, p)
	if doubted {
		// Judged as an unsure fit from here on: the finder's figure did not see what the reader does.
		c.Confidence = StillMinConfidence - 0.01
	}
	if c.Confidence >= StillMinConfidence {
		return c, nil
	}
	// A fit slid off the board, over the table beside it, is no board whatever its points show;
	// nor is one whose points the reader is unsure of (FoundSure), whatever its lines or stones.
	slid := slidOffBoard(img, c)
	unsure := doubted || (!slid && readerUnsure(img, c, p))
	judged := !slid && !unsure
	lined, empty := gridScoreEmpty(img, c, p)
	if judged && linedEnough(lined, empty, c.Size*c.Size, c.Corners == found.Corners) {
		return c, nil
	}
	sure := sureStones(img, c, p)
	if judged && vouchedEnough(lined, sure, c.Size*c.Size) {
		return c, nil
	}
	if judged && c.Corners == found.Corners && edgesFit(img, c) {
		// The finder's own grid, its edge lines on the board's and none beyond, on a board whose
		// crosses and sure stones are too few for the counts above (far rows foreshortened, or
		// faint lines among stones): of the 159 unsure grids on 1,800 renders whose edges fit
		// once centred and checked, one was wrong (0.56 spacing off) and the counts took it.
		return c, nil
	}
	stones, placed := stonesPlace(img, c)
	if judged && (placed || framed(img, c, stones)) {
		return c, nil
	}
	s, err := findSurely(img, size)
	if err == nil && !((centred || doubted) && sameGrid(s, found)) {
		return s, nil
	}
	if slid {
		// The board runs out of the picture: a grid its outline places inside what shows of it
		// would be a wrong one, as where the finder's own grid left the picture.
		return calib.Calibration{}, fmt.Errorf("vision: %w: the best grid (confidence %.2f) runs on past the board's edge, over the table",
			calib.ErrNotInView, c.Confidence)
	}
	if o, ok := outlineGrid(img, err, size, p); ok {
		return o, nil
	}
	if g, ok := phasedOnOutline(img, c, p); ok {
		return g, nil
	}
	moved := ""
	switch {
	case centred:
		moved = fmt.Sprintf("; moved half a spacing onto the stones, which sat between the points of the grid found at %.2f", found.Confidence)
	case doubted:
		moved = fmt.Sprintf("; found at %.2f, but the reader is sure of fewer than %.0f%% of its points", found.Confidence, 100*FoundSure)
	case unsure:
		moved = fmt.Sprintf("; the reader is sure of fewer than %.0f%% of its points", 100*FoundSure)
	}
	return calib.Calibration{}, fmt.Errorf("vision: %w: the best grid (confidence %.2f%s) shows its lines on only %d of %d points (%d read empty, %d sure stones; %v)",
		calib.ErrNoBoard, c.Confidence, moved, max(lined, 0), c.Size*c.Size, empty, sure, stones)
}

// findSurely searches img for the board again at the sure bar, after an unsure fit was refused.
// calib.Find ends at the first pass whose fit clears the caller's bar, so the passes after it
// never looked: searched again at the sure bar, one of them may find the board surely (a blurred
// board whose smoothed pass fitted it at 0.40, refused by the grid checks, and its equalized pass
// at 0.60; a grid a line off at 0.43 refused for a filled line, and a later pass's at 0.50).
func findSurely(img gocv.Mat, size int) (calib.Calibration, error) {
	return calib.Find(img, calib.FindOptions{Size: size, MinConfidence: StillMinConfidence})
}

// FoundSure is the least share of its points the learned reader must be sure of (0.9 or more,
// whatever it reads) for FindBoard to take a grid the finder found at its sure bar on the
// finder's word (readerDoubts), or to keep an unsure fit by its lines, stones
// or outline (readerUnsure). On the late-game 19x19 renders of -seed 6001 and
// 6002 (583 grids found at 0.3 or more), every right grid read at least 319 of 361 points surely
// (327 at 0.5 to 0.65); grids 13 spacings off, a finer lattice turned across the stones or a
// diagonal one through them, reached 0.50 with 285 and 297.
const FoundSure = 0.85

// readerDoubts reports whether c, found by the finder at its sure bar, leaves the learned reader
// unsure of so many points (FoundSure) that FindBoard judges it as an unsure fit instead: the
// points of a lattice that is not the board's fall on the stones' rims and the cells between
// them. A grid below the finder's bar is judged as unsure anyway, so it is not asked. Until
// 2026-12-03 only grids under CentreBelow were asked; then `render-boards -seed 6001` scene 161
// (TestFindBoardDoubtsASureGrid) was found at 0.71 half a spacing off at a corner, the reader sure
// of 273 of its 361 points, and read 106 points wrong. Asking every sure grid changed no other
// outcome on the 1,500 late-game renders, `-seed 9902`, the Roboflow photos or the augmented ones:
// their right grids found at CentreBelow or more all left the reader sure of FoundSure.
func readerDoubts(img gocv.Mat, c calib.Calibration, p Params) bool {
	if c.Confidence < StillMinConfidence {
		return false
	}
	return readerUnsure(img, c, p)
}

// readerUnsure reports whether the learned reader is sure of fewer than FoundSure of c's points.
func readerUnsure(img gocv.Mat, c calib.Calibration, p Params) bool {
	sure := surePoints(img, c, p)
	return sure >= 0 && float64(sure) < FoundSure*float64(c.Size*c.Size)
}

// PhasedSure is the share of a grid's points the learned reader must be sure of (0.9 or more,
// whatever it reads) for phasedOnOutline to take the grid's points as the board's. On a grid half
// a spacing off the points fall on the rims between stones: on 20 refused late-game 19x19
// renders, the reader was sure of 347 to 361 of the drawn grid's 361 points on 18 (311 and 335 on
// the other two), and of 193 to 344 with the drawn grid moved half a spacing sideways or down.
const PhasedSure = 0.96

// outlineTolerance is how far apart (in spacings) a board's opposite margins may be around a grid
// phasedOnOutline registers (calib.Margins.Balanced); a grid a line off makes them two spacings
// apart.
const outlineTolerance = 0.6

// phasedOnOutline is FindBoard's last look at an unsure fit every other check refused, on a
// board whose lines are too faint or too hidden by stones to judge it: the learned reader is sure
// of nearly every point (PhasedSure), so the points lie on the stones and the bare points'
// crosses, at the board's spacing; which of the lattice's lines are the board's edge lines, the
// reader cannot tell (a grid a line off reads the table beyond the edge as surely empty). So a
// board outline (calib.OutlineMargins) must frame the grid, moved by whole lines if need be, with
// even margins, and the moved grid must read as surely.
func phasedOnOutline(img gocv.Mat, c calib.Calibration, p Params) (calib.Calibration, bool) {
	points := c.Size * c.Size
	phased := func(g calib.Calibration) bool {
		return float64(surePoints(img, g, p)) >= PhasedSure*float64(points)
	}
	if !phased(c) {
		return c, false
	}
	margins, err := calib.OutlineMargins(img, c)
	if err != nil {
		return c, false
	}
	for _, m := range margins {
		cols, rows, ok := m.Balanced(outlineTolerance)
		if !ok {
			continue
		}
		if cols == 0 && rows == 0 {
			return c, true
		}
		g, err := movedLines(c, [2]float64{float64(cols), float64(rows)})
		if err != nil || !g.InView() {
			continue
		}
		// The lens term c carried was fitted to the grid a line off, as where CheckGrid moves one.
		if bent, err := calib.FitLens(img, g); err == nil {
			g = bent
		}
		if phased(g) {
			return g, true
		}
	}
	return c, false
}

// sameGrid reports whether a and b are grids of one size whose corners lie within a quarter
// spacing of each other.
func sameGrid(a, b calib.Calibration) bool {
	return cornersWithin(a, b, 0.25)
}

// slidOffBoard reports whether an unsure fit is the part of a lattice the picture cuts, slid
// over the table: one of its edge lines is missing from the line map (calib.Check's edge tests)
// while the picture's edge runs along its opposite side: a line one spacing beyond that side would
// lie, at both its ends, less than a spacing inside the picture or out of it, so the finder could
// not see whether the lattice runs on there. Where the board runs out of the picture, the finder
// can fit the visible lines and carry the grid on past the board's near edge, over the table or a
// score sheet, whose points the reader may still see crossed (a gomrade photo with its right
// third cut off: 275 of 309 read lined). A board merely turned with one corner at the picture's
// edge is not cut along a side: its line beyond ran 4.8 spacings inside at its other end (a render
// whose far edge line was dark under its own shadow), the cut boards' 0.6 at most.
func slidOffBoard(img gocv.Mat, c calib.Calibration) bool {
	var others calib.DriftTests
	for t := calib.DriftNoLines + 1; t <= calib.DriftStonesOff; t++ {
		if t < calib.DriftEdgeMissing || t > calib.DriftEdgeMissing+3 {
			others = others.With(t)
		}
	}
	rep, err := calib.CheckPast(img, c, others)
	if err != nil || !rep.Moved || rep.Test == calib.DriftNoLines {
		return false
	}
	// The missing side, its opposite's two ends (grid columns and rows) and the step one line on
	// beyond it: top (0) -> the bottom row, down; right (1) -> the left column, left; bottom (2)
	// -> the top row, up; left (3) -> the right column, right.
	side := int(rep.Test - calib.DriftEdgeMissing)
	n := float64(c.Size - 1)
	ends := [4][2][2]float64{{{0, n}, {n, n}}, {{0, 0}, {0, n}}, {{0, 0}, {n, 0}}, {{n, 0}, {n, n}}}[side]
	step := [4][2]float64{{0, 1}, {-1, 0}, {0, -1}, {1, 0}}[side]
	w, h := float64(c.ImageWidth-1), float64(c.ImageHeight-1)
	for _, e := range ends {
		at := c.GridPixel(e[0], e[1])
		beyond := c.GridPixel(e[0]+step[0], e[1]+step[1])
		spacing := math.Hypot(beyond.X-at.X, beyond.Y-at.Y)
		inside := min(beyond.X, w-beyond.X, beyond.Y, h-beyond.Y) // negative out of the picture
		if inside >= spacing {
			return false
		}
	}
	return true
}

// CentreBelow is the finder's confidence under which FindBoard asks whether the stones sit
// between a grid's points (centreOnStones). Every grid found half a spacing off on 600 late-game
// renders was found below 0.56; the test reads the frame four times, so a sure grid is spared it.
const CentreBelow = 0.65

// centreSure is the probability at which centreOnStones counts a point as read surely: stricter
// than surePoints' 0.9, since the reader gives most points between stones more than 0.9 but less
// than it gives a stone on its point. On the 900 late-game renders of `render-boards -seed 6001`,
// 6002 and 6005 (19x19), the drawn grid moved half a spacing (three ways a frame, 2,700 grids)
// gained a seventh of the points by moving back at 0.9 for 2,024 of them, at 0.99 for 2,656;
// no drawn grid gained more than 25 points at 0.99 by a half-spacing move (a seventh is 52). A
// retraining surer of the points between stones (six augmented copies of each photo) kept
// 2,615 at 0.99 against 1,701 at 0.9.
const centreSure = 0.99

// centreGain is the share of the points (one in centreGain) more that a half-spacing move must
// make the reader sure of for centreOnStones to take it. Right grids gain little by a move (14
// points at most on 419 right grids found below CentreBelow on four render sets) and wrong ones a
// lot (72 to 281 on the 20 of 46 that gain at all), but for one: the right grid of `render-boards
// -seed 6001` scene 140 (0.14 spacing off at 0.43) gained 52, which a seventh (52 of 361) let
// through, and was moved to 0.66 off. A sixth (61) lies between the two. With a seventh, the
// 1,500 late-game renders of `-seed 6001` to `6008` moved 23 grids: 8 mended (gaining 84 to 291),
// 14 wrong either way (72 to 237), and scene 140.
const centreGain = 6

// centreOnStones moves a grid found half a spacing off, its points on the rims between the
// stones, onto the stones. A person sees at once that such a grid is wrong: the stones are not on
// its points. The learned reader sees it too: it is sure of a point (centreSure or more, any
// reading) where a stone is centred on it or no stone is near, and less sure where a point falls
// between stones. So the grid is read as it is and moved half a spacing sideways, up or down, and
// both ways; when a move makes the reader sure of one point in centreGain more, the stones are
// between the grid's points. On 600 late-game renders (19x19, 129 to 341 stones), counted at 0.9,
// six wrong grids gained 65 to 193 points so, and no right grid more than 37 (centreSure says
// why the count is now at 0.99; a grid half a spacing off sideways only, whose points fall
// between two stones side by side, passed unseen at 0.9: TestCentreOnStones).
//
// A move by half a spacing puts the points on the stones but cannot tell which way the lines
// lie: the moves by +1/2 and -1/2 are a line apart, and the reader is as sure of both. The one the
// board's lines bear out is taken: calib.Check finds its edge lines and no line beyond them (on a
// crowded rendered board only the drawn grid passed of it and its six copies a line off), and of
// several so, the one whose lines stand out most. (The count of empty points showing their
// grid-line cross, gridScore, chose a copy a line off there.) The moved grid's confidence is set
// under the sure bar, since the finder's figure was for the grid it fitted: the grid checks then
// judge it (CheckGrid can still move it a line) as they judge any unsure fit; if they refuse it,
// FindBoard goes on as for any fit they refuse, but does not take the found grid back.
func centreOnStones(img gocv.Mat, c calib.Calibration, p Params) (calib.Calibration, bool) {
	if c.Confidence >= CentreBelow {
		return c, false
	}
	sureOf := func(g calib.Calibration) int {
		return countRead(img, g, p, func(rd Reading, i int) bool { return rd.Confidence[i] >= centreSure })
	}
	base := sureOf(c)
	if base < 0 {
		return c, false
	}
	// The three ways to move half a spacing: sideways, up or down, and both. The two moves of a
	// way (+1/2 and -1/2) put the points on the same stones but for the edge lines, so the reader
	// is asked once a way, of the first move that keeps the grid in the picture.
	ways := [3][][2]float64{
		{{0.5, 0}, {-0.5, 0}},
		{{0, 0.5}, {0, -0.5}},
		{{0.5, 0.5}, {-0.5, -0.5}, {0.5, -0.5}, {-0.5, 0.5}},
	}
	var bestWay []calib.Calibration
	best := base
	for _, way := range ways {
		var moves []calib.Calibration
		for _, d := range way {
			if m, err := movedLines(c, d); err == nil && m.InView() {
				moves = append(moves, m)
			}
		}
		if len(moves) == 0 {
			continue
		}
		if s := sureOf(moves[0]); s > best {
			best, bestWay = s, moves
		}
	}
	n := c.Size
	if best*centreGain < base*centreGain+n*n {
		return c, false
	}
	var pick calib.Calibration
	pickFits, pickContrast := false, math.Inf(-1)
	for _, m := range bestWay {
		rep, err := calib.Check(img, m)
		if err != nil {
			continue
		}
		if fits := !rep.Moved; (fits && !pickFits) || (fits == pickFits && rep.Contrast > pickContrast) {
			pick, pickFits, pickContrast = m, fits, rep.Contrast
		}
	}
	if pick.Size == 0 {
		return c, false
	}
	pick.Confidence = math.Min(c.Confidence, StillMinConfidence-0.01)
	return pick, true
}

// surePoints counts the points the learned reader reads, whatever it reads, with a probability
// of at least 0.9 on the grid of cal (-1 if unreadable).
func surePoints(img gocv.Mat, cal calib.Calibration, p Params) int {
	return countRead(img, cal, p, func(rd Reading, i int) bool { return rd.Confidence[i] >= 0.9 })
}

// movedLines is cal's grid moved by d (columns, rows) lines (or parts of one), with cal's other terms.
func movedLines(cal calib.Calibration, d [2]float64) (calib.Calibration, error) {
	n := float64(cal.Size - 1)
	q := [4]calib.Point2{cal.GridPixel(d[0], d[1]), cal.GridPixel(n+d[0], d[1]),
		cal.GridPixel(n+d[0], n+d[1]), cal.GridPixel(d[0], n+d[1])}
	c, err := calib.FromCorners(cal.ImageWidth, cal.ImageHeight, cal.Size, q)
	if err != nil {
		return calib.Calibration{}, err
	}
	c.BlackSide, c.Confidence, c.LightLines, c.Lens = cal.BlackSide, cal.Confidence, cal.LightLines, cal.Lens
	return c, nil
}

// stonesPlace is the grid check of an unsure fit whose lines do not show (a pale board, its lines
// faint between the stones): the black stones sit on its points and place it (calib.StoneFit.Places),
// and the lines, where they show, do not say otherwise: calib.Check finds no line beyond its edges
// and no better-fitting moved copy, or finds the lines too faint to judge. A 9x9 grid laid over the
// stones of a corner of a 19x19 board has them on its points too, but the board's clear lines run on
// past its edges.
func stonesPlace(img gocv.Mat, c calib.Calibration) (calib.StoneFit, bool) {
	fit, err := calib.FitStones(img, c)
	if err != nil || !fit.Places() {
		return fit, false
	}
	rep, err := calib.Check(img, c)
	return fit, err == nil && (!rep.Moved || rep.Test == calib.DriftNoLines)
}

// framed is the grid check of an unsure fit on a board whose lines are too faint or blurred to
// show at its points, and whose stones are too few to place it: the board's outline against the
// table frames the grid with even margins (calib.FramedByOutline), and the stones, where there
// are enough to judge by, still sit on its points, none on a line beyond its edges.
func framed(img gocv.Mat, c calib.Calibration, stones calib.StoneFit) bool {
	if stones.Judges() && !stones.Holds() {
		return false
	}
	_, ok := calib.FramedByOutline(img, c)
	return ok
}

// OutlineMinConfidence is the least line evidence a grid the board's outline places needs to be
// judged by the reader at all (outlineGrid).
const OutlineMinConfidence = 0.05

// outlineGrid is FindBoard's last look, where the finder's bars refused every grid: the grids
// the board's outlines placed below them (calib.BelowBar, where the lines are too faint, blurred
// or noisy to clear those bars), the first with line evidence enough to judge
// (OutlineMinConfidence) that the reader vouches for (outlineVouched); failing those, the grid
// the reader itself places in one of the outlines (outlineRead).
func outlineGrid(img gocv.Mat, refusal error, size int, p Params) (calib.Calibration, bool) {
	var below *calib.BelowBar
	if !errors.As(refusal, &below) {
		return calib.Calibration{}, false
	}
	for _, o := range below.Bent(img) {
		if o.Confidence >= OutlineMinConfidence && outlineVouched(img, o, p) {
			return o, true
		}
	}
	return outlineRead(img, below.Outlines, size, p)
}

// outlineVouched is the check of a grid the board's outline places below the finder's bars. The
// outline frames it by construction, so only the points can vouch for it: half of them show
// their grid-line cross, or nine in ten show it or hold a stone the reader is sure of
// (vouchedEnough), or the black stones place it (stonesPlace). A third of the points lined, the
// bar for the finder's own unsure fits, is not enough here: a 9x9 grid an outline placed on a
// 19x19 board (at 0.23) showed its lines on 35 of its 81 points. And no grid of another size
// through the same corners may show its lines on a larger share of its points: a 13x13 grid
// stretched over a 19x19 board's corners has half its lines on the board's, and showed them on
// 97 of its 169 points (the board's own grid on 222 of 361).
func outlineVouched(img gocv.Mat, c calib.Calibration, p Params) bool {
	points := c.Size * c.Size
	lined, _ := gridScoreEmpty(img, c, p)
	for _, s := range []int{9, 13, 19} {
		if s == c.Size {
			continue
		}
		other := c // the same corners and lens term
		other.Size = s
		if l, _ := gridScoreEmpty(img, other, p); l*points >= lined*s*s {
			return false
		}
	}
	if lined*2 < points && !vouchedEnough(lined, sureStones(img, c, p), points) {
		_, placed := stonesPlace(img, c)
		return placed
	}
	// The lines must not run on past the grid's edges, nor fit better moved: a 13x13 grid a line
	// inside a 15x15 board's outline shows its lines on its points as well as the board's own.
	rep, err := calib.Check(img, c)
	return err == nil && (!rep.Moved || rep.Test == calib.DriftNoLines)
}

// vouchedEnough is the grid check of an unsure fit on a crowded board, where stones hide most
// lines: nine points in ten either show their grid-line cross or hold a stone the learned reader
// is sure of. A stone is read surely only when it sits on the point: a grid off by a fraction of
// a spacing puts its points on the rims between stones, and a lattice of a cloth or a table has
// no stones on it. Measured 2026-11-26 on the unsure fits of the labelled photos' variants and
// the Roboflow photos: right grids 0.93 to 1.00 of their points, wrong ones 0.80 at most.
func vouchedEnough(lined, sure, points int) bool {
	return (max(lined, 0)+sure)*10 >= 9*points
}

// sureStone reports whether rd reads point i as a black or white stone with a probability of at
// least 0.95.
func sureStone(rd Reading, i int) bool {
	st := rd.Stones[i]
	return (st == observe.Black || st == observe.White) && rd.Confidence[i] >= 0.95
}

// sureStones counts the points the learned reader reads as a black or white stone with a
// probability of at least 0.95 on the grid of cal (-1 if unreadable).
func sureStones(img gocv.Mat, cal calib.Calibration, p Params) int {
	return countRead(img, cal, p, sureStone)
}

// countRead counts the points i of the learned reader's reading rd on the grid of cal for which
// keep(rd, i) holds (-1 if unreadable).
func countRead(img gocv.Mat, cal calib.Calibration, p Params, keep func(rd Reading, i int) bool) int {
	p.HandTuned = false
	n := -1
	err := readOnce(img, cal, p, func(_ *Reader, rd Reading) {
		n = 0
		for i := range rd.Stones {
			if keep(rd, i) {
				n++
			}
		}
	})
	if err != nil {
		return -1
	}
	return n
}

// readOnce reads img on the grid of cal with a reader made for it, hands the reader and its
// reading (valid only during the call) to use, and closes the reader.
func readOnce(img gocv.Mat, cal calib.Calibration, p Params, use func(*Reader, Reading)) error {
	r, err := NewReader(cal, p)
	if err != nil {
		return err
	}
	defer r.Close()
	rd, err := r.Read(img)
	if err != nil {
		return err
	}
	use(r, rd)
	return nil
}

// linedEnough is the grid check of an unsure fit: a third of all points show their grid-line
// cross, or, on a board crowded with stones (fewer than half its points empty), three quarters
// of the empty points do and they are at least an eighth of all points. The second way holds
// only for the finder's own grid (kept): a grid CheckGrid moved a line on a crowded board was
// moved on thin evidence.
func linedEnough(lined, empty, points int, kept bool) bool {
	if lined*3 >= points {
		return true
	}
	return kept && empty*2 < points && lined*8 >= points && lined*4 >= 3*empty
}

// CheckGrid guards against a found grid that is one line off (the board's edge mistaken for a
// line, or the outermost line missed): it compares the calibration with the grids moved by one
// line in each direction and keeps the one on which the most empty points show their grid-line
// cross. A move is taken only when it wins clearly (by a third of a line's points), and never
// from a grid the finder is sure of (StillMinConfidence): the finder's own tests of the lines
// beyond a grid's edges are better evidence than points. On a crowded board an edge row of stones
// dropped for a row of margin gains a line's worth of lined points, and on an open one the
// board's dark edge, taken for a line, scored as well as the outer line it replaced: on 600
// rendered photos with known corners, CheckGrid moved seven right grids of confidence 0.47 to 0.77
// a line off, and put right three wrong ones, all below 0.5. A move is never taken out of the
// picture (Calibration.InView), nor for crosses on a line whose points leave it (lineInPicture)
// or that reads as stones end to end (takesBorderIn), nor when it leaves out stones the grid held
// (leavesStonesOut), nor for crosses at all from a grid whose edges fit the board's lines
// (edgesFit): there the crosses a move gains lie on the board's margin, whose edge against the
// table reads as a line, and the grid's own edge line, far and foreshortened or among stones,
// showed fewer (on 1,800 renders CheckGrid moved three grids whose edges fit, each a
// right one, 1.3 to 2.0 spacings off).
// Where stones hide the crosses, a move is also taken when it takes in a line of a game's stones
// for a line with none (takesStonesIn), and the check is made again from the moved grid, at most
// twice and never back: a crowded diagram was found a line off both ways, its first column on
// the row labels and its first row on the column labels.
func CheckGrid(img gocv.Mat, cal calib.Calibration, p Params) calib.Calibration {
	if cal.Confidence >= StillMinConfidence {
		return cal
	}
	var back [2]float64
	for range 2 {
		moved, d, ok := checkGridOnce(img, cal, back, p)
		if !ok {
			break
		}
		cal, back = moved, [2]float64{-d[0], -d[1]}
	}
	return cal
}

// checkGridOnce is one step of CheckGrid: the best of cal's grids moved a line, and the move,
// never the move back.
func checkGridOnce(img gocv.Mat, cal calib.Calibration, back [2]float64, p Params) (calib.Calibration, [2]float64, bool) {
	bestScore, _ := gridScoreEmpty(img, cal, p)
	if bestScore < 0 {
		return cal, [2]float64{}, false
	}
	start := bestScore
	fits := edgesFit(img, cal)
	best, bestMove, moved := cal, [2]float64{}, false
	for _, d := range [4][2]float64{{0, -1}, {0, 1}, {-1, 0}, {1, 0}} {
		if d == back {
			continue
		}
		c, err := movedLines(cal, d)
		if err != nil {
			continue
		}
		if !c.InView() {
			continue // the finder refuses a grid the picture cuts, and so does its check
		}
		s := gridScore(img, c, p)
		axis, _, added := moveLines(cal.Size, d)
		lines := !fits && s > bestScore+cal.Size/3 && lineInPicture(c, axis, added, 0) &&
			!takesBorderIn(img, c, axis, added, p) && !leavesStonesOut(img, cal, c, d, p)
		stones := !moved && s >= 0 && s+cal.Size/3 >= start && takesStonesIn(img, cal, c, d, p)
		if lines || stones {
			best, bestScore, bestMove, moved = c, max(s, bestScore), d, true
		}
	}
	return best, bestMove, moved
}

// edgesFit reports whether calib.Check finds cal's grid on the board's lines: every edge line
// there, no line a spacing beyond any edge and no copy moved a third of a spacing fitting better.
func edgesFit(img gocv.Mat, cal calib.Calibration) bool {
	rep, err := calib.Check(img, cal)
	return err == nil && !rep.Moved
}

// moveLines names the line a move d (in grid lines) of an n x n grid drops and the line it takes
// in, and whether they are columns (axis 0) or rows (axis 1): a move of +1 drops line 0 of the old
// grid and takes in line n-1 of the new one, a move of -1 the other way round.
func moveLines(n int, d [2]float64) (axis, dropped, added int) {
	if d[1] != 0 {
		axis = 1
	}
	dropped, added = 0, n-1
	if d[axis] < 0 {
		dropped, added = n-1, 0
	}
	return axis, dropped, added
}

// lineStones counts the stones the learned reader is sure of (sureStone) on one column (axis 0)
// or row (axis 1) of cal's grid, black and white apart (-1, -1 if unreadable).
func lineStones(img gocv.Mat, cal calib.Calibration, axis, line int, p Params) (black, white int) {
	p.HandTuned = false // the learned reader's sure stones, as sureStones counts them
	n := cal.Size
	black, white = -1, -1
	_ = readOnce(img, cal, p, func(_ *Reader, rd Reading) {
		black, white = 0, 0
		for i := 0; i < n; i++ {
			at := line*n + i // a row
			if axis == 0 {
				at = i*n + line // a column
			}
			if !sureStone(rd, at) {
				continue
			}
			if rd.Stones[at] == observe.Black {
				black++
			} else {
				white++
			}
		}
	})
	return black, white
}

// leavesStonesOut reports whether the move d (in grid lines) of grid from leaves out a line of
// stones for a line of margin: the line it drops holds three or more stones the learned reader is
// sure of beyond those on the line it takes in. Stones lie on the board, not on its margin: on a
// crowded board CheckGrid's score can prefer a row of margin to an edge row of stones, whose
// grid-line crosses the stones hide (a Roboflow 13x13 full of stones, 8f20266b703d, was moved a
// row down onto its margin). A dropped line read as stones at all its points but two is a dark
// table or border along the board, not a game's stones, and may be dropped (a rendered grid a
// row off, its last row on the table, was put right so).
func leavesStonesOut(img gocv.Mat, from, moved calib.Calibration, d [2]float64, p Params) bool {
	n := from.Size
	axis, dropped, added := moveLines(n, d)
	b, w := lineStones(img, from, axis, dropped, p)
	lost := b + w
	if b < 0 || lost < 3 || lost >= n-2 {
		return false
	}
	b, w = lineStones(img, moved, axis, added, p)
	return b >= 0 && lost >= b+w+3
}

// takesBorderIn reports whether the line a move takes in (line of axis on the moved grid) is read
// as stones at all its points but two: the board's dark border or the table beside it, not a line
// of the board, whatever crosses the other points gain (gridScore counts such an edge line off
// only where the hand-made features read it so). On a late-game render (`-seed 6002` scene 9)
// the finder's right grid was moved a row down, onto a bottom row of 18 black stones the learned
// reader was sure of.
func takesBorderIn(img gocv.Mat, moved calib.Calibration, axis, line int, p Params) bool {
	b, w := lineStones(img, moved, axis, line, p)
	return b+w >= moved.Size-2
}

// takesStonesIn is leavesStonesOut's mirror, held to more: the move d of grid from takes in a
// line of a game's stones for a line with none. The line it takes in lies wholly in the picture
// (lineInPicture) and holds three or more stones the learned reader is sure of, of both colours,
// and not stones at all its points but two (a dark table or border); the line it drops holds no
// stone it is sure of. On two crowded Roboflow
// diagrams the finder put the grid a line off, its first column on the row labels, while the
// board's last column beyond the grid held 9 and 7 sure stones; their crosses, hidden by stones,
// could not move it. A rule without both colours and the empty dropped line moved three right
// grids of 1,500 late-game renders a line off.
func takesStonesIn(img gocv.Mat, from, moved calib.Calibration, d [2]float64, p Params) bool {
	n := from.Size
	axis, dropped, added := moveLines(n, d)
	if !lineInPicture(moved, axis, added, 0.5) {
		return false
	}
	b, w := lineStones(img, moved, axis, added, p)
	if b < 1 || w < 1 || b+w < 3 || b+w >= n-2 {
		return false
	}
	b, w = lineStones(img, from, axis, dropped, p)
	return b == 0 && w == 0
}

// lineInPicture reports whether an edge line of cal's grid (column or row, axis 0 or 1) lies in
// the picture with out spacings to spare: every point of the line moved that far outward lies
// inside it. Calibration.InView lets a grid's edge lie up to half a spacing out of the picture,
// where its points show only what the reader's warp fills in, and even a point in the picture
// is no evidence of a stone the picture's edge cuts. So CheckGrid takes in a line for its crosses
// only with its points in the picture (out 0): on a late-game render (`-seed 6007` scene 279) the
// finder's right grid was moved a row down, its new bottom row's points up to a quarter spacing
// below the picture, 11 of them read lined there. And it takes in a line for its stones only with
// them wholly in it (out 0.5): a crowded board's bottom row at the picture's edge read, a row
// beyond, as a line of both colours' stones.
func lineInPicture(cal calib.Calibration, axis, line int, out float64) bool {
	n := cal.Size
	if line != n-1 {
		out = -out
	}
	for i := 0; i < n; i++ {
		col, row := float64(line)+out, float64(i)
		if axis == 1 {
			col, row = float64(i), float64(line)+out
		}
		q := cal.GridPixel(col, row)
		if q.X < 0 || q.Y < 0 || q.X > float64(cal.ImageWidth-1) || q.Y > float64(cal.ImageHeight-1) {
			return false
		}
	}
	return true
}

// gridScore counts the empty points whose grid-line cross is clearly visible (-1 if unreadable),
// less the points of any edge line read as (nearly) all stones: a grid one line too far out puts
// its edge line on the board's dark border or the table, which reads as a row of black stones.
// It looks at a finer canonical image than live reading, where thin lines stay sharp.
func gridScore(img gocv.Mat, cal calib.Calibration, p Params) int {
	s, _ := gridScoreEmpty(img, cal, p)
	return s
}

// gridScoreEmpty is gridScore and the number of points read empty (-1, 0 if unreadable).
func gridScoreEmpty(img gocv.Mat, cal calib.Calibration, p Params) (int, int) {
	p.Spacing = max(p.Spacing, 360/(cal.Size-1))
	// The grid check measures line contrast with the hand-made features; it must not depend on
	// which classifier reads the stones.
	p.HandTuned = true
	score, empty := -1, 0
	if err := readOnce(img, cal, p, func(r *Reader, rd Reading) { score, empty = linedPoints(r, rd, cal.Size, cal.LightLines) }); err != nil {
		return -1, 0
	}
	return score, empty
}

// linedPoints is gridScoreEmpty's count on a reading rd made by r of an n x n board, whose lines
// are light on a darker board when light (the finder found them so): their contrast is negative.
func linedPoints(r *Reader, rd Reading, n int, light bool) (int, int) {
	lv := measureLevels(r.feats, r.params, &r.scratch)
	sign := 1.0
	if light {
		sign = -1
	}
	typical := math.Max(0, sign*lv.line)
	score, empty := 0, 0
	for i, f := range r.feats {
		if rd.Stones[i] != 0 {
			continue
		}
		empty++
		if in := sign * f.InLine; in > 0.5*typical && in > 0.05 {
			score++
		}
	}
	for _, line := range [4]func(k int) int{
		func(k int) int { return k },           // top row
		func(k int) int { return (n-1)*n + k }, // bottom row
		func(k int) int { return k * n },       // left column
		func(k int) int { return k*n + n - 1 }, // right column
	} {
		stones := 0
		for k := 0; k < n; k++ {
			if rd.Stones[line(k)] != 0 {
				stones++
			}
		}
		if stones >= n-2 {
			score -= stones
		}
	}
	return score, empty
}

// CameraKind says what a camera description names.
type CameraKind int

// Kinds of camera descriptions.
const (
	CameraDevice    CameraKind = iota + 1 // a V4L2 device
	CameraLibcamera                       // the Raspberry Pi Camera Module through GStreamer
	CameraPipeline                        // a GStreamer pipeline
	CameraPath                            // a directory of stills or a video file
)

// CameraSpec is a parsed camera description (see ParseCameraSpec).
type CameraSpec struct {
	Kind   CameraKind
	Target string // device path or index, pipeline, or file path
	Width  int    // libcamera frame size and rate
	Height int
	FPS    int
}

// ParseCameraSpec parses a short camera description:
//   - "/dev/videoN" or "N": a V4L2 camera;
//   - "libcamera" or "libcamera:WxH@FPS": the Raspberry Pi Camera Module (default 1920x1080@15);
//   - "gst:PIPELINE": any GStreamer pipeline ending in appsink;
//   - anything else: a path, a directory of stills or a video file.
func ParseCameraSpec(spec string) (CameraSpec, error) {
	switch {
	case strings.TrimSpace(spec) == "":
		return CameraSpec{}, errors.New("vision: no camera given")
	case strings.HasPrefix(spec, "/dev/video"):
		return CameraSpec{Kind: CameraDevice, Target: spec}, nil
	case spec == "libcamera" || strings.HasPrefix(spec, "libcamera:"):
		cs := CameraSpec{Kind: CameraLibcamera, Width: 1920, Height: 1080, FPS: 15}
		if rest, ok := strings.CutPrefix(spec, "libcamera:"); ok {
			var w, h, fps int
			var tail string
			n, _ := fmt.Sscanf(rest, "%dx%d@%d%s", &w, &h, &fps, &tail)
			if n != 3 || w < 16 || h < 16 || w > 16384 || h > 16384 || fps < 1 || fps > 240 {
				return CameraSpec{}, fmt.Errorf("vision: camera %q: want libcamera:WIDTHxHEIGHT@FPS", spec)
			}
			cs.Width, cs.Height, cs.FPS = w, h, fps
		}
		return cs, nil
	case strings.HasPrefix(spec, "gst:"):
		p := strings.TrimSpace(strings.TrimPrefix(spec, "gst:"))
		if p == "" {
			return CameraSpec{}, fmt.Errorf("vision: camera %q: empty pipeline", spec)
		}
		return CameraSpec{Kind: CameraPipeline, Target: p}, nil
	}
	if _, err := parseIndex(spec); err == nil {
		return CameraSpec{Kind: CameraDevice, Target: spec}, nil
	}
	return CameraSpec{Kind: CameraPath, Target: spec}, nil
}

// OpenCamera opens a frame source from a camera description (see ParseCameraSpec). Live cameras
// reconnect by themselves; a directory or video file ends with ErrEnd. Cameras and video files
// are captured by the camera helper (opt.Helper, see HelperName) in a child process, started on
// the first Next and restarted with backoff while the camera is lost (a missing helper is a
// Lost event whose error wraps ErrNoCameraHelper); directories of stills are read in-process.
func OpenCamera(spec string, opt LiveOptions) (Source, error) {
	cs, err := ParseCameraSpec(spec)
	if err != nil {
		return nil, err
	}
	switch cs.Kind {
	case CameraDevice, CameraLibcamera, CameraPipeline:
		if opt.Name == "" {
			opt.Name = spec
		}
		return NewLiveSource(helperOpener(spec, opt), opt), nil
	}
	st, err := os.Stat(cs.Target)
	if err != nil {
		return nil, fmt.Errorf("vision: camera %q: %w", spec, err)
	}
	if st.IsDir() {
		return OpenDir(cs.Target, time.Now(), time.Second)
	}
	return openHelperVideo(cs.Target, time.Now(), opt)
}

// Grab returns one frame from src after skipping `skip` frames (a camera's first frames are often
// dark or out of focus while exposure settles). The caller closes the returned Mat.
func Grab(ctx context.Context, src Source, skip int) (gocv.Mat, error) {
	m := gocv.NewMat()
	for i := 0; i <= skip; i++ {
		if _, err := src.Next(ctx, &m); err != nil {
			if errors.Is(err, ErrEnd) && i > 0 {
				break
			}
			m.Close()
			return gocv.Mat{}, err
		}
	}
	return m, nil
}
