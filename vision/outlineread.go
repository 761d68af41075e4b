package vision

import (
	"cmp"
	"math"
	"slices"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/vision/observe"
)

// Placing a grid in a board's outline by reading it. Where a board's lines are blurred or dimmed
// out of the picture and too few black stones stand out to place a lattice, a person still sees
// the board's face against the table and the stones on it in rows, and sets the grid where every
// point reads plainly as a stone or a bare point. outlineRead does the same with the learned
// reader: it insets a grid in the outline at the margin that reads most surely, then moves each
// corner while the reading grows surer. Only a grid the reading pins down is taken: nearly every
// point sure (PhasedSure), stones among them (a bare face pins nothing), half a spacing's move
// either way leaving too many unsure (the points leave the stones for their rims), and the same
// corners reached again from another start.

// Margins tried in an outline, in spacings: a board's face runs from about a third of a spacing
// to one and a half beyond its outer lines (as calib's outline search).
const (
	outlineReadMarginMin  = 0.3
	outlineReadMarginMax  = 1.5
	outlineReadMarginStep = 0.05
)

// outlineReadStart is the share of its points the reader must be sure of on an outline's best
// inset grid for outlineRead to refine it: the bar FindBoard sets for a grid the finder found
// (FoundSure). On the refused late-game renders, the starts the search went on to place right
// read 91% to 100% of their points surely.
const outlineReadStart = FoundSure

// outlineReadStones is the least number of stones the reader must be sure of on a grid it places:
// where no line shows, only the stones can pin a grid down (on a bare face the reader may be sure
// of every point of a grid a quarter spacing off); as many as calib's stone fits need.
const outlineReadStones = 16

// outlineReadTries is how many outlines' grids, the surest first, outlineRead refines: each
// refinement reads the board some hundred times.
const outlineReadTries = 2

// outlineReadBudget is the most reads outlineRead makes of one frame, which bounds its time on a
// frame it refuses (BenchmarkFindBoardRefusedSized1080p).
// On the refused late-game renders a search took 26 to 680 reads, counting every grid it asked
// about; a grid asked about again is not read again, and counts once.
const outlineReadBudget = 700

// outlineReadSteps are the corner moves tried, in spacings: fine, then a line and half a line to
// leave a grid a line off at a corner, then fine again.
var outlineReadSteps = [...]float64{0.25, 0.12, 0.06, 1, 0.5, 0.25, 0.12, 0.06}

// readSureness is how surely the learned reader reads a grid: the points it is sure of (a
// probability of 0.9 or more, whatever it reads) and the mean log of its probability over all
// points, which grows smoothly as the points move onto the stones.
type readSureness struct {
	sure, sureInner int // sureInner counts only the points inside the outer lines
	stones          int // the sure points read as a black or white stone
	meanLog         float64
}

// outlineReader reads one frame on the grids outlineRead tries, at most budget times, with one
// Reader aimed at each grid in turn (Reader.aim). A grid read before is not read again: about a
// sixth of the search's grids are ones it has read (a corner moved back, a start refined twice).
type outlineReader struct {
	img           gocv.Mat
	p             Params  // with the learned reader's network compiled once (compiledOnce)
	r             *Reader // made on the first read; Close releases it
	reads, budget int
	known         map[gridKey]readSureness
}

// gridKey is what a grid's reading depends on besides the frame.
type gridKey struct {
	corners [4]calib.Point2
	size    int
	lens    float64
}

// read reads the frame on the grid of c.
func (o *outlineReader) read(c calib.Calibration) (Reading, error) {
	if o.r == nil {
		r, err := NewReader(c, o.p)
		if err != nil {
			return Reading{}, err
		}
		o.r = r
	} else if err := o.r.aim(c); err != nil {
		return Reading{}, err
	}
	return o.r.Read(o.img)
}

// Close releases the reader's OpenCV memory.
func (o *outlineReader) Close() {
	if o.r != nil {
		o.r.Close()
		o.r = nil
	}
}

// sureness reads the frame on the grid of c (false if it cannot be read, or the budget is spent).
func (o *outlineReader) sureness(c calib.Calibration) (readSureness, bool) {
	key := gridKey{corners: c.Corners, size: c.Size, lens: c.Lens}
	if s, ok := o.known[key]; ok {
		return s, true
	}
	if o.reads >= o.budget {
		return readSureness{}, false
	}
	o.reads++
	var s readSureness
	n := c.Size
	rd, err := o.read(c)
	if err != nil {
		return s, false
	}
	for i, conf := range rd.Confidence {
		if conf >= 0.9 {
			s.sure++
			if st := rd.Stones[i]; st == observe.Black || st == observe.White {
				s.stones++
			}
			if x, y := i%n, i/n; x > 0 && y > 0 && x < n-1 && y < n-1 {
				s.sureInner++
			}
		}
		s.meanLog += math.Log(math.Max(float64(conf), 1e-6))
	}
	s.meanLog /= float64(max(len(rd.Confidence), 1))
	if o.known == nil {
		o.known = make(map[gridKey]readSureness)
	}
	o.known[key] = s
	return s, true
}

// outlineRead returns the grid of size that the learned reader places in one of the board
// outlines (frame pixels, calib.BelowBar's), and whether one is framed evenly by its outline
// (calib.Margins.Even), pinned down by the reading (outlineReader.pinned) and placed again from
// another start (outlineReader.again). The size must be known (the table's board size): where no
// line shows, the reading cannot tell one. A 9x9 grid the reader placed in a
// 19x19 board's outline (12 stones on it) passed the search's checks as they first were.
func outlineRead(img gocv.Mat, outlines [][4]calib.Point2, size int, p Params) (calib.Calibration, bool) {
	if size == 0 {
		return calib.Calibration{}, false
	}
	p, err := compiledOnce(p)
	if err != nil {
		return calib.Calibration{}, false
	}
	o := &outlineReader{img: img, p: p, budget: outlineReadBudget}
	defer o.Close()
	return o.place(outlines, size)
}

// place is outlineRead's search with the reader o.
func (o *outlineReader) place(outlines [][4]calib.Point2, size int) (calib.Calibration, bool) {
	type start struct {
		grid    calib.Calibration
		outline [4]calib.Point2
		margin  float64
		read    readSureness
	}
	var starts []start
	for _, q := range outlines {
		best := start{read: readSureness{meanLog: math.Inf(-1)}}
		for a := outlineReadMarginMin; a <= outlineReadMarginMax+1e-9; a += outlineReadMarginStep {
			c, err := calib.InsetGrid(q, size, a, o.img.Cols(), o.img.Rows())
			if err != nil || !c.InView() {
				continue
			}
			if r, ok := o.sureness(c); ok && r.meanLog > best.read.meanLog {
				best = start{grid: c, outline: q, margin: a, read: r}
			}
		}
		if best.grid.Size != 0 && float64(best.read.sure) >= outlineReadStart*float64(size*size) {
			starts = append(starts, best)
		}
	}
	slices.SortStableFunc(starts, func(a, b start) int { return cmp.Compare(b.read.meanLog, a.read.meanLog) })
	for _, st := range starts[:min(len(starts), outlineReadTries)] {
		c, r := o.refine(st.grid, st.read)
		if m, ok := c.MarginsTo(st.outline); !ok || !m.Even() {
			continue
		}
		if o.pinned(c, r) && o.again(c, st.outline, st.margin) {
			c.Confidence = OutlineMinConfidence
			return c, true
		}
	}
	return calib.Calibration{}, false
}

// outlineReadAgain is how far, in spacings, the second start outlineReader.again refines from
// lies from the first start's margin.
const outlineReadAgain = 0.25

// again reports whether the reading places c again from another start: the grid in outline q at
// a margin outlineReadAgain from margin (the first start's), refined, lies within
// outlineReadAgree spacings of c at every corner. A right grid is where the stones are, whichever way
// the search comes to it; a grid a line off at one corner is where one path stopped. On the
// refused late-game renders, the search without this test placed grids 1.11 and 1.34 spacings
// off (with the margins swept in steps of 0.1); refined again, neither came back to its corners.
func (o *outlineReader) again(c calib.Calibration, q [4]calib.Point2, margin float64) bool {
	a := margin + outlineReadAgain
	if a > outlineReadMarginMax {
		a = margin - outlineReadAgain
	}
	g, err := calib.InsetGrid(q, c.Size, a, o.img.Cols(), o.img.Rows())
	if err != nil || !g.InView() {
		return false
	}
	r, ok := o.sureness(g)
	if !ok {
		return false
	}
	g, _ = o.refine(g, r)
	return cornersWithin(g, c, outlineReadAgree)
}

// outlineReadAgree is how far apart, in spacings, the corners of the grids outlineReader.again
// compares may lie: the reading places a grid to within about a third of a spacing (the grids
// it placed on the refused renders lay 0.13 to 0.45 spacing from the drawn ones), while a grid a
// line off at a corner lies a spacing away.
const outlineReadAgree = 0.5

// cornersWithin reports whether a and b are grids of one size whose corners lie within d
// spacings (b's, along its first row) of each other.
func cornersWithin(a, b calib.Calibration, d float64) bool {
	if a.Size != b.Size || a.Size < 2 {
		return false
	}
	spacing := math.Hypot(b.Corners[1].X-b.Corners[0].X, b.Corners[1].Y-b.Corners[0].Y) / float64(b.Size-1)
	for i := range a.Corners {
		if math.Hypot(a.Corners[i].X-b.Corners[i].X, a.Corners[i].Y-b.Corners[i].Y) > d*spacing {
			return false
		}
	}
	return true
}

// compiledOnce returns p for the learned reader with its network loaded and compiled once
// (Params.Net), so that the hundreds of readers outlineRead makes do not each load and compile
// the committed weights again.
func compiledOnce(p Params) (Params, error) {
	p.HandTuned = false
	net := p.Net
	if net == nil {
		c, err := DefaultNet()
		if err != nil {
			return p, err
		}
		net = c
	}
	compiled, err := compileModel(net)
	if err != nil {
		return p, err
	}
	p.Net = compiled
	return p, nil
}

// refine moves c's corners, one at a time by outlineReadSteps in each direction of the
// picture, while the reading grows surer (readSureness.meanLog), and returns the grid it ends on
// and its reading (r is c's).
func (o *outlineReader) refine(c calib.Calibration, r readSureness) (calib.Calibration, readSureness) {
	n := float64(c.Size - 1)
	for _, step := range outlineReadSteps {
		for pass := 0; pass < 4; pass++ {
			moved := false
			for i := range c.Corners {
				// The spacing at this corner: its two sides' lengths over the lines between.
				a, b, d := c.Corners[i], c.Corners[(i+1)%4], c.Corners[(i+3)%4]
				px := step * (math.Hypot(b.X-a.X, b.Y-a.Y) + math.Hypot(d.X-a.X, d.Y-a.Y)) / (2 * n)
				for _, dir := range [...]calib.Point2{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}} {
					q := c.Corners
					q[i] = calib.Point2{X: a.X + px*dir.X, Y: a.Y + px*dir.Y}
					g, err := calib.FromCorners(c.ImageWidth, c.ImageHeight, c.Size, q)
					if err != nil || !g.InView() {
						continue
					}
					if gr, ok := o.sureness(g); ok && gr.meanLog > r.meanLog {
						g.BlackSide, g.Confidence = c.BlackSide, c.Confidence
						c, r, moved = g, gr, true
						break
					}
				}
			}
			if !moved {
				break
			}
		}
	}
	return c, r
}

// pinned reports whether the reading r of c pins its grid down: the reader is sure of
// PhasedSure of its points and of outlineReadStones stones among them, and the grid moved half a
// spacing along either axis, either way, leaves it sure of fewer than that share of the points
// inside its outer lines (the points leave the stones and the lines' crosses for the spaces
// between them). The outer lines are left out of the moved grid's count: moved half a spacing
// outward, they lie on the board's margin or the table beyond it, which says nothing of whether
// the grid sits on the stones. A move out of the picture is not read, but each axis needs one that
// is. This test alone does not refuse a bare face: there the reader was sure of none of the moved
// grid's inner points; the stones bar does.
func (o *outlineReader) pinned(c calib.Calibration, r readSureness) bool {
	if float64(r.sure) < PhasedSure*float64(c.Size*c.Size) || r.stones < outlineReadStones {
		return false
	}
	bar := PhasedSure * float64((c.Size-2)*(c.Size-2))
	var tried [2]bool // a move along each axis (columns, rows) was read
	for _, d := range [...][2]float64{{0.5, 0}, {-0.5, 0}, {0, 0.5}, {0, -0.5}} {
		m, err := movedLines(c, d)
		if err != nil || !m.InView() {
			continue
		}
		if mr, ok := o.sureness(m); !ok || float64(mr.sureInner) >= bar {
			return false
		}
		tried[min(1, int(math.Abs(d[1])*2))] = true
	}
	return tried[0] && tried[1]
}
