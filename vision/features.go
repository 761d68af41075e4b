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
	geom  canonGeom
	disc  []int32 // point disc, as offsets into the luminance plane
	cross []bool  // disc pixel lies on the grid-line cross (dx == 0 or dy == 0)
	inner []bool  // disc pixel lies in the inner disc (radius 0.2 spacing)
	ioff  []bool  // inner-disc pixel at least 2 px off both lines
	icol  []int8  // line-window pixel: its column offset from the vertical line (|dx| <= ltol, |dy| > 1); else noLine
	irow  []int8  // likewise for rows near the horizontal line (|dy| <= ltol, |dx| > 1)
	ltol  int     // how many pixels a grid line may sit off its calibrated position
	cell  []int32 // small disc at a cell centre
	// outside marks the canonical pixels beyond the camera image (nil: none known).
	outside []bool
	lum     []uint8 // luminance plane of the canonical image
	hist    [256]uint16
	ys      []uint8
	ins     []uint8
	cellY   []float64   // per cell: median luminance
	cellR   []float64   // per cell: mean chromaticity r/(r+g+b)
	cellG   []float64   // per cell: mean chromaticity g/(r+g+b)
	blocks  [][4]uint32 // the learned reader's patch cells: sums of B, G, R, luminance per block
	rings   [][2]int32  // the learned reader's ring samples: pixel offsets, ring by ring (ringOffsets)
	tmp     [16]float64
}

// lineTol is how far (in spacings) LineVis looks for a grid line off its calibrated position:
// hand-clicked or found corners are often 2-3 canonical pixels off somewhere on the board, and a
// grid line missed there must not make an empty point look like a stone hiding it.
const lineTol = 0.15

// maxLineTol bounds the line search in pixels (the canonical spacing is at most 48).
const maxLineTol = 7

// noLine marks a pixel outside the line-search windows.
const noLine = 127

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
				s.disc = append(s.disc, int32(dy)*side+int32(dx))
				s.cross = append(s.cross, dx == 0 || dy == 0)
				s.inner = append(s.inner, d2 <= ir*ir)
				s.ioff = append(s.ioff, d2 <= ir*ir && dx*dx > 1 && dy*dy > 1)
				col, row := int8(noLine), int8(noLine)
				if d2 <= lr*lr && abs(dx) <= s.ltol && dy*dy > 1 {
					col = int8(dx)
				}
				if d2 <= lr*lr && abs(dy) <= s.ltol && dx*dx > 1 {
					row = int8(dy)
				}
				s.icol = append(s.icol, col)
				s.irow = append(s.irow, row)
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
	s.rings = ringOffsets(g.Spacing)
	s.ys = make([]uint8, 0, len(s.disc))
	s.ins = make([]uint8, 0, len(s.disc))
	return s
}

// luminance fills the luminance plane from BGR pixels (integer Rec. 601 weights).
func (s *sampler) luminance(pix []byte) {
	l := s.lum
	for i, j := 0, 0; i < len(l); i, j = i+1, j+3 {
		l[i] = uint8((29*uint32(pix[j]) + 150*uint32(pix[j+1]) + 77*uint32(pix[j+2]) + 128) >> 8)
	}
}

// extract computes the features of every intersection (row-major, as seen in the image) from a
// canonical BGR image (stride = 3*Side), writing into out (len Size*Size). It also leaves the
// luminance plane in s.lum for the blob finder.
func (s *sampler) extract(pix []byte, out []pointFeatures) {
	g := s.geom
	side := g.Side()
	n := g.Size - 1
	sp := g.Spacing
	s.luminance(pix)
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
	for r := 0; r <= n; r++ {
		for c := 0; c <= n; c++ {
			bgY, bgR, bgG := s.background(c, r)
			base := int32(sp*(r+1)*side + sp*(c+1))
			s.ys = s.ys[:0]
			s.ins = s.ins[:0]
			var sr, sg, sb float64
			var inOn, inOff uint32
			var inOnN, inOffN int
			var colSum, rowSum [2*maxLineTol + 1]uint32
			var colN, rowN [2*maxLineTol + 1]int
			var ncolSum, nrowSum [3]uint32
			var ncolN, nrowN [3]int
			for k, o := range s.disc {
				p := base + o
				y := s.lum[p]
				s.ys = append(s.ys, y)
				sb += float64(pix[3*p])
				sg += float64(pix[3*p+1])
				sr += float64(pix[3*p+2])
				if c := s.icol[k]; c != noLine {
					colSum[int(c)+maxLineTol] += uint32(y)
					colN[int(c)+maxLineTol]++
					if c >= -1 && c <= 1 && s.inner[k] {
						ncolSum[c+1] += uint32(y)
						ncolN[c+1]++
					}
				}
				if r := s.irow[k]; r != noLine {
					rowSum[int(r)+maxLineTol] += uint32(y)
					rowN[int(r)+maxLineTol]++
					if r >= -1 && r <= 1 && s.inner[k] {
						nrowSum[r+1] += uint32(y)
						nrowN[r+1]++
					}
				}
				if s.inner[k] {
					s.ins = append(s.ins, y)
					if s.cross[k] {
						inOn += uint32(y)
						inOnN++
					} else if s.ioff[k] {
						inOff += uint32(y)
						inOffN++
					}
				}
			}
			bg := math.Max(bgY, 1)
			tot := sr + sg + sb + 1e-9
			f := &out[r*g.Size+c]
			f.BgY, f.BgR, f.BgG = bgY, bgR, bgG
			f.Rel = float64(median8(s.ys, &s.hist)) / bg
			f.DR, f.DG = sr/tot-bgR, sg/tot-bgG
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
				f.LineVis, f.LineVisOne = lineVis(off, im, colSum[:], colN[:], rowSum[:], rowN[:])
				f.LineVisNear, _ = lineVis(off, im, ncolSum[:], ncolN[:], nrowSum[:], nrowN[:])
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

// background returns the board's luminance and chromaticity around intersection (c, r): the
// median over the (up to 4x4) cells within two lines of it, robust to stones and their shadows.
func (s *sampler) background(c, r int) (y, cr, cg float64) {
	n := s.geom.Size - 1
	c0, c1 := max(c-2, 0), min(c+2, n)
	r0, r1 := max(r-2, 0), min(r+2, n)
	med := func(vals []float64) float64 {
		k := 0
		for rr := r0; rr < r1; rr++ {
			for cc := c0; cc < c1; cc++ {
				s.tmp[k] = vals[rr*n+cc]
				k++
			}
		}
		return medianSmall(s.tmp[:k])
	}
	return med(s.cellY), med(s.cellR), med(s.cellG)
}

// medianSmall returns the median (the upper one for even counts) of a few values, sorting them in place.
func medianSmall(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	for i := 1; i < len(v); i++ {
		x := v[i]
		j := i - 1
		for ; j >= 0 && v[j] > x; j-- {
			v[j+1] = v[j]
		}
		v[j+1] = x
	}
	return v[len(v)/2]
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
