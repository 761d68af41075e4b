package calib

import (
	"fmt"
	"math"
	"slices"

	"gocv.io/x/gocv"
)

// StoneFit is how the black stones seen in a frame sit on a grid. A person who cannot make out a
// board's lines (a pale board, a dim room, a crowded game) still sees whether its stones sit on
// the points in rows: a grid off by a fraction of a spacing puts them between its points, one of
// the wrong size or a line too small leaves stones on the lines beyond its edges.
type StoneFit struct {
	// Inside is how many black stones lie on the grid (within half a spacing of its edges).
	Inside int
	// On is how many of those lie within a quarter spacing of an intersection.
	On int
	// MeanOff is their mean distance from the nearest intersection, in spacings.
	MeanOff float64
	// Span is the share of the grid's columns and of its rows between the outermost stones on
	// points.
	Span [2]float64
	// Radius is the stones' radius in spacings (a stone is about 0.45).
	Radius float64
	// Beyond counts the stones on the points of the line just beyond each edge of the grid, in
	// the grid's own rows and columns: top, right, bottom, left.
	Beyond [4]int
}

// Stones' fit bars shared by the outline's grid (outlineStoneGrid) and StoneFit.Places.
const (
	// stonesMin is the least number of black stones inside the grid for the stones to place it.
	stonesMin = 16
	// stonesOn is the least share of them within a quarter spacing of an intersection.
	stonesOn = 0.9
	// stonesOff is the most mean distance of them from the nearest intersection, in spacings.
	stonesOff = 0.15
	// stonesSpan is the least share of the grid's width and height the stones on points must
	// span.
	stonesSpan = 0.6
)

// sitOn reports whether the stones sit on the grid's points: enough of them inside, nine in ten
// within a quarter spacing of an intersection, close to them on average, and of a stone's size
// on this grid (0.3 to 0.6 spacing).
func (f StoneFit) sitOn() bool {
	return f.Inside >= stonesMin && float64(f.On) >= stonesOn*float64(f.Inside) &&
		f.MeanOff <= stonesOff && f.Radius >= 0.3 && f.Radius <= 0.6
}

// Places reports whether the stones alone place the grid: they sit on its points (enough of
// them, nine in ten within a quarter spacing, 0.15 spacing off on average, of a stone's size),
// span 0.6 of it both ways, and none sits on a line beyond its edges.
func (f StoneFit) Places() bool {
	return f.sitOn() && f.Span[0] >= stonesSpan && f.Span[1] >= stonesSpan && f.Beyond == [4]int{}
}

// Holds reports whether the stones still sit on the grid, the question a drift check asks of a
// grid already taken: enough of them inside, three in four within a quarter spacing of an
// intersection, 0.2 spacing off on average, and none on a line beyond its edges. It is looser
// than Places, which must tell a right grid from a wrong one: stones a hand put down sit a little
// off their points, and a stone's height is only modelled (liftGrid), not measured. A camera
// bumped by a third of a spacing puts them about that far off.
func (f StoneFit) Holds() bool {
	return f.Inside >= stonesMin && 4*f.On >= 3*f.Inside && f.MeanOff <= 0.2 && f.Beyond == [4]int{}
}

// Judges reports whether there are stones enough to judge the grid by: at least as many inside
// as Places asks for, or any on a line beyond its edges. An empty board judges nothing.
func (f StoneFit) Judges() bool {
	return f.Inside >= stonesMin || f.Beyond != [4]int{}
}

// String gives the figures in a few words, for logs and refusals.
func (f StoneFit) String() string {
	return fmt.Sprintf("%d black stones on the grid, %d on points (mean %.2f spacing off), spanning %.0f%% x %.0f%%, radius %.2f, beyond the edges %v",
		f.Inside, f.On, f.MeanOff, 100*f.Span[0], 100*f.Span[1], f.Radius, f.Beyond)
}

// FitStones finds the black stones in frame and measures how they sit on cal's grid (its lens
// term included), each stone's blob read where a stone of its height stands (blobsToGrid). Where the frame's dark stones do not place the grid (a dim room, whose table is
// as dark as they are, hides half of them), the stones are looked for again against the board
// around them, inside the grid and its margin (findDimStoneBlobs), and their fit is returned when
// they place it (unless the first stones sat beyond the grid's edges).
func FitStones(frame gocv.Mat, cal Calibration) (StoneFit, error) {
	if err := cal.Validate(); err != nil {
		return StoneFit{}, err
	}
	if err := cal.CheckImage(frame.Cols(), frame.Rows()); err != nil {
		return StoneFit{}, err
	}
	if err := checkFrame(frame); err != nil {
		return StoneFit{}, err
	}
	gray, sx, sy := shrinkToGray(frame, defaultWorkSize)
	defer gray.Close()
	n := float64(cal.Size - 1)
	// A blob's middle is read on the plane of the stones' middles (liftGrid), in the frame's
	// pinhole picture, whose centre is the camera's axis.
	h, lens := cal.pinholeGrid()
	inv, ok := blobsToGrid(h, frame.Cols(), frame.Rows())
	if !ok {
		return StoneFit{}, fmt.Errorf("%w: the grid has no inverse", ErrCorners)
	}
	toGrid := func(p Point2) Point2 {
		return applyH(inv, lens.straighten(Point2{(p.X+0.5)/sx - 0.5, (p.Y+0.5)/sy - 0.5}))
	}
	spacing := centreSpacing(func(u, v float64) Point2 {
		p := cal.GridPixel(u, v)
		return Point2{p.X * sx, p.Y * sy}
	}, cal.Size, cal.Size)
	// The grid and a margin of 0.6 spacing (the board's outline, roughly), in work pixels.
	var q [4]Point2
	for i, g := range [4]Point2{{-0.6, -0.6}, {n + 0.6, -0.6}, {n + 0.6, n + 0.6}, {-0.6, n + 0.6}} {
		p := cal.GridPixel(g.X, g.Y)
		q[i] = Point2{(p.X+0.5)*sx - 0.5, (p.Y+0.5)*sy - 0.5}
	}
	onWood := beyondOnWood(gray, cal, q, sx, sy)
	fit := measureStones(findStoneBlobs(gray), cal.Size, toGrid, spacing, onWood)
	if fit.Places() || fit.Beyond != [4]int{} {
		// Stones beyond an edge refuse the grid whatever the dim frame's stones say: those are
		// looked for inside its margin only.
		return fit, nil
	}
	if dim := measureStones(findDimStoneBlobs(gray, q), cal.Size, toGrid, spacing, onWood); dim.Places() {
		return dim, nil
	}
	return fit, nil
}

// beyondOnWood returns whether a blob at a work pixel of gray, on the line just beyond the given
// edge of cal's grid (0 top, 1 right, 2 bottom, 3 left; q is the grid and its margin in work
// pixels), lies on the board: inside the board's outline (woodAround), or, where no outline is
// found (a dim frame, a board lost against the table), where the band beyond that edge looks like
// the board's wood (bandsOnWood). On a right grid that band lies past the board's edge, over the
// table, where the dark gap between the board and a bowl beside it is a stone-sized dark blob.
func beyondOnWood(gray gocv.Mat, cal Calibration, q [4]Point2, sx, sy float64) func(Point2, int) bool {
	if inside, ok := woodAround(gray, q); ok {
		return func(p Point2, _ int) bool { return inside(p) }
	}
	bands := bandsOnWood(gray, cal, sx, sy)
	return func(_ Point2, side int) bool { return bands[side] }
}

// woodAround returns whether a work pixel of gray lies on the board whose grid and margin are q
// (TL, TR, BR, BL): inside the board outline (boardOutlines) that holds q's centre; ok is false
// when no outline holds it (the board's edge out of the picture, or lost against the table). A
// dark table along a pale board's edge is a row of dark blobs on the line just beyond the grid,
// which must not count as stones left out of it.
func woodAround(gray gocv.Mat, q [4]Point2) (inside func(Point2) bool, ok bool) {
	pix, err := gray.DataPtrUint8()
	if err != nil || len(pix) != gray.Cols()*gray.Rows() {
		return nil, false
	}
	centre := Point2{(q[0].X + q[1].X + q[2].X + q[3].X) / 4, (q[0].Y + q[1].Y + q[2].Y + q[3].Y) / 4}
	for _, o := range boardOutlines(&grayPlane{w: gray.Cols(), h: gray.Rows(), pix: pix}) {
		if inside, ok := insideQuad(o); ok && inside(centre) {
			return inside, true
		}
	}
	return nil, false
}

// bandWoodTolerance is how far the band beyond an edge may differ in brightness from the board's
// wood inside it, as a share of the wood's, and still count as wood (bandsOnWood).
const bandWoodTolerance = 0.35

// bandsOnWood reports, for each edge of cal's grid (top, right, bottom, left), whether the band
// 1.3 spacings beyond it looks like the board's wood: the median brightness of the points there
// between the lines' points (where no stone on a point reaches) within bandWoodTolerance of the
// median of the grid's edge cells' middles, which no stone covers either. On a grid a line short,
// that band is the board's margin; on a right one it lies past the board's edge (a margin is about
// 0.65 spacing), over the table. An edge whose band is mostly out of the picture counts as wood, as
// does every edge of a frame too dark to judge.
func bandsOnWood(gray gocv.Mat, cal Calibration, sx, sy float64) [4]bool {
	wood := [4]bool{true, true, true, true}
	pix, err := gray.DataPtrUint8()
	w, h := gray.Cols(), gray.Rows()
	if err != nil || len(pix) != w*h || cal.Size < 2 {
		return wood
	}
	// sample is the mean of the 3x3 work pixels around grid point (u, v), false outside gray.
	sample := func(u, v float64) (float64, bool) {
		p := cal.GridPixel(u, v)
		x, y := int(math.Round((p.X+0.5)*sx-0.5)), int(math.Round((p.Y+0.5)*sy-0.5))
		if x < 1 || y < 1 || x >= w-1 || y >= h-1 {
			return 0, false
		}
		sum := 0
		for dy := -1; dy <= 1; dy++ {
			for dx := -1; dx <= 1; dx++ {
				sum += int(pix[(y+dy)*w+x+dx])
			}
		}
		return float64(sum) / 9, true
	}
	last := float64(cal.Size - 1)
	for side := range 4 {
		var in, out []float64
		for k := 0.5; k < last; k++ {
			var a, b [2]float64 // the cell's middle inside, the band's point beyond
			switch side {
			case 0:
				a, b = [2]float64{k, 0.5}, [2]float64{k, -1.3}
			case 1:
				a, b = [2]float64{last - 0.5, k}, [2]float64{last + 1.3, k}
			case 2:
				a, b = [2]float64{k, last - 0.5}, [2]float64{k, last + 1.3}
			default:
				a, b = [2]float64{0.5, k}, [2]float64{-1.3, k}
			}
			if g, ok := sample(a[0], a[1]); ok {
				in = append(in, g)
			}
			if g, ok := sample(b[0], b[1]); ok {
				out = append(out, g)
			}
		}
		if 2*len(out) < int(last) || 2*len(in) < int(last) {
			continue
		}
		slices.Sort(in)
		slices.Sort(out)
		board, band := in[len(in)/2], out[len(out)/2]
		if board < 16 {
			continue
		}
		wood[side] = math.Abs(band-board) <= bandWoodTolerance*board
	}
	return wood
}

// centreSpacing is the spacing of a cols x rows grid at its centre, in the pixels toPix takes grid
// coordinates to: the mean distance from the centre to the next intersection along each axis.
func centreSpacing(toPix func(u, v float64) Point2, cols, rows int) float64 {
	u, v := float64(cols-1)/2, float64(rows-1)/2
	c, cu, cv := toPix(u, v), toPix(u+1, v), toPix(u, v+1)
	return (math.Hypot(cu.X-c.X, cu.Y-c.Y) + math.Hypot(cv.X-c.X, cv.Y-c.Y)) / 2
}

// measureStones is the StoneFit of blobs (work pixels) on an n x n grid, with toGrid taking a
// work pixel to grid coordinates and spacing the grid's spacing at its centre in work pixels. A
// blob on the line beyond an edge counts only where onWood (given the blob and the edge, numbered
// as StoneFit.Beyond; nil: anywhere).
func measureStones(blobs []stoneBlob, n int, toGrid func(Point2) Point2, spacing float64, onWood func(Point2, int) bool) StoneFit {
	var f StoneFit
	if len(blobs) == 0 || spacing <= 0 {
		return f
	}
	radii := make([]float64, 0, len(blobs))
	lo, hi := Point2{X: math.Inf(1), Y: math.Inf(1)}, Point2{X: math.Inf(-1), Y: math.Inf(-1)}
	sum := 0.0
	last := float64(n - 1)
	for _, b := range blobs {
		p := toGrid(Point2{b.x, b.y})
		d := offPoint(p)
		if !onBoard(p, n, n) {
			// On a point of the line just beyond an edge, within the edge's extent.
			if d >= 0.25 {
				continue
			}
			u, v := math.Round(p.X), math.Round(p.Y)
			along := func(t float64) bool { return t >= 0 && t <= last }
			side := -1
			switch {
			case v == -1 && along(u):
				side = 0
			case u == last+1 && along(v):
				side = 1
			case v == last+1 && along(u):
				side = 2
			case u == -1 && along(v):
				side = 3
			}
			if side >= 0 && (onWood == nil || onWood(Point2{b.x, b.y}, side)) {
				f.Beyond[side]++
			}
			continue
		}
		f.Inside++
		radii = append(radii, b.r)
		sum += d
		if d < 0.25 {
			f.On++
			u, v := math.Round(p.X), math.Round(p.Y)
			lo = Point2{math.Min(lo.X, u), math.Min(lo.Y, v)}
			hi = Point2{math.Max(hi.X, u), math.Max(hi.Y, v)}
		}
	}
	if f.Inside == 0 {
		return f
	}
	f.MeanOff = sum / float64(f.Inside)
	slices.Sort(radii)
	f.Radius = radii[len(radii)/2] / spacing
	if f.On > 0 && last > 0 {
		f.Span = [2]float64{(hi.X - lo.X) / last, (hi.Y - lo.Y) / last}
	}
	return f
}
