package calib

import (
	"math"
	"sort"
)

// gridFit is a candidate board: a lattice of cols x rows lines whose corner intersections
// (grid (0,0), (cols-1,0), (cols-1,rows-1), (0,rows-1)) lie at corners, in work pixels.
type gridFit struct {
	cols, rows int
	corners    [4]Point2
	on, off    float64 // mean line evidence on the grid lines and between them
	out        float64 // mean line evidence one spacing beyond the edge lines (a board has none)
	lattice    float64 // score of the lattice fit in the rectified canvas
	conf       float64 // confidence (see confidence), once fitPair has computed it
}

// score ranks fits: strong lines on the lattice, weak between and beyond it.
func (g gridFit) score() float64 { return g.on - g.off - 0.8*g.out }

// contrast is the fit's quality in 0..1: how much stronger the line evidence is on the grid
// lines than between them and beyond the edges.
func (g gridFit) contrast() float64 {
	if g.on <= 0 {
		return 0
	}
	return math.Max(0, (g.on-g.off-0.5*g.out)/(g.on+1))
}

// confidence rates a final fit in 0..1 from three independent signs of a real board: line
// contrast (on the lattice against between and beyond it), how many of its lines are actually
// visible (a lattice fitted to clutter or to a stone pattern misses many), and whether the lines
// run right up to all four edge lines (a grid whose edge lies in the board's margin does not).
func (g gridFit) confidence(lines *plane, gray *grayPlane, cap float32) float64 {
	h, ok := gridH(g.cols, g.rows, g.corners)
	if !ok || g.on <= 0 {
		return 0
	}
	r := evidenceReader{lines: lines, h: h, cap: cap, along: fineAlong}
	// Each family on its own: a lattice whose columns are at a third of the board's spacing
	// still has every row and a third of its columns on lines.
	seenC, seenR := 0, 0
	ec, er := make([]float64, g.cols), make([]float64, g.rows)
	for i := range ec {
		if ec[i] = r.colLine(float64(i), g.rows); ec[i] >= seenLine*g.on {
			seenC++
		}
	}
	for i := range er {
		if er[i] = r.rowLine(float64(i), g.cols); er[i] >= seenLine*g.on {
			seenR++
		}
	}
	lineFrac := min(float64(seenC)/float64(g.cols), float64(seenR)/float64(g.rows))
	if subLattice(ec) || subLattice(er) || cellAspect(h, g.cols, g.rows) > maxCellAspect {
		return 0
	}
	st := r.gapStubs(g.cols, g.rows, -1)
	stubs := math.Min(1, min(st[0], st[1], st[2], st[3])/(0.5*g.on))
	// A lattice that plainly continues past any of its edges (a line one spacing beyond, and
	// the crossing lines running on to it) is part of a bigger grid or a board only partly in
	// view, not a whole board. A decorative frame line beyond the edge has no crossing lines.
	lu, lv := float64(g.cols-1), float64(g.rows-1)
	var beyond [4]float64
	for d := -0.15; d <= 0.151; d += 0.05 {
		b := [4]float64{r.rowLine(-1+d, g.cols), r.colLine(lu+1+d, g.rows), r.rowLine(lv+1+d, g.cols), r.colLine(-1+d, g.rows)}
		for k := range b {
			beyond[k] = max(beyond[k], b[k])
		}
	}
	// The stubs as most lines show them, not their mean: stones on an edge line put their rims
	// into the gap beyond it, on the lines they sit on only.
	outStubs := r.gapStubsQuantile(g.cols, g.rows, 1, 0.5)
	worst := 0.0
	for k := range beyond {
		worst = max(worst, min(beyond[k], outStubs[k])/g.on)
	}
	cont := math.Max(0, 1-worst)
	if big := defaultSizes[len(defaultSizes)-1]; g.cols >= big && g.rows >= big && gray != nil && cont < 0.9 {
		// No board is part of a bigger lattice than 19x19, so beyond such a grid only a board
		// partly in view continues, with plain lines; clutter beside the board (a bowl of
		// stones, a cloth's pattern) is dark everywhere, not on a lattice. Judged by how much
		// more the next line and its stubs show than the evidence between lines out there
		// (half-way to the next line and past it, half-way between the stubs), the grid may
		// be cleared of continuing, as far as stones sitting on its intersections vouch for it.
		between := [4]float64{
			min(r.rowLine(-0.6, g.cols), r.rowLine(-1.4, g.cols)), min(r.colLine(lu+0.6, g.rows), r.colLine(lu+1.4, g.rows)),
			min(r.rowLine(lv+0.6, g.cols), r.rowLine(lv+1.4, g.cols)), min(r.colLine(-0.6, g.rows), r.colLine(-1.4, g.rows)),
		}
		off := r.gapBetween(g.cols, g.rows)
		w2 := 0.0
		for k := range beyond {
			w2 = max(w2, min(beyond[k]-between[k], outStubs[k]-off[k])/g.on)
		}
		if c2 := math.Max(0, 1-w2); c2 > cont {
			cont += (c2 - cont) * stoneSupport(gray, h, g.cols, g.rows)
		}
	}
	lineConf := g.contrast() * lineFrac
	if edges := min(stubs, cont); gray != nil && lineConf >= 0.15 && edges > 0.6 {
		// Stones hide lines late in a game; where the stones themselves sit on the lattice's
		// intersections and not between them, they vouch for it as the lines would. They say
		// nothing of a grid a whole line off, so they count only for a grid whose edges the
		// lines confirm (its lines run up to its edge lines and stop there).
		lineConf += (1 - lineConf) * 0.6 * stoneSupport(gray, h, g.cols, g.rows) * min(1, (edges-0.6)/0.3)
	}
	spread := blockSpread(&r, g.cols, g.rows)
	return lineConf * (0.5 + 0.5*stubs) * cont * spread
}

// seenLine is the share of a grid's mean line evidence at which one of its lines counts as seen.
const seenLine = 0.3

// blockSpread is 0..1: whether the lattice is seen all over the grid. The grid is cut into 3x3
// blocks and each block's line contrast (on its lines against half-way between them) is
// compared with the whole grid's; a grid half on the board and half on the table has blocks
// with none. Stones thin the lines evenly over a board, and a hand covers a block or two.
func blockSpread(r *evidenceReader, cols, rows int) float64 {
	var on, off [3][3]float64
	var n [3][3]int
	bu := func(u float64) int { return min(2, int(3*u/float64(cols-1))) }
	bv := func(v float64) int { return min(2, int(3*v/float64(rows-1))) }
	for i := 0; i < cols-1; i++ {
		for j := 0; j < rows-1; j++ {
			u, v := float64(i), float64(j)
			a, b := bu(u+0.5), bv(v+0.5)
			on[a][b] += r.read(u, v+0.5) + r.read(u+0.5, v)
			off[a][b] += r.read(u+0.5, v+0.25) + r.read(u+0.25, v+0.5) + r.read(u+0.5, v+0.75) + r.read(u+0.75, v+0.5)
			n[a][b]++
		}
	}
	var c [9]float64
	all, allOn, allOff := 0, 0.0, 0.0
	for a := 0; a < 3; a++ {
		for b := 0; b < 3; b++ {
			if n[a][b] == 0 {
				return 1
			}
			o, f := on[a][b]/float64(2*n[a][b]), off[a][b]/float64(4*n[a][b])
			c[a*3+b] = math.Max(0, o-f) / (o + 1)
			allOn += on[a][b]
			allOff += off[a][b]
			all += n[a][b]
		}
	}
	o, f := allOn/float64(2*all), allOff/float64(4*all)
	whole := math.Max(0, o-f) / (o + 1)
	if whole <= 0 {
		return 0
	}
	seen := 0
	for _, v := range c {
		if v >= 0.3*whole {
			seen++
		}
	}
	return math.Max(0, math.Min(1, (float64(seen)/9-0.4)/0.4))
}

// stoneSupport is 0..1: how clearly stones sit on the intersections of the cols x rows grid
// (homography h) rather than between them. Each intersection is read at four points a fifth of
// a spacing off it diagonally (off the lines, inside a stone), each cell centre at four points
// off it along the lines (outside any stone on the intersections around it). A point whose grey
// level stands far from the board's (the median cell centre) holds a stone. A real board's
// stones fill intersections and leave cell centres empty; a lattice half a spacing off, or one
// unrelated to the board, finds about as many "stones" between its intersections as on them.
func stoneSupport(gray *grayPlane, h [9]float64, cols, rows int) float64 {
	read := func(u, v float64, offs [4][2]float64) (float64, bool) {
		s := 0.0
		for _, o := range offs {
			p := applyH(h, Point2{u + o[0], v + o[1]})
			x, ok := gray.at(p.X, p.Y)
			if !ok {
				return 0, false
			}
			s += x
		}
		return s / 4, true
	}
	diag := [4][2]float64{{-0.2, -0.2}, {0.2, -0.2}, {0.2, 0.2}, {-0.2, 0.2}}
	axis := [4][2]float64{{-0.15, 0}, {0.15, 0}, {0, -0.15}, {0, 0.15}}
	const nan = -1.0
	inter := make([]float64, cols*rows)
	cells := make([]float64, (cols-1)*(rows-1))
	nIn, nCell := 0, 0
	for j := 0; j < rows; j++ {
		for i := 0; i < cols; i++ {
			inter[j*cols+i] = nan
			if v, ok := read(float64(i), float64(j), diag); ok {
				inter[j*cols+i] = v
				nIn++
			}
			if i+1 < cols && j+1 < rows {
				cells[j*(cols-1)+i] = nan
				if v, ok := read(float64(i)+0.5, float64(j)+0.5, axis); ok {
					cells[j*(cols-1)+i] = v
					nCell++
				}
			}
		}
	}
	if nIn < cols*rows/2 || nCell < (cols-1)*(rows-1)/2 {
		return 0
	}
	// The board's level near a point (light falls unevenly): the median of the cell centres
	// within a spacing and a half of it, the cell itself left out.
	local := func(u, v float64) float64 {
		var near [16]float64
		k := 0
		for j := int(math.Ceil(v - 1.5)); j <= int(v+1.5) && k < len(near); j++ {
			for i := int(math.Ceil(u - 1.5)); i <= int(u+1.5) && k < len(near); i++ {
				cu, cv := float64(i)+0.5, float64(j)+0.5
				if i < 0 || j < 0 || i >= cols-1 || j >= rows-1 || math.Abs(cu-u) > 1.5 || math.Abs(cv-v) > 1.5 || (cu == u && cv == v) {
					continue
				}
				if c := cells[j*(cols-1)+i]; c != nan {
					near[k] = c
					k++
				}
			}
		}
		if k == 0 {
			return nan
		}
		sort.Float64s(near[:k])
		return near[k/2]
	}
	var devI, devC []float64
	for j := 0; j < rows; j++ {
		for i := 0; i < cols; i++ {
			if v := inter[j*cols+i]; v != nan {
				if b := local(float64(i), float64(j)); b != nan {
					devI = append(devI, math.Abs(v-b))
				}
			}
			if i+1 < cols && j+1 < rows {
				if v := cells[j*(cols-1)+i]; v != nan {
					if b := local(float64(i)+0.5, float64(j)+0.5); b != nan {
						devC = append(devC, math.Abs(v-b))
					}
				}
			}
		}
	}
	if len(devI) == 0 || len(devC) == 0 {
		return 0
	}
	sorted := append([]float64(nil), devI...)
	sort.Float64s(sorted)
	tau := math.Max(25, 0.4*sorted[len(sorted)*9/10])
	n, nc := 0, 0
	for _, d := range devI {
		if d > tau {
			n++
		}
	}
	for _, d := range devC {
		if d > tau {
			nc++
		}
	}
	fi, fc := float64(n)/float64(len(devI)), float64(nc)/float64(len(devC))
	if fi <= 0 {
		return 0
	}
	return math.Max(0, (fi-2*fc)/fi) * math.Min(1, float64(n)/80)
}

// maxCellAspect is the most elongated a grid cell may look at the grid's centre: a board seen
// at 60 degrees in a frame stretched by 4:3 has cells about 2.7 times as long as wide; a
// lattice at a fraction of the spacing in one direction has much flatter ones.
const maxCellAspect = 3.2

// cellAspect is the ratio of the longer to the shorter side of the cell at the grid's centre.
func cellAspect(h [9]float64, cols, rows int) float64 {
	u, v := float64(cols-1)/2, float64(rows-1)/2
	c := applyH(h, Point2{u, v})
	a, b := applyH(h, Point2{u + 1, v}), applyH(h, Point2{u, v + 1})
	la, lb := math.Hypot(a.X-c.X, a.Y-c.Y), math.Hypot(b.X-c.X, b.Y-c.Y)
	if la <= 0 || lb <= 0 {
		return math.Inf(1)
	}
	return max(la/lb, lb/la)
}

// subLattice reports whether the evidence of a family's lines (in order) is periodic with a
// period of 2 to 6 lines: every second, third ... line strong and the others weak, the
// mark of a lattice at a fraction of the board's spacing. Stones hide lines, but never in such
// a pattern.
func subLattice(e []float64) bool {
	// The edge lines are left out: a board's outer lines are often drawn thicker, and stones
	// hide the inner ones more.
	if len(e) < 6 {
		return false
	}
	e = e[1 : len(e)-1]
	for k := 2; k <= 6; k++ {
		if len(e) < 3*k {
			break
		}
		for r := 0; r < k; r++ {
			in, out := 0.0, 0.0
			nin, nout := 0, 0
			for i, v := range e {
				if i%k == r {
					in += v
					nin++
				} else {
					out += v
					nout++
				}
			}
			if in/float64(nin) > 3*out/float64(nout) {
				return true
			}
		}
	}
	return false
}

// edgeSlack is how far, in grid spacings, a corner intersection may lie outside the picture with
// the grid still counted as in view. A photo cropped to the board often puts an outer line on
// the picture's edge, and the fitted corner then lands a little outside (a fraction of a spacing):
// its line and the stones on it are still in view. A grid whose outer line the picture cuts away
// runs a whole spacing or more out.
const edgeSlack = 0.5

// inView reports whether the whole grid, up to its corner intersections (within edgeSlack),
// lies inside the w x h image: the kiosk needs the whole board in view.
func (g gridFit) inView(w, h int) bool {
	return g.inViewWithin(w, h, edgeSlack)
}

// inViewWithin is inView with the corners allowed slack spacings out of the picture.
func (g gridFit) inViewWithin(w, h int, slack float64) bool {
	hm, ok := gridH(g.cols, g.rows, g.corners)
	if !ok {
		return false
	}
	m := -slack // the point slack cells in from each corner must be in view
	lu, lv := float64(g.cols-1), float64(g.rows-1)
	for _, p := range [...]Point2{{-m, -m}, {lu + m, -m}, {lu + m, lv + m}, {-m, lv + m}} {
		q := applyH(hm, p)
		if !(q.X >= -1 && q.Y >= -1 && q.X <= float64(w) && q.Y <= float64(h)) {
			return false
		}
	}
	return true
}

// gridH is the homography from grid coordinates of g to work pixels.
func gridH(cols, rows int, corners [4]Point2) ([9]float64, bool) {
	u, v := float64(cols-1), float64(rows-1)
	return homographyFrom4([4]Point2{{0, 0}, {u, 0}, {u, v}, {0, v}}, corners)
}

// evidenceReader samples the capped line map at grid coordinates.
type evidenceReader struct {
	lines *plane
	h     [9]float64
	cap   float32
	along []float64 // where between two intersections a line is sampled
	// bend, when its term is not 0, takes h's pinhole picture to the line map's pixels: a grid
	// bent by a lens term (the drift check's; the finder's grids are straight).
	bend lensModel
}

// Sampling patterns: fine for final decisions, coarse (a third of the work) while searching.
var (
	fineAlong   = []float64{0.25, 0.5, 0.75}
	coarseAlong = []float64{0.5}
	fineOff     = []float64{0.25, 0.375, 0.5, 0.625, 0.75}
	coarseOff   = []float64{0.3, 0.5, 0.7}
)

func (r *evidenceReader) read(u, v float64) float64 {
	h := &r.h
	w := h[6]*u + h[7]*v + h[8]
	if w <= 0 {
		return 0
	}
	x := (h[0]*u + h[1]*v + h[2]) / w
	y := (h[3]*u + h[4]*v + h[5]) / w
	if r.bend.k != 0 {
		p := r.bend.bend(Point2{x, y})
		x, y = p.X, p.Y
	}
	return float64(min(r.cap, r.lines.at(x, y)))
}

// colLine is the mean evidence along the line u = t, between rows 0 and rows-1.
func (r *evidenceReader) colLine(t float64, rows int) float64 {
	s := 0.0
	for j := 0; j < rows-1; j++ {
		for _, f := range r.along {
			s += r.read(t, float64(j)+f)
		}
	}
	return s / float64((rows-1)*len(r.along))
}

// rowLine is the mean evidence along the line v = t, between cols 0 and cols-1.
func (r *evidenceReader) rowLine(t float64, cols int) float64 {
	s := 0.0
	for j := 0; j < cols-1; j++ {
		for _, f := range r.along {
			s += r.read(float64(j)+f, t)
		}
	}
	return s / float64((cols-1)*len(r.along))
}

// gapStubs returns, for each side (top v<0, right u>cols-1, bottom v>rows-1, left u<0), the
// mean evidence of the perpendicular lines crossing the gap from the edge line (index 0 or
// last) to the line at offset d beyond it (d=-1: the outermost gap inside the grid; d=+1: the
// gap a new line would add). Real grid lines run right up to the edge line; a board's margin
// (and a shadow or frame line out there) has no such stubs.
func (r *evidenceReader) gapStubs(cols, rows int, d float64) [4]float64 {
	fr := [...]float64{0.3, 0.5, 0.7}
	lastU, lastV := float64(cols-1), float64(rows-1)
	var out [4]float64
	for _, f := range fr {
		for i := 0; i < cols; i++ {
			u := float64(i)
			out[0] += r.read(u, -d*f)
			out[2] += r.read(u, lastV+d*f)
		}
		for i := 0; i < rows; i++ {
			v := float64(i)
			out[1] += r.read(lastU+d*f, v)
			out[3] += r.read(-d*f, v)
		}
	}
	out[0] /= float64(cols * len(fr))
	out[2] /= float64(cols * len(fr))
	out[1] /= float64(rows * len(fr))
	out[3] /= float64(rows * len(fr))
	return out
}

// gapBetween is, per side (as gapStubs), the mean evidence in the gap a new line would add,
// half-way between where the perpendicular lines' stubs would run.
func (r *evidenceReader) gapBetween(cols, rows int) [4]float64 {
	fr := [...]float64{0.3, 0.5, 0.7}
	lastU, lastV := float64(cols-1), float64(rows-1)
	var out [4]float64
	for _, f := range fr {
		for i := 0; i < cols-1; i++ {
			u := float64(i) + 0.5
			out[0] += r.read(u, -f)
			out[2] += r.read(u, lastV+f)
		}
		for i := 0; i < rows-1; i++ {
			v := float64(i) + 0.5
			out[1] += r.read(lastU+f, v)
			out[3] += r.read(-f, v)
		}
	}
	out[0] /= float64((cols - 1) * len(fr))
	out[2] /= float64((cols - 1) * len(fr))
	out[1] /= float64((rows - 1) * len(fr))
	out[3] /= float64((rows - 1) * len(fr))
	return out
}

// gapStubsQuantile is gapStubs read line by line: per side, the q-quantile of the lines' stub
// evidence.
func (r *evidenceReader) gapStubsQuantile(cols, rows int, d, q float64) [4]float64 {
	fr := [...]float64{0.3, 0.5, 0.7}
	lastU, lastV := float64(cols-1), float64(rows-1)
	per := [4][]float64{make([]float64, cols), make([]float64, rows), make([]float64, cols), make([]float64, rows)}
	for _, f := range fr {
		for i := 0; i < cols; i++ {
			u := float64(i)
			per[0][i] += r.read(u, -d*f) / float64(len(fr))
			per[2][i] += r.read(u, lastV+d*f) / float64(len(fr))
		}
		for i := 0; i < rows; i++ {
			v := float64(i)
			per[1][i] += r.read(lastU+d*f, v) / float64(len(fr))
			per[3][i] += r.read(-d*f, v) / float64(len(fr))
		}
	}
	var out [4]float64
	for k, p := range per {
		sort.Float64s(p)
		out[k] = p[int(q*float64(len(p)-1))]
	}
	return out
}

// gridEvidence samples the line map along every grid line (between intersections, where
// stones cover less), between the lines, and one spacing beyond the edge lines.
func gridEvidence(lines *plane, cols, rows int, corners [4]Point2, cap float32, coarse bool) (on, off, out float64) {
	return bentGridEvidence(lines, cols, rows, corners, lensModel{}, cap, coarse)
}

// bentGridEvidence is gridEvidence for a grid bent by a lens: corners are in the pinhole picture,
// which bend takes to the line map's pixels.
func bentGridEvidence(lines *plane, cols, rows int, corners [4]Point2, bend lensModel, cap float32, coarse bool) (on, off, out float64) {
	h, ok := gridH(cols, rows, corners)
	if !ok {
		return 0, 0, 0
	}
	r := evidenceReader{lines: lines, h: h, cap: cap, along: fineAlong, bend: bend}
	offFr := fineOff
	if coarse {
		r.along, offFr = coarseAlong, coarseOff
	}
	for i := 0; i < cols; i++ {
		on += r.colLine(float64(i), rows)
	}
	for i := 0; i < rows; i++ {
		on += r.rowLine(float64(i), cols)
	}
	on /= float64(cols + rows)
	n := 0
	for i := -1; i < cols; i++ {
		for _, g := range offFr {
			if i == -1 && g < 0.5 || i == cols-1 && g > 0.5 {
				continue // a board's margin is narrower than a spacing
			}
			off += r.colLine(float64(i)+g, rows)
			n++
		}
	}
	for i := -1; i < rows; i++ {
		for _, g := range offFr {
			if i == -1 && g < 0.5 || i == rows-1 && g > 0.5 {
				continue
			}
			off += r.rowLine(float64(i)+g, cols)
			n++
		}
	}
	off /= float64(n)
	out = (r.colLine(-1, rows) + r.colLine(float64(cols), rows) + r.rowLine(-1, cols) + r.rowLine(float64(rows), cols)) / 4
	return on, off, out
}

// lineCap is a high percentile of the line map, used to clip outliers (stone rims, text) so a
// few very dark pixels cannot outvote the grid.
func lineCap(lines *plane) float32 {
	hist, n := lines.histogram()
	target := n * 995 / 1000
	acc := 0
	for t := 0; t < 256; t++ {
		acc += hist[t]
		if acc >= target {
			return float32(max(t, 4))
		}
	}
	return 255
}

// refineGrid moves the four corners, a fraction of a pixel at a time, to where the lattice best
// matches the line map. start is the first step in work pixels.
func refineGrid(lines *plane, g gridFit, cap float32, start, stop float64, coarse bool) gridFit {
	obj := func(c [4]Point2) gridFit {
		on, off, out := gridEvidence(lines, g.cols, g.rows, c, cap, coarse)
		return gridFit{cols: g.cols, rows: g.rows, corners: c, on: on, off: off, out: out, lattice: g.lattice}
	}
	best := obj(g.corners)
	cur := g.corners
	for step := start; step >= stop; step /= 2 {
		for iter := 0; iter < 6; iter++ {
			improved := false
			for k := 0; k < 8; k++ {
				for _, sgn := range [2]float64{1, -1} {
					c := cur
					if k%2 == 0 {
						c[k/2].X += sgn * step
					} else {
						c[k/2].Y += sgn * step
					}
					if f := obj(c); f.on-f.off > best.on-best.off {
						best, cur = f, c
						improved = true
					}
				}
			}
			if !improved {
				break
			}
		}
	}
	return best
}

// growGrid adds lines on any side where the lattice plainly continues and drops edge lines
// with no evidence, re-refining after each change, so a partial fit grows to the whole board.
func growGrid(lines *plane, g gridFit, cap float32) gridFit {
	dropped := [4]bool{} // a side once trimmed is not grown again (no oscillation)
	for iter := 0; iter < 40; iter++ {
		h, ok := gridH(g.cols, g.rows, g.corners)
		if !ok || g.on <= 0 {
			return g
		}
		r := evidenceReader{lines: lines, h: h, cap: cap, along: coarseAlong}
		// Candidate lines beyond each side: top (v=-1), right (u=cols), bottom (v=rows), left (u=-1),
		// with the half-way line that must stay empty.
		// Extrapolation is imperfect under perspective, so look for the next line near where
		// it should be.
		var beyond, half [4]float64
		for d := -0.2; d <= 0.201; d += 0.05 {
			b := [4]float64{r.rowLine(-1+d, g.cols), r.colLine(float64(g.cols)-d, g.rows), r.rowLine(float64(g.rows)-d, g.cols), r.colLine(-1+d, g.rows)}
			for s := range b {
				beyond[s] = math.Max(beyond[s], b[s])
			}
		}
		half = [4]float64{r.rowLine(-0.5, g.cols), r.colLine(float64(g.cols)-0.5, g.rows), r.rowLine(float64(g.rows)-0.5, g.cols), r.colLine(-0.5, g.rows)}
		stubs := r.gapStubs(g.cols, g.rows, 1)
		edge := [4]float64{r.rowLine(0, g.cols), r.colLine(float64(g.cols-1), g.rows), r.rowLine(float64(g.rows-1), g.cols), r.colLine(0, g.rows)}
		bestSide, bestRatio := -1, 0.0
		for s := 0; s < 4; s++ {
			if (s%2 == 0 && g.rows >= MaxSize) || (s%2 == 1 && g.cols >= MaxSize) {
				continue
			}
			ratio := beyond[s] / g.on
			if !dropped[s] && ratio > 0.28 && stubs[s] > 0.3*g.on && half[s] < 0.5*beyond[s] && ratio > bestRatio {
				bestSide, bestRatio = s, ratio
			}
		}
		if bestSide < 0 {
			// Drop an edge line that has no support.
			worst, worstRatio := -1, 0.25
			for s := 0; s < 4; s++ {
				if (s%2 == 0 && g.rows <= 3) || (s%2 == 1 && g.cols <= 3) {
					continue
				}
				if ratio := edge[s] / g.on; ratio < worstRatio {
					worst, worstRatio = s, ratio
				}
			}
			if worst < 0 {
				return g
			}
			g = resizeGrid(g, h, worst, -1)
			dropped[worst] = true
		} else {
			g = resizeGrid(g, h, bestSide, +1)
		}
		g = refineGrid(lines, g, cap, 1, 0.5, true)
	}
	return g
}

// resizeGrid adds (d=+1) or removes (d=-1) one line on side s (0 top, 1 right, 2 bottom, 3 left).
func resizeGrid(g gridFit, h [9]float64, s, d int) gridFit {
	u0, v0, u1, v1 := 0.0, 0.0, float64(g.cols-1), float64(g.rows-1)
	switch s {
	case 0:
		v0 -= float64(d)
		g.rows += d
	case 1:
		u1 += float64(d)
		g.cols += d
	case 2:
		v1 += float64(d)
		g.rows += d
	case 3:
		u0 -= float64(d)
		g.cols += d
	}
	g.corners = latticeQuad(h, u0, v0, u1, v1)
	return g
}

// latticeQuad is the quadrilateral, through the homography h from grid numbers to pixels, of the
// lattice's points u0..u1 by v0..v1: its corners in the order gridFit keeps them.
func latticeQuad(h [9]float64, u0, v0, u1, v1 float64) [4]Point2 {
	return [4]Point2{applyH(h, Point2{u0, v0}), applyH(h, Point2{u1, v0}), applyH(h, Point2{u1, v1}), applyH(h, Point2{u0, v1})}
}

// offPoint is how far the grid position p lies from the nearest lattice point, in spacings.
func offPoint(p Point2) float64 { return math.Hypot(p.X-math.Round(p.X), p.Y-math.Round(p.Y)) }

// onBoard reports whether the grid position p lies on a cols x rows grid, within half a spacing
// of its edge lines.
func onBoard(p Point2, cols, rows int) bool {
	return p.X >= -0.5 && p.Y >= -0.5 && p.X <= float64(cols)-0.5 && p.Y <= float64(rows)-0.5
}
