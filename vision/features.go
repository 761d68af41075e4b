package vision

import (
	"math"
)

// canonGeom is the layout of the canonical (warped) board image: intersection (c, r) as seen in
// the image sits at pixel (Spacing*(c+1), Spacing*(r+1)); the image is Spacing*(Size+1) square.
type canonGeom struct {
	Size    int
	Spacing int
}

// Side returns the width (= height) of the canonical image in pixels.
func (g canonGeom) Side() int { return g.Spacing * (g.Size + 1) }

// canonFor picks the canonical spacing for a board size: about 360 px across the grid, 16..48 px a line
// (20 for 19x19: enough pixels per stone for robust medians and sharp grid lines, few enough to
// read a frame in a few milliseconds).
func canonFor(size int) canonGeom {
	s := int(math.Round(360 / float64(size-1)))
	if s < 16 {
		s = 16
	}
	if s > 48 {
		s = 48
	}
	return canonGeom{Size: size, Spacing: s}
}

// pointFeatures describes one intersection of the canonical image, relative to the board around it.
type pointFeatures struct {
	Rel float64 // median luminance of the disc / local board luminance (black ≪ 1, white > 1)
	// RelIn is Rel of the inner disc alone: still all stone when the grid sits up to a quarter
	// spacing off the stone's centre (imprecise corners), where the whole disc takes in board.
	RelIn  float64
	Chroma float64 // distance of the disc's mean chromaticity from the local board's
	DR, DG float64 // that difference in r/(r+g+b) and g/(r+g+b): white stones lose red, skin keeps it
	InLine float64 // grid-line contrast inside the inner disc, relative to the inner disc's own luminance
	// LineVis is how visible the two grid lines are near the point, allowing each to sit up to
	// lineTol of a spacing off the calibrated position (corners clicked or found a few pixels off):
	// the darkest of the nearby columns (rows) against the inner-disc pixels away from both lines,
	// relative to the inner disc's luminance. Empty points show it; stones hide it.
	LineVis float64
	// LineVisNear is LineVis allowing only one pixel off, inside the inner disc: sharper on a
	// well-fitted grid (a stone shows nothing there), but blind to a line a little further off.
	LineVisNear float64
	// LineVisOne is the more visible of the two lines alone in the wide search (LineVis averages
	// them): a stone hides both, a blurred or washed-out patch of board often only one.
	LineVisOne float64
	// CellRel and CellChroma are the lowest, over the cells touching the point, of the cell centre's
	// luminance relative to the board and of its colour difference from the board: both high
	// means something bright and not board-coloured covers all around the point (a hand, a sleeve).
	CellRel, CellChroma float64
	BgY                 float64 // local board luminance (0..255)
	BgR, BgG            float64 // local board chromaticity (r and g shares), beside BgY
}

// sampler holds precomputed pixel offsets and buffers for the discs it samples.
type sampler struct {
	geom canonGeom
	// The point's disc and its parts, as offsets into the luminance plane from the point: a
	// list for each part, so that a point's pixels are gathered without a branch per pixel.
	disc     []int32   // the disc (radius 0.32 spacing)
	inner    []int32   // the inner disc (radius 0.2 spacing)
	onCross  []int32   // inner-disc pixels on the grid-line cross (dx == 0 or dy == 0)
	offCross []int32   // inner-disc pixels at least 2 px off both lines
	cols     []lineTap // line-window pixels near the vertical line (|dx| <= ltol, |dy| > 1), by column
	rows     []lineTap // likewise near the horizontal line (|dy| <= ltol, |dx| > 1), by row
	nearCols []lineTap // inner-disc pixels of cols within one pixel of the line (bins 0..2)
	nearRows []lineTap // likewise of rows
	// How many pixels each bin of cols, rows, nearCols and nearRows holds.
	colN, rowN         [2*maxLineTol + 1]int
	nearColN, nearRowN [3]int
	ltol               int     // how many pixels a grid line may sit off its calibrated position
	cell               []int32 // small disc at a cell centre
	// outside tells the canonical pixels beyond the camera image (markOutside).
	outside outsideMap
	lum     []uint8 // luminance plane of the canonical image
	hist    [256]uint16
	ys      []uint8
	ins     []uint8
	cellY   []float64   // per cell: median luminance
	cellR   []float64   // per cell: mean chromaticity r/(r+g+b)
	cellG   []float64   // per cell: mean chromaticity g/(r+g+b)
	blocks  [][4]uint32 // the learned reader's patch cells: sums of B, G, R, luminance per block
	// blockSize is the side of those blocks in pixels (a fifth of a spacing), or 0 when the
	// patch cells do not tile the image on a fixed lattice and each cell is summed on demand.
	blockSize int
	// ringTaps are the learned reader's ring samples (ringOffsets) as offsets into the
	// luminance plane, for each kind of edge point (ringTaps).
	ringTaps [9][]int32
}

// lineTap is one pixel of a line window: its offset from the point and the bin it sums into
// (its column or row offset from the calibrated line, shifted to start at 0).
type lineTap struct {
	off, bin int32
}

// lineTol is how far (in spacings) LineVis looks for a grid line off its calibrated position:
// hand-clicked or found corners are often 2-3 canonical pixels off somewhere on the board, and a
// grid line missed there must not make an empty point look like a stone hiding it.
const lineTol = 0.15

// maxLineTol bounds the line search in pixels (the canonical spacing is at most 48).
const maxLineTol = 7

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func newSampler(g canonGeom) *sampler {
	s := &sampler{geom: g}
	side := int32(g.Side())
	rd := 0.32 * float64(g.Spacing)
	ir := 0.2 * float64(g.Spacing)
	// LineVis looks for each grid line within lineTol of a spacing of its calibrated place,
	// inside a window that stays within a stone's disc even when the grid is that far off.
	s.ltol = min(maxLineTol, max(1, int(math.Round(lineTol*float64(g.Spacing)))))
	lr := 0.3 * float64(g.Spacing)
	ri := int(math.Ceil(rd))
	for dy := -ri; dy <= ri; dy++ {
		for dx := -ri; dx <= ri; dx++ {
			d2 := float64(dx*dx + dy*dy)
			if d2 <= rd*rd {
				o := int32(dy)*side + int32(dx)
				s.disc = append(s.disc, o)
				in := d2 <= ir*ir
				if in {
					s.inner = append(s.inner, o)
					if dx == 0 || dy == 0 {
						s.onCross = append(s.onCross, o)
					} else if dx*dx > 1 && dy*dy > 1 {
						s.offCross = append(s.offCross, o)
					}
				}
				if d2 <= lr*lr && abs(dx) <= s.ltol && dy*dy > 1 {
					s.cols = append(s.cols, lineTap{o, int32(dx + maxLineTol)})
					s.colN[dx+maxLineTol]++
					if in && abs(dx) <= 1 {
						s.nearCols = append(s.nearCols, lineTap{o, int32(dx + 1)})
						s.nearColN[dx+1]++
					}
				}
				if d2 <= lr*lr && abs(dy) <= s.ltol && dx*dx > 1 {
					s.rows = append(s.rows, lineTap{o, int32(dy + maxLineTol)})
					s.rowN[dy+maxLineTol]++
					if in && abs(dy) <= 1 {
						s.nearRows = append(s.nearRows, lineTap{o, int32(dy + 1)})
						s.nearRowN[dy+1]++
					}
				}
			}
		}
	}
	rc := math.Max(1.5, 0.16*float64(g.Spacing))
	ri = int(math.Ceil(rc))
	for dy := -ri; dy <= ri; dy++ {
		for dx := -ri; dx <= ri; dx++ {
			if float64(dx*dx+dy*dy) <= rc*rc {
				s.cell = append(s.cell, int32(dy)*side+int32(dx))
			}
		}
	}
	n := g.Size - 1
	s.cellY = make([]float64, n*n)
	s.cellR = make([]float64, n*n)
	s.cellG = make([]float64, n*n)
	s.lum = make([]uint8, int(side)*int(side))
	s.ringTaps = ringTaps(ringOffsets(g.Spacing), int(side))
	if b, ok := patchBlock(g); ok {
		s.blockSize = b
		nb := int(side) / b
		s.blocks = make([][4]uint32, nb*nb)
	}
	s.ys = make([]uint8, 0, len(s.disc))
	s.ins = make([]uint8, 0, len(s.disc))
	return s
}

// planes fills the luminance plane from BGR pixels (integer Rec. 601 weights) and, when
// the learned reader's patch cells tile the image on blocks (blockSize), each block's sums of B,
// G, R and luminance, in one pass over the pixels: each row's pixels are summed across each
// block's columns into the sums of its band of blocks.
func (s *sampler) planes(pix []byte) {
	side := s.geom.Side()
	b := s.blockSize
	if b == 0 {
		l := s.lum
		for i, j := 0, 0; i < len(l); i, j = i+1, j+3 {
			l[i] = lum601(pix[j], pix[j+1], pix[j+2])
		}
		return
	}
	nb := side / b
	clear(s.blocks)
	for y := 0; y < side; y++ {
		band := s.blocks[(y/b)*nb : (y/b+1)*nb]
		row := pix[3*y*side : 3*(y+1)*side]
		lum := s.lum[y*side : (y+1)*side]
		x := 0
		for k := range band {
			var sb, sg, sr, sl uint32
			for end := x + b; x < end; x++ {
				p := row[3*x : 3*x+3 : 3*x+3]
				v := lum601(p[0], p[1], p[2])
				lum[x] = v
				sb += uint32(p[0])
				sg += uint32(p[1])
				sr += uint32(p[2])
				sl += uint32(v)
			}
			a := &band[k]
			a[0] += sb
			a[1] += sg
			a[2] += sr
			a[3] += sl
		}
	}
}

// lum601 is a BGR pixel's luminance by the integer Rec. 601 weights.
func lum601(b, g, r byte) uint8 {
	return uint8((29*uint32(b) + 150*uint32(g) + 77*uint32(r) + 128) >> 8)
}

// extract computes the features of every intersection (row-major, as seen in the image) from a
// canonical BGR image (stride = 3*Side), writing into out (len Size*Size). It also leaves the
// luminance plane in s.lum for the blob finder, and the patch cells' block sums for netInput.
func (s *sampler) extract(pix []byte, out []pointFeatures) {
	g := s.geom
	side := g.Side()
	n := g.Size - 1
	sp := g.Spacing
	s.planes(pix)
	// Board background at every cell centre.
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			base := int32((sp*(r+1)+sp/2)*side + sp*(c+1) + sp/2)
			s.ys = s.ys[:0]
			var sr, sg, sb float64
			for _, o := range s.cell {
				k := base + o
				s.ys = append(s.ys, s.lum[k])
				sb += float64(pix[3*k])
				sg += float64(pix[3*k+1])
				sr += float64(pix[3*k+2])
			}
			k := r*n + c
			s.cellY[k] = float64(median8(s.ys, &s.hist))
			tot := sr + sg + sb + 1e-9
			s.cellR[k] = sr / tot
			s.cellG[k] = sg / tot
		}
	}
	lum := s.lum
	for r := 0; r <= n; r++ {
		for c := 0; c <= n; c++ {
			bgY, bgR, bgG := s.background(c, r)
			base := int32(sp*(r+1)*side + sp*(c+1))
			s.ys = s.ys[:0]
			var sr, sg, sb uint32
			for _, o := range s.disc {
				p := base + o
				s.ys = append(s.ys, lum[p])
				sb += uint32(pix[3*p])
				sg += uint32(pix[3*p+1])
				sr += uint32(pix[3*p+2])
			}
			s.ins = s.ins[:0]
			for _, o := range s.inner {
				s.ins = append(s.ins, lum[base+o])
			}
			inOn, inOff := sumAt(lum, base, s.onCross), sumAt(lum, base, s.offCross)
			inOnN, inOffN := len(s.onCross), len(s.offCross)
			var colSum, rowSum [2*maxLineTol + 1]uint32
			var ncolSum, nrowSum [3]uint32
			addTaps(colSum[:], lum, base, s.cols)
			addTaps(rowSum[:], lum, base, s.rows)
			addTaps(ncolSum[:], lum, base, s.nearCols)
			addTaps(nrowSum[:], lum, base, s.nearRows)
			bg := math.Max(bgY, 1)
			tot := float64(sr) + float64(sg) + float64(sb) + 1e-9
			f := &out[r*g.Size+c]
			f.BgY, f.BgR, f.BgG = bgY, bgR, bgG
			f.Rel = float64(median8(s.ys, &s.hist)) / bg
			f.DR, f.DG = float64(sr)/tot-bgR, float64(sg)/tot-bgG
			f.Chroma = math.Hypot(f.DR, f.DG)
			im := float64(median8(s.ins, &s.hist))
			f.RelIn = im / bg
			f.InLine = 0
			if inOnN > 0 && inOffN > 0 {
				f.InLine = (float64(inOff)/float64(inOffN) - float64(inOn)/float64(inOnN)) / math.Max(im, 8)
			}
			f.LineVis, f.LineVisNear, f.LineVisOne = 0, 0, 0
			if inOffN > 0 {
				off := float64(inOff) / float64(inOffN)
				f.LineVis, f.LineVisOne = lineVis(off, im, colSum[:], s.colN[:], rowSum[:], s.rowN[:])
				f.LineVisNear, _ = lineVis(off, im, ncolSum[:], s.nearColN[:], nrowSum[:], s.nearRowN[:])
			}
			f.CellRel, f.CellChroma = math.Inf(1), math.Inf(1)
			for _, d := range [4][2]int{{-1, -1}, {0, -1}, {-1, 0}, {0, 0}} {
				cc, rr := c+d[0], r+d[1]
				if cc < 0 || rr < 0 || cc >= n || rr >= n {
					continue
				}
				k := rr*n + cc
				f.CellRel = math.Min(f.CellRel, s.cellY[k]/bg)
				f.CellChroma = math.Min(f.CellChroma, math.Hypot(s.cellR[k]-bgR, s.cellG[k]-bgG))
			}
		}
	}
}

// sumAt is the sum of the luminance plane at base plus each of offs.
func sumAt(lum []uint8, base int32, offs []int32) uint32 {
	var sum uint32
	for _, o := range offs {
		sum += uint32(lum[base+o])
	}
	return sum
}

// addTaps adds the luminance plane at base plus each tap's offset to the tap's bin of sums.
func addTaps(sums []uint32, lum []uint8, base int32, taps []lineTap) {
	for _, t := range taps {
		sums[t.bin] += uint32(lum[base+t.off])
	}
}

// background returns the board's luminance and chromaticity around intersection (c, r): the
// median over the (up to 4x4) cells within two lines of it, robust to stones and their shadows.
func (s *sampler) background(c, r int) (y, cr, cg float64) {
	n := s.geom.Size - 1
	c0, c1 := max(c-2, 0), min(c+2, n)
	r0, r1 := max(r-2, 0), min(r+2, n)
	return s.cellMedian(s.cellY, c0, c1, r0, r1), s.cellMedian(s.cellR, c0, c1, r0, r1), s.cellMedian(s.cellG, c0, c1, r0, r1)
}

// cellMedian is the median (the upper one for an even count) of vals over the cells of columns
// c0..c1-1 and rows r0..r1-1 (at most 16), which are never negative. Their bit patterns order as
// the numbers do, so the median is taken by sort16's branch-free network: the cells are padded
// to 16 with patterns below and above any value, as many below as puts the median at index 8.
func (s *sampler) cellMedian(vals []float64, c0, c1, r0, r1 int) float64 {
	n := s.geom.Size - 1
	var v [16]int64
	k := 0
	for rr := r0; rr < r1; rr++ {
		for cc := c0; cc < c1; cc++ {
			v[k&15] = int64(math.Float64bits(vals[rr*n+cc]))
			k++
		}
	}
	if k == 0 {
		return 0
	}
	for i, lo := k, 8-k/2; i < 16; i++ {
		if i-k < lo {
			v[i] = math.MinInt64
		} else {
			v[i] = math.MaxInt64
		}
	}
	sort16(&v)
	return math.Float64frombits(uint64(v[8]))
}

// median8 returns the median of luminance values through a histogram: much faster than sorting
// for the few hundred pixels of a disc. h must be all zero and is left all zero.
func median8(vals []uint8, h *[256]uint16) uint8 {
	if len(vals) == 0 {
		return 0
	}
	lo, hi := uint8(255), uint8(0)
	for _, v := range vals {
		h[v]++
		lo = min(lo, v)
		hi = max(hi, v)
	}
	want := (len(vals) - 1) / 2
	cum := 0
	var med uint8
	found := false
	for level := int(lo); level <= int(hi); level++ {
		cum += int(h[level])
		if !found && cum > want {
			med = uint8(level)
			found = true
		}
		h[level] = 0
	}
	return med
}

// lineVis is the grid lines' contrast at a point: the darkest column and the darkest row (sums and
// counts per offset) against the level off the lines, relative to the inner disc's luminance im;
// their mean and the larger of the two.
func lineVis(off, im float64, colSum []uint32, colN []int, rowSum []uint32, rowN []int) (mean, one float64) {
	darkCol, darkRow := math.Inf(1), math.Inf(1)
	for i := range colSum {
		if colN[i] > 0 {
			darkCol = math.Min(darkCol, float64(colSum[i])/float64(colN[i]))
		}
	}
	for i := range rowSum {
		if rowN[i] > 0 {
			darkRow = math.Min(darkRow, float64(rowSum[i])/float64(rowN[i]))
		}
	}
	if math.IsInf(darkCol, 0) || math.IsInf(darkRow, 0) {
		return 0, 0
	}
	d := math.Max(im, 8)
	return (2*off - darkCol - darkRow) / 2 / d, math.Max(off-darkCol, off-darkRow) / d
}
