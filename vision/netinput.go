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
//   - the frame's context: the 10th, 50th and 90th percentiles of every point's relative
//     brightness and how clearly this frame's empty points show the grid;
//   - how many board edges the point lies on (0, 1 or 2).
const (
	patchCells  = 6
	patchReach  = 0.6
	patchPlane  = patchCells * patchCells
	nPatch      = 3 * patchPlane
	nHandMade   = 11
	nContext    = 4
	netInputs   = nPatch + nHandMade + nContext + 1
	chromaScale = 10 // chromaticity differences are a few hundredths: scaled to about one
)

// NetInputs is the number of inputs the learned reader takes per point.
const NetInputs = netInputs

// netInput computes the learned reader's inputs for every point (row-major, as seen in the
// image) from the canonical BGR image and the features extract computed from it.
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
			h[0] = float32(math.Min(p.Rel, 4))
			h[1] = float32(math.Min(p.RelIn, 4))
			h[2] = float32(p.Chroma * chromaScale)
			h[3] = float32(p.DR * chromaScale)
			h[4] = float32(p.DG * chromaScale)
			if edge > 0 {
				// The disc of an edge point takes in the margin beyond the line (wide or narrow,
				// light or dark): its brightness and colour come from the mirrored patch instead.
				rel, dr, dg := patchCentre(x)
				h[0], h[1], h[3], h[4] = rel, rel, dr, dg
				h[2] = float32(math.Hypot(float64(dr), float64(dg)))
			}
			h[5] = float32(clampF(p.InLine, -2, 2))
			h[6] = float32(clampF(p.LineVis, -2, 2))
			h[7] = float32(clampF(p.LineVisNear, -2, 2))
			h[8] = float32(clampF(p.LineVisOne, -2, 2))
			h[9] = float32(clampF(p.CellRel, 0, 4))
			h[10] = float32(clampF(p.CellChroma*chromaScale, 0, 4))
			copy(x[nPatch+nHandMade:], ctx[:])
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
// blocks of a fifth of a spacing, summed once per frame; otherwise each cell is summed on demand.
func (s *sampler) patchCellSums(pix []byte) cellSummer {
	g := s.geom
	side, sp := g.Side(), g.Spacing
	step := 2 * patchReach * float64(sp) / patchCells
	cs := cellSummer{s: s, pix: pix, side: side}
	for k := range cs.edges {
		cs.edges[k] = int(math.Round(-patchReach*float64(sp) + float64(k)*step))
	}
	b := int(math.Round(step))
	if float64(b) != step || sp%b != 0 || side%b != 0 {
		return cs
	}
	nb := side / b
	if len(s.blocks) != nb*nb {
		s.blocks = make([][4]uint32, nb*nb)
	}
	clear(s.blocks)
	for y := 0; y < side; y++ {
		brow := s.blocks[(y/b)*nb : (y/b+1)*nb]
		row := pix[3*y*side : 3*(y+1)*side]
		lum := s.lum[y*side : (y+1)*side]
		for x := 0; x < side; x++ {
			bl := &brow[x/b]
			bl[0] += uint32(row[3*x])
			bl[1] += uint32(row[3*x+1])
			bl[2] += uint32(row[3*x+2])
			bl[3] += uint32(lum[x])
		}
	}
	cs.b, cs.nb, cs.blocks = b, nb, s.blocks
	return cs
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
