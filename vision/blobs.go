package vision

import (
	"math"
	"sort"
)

// blobFinder finds dark, stone-sized blobs in the canonical image and assigns each to the nearest
// free intersection. It rescues black stones placed well off their intersection (or seen from a
// low angle, where a stone's top stands off its point), which a disc centred on the point misses.
type blobFinder struct {
	geom     canonGeom
	integ    []int32 // integral image of luminance, (side+1)^2
	cands    []blob
	owner    []int     // per point: index into accepted blobs, or -1
	vals     []float64 // darkness on the search lattice (reused)
	dxs, dys []float64 // blob offsets (reused)
	// at holds, per point, the grid position (col, row) of the blob assigned to it.
	at [][2]float64
	// parallax is the last frame's median stone offset from its point, in spacings (x, y).
	parallax [2]float64
}

// blob is a dark local minimum: its position in canonical pixels and its brightness relative to the board.
type blob struct {
	x, y int
	rel  float64
	pt   int     // nearest intersection
	dist float64 // distance to it, in spacings
}

func newBlobFinder(g canonGeom) *blobFinder {
	side := g.Side()
	return &blobFinder{geom: g, integ: make([]int32, (side+1)*(side+1)), owner: make([]int, g.Size*g.Size),
		at: make([][2]float64, g.Size*g.Size)}
}

// find returns, per point, the relative darkness of the blob assigned to it (or +Inf), given the
// canonical luminance plane, the per-point features (for the board background) and a darkness threshold.
func (b *blobFinder) find(lum []uint8, f []pointFeatures, thresh float64, out []float64) {
	g := b.geom
	side := g.Side()
	w := side + 1
	for y := 0; y < side; y++ {
		var row int32
		for x := 0; x < side; x++ {
			row += int32(lum[y*side+x])
			b.integ[(y+1)*w+x+1] = b.integ[y*w+x+1] + row
		}
	}
	sp := g.Spacing
	half := max(2, int(math.Round(0.25*float64(sp)))) // box half-size: a 0.5-spacing square inside a stone
	step := max(1, sp/4)
	n := g.Size
	lo, hi := sp-sp/2, sp*n+sp/2 // search the board plus half a spacing around it
	cols := (hi-lo)/step + 1
	if cap(b.vals) < cols*cols {
		b.vals = make([]float64, cols*cols)
	}
	vals := b.vals[:cols*cols]
	boxArea := float64((2*half + 1) * (2*half + 1))
	for j := 0; j < cols; j++ {
		for i := 0; i < cols; i++ {
			x, y := lo+i*step, lo+j*step
			x0, y0, x1, y1 := x-half, y-half, x+half+1, y+half+1
			if x0 < 0 || y0 < 0 || x1 > side || y1 > side {
				vals[j*cols+i] = math.Inf(1)
				continue
			}
			sum := b.integ[y1*w+x1] - b.integ[y0*w+x1] - b.integ[y1*w+x0] + b.integ[y0*w+x0]
			// board brightness at the nearest intersection
			c := clampInt((x+sp/2)/sp-1, 0, n-1)
			r := clampInt((y+sp/2)/sp-1, 0, n-1)
			vals[j*cols+i] = float64(sum) / boxArea / math.Max(f[r*n+c].BgY, 1)
		}
	}
	b.cands = b.cands[:0]
	for j := 1; j < cols-1; j++ {
		for i := 1; i < cols-1; i++ {
			v := vals[j*cols+i]
			if v >= thresh {
				continue
			}
			isMin := true
			for dj := -1; dj <= 1 && isMin; dj++ {
				for di := -1; di <= 1; di++ {
					if (di != 0 || dj != 0) && vals[(j+dj)*cols+i+di] < v {
						isMin = false
						break
					}
				}
			}
			if !isMin {
				continue
			}
			x, y := lo+i*step, lo+j*step
			fc, fr := float64(x)/float64(sp)-1, float64(y)/float64(sp)-1
			c, r := clampInt(int(math.Round(fc)), 0, n-1), clampInt(int(math.Round(fr)), 0, n-1)
			d := math.Hypot(fc-float64(c), fr-float64(r))
			b.cands = append(b.cands, blob{x: x, y: y, rel: v, pt: r*n + c, dist: d})
		}
	}
	// Non-maximum suppression: darkest first, no two blobs closer than 0.7 spacing.
	sort.Slice(b.cands, func(i, j int) bool { return b.cands[i].rel < b.cands[j].rel })
	minD2 := 0.49 * float64(sp*sp)
	kept := b.cands[:0]
	for _, c := range b.cands {
		ok := true
		for _, k := range kept {
			dx, dy := float64(c.x-k.x), float64(c.y-k.y)
			if dx*dx+dy*dy < minD2 {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, c)
		}
	}
	// Stones seen from an angle stand off their points by a similar amount across the board (their
	// tops are above the board plane): estimate that parallax as the median offset of the blobs
	// near a point, then assign relative to the displaced points.
	dxs, dys := b.dxs[:0], b.dys[:0]
	for _, c := range kept {
		fc, fr := float64(c.x)/float64(sp)-1, float64(c.y)/float64(sp)-1
		if c.dist <= 0.45 {
			dxs = append(dxs, fc-math.Round(fc))
			dys = append(dys, fr-math.Round(fr))
		}
	}
	var pdx, pdy float64
	if len(dxs) >= 5 {
		sort.Float64s(dxs)
		sort.Float64s(dys)
		pdx, pdy = dxs[len(dxs)/2], dys[len(dys)/2]
	}
	for i := range kept {
		fc, fr := float64(kept[i].x)/float64(sp)-1-pdx, float64(kept[i].y)/float64(sp)-1-pdy
		kept[i].dist = math.Hypot(fc-math.Round(fc), fr-math.Round(fr))
	}
	// Assign nearest-first: a blob goes to its nearest intersection, or, when a closer blob has taken
	// that one, to the next nearest within reach.
	sort.Slice(kept, func(i, j int) bool { return kept[i].dist < kept[j].dist })
	for i := range out {
		out[i] = math.Inf(1)
		b.owner[i] = -1
	}
	for bi, c := range kept {
		fc, fr := float64(c.x)/float64(sp)-1-pdx, float64(c.y)/float64(sp)-1-pdy
		best, bestD := -1, 0.62
		for r := int(math.Floor(fr)); r <= int(math.Ceil(fr)); r++ {
			for cc := int(math.Floor(fc)); cc <= int(math.Ceil(fc)); cc++ {
				if r < 0 || cc < 0 || r >= n || cc >= n || b.owner[r*n+cc] >= 0 {
					continue
				}
				if d := math.Hypot(fc-float64(cc), fr-float64(r)); d < bestD {
					best, bestD = r*n+cc, d
				}
			}
		}
		if best >= 0 {
			b.owner[best] = bi
			out[best] = c.rel
			b.at[best] = [2]float64{float64(c.x)/float64(sp) - 1, float64(c.y)/float64(sp) - 1}
		}
	}
	b.parallax = [2]float64{pdx, pdy}
	b.dxs, b.dys = dxs, dys
	b.cands = kept[:0]
}

func clampInt(v, lo, hi int) int {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
