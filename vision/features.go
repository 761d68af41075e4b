package vision

import (
	"math"
	"sort"
)

// canonGeom is the layout of the canonical (warped) board image: intersection (c, r) as seen in
// the image sits at pixel (Spacing*(c+1), Spacing*(r+1)); the image is Spacing*(Size+1) square.
type canonGeom struct {
	Size    int
	Spacing int
}

// Side returns the width (= height) of the canonical image in pixels.
func (g canonGeom) Side() int { return g.Spacing * (g.Size + 1) }

// canonFor picks the canonical spacing for a board size: about 360 px across the grid, 16..48 px a line.
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
	Rel     float64 // median luminance of the disc / local board luminance (black ≪ 1, white > 1)
	RelLow  float64 // 25th percentile luminance of the disc / local board luminance
	RelHigh float64 // 75th percentile luminance of the disc / local board luminance
	Chroma  float64 // distance of the disc's mean chromaticity from the local board's
	DR, DG  float64 // that difference in r/(r+g+b) and g/(r+g+b): white stones lose red, skin keeps it
	SatRel  float64 // disc saturation / board saturation
	Line    float64 // luminance contrast of the grid-line cross against the rest of the disc (>0: lines visible)
	Spread  float64 // (p90-p10) of disc luminance / board luminance
	Inner   float64 // median luminance of the inner disc / local board luminance
	InLine  float64 // grid-line contrast inside the inner disc, relative to the inner disc's own luminance
	// ShiftRel and ShiftHigh are the median and 75th percentile luminance (relative to the board) of
	// smaller discs moved a quarter spacing up, down, left and right: a stone placed off-centre.
	ShiftRel, ShiftHigh [4]float64
	// CellRel and CellChroma are the lowest, over the cells touching the point, of the cell centre's
	// luminance relative to the board and of its colour difference from the board: both high
	// means something bright and not board-coloured covers all around the point (a hand, a sleeve).
	CellRel, CellChroma float64
	BgY                 float64 // local board luminance (0..255)
}

// offset is a pixel offset from a sampling centre.
type offset struct{ dx, dy int }

// sampler holds precomputed pixel offsets for the discs it samples.
type sampler struct {
	geom  canonGeom
	disc  []offset // point disc
	cross []bool   // disc pixel lies on the grid-line cross (|dx|<=1 or |dy|<=1)
	inner []bool   // disc pixel lies in the inner disc (radius 0.2 spacing)
	ins   []float64
	small []offset  // the smaller disc used at shifted centres
	shift [4]offset // up, down, left, right
	hist  [256]uint16
	cell  []offset // small disc at a cell centre
	ys    []float64
	cellY []float64 // per cell: median luminance
	cellR []float64 // per cell: mean chromaticity r/(r+g+b)
	cellG []float64 // per cell: mean chromaticity g/(r+g+b)
	cellS []float64 // per cell: mean saturation
	tmp   []float64
}

func newSampler(g canonGeom) *sampler {
	s := &sampler{geom: g}
	rd := 0.32 * float64(g.Spacing)
	ri := int(math.Ceil(rd))
	for dy := -ri; dy <= ri; dy++ {
		for dx := -ri; dx <= ri; dx++ {
			if float64(dx*dx+dy*dy) <= rd*rd {
				s.disc = append(s.disc, offset{dx, dy})
				s.cross = append(s.cross, dx == 0 || dy == 0)
				ir := 0.2 * float64(g.Spacing)
				s.inner = append(s.inner, float64(dx*dx+dy*dy) <= ir*ir)
			}
		}
	}
	rc := math.Max(1.5, 0.16*float64(g.Spacing))
	ri = int(math.Ceil(rc))
	for dy := -ri; dy <= ri; dy++ {
		for dx := -ri; dx <= ri; dx++ {
			if float64(dx*dx+dy*dy) <= rc*rc {
				s.cell = append(s.cell, offset{dx, dy})
			}
		}
	}
	rs := 0.26 * float64(g.Spacing)
	ri = int(math.Ceil(rs))
	for dy := -ri; dy <= ri; dy++ {
		for dx := -ri; dx <= ri; dx++ {
			if float64(dx*dx+dy*dy) <= rs*rs {
				s.small = append(s.small, offset{dx, dy})
			}
		}
	}
	d := int(math.Round(0.25 * float64(g.Spacing)))
	s.shift = [4]offset{{0, -d}, {0, d}, {-d, 0}, {d, 0}}
	n := g.Size - 1
	s.cellY = make([]float64, n*n)
	s.cellR = make([]float64, n*n)
	s.cellG = make([]float64, n*n)
	s.cellS = make([]float64, n*n)
	s.ys = make([]float64, 0, len(s.disc))
	s.tmp = make([]float64, 0, 64)
	return s
}

// lum is the luminance of a BGR pixel.
func lum(b, g, r byte) float64 { return 0.114*float64(b) + 0.587*float64(g) + 0.299*float64(r) }

// sat is the HSV saturation of a BGR pixel.
func sat(b, g, r float64) float64 {
	mx := math.Max(b, math.Max(g, r))
	if mx <= 0 {
		return 0
	}
	mn := math.Min(b, math.Min(g, r))
	return (mx - mn) / mx
}

// percentile returns the p-quantile (0..1) of sorted values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p * float64(len(sorted)-1))
	return sorted[i]
}

// extract computes the features of every intersection (row-major, as seen in the image) from a
// canonical BGR image (stride = 3*Side), writing into out (len Size*Size).
func (s *sampler) extract(pix []byte, out []pointFeatures) {
	g := s.geom
	side := g.Side()
	n := g.Size - 1
	sp := g.Spacing
	// Board background at every cell centre.
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			cx, cy := sp*(c+1)+sp/2, sp*(r+1)+sp/2
			s.ys = s.ys[:0]
			var sr, sg, sb float64
			for _, o := range s.cell {
				i := ((cy+o.dy)*side + cx + o.dx) * 3
				b, gg, rr := pix[i], pix[i+1], pix[i+2]
				s.ys = append(s.ys, lum(b, gg, rr))
				sb += float64(b)
				sg += float64(gg)
				sr += float64(rr)
			}
			k := r*n + c
			s.cellY[k] = quantiles(s.ys, &s.hist, [5]float64{0.5, 0.5, 0.5, 0.5, 0.5})[0]
			tot := sr + sg + sb + 1e-9
			s.cellR[k] = sr / tot
			s.cellG[k] = sg / tot
			s.cellS[k] = sat(sb, sg, sr)
		}
	}
	for r := 0; r <= n; r++ {
		for c := 0; c <= n; c++ {
			bgY, bgR, bgG, bgS := s.background(c, r)
			cx, cy := sp*(c+1), sp*(r+1)
			s.ys = s.ys[:0]
			var sr, sg, sb, onSum, offSum float64
			var onN, offN int
			var inOn, inOff float64
			var inOnN, inOffN int
			s.ins = s.ins[:0]
			for k, o := range s.disc {
				i := ((cy+o.dy)*side + cx + o.dx) * 3
				b, gg, rr := pix[i], pix[i+1], pix[i+2]
				y := lum(b, gg, rr)
				s.ys = append(s.ys, y)
				sb += float64(b)
				sg += float64(gg)
				sr += float64(rr)
				if s.inner[k] {
					s.ins = append(s.ins, y)
					if s.cross[k] {
						inOn += y
						inOnN++
					} else if o.dx*o.dx > 1 && o.dy*o.dy > 1 {
						inOff += y
						inOffN++
					}
				}
				if s.cross[k] {
					onSum += y
					onN++
				} else {
					offSum += y
					offN++
				}
			}
			q := quantiles(s.ys, &s.hist, [5]float64{0.1, 0.25, 0.5, 0.75, 0.9})
			bg := math.Max(bgY, 1)
			tot := sr + sg + sb + 1e-9
			f := &out[r*g.Size+c]
			f.BgY = bgY
			f.Rel = q[2] / bg
			f.RelLow = q[1] / bg
			f.RelHigh = q[3] / bg
			f.Spread = (q[4] - q[0]) / bg
			f.DR, f.DG = sr/tot-bgR, sg/tot-bgG
			f.Chroma = math.Hypot(f.DR, f.DG)
			f.SatRel = sat(sb, sg, sr) / math.Max(bgS, 0.02)
			f.Line = (offSum/float64(offN) - onSum/float64(onN)) / bg
			im := quantiles(s.ins, &s.hist, [5]float64{0.5, 0.5, 0.5, 0.5, 0.5})[0]
			for k, sh := range s.shift {
				s.ins = s.ins[:0]
				for _, o := range s.small {
					i := ((cy+sh.dy+o.dy)*side + cx + sh.dx + o.dx) * 3
					s.ins = append(s.ins, lum(pix[i], pix[i+1], pix[i+2]))
				}
				q := quantiles(s.ins, &s.hist, [5]float64{0.5, 0.75, 0.75, 0.75, 0.75})
				f.ShiftRel[k], f.ShiftHigh[k] = q[0]/bg, q[1]/bg
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
			// Edge points: also the board's margin just outside the edge line, where a hand or
			// sleeve reaching in from outside covers the board first.
			f.Inner = im / bg
			f.InLine = 0
			if inOnN > 0 && inOffN > 0 {
				f.InLine = (inOff/float64(inOffN) - inOn/float64(inOnN)) / math.Max(im, 8)
			}
		}
	}
}

// background returns the board's luminance, chromaticity and saturation around intersection
// (c, r): the median over the cells within two lines of it, robust to stones and their shadows.
func (s *sampler) background(c, r int) (y, cr, cg, cs float64) {
	n := s.geom.Size - 1
	c0, c1 := max(c-2, 0), min(c+2, n)
	r0, r1 := max(r-2, 0), min(r+2, n)
	med := func(vals []float64) float64 {
		s.tmp = s.tmp[:0]
		for rr := r0; rr < r1; rr++ {
			for cc := c0; cc < c1; cc++ {
				s.tmp = append(s.tmp, vals[rr*n+cc])
			}
		}
		sort.Float64s(s.tmp)
		return percentile(s.tmp, 0.5)
	}
	return med(s.cellY), med(s.cellR), med(s.cellG), med(s.cellS)
}

// quantiles returns the given quantiles (ascending) of luminance values in 0..255, through a
// histogram of whole levels: much faster than sorting for the few hundred pixels of a disc.
func quantiles(vals []float64, h *[256]uint16, ps [5]float64) [5]float64 {
	var out [5]float64
	if len(vals) == 0 {
		return out
	}
	lo, hi := 255, 0
	for _, v := range vals {
		b := int(v + 0.5)
		if b > 255 {
			b = 255
		}
		if b < 0 {
			b = 0
		}
		h[b]++
		lo = min(lo, b)
		hi = max(hi, b)
	}
	n := len(vals)
	k := 0
	cum := 0
	for level := lo; level <= hi && k < len(ps); level++ {
		cum += int(h[level])
		for k < len(ps) && cum > int(ps[k]*float64(n-1)) {
			out[k] = float64(level)
			k++
		}
		h[level] = 0
	}
	for level := lo; level <= hi; level++ {
		h[level] = 0
	}
	for ; k < len(ps); k++ {
		out[k] = float64(hi)
	}
	return out
}
