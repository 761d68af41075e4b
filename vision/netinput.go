package vision

import (
	"math"
	"slices"
)

// The learned reader's inputs for one point, all measured on the canonical image relative to the
// board around the point, so that the light's colour and strength divide out:
//   - a patch of patchCells x patchCells cells covering ±patchReach spacings around the point, each
//     cell's luminance relative to the local board and its chromaticity (r and g shares) minus
//     the board's, in three planes;
//   - the hand-made features of pointFeatures (relative brightness of the disc and its inner part,
//     colour difference, grid-line contrast and visibility, the neighbouring cells);
//   - the point's radial profile (ring): the board's brightness on rings around the point,
//     how sharply it changes from ring to ring and how unevenly around each ring, which show a
//     stone's round edge and shading even where it is no brighter or darker than the board;
//   - the frame's context: the 10th, 50th and 90th percentiles of every point's relative
//     brightness and how clearly this frame's empty points show the grid;
//   - how many board edges the point lies on (0, 1 or 2).
const (
	patchCells  = 6
	patchReach  = 0.6
	patchPlane  = patchCells * patchCells
	nPatch      = 3 * patchPlane
	nHandMade   = 11
	nRing       = 3*ringCount - 1
	nContext    = 4
	netInputs   = nPatch + nHandMade + nRing + nContext + 1
	chromaScale = 10 // chromaticity differences are a few hundredths: scaled to about one
)

// inRel is where a point's disc brightness relative to the board stands among its inputs.
const inRel = nPatch

// NetInputs is the number of inputs the learned reader takes per point.
const NetInputs = netInputs

// netInput computes the learned reader's inputs for every point (row-major, as seen in the
// image) from the canonical BGR image and the features extract computed from it (extract must
// have run on pix last: its luminance plane and block sums are read here too).
func (s *sampler) netInput(pix []byte, f []pointFeatures, out []float32, ctxBuf *[]float64) {
	g := s.geom
	sp := g.Spacing
	ctx := frameContext(f, ctxBuf)
	cell := s.patchCellSums(pix)
	for r := 0; r < g.Size; r++ {
		for c := 0; c < g.Size; c++ {
			i := r*g.Size + c
			x := out[i*netInputs : (i+1)*netInputs]
			bgR, bgG := f[i].BgR, f[i].BgG
			bg := math.Max(f[i].BgY, 1)
			for pr := 0; pr < patchCells; pr++ {
				for pc := 0; pc < patchCells; pc++ {
					sum, n := cell.sum(sp*(c+1), sp*(r+1), pc, pr)
					tot := float64(sum[0]+sum[1]+sum[2]) + 1e-9
					k := pr*patchCells + pc
					x[k] = float32(float64(sum[3]) / float64(max(n, 1)) / bg)
					x[patchPlane+k] = float32((float64(sum[2])/tot - bgR) * chromaScale)
					x[2*patchPlane+k] = float32((float64(sum[1])/tot - bgG) * chromaScale)
				}
			}
			edge := mirrorEdges(x, c == 0, c == g.Size-1, r == 0, r == g.Size-1)
			p := f[i]
			h := x[nPatch:]
			x[inRel] = float32(math.Min(p.Rel, 4))
			h[1] = float32(math.Min(p.RelIn, 4))
			h[2] = float32(p.Chroma * chromaScale)
			h[3] = float32(p.DR * chromaScale)
			h[4] = float32(p.DG * chromaScale)
			if edge > 0 {
				// The disc of an edge point takes in the margin beyond the line (wide or narrow,
				// light or dark): its brightness and colour come from the mirrored patch instead.
				rel, dr, dg := patchCentre(x)
				x[inRel], h[1], h[3], h[4] = rel, rel, dr, dg
				h[2] = float32(math.Hypot(float64(dr), float64(dg)))
			}
			h[5] = float32(clampF(p.InLine, -2, 2))
			h[6] = float32(clampF(p.LineVis, -2, 2))
			h[7] = float32(clampF(p.LineVisNear, -2, 2))
			h[8] = float32(clampF(p.LineVisOne, -2, 2))
			h[9] = float32(clampF(p.CellRel, 0, 4))
			h[10] = float32(clampF(p.CellChroma*chromaScale, 0, 4))
			s.ring(x[nPatch+nHandMade:nPatch+nHandMade+nRing], sp*(c+1), sp*(r+1), bg,
				c == 0, c == g.Size-1, r == 0, r == g.Size-1)
			copy(x[nPatch+nHandMade+nRing:], ctx[:])
			x[netInputs-1] = float32(edge)
		}
	}
}

// cellSummer sums the learned reader's patch cells of one canonical image.
type cellSummer struct {
	s      *sampler
	pix    []byte
	side   int
	b, nb  int // block size and blocks per row; b == 0: sum each cell's pixels
	blocks [][4]uint32
	edges  [patchCells + 1]int
}

// patchCellSums prepares the sums of B, G, R and luminance over patch cells. When the spacing
// is a multiple of 5 (as canonFor's always are) the cells tile the image on a fixed lattice of
// blocks of a fifth of a spacing, which extract summed in its planes pass; otherwise each cell
// is summed on demand.
func (s *sampler) patchCellSums(pix []byte) cellSummer {
	cs := cellSummer{s: s, pix: pix, side: s.geom.Side()}
	step := patchStep(s.geom)
	for k := range cs.edges {
		cs.edges[k] = int(math.Round(-patchReach*float64(s.geom.Spacing) + float64(k)*step))
	}
	if s.blockSize > 0 {
		cs.b, cs.nb, cs.blocks = s.blockSize, cs.side/s.blockSize, s.blocks
	}
	return cs
}

// patchStep is the side of a patch cell in canonical pixels.
func patchStep(g canonGeom) float64 {
	return 2 * patchReach * float64(g.Spacing) / patchCells
}

// patchBlock is the side of the blocks the patch cells tile the canonical image on, when they
// do: a whole number of pixels that divides the spacing and the image's side.
func patchBlock(g canonGeom) (int, bool) {
	step := patchStep(g)
	b := int(math.Round(step))
	if b == 0 || float64(b) != step || g.Spacing%b != 0 || g.Side()%b != 0 {
		return 0, false
	}
	return b, true
}

// sum returns the sums over patch cell (pc, pr) of the point at canonical pixel (cx, cy), and
// its pixel count.
func (cs *cellSummer) sum(cx, cy, pc, pr int) ([4]uint32, int) {
	const half = patchCells / 2
	if cs.b > 0 {
		return cs.blocks[(cy/cs.b-half+pr)*cs.nb+cx/cs.b-half+pc], cs.b * cs.b
	}
	var sum [4]uint32
	y0, y1 := cy+cs.edges[pr], cy+cs.edges[pr+1]
	x0, x1 := cx+cs.edges[pc], cx+cs.edges[pc+1]
	for yy := y0; yy < y1; yy++ {
		for xx := x0; xx < x1; xx++ {
			k := yy*cs.side + xx
			sum[0] += uint32(cs.pix[3*k])
			sum[1] += uint32(cs.pix[3*k+1])
			sum[2] += uint32(cs.pix[3*k+2])
			sum[3] += uint32(cs.s.lum[k])
		}
	}
	return sum, (y1 - y0) * (x1 - x0)
}

// frameContext returns what the whole frame says about its light: percentiles 10, 50 and 90 of
// the points' relative brightness and the median grid-line visibility of board-like points.
func frameContext(f []pointFeatures, buf *[]float64) [nContext]float32 {
	b := (*buf)[:0]
	for i := range f {
		b = append(b, math.Min(f[i].Rel, 4))
	}
	slices.Sort(b)
	out := [nContext]float32{float32(percentile(b, 0.1)), float32(percentile(b, 0.5)), float32(percentile(b, 0.9))}
	b = b[:0]
	for i := range f {
		if f[i].Rel >= 0.85 && f[i].Rel <= 1.15 {
			b = append(b, f[i].LineVis)
		}
	}
	slices.Sort(b)
	out[3] = float32(clampF(percentile(b, 0.5), -2, 2))
	*buf = b[:0]
	return out
}

func clampF(v, lo, hi float64) float64 {
	if math.IsNaN(v) {
		return 0
	}
	return math.Min(math.Max(v, lo), hi)
}

// NetPermutations returns the eight ways of turning and mirroring a point's inputs (as
// permutations of their indexes): the same point seen with the board turned or mirrored, which
// training shows the network at random, since light and shadows may fall from any side.
func NetPermutations() [][]int {
	var out [][]int
	for t := 0; t < 8; t++ {
		p := make([]int, netInputs)
		for k := range p {
			p[k] = k
		}
		for ch := 0; ch < 3; ch++ {
			for r := 0; r < patchCells; r++ {
				for c := 0; c < patchCells; c++ {
					sr, sc := r, c
					if t&1 != 0 {
						sc = patchCells - 1 - sc
					}
					if t&2 != 0 {
						sr = patchCells - 1 - sr
					}
					if t&4 != 0 {
						sr, sc = sc, sr
					}
					p[ch*patchPlane+r*patchCells+c] = ch*patchPlane + sr*patchCells + sc
				}
			}
		}
		out = append(out, p)
	}
	return out
}

// NetInputGroups are the learned reader's inputs grouped by the kind of evidence they carry: the
// patch's brightness, the patch's colour, the hand-made features, the radial profile and the
// frame's context. Training may hide a group at a time (stonenet.TrainOptions.MaskGroups).
func NetInputGroups() [][]int {
	span := func(from, to int) []int {
		g := make([]int, 0, to-from)
		for k := from; k < to; k++ {
			g = append(g, k)
		}
		return g
	}
	return [][]int{
		span(0, patchPlane),
		span(patchPlane, nPatch),
		span(nPatch, nPatch+nHandMade),
		span(nPatch+nHandMade, nPatch+nHandMade+nRing),
		span(nPatch+nHandMade+nRing, netInputs-1),
	}
}

// patchCentre returns the mean relative luminance and chromaticity differences (already scaled)
// of the patch's four central cells: the disc of the point.
func patchCentre(x []float32) (rel, dr, dg float32) {
	const a, b = patchCells/2 - 1, patchCells / 2
	for _, k := range [4]int{a*patchCells + a, a*patchCells + b, b*patchCells + a, b*patchCells + b} {
		rel += x[k] / 4
		dr += x[patchPlane+k] / 4
		dg += x[2*patchPlane+k] / 4
	}
	return rel, dr, dg
}

// mirrorEdges replaces the half of an edge point's patch that lies beyond the board's edge by
// the mirror image of the half on the board: what lies beyond (a wide or narrow margin, the
// table, a bowl) says nothing about the stone, and boards differ most there. A stone is round,
// so its mirrored half is still a stone. It returns how many edges the point lies on.
func mirrorEdges(x []float32, left, right, top, bottom bool) int {
	edges := 0
	for _, e := range [4]bool{left, right, top, bottom} {
		if e {
			edges++
		}
	}
	const half = patchCells / 2
	for ch := 0; ch < 3; ch++ {
		p := x[ch*patchPlane : (ch+1)*patchPlane]
		for r := 0; r < patchCells; r++ {
			for c := 0; c < half; c++ {
				if left {
					p[r*patchCells+c] = p[r*patchCells+patchCells-1-c]
				}
				if right {
					p[r*patchCells+patchCells-1-c] = p[r*patchCells+c]
				}
			}
		}
		for r := 0; r < half; r++ {
			for c := 0; c < patchCells; c++ {
				if top {
					p[r*patchCells+c] = p[(patchCells-1-r)*patchCells+c]
				}
				if bottom {
					p[(patchCells-1-r)*patchCells+c] = p[r*patchCells+c]
				}
			}
		}
	}
	return edges
}

// ringCount is how many rings the radial profile samples.
const ringCount = 7

// ringRadii returns the radii, in spacings, of the rings the radial profile samples: from inside
// a stone's disc (a stone is about 0.47 spacing in radius) to the board around it.
func ringRadii() [ringCount]float64 {
	return [ringCount]float64{0.12, 0.24, 0.34, 0.42, 0.5, 0.58, 0.68}
}

// ringDirs is how many directions each ring is sampled in. They lie between the grid lines
// (11.25 degrees plus multiples of 22.5), so a turn or mirror of the board maps the set to itself.
const ringDirs = 16

// ringOffsets returns, for a spacing of sp pixels, where every ring sample is taken, ring by
// ring: the offset (dx, dy) of the top-left pixel of the 2x2 block whose centre lies nearest the
// sample's place. A block's mean has half a single pixel's sensor noise.
func ringOffsets(sp int) [][2]int32 {
	out := make([][2]int32, 0, ringCount*ringDirs)
	for _, rad := range ringRadii() {
		for d := 0; d < ringDirs; d++ {
			a := (11.25 + 22.5*float64(d)) * math.Pi / 180
			out = append(out, [2]int32{
				int32(math.Round(rad*float64(sp)*math.Cos(a) - 0.5)),
				int32(math.Round(rad*float64(sp)*math.Sin(a) - 0.5)),
			})
		}
	}
	return out
}

// ring writes the radial profile of the point at canonical pixel (cx, cy) into x (nRing values),
// relative to the board luminance bg: each ring's median, each ring's spread (half the range of
// its middle half: a stone lit from one side is bright on that side and shadowed on the other),
// and the upper quartile of the absolute change from each ring to the next along each direction
// (a stone's edge, which shows on the side its shadow or shading falls, a third of the way round
// or more). Medians and quartiles, not means: a neighbouring stone drawn toward the point by the
// camera's tilt, or its shadow, crosses a few directions of the outer rings and must not look
// like a stone's edge. On an edge point, directions leading off the board are mirrored back onto
// it, as the patch is.
func (s *sampler) ring(x []float32, cx, cy int, bg float64, left, right, top, bottom bool) {
	l, side := s.lum, s.geom.Side()
	offs := s.ringTaps[ringSide(left, right)+3*ringSide(top, bottom)]
	base := cy*side + cx
	// Samples are 2x2 block sums (0..1020), kept as integers until the order statistics are
	// taken: the sorting network then runs without a branch.
	var prev, vals, steps [ringDirs]int32
	inv := 1 / (4 * bg)
	const nr = ringCount
	for i := 0; i < nr; i++ {
		ring := offs[i*ringDirs : (i+1)*ringDirs]
		for d, o := range ring {
			k := base + int(o)
			v := int32(l[k]) + int32(l[k+1]) + int32(l[k+side]) + int32(l[k+side+1])
			st := v - prev[d]
			steps[d] = max(st, -st)
			prev[d], vals[d] = v, v
		}
		sort16(&vals)
		x[i] = float32(math.Min(float64(vals[ringDirs/2-1]+vals[ringDirs/2])*inv/2, 4))
		x[nr+i] = float32(math.Min(float64(vals[3*ringDirs/4]-vals[ringDirs/4-1])*inv/2, 2))
		if i > 0 {
			sort16(&steps)
			x[2*nr+i-1] = float32(math.Min(float64(steps[3*ringDirs/4-1])*inv, 2))
		}
	}
}

// ringSide is which edge of the board, along one axis, a point lies on: 0 none, 1 the low
// (left or top) one, 2 the high one.
func ringSide(low, high bool) int {
	switch {
	case low:
		return 1
	case high:
		return 2
	}
	return 0
}

// ringTaps returns, for a canonical image of side pixels, the ring samples' offsets (rings) as
// offsets into the luminance plane, for each of the nine ways a point can lie on the board's
// edges (ringSide of the columns plus three times that of the rows): on an edge, a sample
// beyond it is mirrored back onto the board, as the patch is. A block left of the point
// (dx < 0) mirrors to the block as far right (-dx-1).
func ringTaps(rings [][2]int32, side int) [9][]int32 {
	var out [9][]int32
	for cfg := range out {
		h, v := cfg%3, cfg/3
		taps := make([]int32, len(rings))
		for i, o := range rings {
			dx, dy := o[0], o[1]
			if (h == 1 && dx < 0) || (h == 2 && dx >= 0) {
				dx = -dx - 1
			}
			if (v == 1 && dy < 0) || (v == 2 && dy >= 0) {
				dy = -dy - 1
			}
			taps[i] = dy*int32(side) + dx
		}
		out[cfg] = taps
	}
	return out
}

// sort16 sorts 16 values by Batcher's odd-even merge network, written out (63
// compare-exchanges, each a min and a max on constant indexes): no branch to mispredict, several
// times faster than an insertion sort on noisy values. It sorts one ring's values (ringDirs is
// 16) and the board's cells around a point (sampler.background).
func sort16[T int32 | int64](v *[16]T) {
	cx(v, 0, 1)
	cx(v, 2, 3)
	cx(v, 4, 5)
	cx(v, 6, 7)
	cx(v, 8, 9)
	cx(v, 10, 11)
	cx(v, 12, 13)
	cx(v, 14, 15)
	cx(v, 0, 2)
	cx(v, 1, 3)
	cx(v, 4, 6)
	cx(v, 5, 7)
	cx(v, 8, 10)
	cx(v, 9, 11)
	cx(v, 12, 14)
	cx(v, 13, 15)
	cx(v, 1, 2)
	cx(v, 5, 6)
	cx(v, 9, 10)
	cx(v, 13, 14)
	cx(v, 0, 4)
	cx(v, 1, 5)
	cx(v, 2, 6)
	cx(v, 3, 7)
	cx(v, 8, 12)
	cx(v, 9, 13)
	cx(v, 10, 14)
	cx(v, 11, 15)
	cx(v, 2, 4)
	cx(v, 3, 5)
	cx(v, 10, 12)
	cx(v, 11, 13)
	cx(v, 1, 2)
	cx(v, 3, 4)
	cx(v, 5, 6)
	cx(v, 9, 10)
	cx(v, 11, 12)
	cx(v, 13, 14)
	cx(v, 0, 8)
	cx(v, 1, 9)
	cx(v, 2, 10)
	cx(v, 3, 11)
	cx(v, 4, 12)
	cx(v, 5, 13)
	cx(v, 6, 14)
	cx(v, 7, 15)
	cx(v, 4, 8)
	cx(v, 5, 9)
	cx(v, 6, 10)
	cx(v, 7, 11)
	cx(v, 2, 4)
	cx(v, 3, 5)
	cx(v, 6, 8)
	cx(v, 7, 9)
	cx(v, 10, 12)
	cx(v, 11, 13)
	cx(v, 1, 2)
	cx(v, 3, 4)
	cx(v, 5, 6)
	cx(v, 7, 8)
	cx(v, 9, 10)
	cx(v, 11, 12)
	cx(v, 13, 14)
}

// cx orders v[i] and v[j].
func cx[T int32 | int64](v *[16]T, i, j int) {
	a, b := v[i], v[j]
	v[i], v[j] = min(a, b), max(a, b)
}
