package calib

import (
	"image"
	"math"
	"slices"
	"sort"

	"gocv.io/x/gocv"

	"tengen/internal/homography"
)

// stoneBlob is a round dark blob the size of a stone (a black stone), in work pixels: its centre
// and the radius of the largest disc inside it.
type stoneBlob struct {
	x, y, r float64
}

// findStoneBlobs finds the black stones of a grey frame as discs much darker than the board
// around them and than most of the frame. Touching stones merge into one blob, but the distance
// to the blob's edge still peaks at each stone's centre (the necks between stones are narrower),
// so every local maximum of the distance transform of a stone-sized width is one stone. Grid
// lines and other thin marks are removed first by an opening. The blobs of the stones' common
// radius are kept, one per stone.
func findStoneBlobs(gray gocv.Mat) []stoneBlob {
	pix, err := gray.DataPtrUint8()
	if err != nil || len(pix) != gray.Cols()*gray.Rows() {
		return nil
	}
	level := frameLevel(pix)
	// Dark in absolute terms too, not only against the light around it: the board between
	// white stones is darker than they are, but not dark.
	return stoneBlobsWhere(gray, func(b stoneBlob) bool { return discMean(pix, gray.Cols(), gray.Rows(), b) < 0.55*level })
}

// findDimStoneBlobs is findStoneBlobs for a dim frame, looking inside the board outline q only
// (TL, TR, BR, BL in gray's pixels). Where most of the picture is a dark table, a black stone on
// the lit board is no darker than the table, so a blob counts when its disc is dark against the
// ring around it (ringLevel: the board between its neighbours) instead of against the frame.
// The board between white stones still fails (the white stones around it are not twice as
// bright), and the dark table along the board's edge, dark against the board beside it, lies
// outside the outline.
func findDimStoneBlobs(gray gocv.Mat, q [4]Point2) []stoneBlob {
	pix, err := gray.DataPtrUint8()
	if err != nil || len(pix) != gray.Cols()*gray.Rows() {
		return nil
	}
	inside, ok := insideQuad(q)
	if !ok {
		return nil
	}
	w, ht := gray.Cols(), gray.Rows()
	return stoneBlobsWhere(gray, func(b stoneBlob) bool {
		return inside(Point2{b.x, b.y}) && discMean(pix, w, ht, b) < 0.55*ringLevel(pix, w, ht, b)
	})
}

// insideQuad returns a test of whether a point lies inside the quadrilateral q (TL, TR, BR, BL),
// or false when q is degenerate.
func insideQuad(q [4]Point2) (func(Point2) bool, bool) {
	h, ok := gridH(2, 2, q)
	if !ok {
		return nil, false
	}
	inv, ok := invert3(h)
	if !ok {
		return nil, false
	}
	return func(p Point2) bool {
		u := applyH(inv, p)
		return u.X > 0 && u.Y > 0 && u.X < 1 && u.Y < 1
	}, true
}

// ringLevel is the grey level four fifths of the ring from 1.6 to 2.4 radii around blob b stay
// under: the board seen between its neighbouring stones, or the white ones.
func ringLevel(pix []uint8, w, h int, b stoneBlob) float64 {
	r0, r1 := 1.6*b.r, 2.4*b.r
	var ring []uint8
	for dy := -int(r1); dy <= int(r1); dy++ {
		for dx := -int(r1); dx <= int(r1); dx++ {
			if d := math.Hypot(float64(dx), float64(dy)); d < r0 || d > r1 {
				continue
			}
			x, y := int(b.x)+dx, int(b.y)+dy
			if x >= 0 && y >= 0 && x < w && y < h {
				ring = append(ring, pix[y*w+x])
			}
		}
	}
	if len(ring) == 0 {
		return 0
	}
	return float64(byteRank(ring, (4*len(ring)+4)/5))
}

// stoneBlobsWhere is findStoneBlobs with the test a stone-sized dark blob must pass to count
// (dark).
func stoneBlobsWhere(gray gocv.Mat, dark func(stoneBlob) bool) []stoneBlob {
	side := max(gray.Cols(), gray.Rows())
	block := max(31, side/8) | 1
	open := max(3, side/160) | 1
	kernel := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(open, open))
	defer kernel.Close()
	// Darker than the local mean: black stones. (White stones were tried as well, lighter than
	// most of the frame: no more boards found on the Roboflow photos and one more wrong grid.)
	mask := gocv.NewMat()
	defer mask.Close()
	gocv.AdaptiveThreshold(gray, &mask, 255, gocv.AdaptiveThresholdMean, gocv.ThresholdBinaryInv, block, 18)
	// Fill a stone's highlight, then take away the lines (opening). A closing would fill the
	// highlight too, but also the narrow gaps between touching stones, and a block of them
	// would peak between its stones.
	fillSmallHoles(mask, (side/60)*(side/60))
	gocv.MorphologyEx(mask, &mask, gocv.MorphOpen, kernel)
	var all []stoneBlob
	// A stone is at least this wide: a 19x19 board across a third of the frame.
	for _, b := range blobCentres(mask, math.Max(float64(open)/2+1, float64(side)/130)) {
		if dark(b) {
			all = append(all, b)
		}
	}
	if len(all) < 8 {
		return nil
	}
	rs := make([]float64, len(all))
	for i, b := range all {
		rs[i] = b.r
	}
	sort.Float64s(rs)
	// The stones' radius: the window of radii a third wide that covers the most area (specks
	// and shadow crescents are many but small).
	best, bestA := rs[len(rs)/2], 0.0
	for i, r := range rs {
		j := sort.SearchFloat64s(rs, r*1.35)
		a := 0.0
		for _, q := range rs[i:j] {
			a += q * q
		}
		if a > bestA {
			best, bestA = rs[(i+j)/2], a
		}
	}
	kept := all[:0]
	for _, b := range all {
		if b.r >= 0.65*best && b.r <= 1.5*best {
			kept = append(kept, b)
		}
	}
	// One centre per stone: a highlight or a scratch splits a stone's disc into parts with a
	// peak each; the widest peak stands for the stone.
	sort.Slice(kept, func(i, j int) bool { return kept[i].r > kept[j].r })
	var out []stoneBlob
	for _, b := range kept {
		near := false
		for _, o := range out {
			if math.Hypot(b.x-o.x, b.y-o.y) < 1.5*math.Max(b.r, o.r) {
				near = true
				break
			}
		}
		if !near {
			out = append(out, b)
		}
	}
	return out
}

// fillSmallHoles sets the pixels of every region of zeros in mask (CV_8UC1) that is enclosed
// (does not reach the picture's edge) and smaller than maxArea pixels: a stone's highlight.
func fillSmallHoles(mask gocv.Mat, maxArea int) {
	inv := gocv.NewMat()
	defer inv.Close()
	gocv.BitwiseNot(mask, &inv)
	labels, stats, centroids := gocv.NewMat(), gocv.NewMat(), gocv.NewMat()
	defer labels.Close()
	defer stats.Close()
	defer centroids.Close()
	n := gocv.ConnectedComponentsWithStats(inv, &labels, &stats, &centroids)
	w, h := mask.Cols(), mask.Rows()
	fill := make([]bool, n)
	any := false
	for k := 1; k < n; k++ {
		l, t := int(stats.GetIntAt(k, int(gocv.CC_STAT_LEFT))), int(stats.GetIntAt(k, int(gocv.CC_STAT_TOP)))
		cw, ch := int(stats.GetIntAt(k, int(gocv.CC_STAT_WIDTH))), int(stats.GetIntAt(k, int(gocv.CC_STAT_HEIGHT)))
		area := int(stats.GetIntAt(k, int(gocv.CC_STAT_AREA)))
		if l > 0 && t > 0 && l+cw < w && t+ch < h && area < maxArea {
			fill[k], any = true, true
		}
	}
	if !any {
		return
	}
	// gocv reads CV_32S only element by element; labels fit a float32 exactly.
	labf := gocv.NewMat()
	defer labf.Close()
	labels.ConvertTo(&labf, gocv.MatTypeCV32F)
	lab, err := labf.DataPtrFloat32()
	if err != nil {
		return
	}
	pix, err := mask.DataPtrUint8()
	if err != nil || len(pix) != len(lab) {
		return
	}
	for i, k := range lab {
		if k > 0 && int(k) < n && fill[int(k)] {
			pix[i] = 255
		}
	}
}

// frameLevel is the brightness most of a grey frame stays under: its 60th percentile.
func frameLevel(pix []uint8) float64 {
	return float64(byteRank(pix, len(pix)*6/10))
}

// byteRank is the least value v such that at least count of pix are v or less (255 when
// count exceeds len(pix)).
func byteRank(pix []uint8, count int) uint8 {
	var hist [256]int
	for _, v := range pix {
		hist[v]++
	}
	n := 0
	for v, c := range hist {
		if n += c; n >= count {
			return uint8(v)
		}
	}
	return 255
}

// discMean is the mean grey level of the inner half of blob b's disc.
func discMean(pix []uint8, w, h int, b stoneBlob) float64 {
	rr := int(b.r / 2)
	sum, cnt := 0, 0
	for dy := -rr; dy <= rr; dy++ {
		for dx := -rr; dx <= rr; dx++ {
			x, y := int(b.x)+dx, int(b.y)+dy
			if x >= 0 && y >= 0 && x < w && y < h {
				sum += int(pix[y*w+x])
				cnt++
			}
		}
	}
	if cnt == 0 {
		return 0
	}
	return float64(sum) / float64(cnt)
}

// blobCentres returns the local maxima of the distance transform of mask that are at least
// rmin from the blob's edge, one per plateau.
func blobCentres(mask gocv.Mat, rmin float64) []stoneBlob {
	dt := gocv.NewMat()
	defer dt.Close()
	labels := gocv.NewMat()
	defer labels.Close()
	gocv.DistanceTransform(mask, &dt, &labels, gocv.DistL2, gocv.DistanceMask5, gocv.DistanceLabelCComp)
	d, err := dt.DataPtrFloat32()
	if err != nil {
		return nil
	}
	w, h := dt.Cols(), dt.Rows()
	var out []stoneBlob
	taken := make([]bool, len(d))
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			v := d[y*w+x]
			if float64(v) < rmin || taken[y*w+x] {
				continue
			}
			peak := true
			for dy := -1; dy <= 1 && peak; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if n := d[(y+dy)*w+x+dx]; n > v || (n == v && taken[(y+dy)*w+x+dx]) {
						peak = false
						break
					}
				}
			}
			if !peak {
				continue
			}
			// One centre per plateau and per disc: nothing within half the radius is taken again.
			rr := int(v / 2)
			for dy := -rr; dy <= rr; dy++ {
				for dx := -rr; dx <= rr; dx++ {
					if yy, xx := y+dy, x+dx; yy >= 0 && xx >= 0 && yy < h && xx < w {
						taken[yy*w+xx] = true
					}
				}
			}
			out = append(out, stoneBlob{x: float64(x), y: float64(y), r: float64(v)})
		}
	}
	return out
}

// stoneLattice fits a lattice to stone centres: it finds the spacing and the two directions in
// which stones neighbour each other, numbers the stones by stepping from neighbour to neighbour
// (one or two points along a line, or diagonally) from the best-connected stone outwards, and
// fits a homography from those numbers to the centres, renumbering every stone by it and fitting
// again. It returns the homography (grid to work pixels), the range of grid numbers taken by
// stones that sit on the lattice, and how many do.
func stoneLattice(blobs []stoneBlob) (h [9]float64, lo, hi [2]int, n int, ok bool) {
	if len(blobs) < 12 {
		return h, lo, hi, 0, false
	}
	rs := make([]float64, len(blobs))
	for i, b := range blobs {
		rs[i] = b.r
	}
	sort.Float64s(rs)
	r := rs[len(rs)/2]
	// Stones do not overlap, so neighbours are two radii apart or more; but nearer blobs are
	// specks between stones or parts of one, and a board seen from the side brings its rows
	// closer than its columns. Both readings of "neighbour" are tried, and the lattice more
	// stones sit on is kept.
	var src []Point2
	for _, least := range [...]float64{1.5 * r, 1.8 * r} {
		hl, on, ok := latticeFrom(blobs, least, 1.6*r)
		if ok && len(on) > len(src) {
			h, src = hl, on
		}
	}
	if len(src) < 12 {
		return h, lo, hi, 0, false
	}
	l, u := numberRange(src)
	return h, [2]int{int(l.X), int(l.Y)}, [2]int{int(u.X), int(u.Y)}, len(src), true
}

// latticeFrom is stoneLattice with neighbours taken at least least apart and a lattice whose
// steps are shorter than shortest refused; it returns the fit and the grid numbers of the
// stones on it.
func latticeFrom(blobs []stoneBlob, least, shortest float64) (h [9]float64, src []Point2, ok bool) {
	// The spacing: most stones of a game have a neighbour on the next point.
	var nearest []float64
	for i, a := range blobs {
		d := math.Inf(1)
		for j, b := range blobs {
			if e := math.Hypot(b.x-a.x, b.y-a.y); i != j && e >= least {
				d = math.Min(d, e)
			}
		}
		if !math.IsInf(d, 1) {
			nearest = append(nearest, d)
		}
	}
	if len(nearest) < 12 {
		return h, nil, false
	}
	sort.Float64s(nearest)
	sp := nearest[len(nearest)*3/10]
	var hist [36]float64
	for i, a := range blobs {
		for j, b := range blobs {
			if d := math.Hypot(b.x-a.x, b.y-a.y); i != j && d > 0.8*sp && d < 1.25*sp {
				ang := math.Mod(math.Atan2(b.y-a.y, b.x-a.x)+2*math.Pi, math.Pi)
				hist[int(ang/math.Pi*36)%36]++
			}
		}
	}
	// The two directions: the strongest peak of the histogram of neighbour directions (mod 180
	// degrees), and the strongest at least 45 degrees from it.
	smooth := func(k int) float64 { return hist[(k+35)%36] + 2*hist[k] + hist[(k+1)%36] }
	p1 := 0
	for k := range hist {
		if smooth(k) > smooth(p1) {
			p1 = k
		}
	}
	p2 := -1
	for k := range hist {
		dk := min((k-p1+36)%36, (p1-k+36)%36)
		if dk >= 9 && (p2 < 0 || smooth(k) > smooth(p2)) {
			p2 = k
		}
	}
	if p2 < 0 || smooth(p2) < 0.15*smooth(p1) {
		return h, nil, false
	}
	// Refine each direction to the mean angle of its neighbours, then step in that basis.
	var basis [2][2]float64
	for k, p := range [2]int{p1, p2} {
		d0 := (float64(p) + 0.5) * math.Pi / 36
		var sx, sy, sl float64
		cnt := 0
		for i, a := range blobs {
			for j, b := range blobs {
				dx, dy := b.x-a.x, b.y-a.y
				d := math.Hypot(dx, dy)
				if i == j || d < 0.8*sp || d > 1.25*sp || math.Abs(math.Remainder(math.Atan2(dy, dx)-d0, math.Pi)) > 10*math.Pi/180 {
					continue
				}
				if math.Cos(math.Atan2(dy, dx)-d0) < 0 {
					dx, dy = -dx, -dy
				}
				sx, sy, sl = sx+dx, sy+dy, sl+d
				cnt++
			}
		}
		if cnt == 0 {
			return h, nil, false
		}
		l := math.Hypot(sx, sy)
		basis[k] = [2]float64{sx / l * sl / float64(cnt), sy / l * sl / float64(cnt)}
	}
	if math.Hypot(basis[0][0], basis[0][1]) < shortest || math.Hypot(basis[1][0], basis[1][1]) < shortest {
		return h, nil, false
	}
	det := basis[0][0]*basis[1][1] - basis[1][0]*basis[0][1]
	if math.Abs(det) < 1e-9 {
		return h, nil, false
	}
	// step gives the grid step of a displacement when it is a small whole one in the basis.
	step := func(dx, dy float64) (int, int, bool) {
		cu := (dx*basis[1][1] - dy*basis[1][0]) / det
		cv := (basis[0][0]*dy - basis[0][1]*dx) / det
		ru, rv := math.Round(cu), math.Round(cv)
		if (ru == 0 && rv == 0) || math.Abs(ru) > 2 || math.Abs(rv) > 2 || math.Abs(cu-ru) > 0.2 || math.Abs(cv-rv) > 0.2 {
			return 0, 0, false
		}
		return int(ru), int(rv), true
	}
	reach := 2.3 * math.Max(math.Hypot(basis[0][0], basis[0][1]), math.Hypot(basis[1][0], basis[1][1]))
	nb := make([][]gridStep, len(blobs))
	for i, a := range blobs {
		for j, b := range blobs {
			dx, dy := b.x-a.x, b.y-a.y
			if i == j || math.Hypot(dx, dy) > reach {
				continue
			}
			if du, dv, ok := step(dx, dy); ok {
				nb[i] = append(nb[i], gridStep{j, du, dv})
			}
		}
	}
	// Number from each of the five best-connected stones in turn (a wrong step early in the
	// walk misnumbers all that follows it) and keep the fit that the most stones sit on.
	order := make([]int, len(blobs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return len(nb[order[i]]) > len(nb[order[j]]) })
	for _, root := range order[:min(5, len(order))] {
		hr, on, ok := numberAndFit(blobs, root, nb)
		if ok && len(on) > len(src) {
			h, src = hr, on
		}
	}
	return h, src, len(src) >= 12
}

// gridStep is a step from one stone to a neighbour: the neighbour and its grid offset.
type gridStep struct{ to, du, dv int }

// numberAndFit numbers the stones by a breadth-first walk over their neighbour steps (steps[i]
// for stone i) from root and fits a homography from the numbers to the centres in two ways:
// from every stone's walked number, and grown out from the stones two steps from root or nearer
// (growFit). Each fit is settled (settleFit), and the one returned (with the grid numbers of the
// stones within a quarter spacing of its intersections) is the walked one unless the grown one
// holds clearly more.
func numberAndFit(blobs []stoneBlob, root int, steps [][]gridStep) ([9]float64, []Point2, bool) {
	idx := make([][2]int, len(blobs))
	depth := make([]int, len(blobs))
	seen := make([]bool, len(blobs))
	seen[root] = true
	queue := []int{root}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, e := range steps[i] {
			if !seen[e.to] {
				idx[e.to] = [2]int{idx[i][0] + e.du, idx[i][1] + e.dv}
				depth[e.to] = depth[i] + 1
				seen[e.to] = true
				queue = append(queue, e.to)
			}
		}
	}
	// walked is the stones the walk reached within hops of root: their numbers and centres.
	walked := func(hops int) (src, dst []Point2) {
		for i, b := range blobs {
			if seen[i] && depth[i] <= hops {
				src = append(src, Point2{float64(idx[i][0]), float64(idx[i][1])})
				dst = append(dst, Point2{b.x, b.y})
			}
		}
		return src, dst
	}
	var h [9]float64
	var on []Point2
	if hw, ok := fitHomography(walked(len(blobs))); ok {
		h, on, _ = settleFit(blobs, hw)
	}
	// The grown fit replaces the walked one only when clearly better: a tenth more stones on its
	// points. Where the walk numbered the board right the two fits differ by a stone or two, and
	// that difference moved the grid the lines then settle on (a Roboflow photo found at 0.57
	// with the walked fit was refused with a grown one holding one stone more). A grown fit is
	// not let span more than the largest board and a line of the table each way: taking in
	// more, it has run on over a bowl or other dark things beside the board, on a finer lattice.
	src, dst := walked(2)
	if hg, ok := growFit(blobs, src, dst, idx[root]); ok {
		if hs, grown, ok := settleFit(blobs, hg); ok && 10*len(grown) >= 11*len(on)+10 && spanOf(grown) <= slices.Max(defaultSizes[:])+2 {
			h, on = hs, grown
		}
	}
	return h, on, len(on) >= 12
}

// spanOf is how many lines the grid numbers nums span, the more of the two ways.
func spanOf(nums []Point2) int {
	if len(nums) == 0 {
		return 0
	}
	lo, hi := numberRange(nums)
	return int(math.Max(hi.X-lo.X, hi.Y-lo.Y)) + 1
}

// numberRange is the least and the greatest column and row of the grid numbers nums (not empty).
func numberRange(nums []Point2) (lo, hi Point2) {
	lo, hi = nums[0], nums[0]
	for _, p := range nums {
		lo = Point2{math.Min(lo.X, p.X), math.Min(lo.Y, p.Y)}
		hi = Point2{math.Max(hi.X, p.X), math.Max(hi.Y, p.Y)}
	}
	return lo, hi
}

// onPoints returns the grid numbers and centres of the stones within a quarter spacing of the
// points of the fit h (grid numbers to pixels) and, when reach is not negative, no more than
// reach lines from the point root either way.
func onPoints(blobs []stoneBlob, h [9]float64, reach int, root [2]int) (src, dst []Point2, ok bool) {
	inv, ok := invert3(h)
	if !ok {
		return nil, nil, false
	}
	for _, b := range blobs {
		g := applyH(inv, Point2{b.x, b.y})
		u, v := math.Round(g.X), math.Round(g.Y)
		if offPoint(g) >= 0.25 || (reach >= 0 && max(math.Abs(u-float64(root[0])), math.Abs(v-float64(root[1]))) > float64(reach)) {
			continue
		}
		src = append(src, Point2{u, v})
		dst = append(dst, Point2{b.x, b.y})
	}
	return src, dst, true
}

// settleFit renumbers every stone by the fit h and fits again, three times, and returns the fit
// and the grid numbers of the stones within a quarter spacing of its intersections, or false
// when fewer than a dozen are.
func settleFit(blobs []stoneBlob, h [9]float64) ([9]float64, []Point2, bool) {
	var src []Point2
	for iter := 0; iter < 3; iter++ {
		s, dst, ok := onPoints(blobs, h, -1, [2]int{})
		if !ok || len(s) < 12 {
			return h, nil, false
		}
		if h, ok = fitHomography(s, dst); !ok {
			return h, nil, false
		}
		src = s
	}
	return h, src, true
}

// growFit fits grid numbers to stone centres grown out from a patch: first the patch's stones
// (grid numbers patch at centres at, around the point root), then, ring by ring two lines wider,
// the stones within a quarter spacing of the points the fit so far puts them on. A board seen at
// an angle has its far spacing well under its near one, so numbers walked from stone to stone in
// one basis go wrong far from where the walk began, while the fit's own prediction a ring ahead
// stays within a quarter spacing. The grown fit is kept only when it still puts nine in ten of
// the patch's stones on the points the walk gave them: one that drifted to another lattice on the
// way does not.
func growFit(blobs []stoneBlob, patch, at []Point2, root [2]int) ([9]float64, bool) {
	h, ok := fitGridPart(patch, at)
	for reach := 4; ok && reach <= MaxSize+1; reach += 2 {
		var src, dst []Point2
		if src, dst, ok = onPoints(blobs, h, reach, root); ok {
			h, ok = fitGridPart(src, dst)
		}
	}
	if !ok {
		return h, false
	}
	inv, ok := invert3(h)
	if !ok {
		return h, false
	}
	kept := 0
	for i, p := range at {
		if g := applyH(inv, p); offPoint(g) < 0.25 && math.Round(g.X) == patch[i].X && math.Round(g.Y) == patch[i].Y {
			kept++
		}
	}
	return h, 10*kept >= 9*len(patch)
}

// fitGridPart fits grid numbers src to centres dst: a homography when they span five lines or
// more both ways, else an affine map (a homography's perspective terms are not settled by a
// small patch of the lattice, and throw its prediction a ring ahead off). It needs six stones.
func fitGridPart(src, dst []Point2) ([9]float64, bool) {
	if len(src) < 6 {
		return [9]float64{}, false
	}
	lo, hi := numberRange(src)
	if hi.X-lo.X >= 5 && hi.Y-lo.Y >= 5 && len(src) >= 12 {
		return fitHomography(src, dst)
	}
	return fitAffine(src, dst)
}

// fitAffine is the least-squares affine map taking src to dst, as a homography.
func fitAffine(src, dst []Point2) ([9]float64, bool) {
	// The normal equations of x' = a u + b v + c (and y' alike), centred for conditioning.
	var mu, mv float64
	for _, p := range src {
		mu, mv = mu+p.X, mv+p.Y
	}
	n := float64(len(src))
	mu, mv = mu/n, mv/n
	var suu, suv, svv, sux, svx, suy, svy, mx, my float64
	for i, p := range src {
		u, v := p.X-mu, p.Y-mv
		suu, suv, svv = suu+u*u, suv+u*v, svv+v*v
		sux, svx = sux+u*dst[i].X, svx+v*dst[i].X
		suy, svy = suy+u*dst[i].Y, svy+v*dst[i].Y
		mx, my = mx+dst[i].X, my+dst[i].Y
	}
	mx, my = mx/n, my/n
	det := suu*svv - suv*suv
	if math.Abs(det) < 1e-9 {
		return [9]float64{}, false
	}
	a, b := (sux*svv-svx*suv)/det, (svx*suu-sux*suv)/det
	d, e := (suy*svv-svy*suv)/det, (svy*suu-suy*suv)/det
	return [9]float64{a, b, mx - a*mu - b*mv, d, e, my - d*mu - e*mv, 0, 0, 1}, true
}

// fitHomography is the least-squares homography taking src to dst (internal/homography.Fit).
func fitHomography(src, dst []Point2) ([9]float64, bool) {
	s, d := make([][2]float64, len(src)), make([][2]float64, len(dst))
	for i := range src {
		s[i] = [2]float64{src[i].X, src[i].Y}
	}
	for i := range dst {
		d[i] = [2]float64{dst[i].X, dst[i].Y}
	}
	m, ok := homography.Fit(s, d)
	return [9]float64(m), ok
}

// stoneFitConfidence is the most confidence a grid placed by the stones alone is given: below
// DefaultMinConfidence, so that only a caller that checks the grid further (vision.FindBoard
// reads every point on it) accepts one.
const stoneFitConfidence = 0.45

// stoneFinder finds the black stones of a frame and their lattice once, when first needed: the
// line passes of one frame share its grey work image.
type stoneFinder struct {
	done      bool
	blobs     []stoneBlob
	h         [9]float64 // the stones' lattice: grid numbers to work pixels
	lo, hi    [2]int
	ok        bool
	onLattice []stoneBlob // the blobs within a quarter spacing of the lattice's points
	nums      [][2]int    // their grid numbers
}

// find finds the stones and their lattice in w's grey image the first time it is called, and
// reports whether there is a lattice.
func (sf *stoneFinder) find(w *workImage) bool {
	if sf.done {
		return sf.ok
	}
	sf.done = true
	if w.gray.pix == nil {
		return false
	}
	gray, err := gocv.NewMatFromBytes(w.gray.h, w.gray.w, gocv.MatTypeCV8UC1, w.gray.pix)
	if err != nil {
		return false
	}
	sf.blobs = findStoneBlobs(gray)
	gray.Close()
	// The lattice is the plane of the stones' middles, not the board's; the lines place the grid
	// from it. (Taken down to the board by stoneLift first, it found three more boards of 3,300 renders
	// and put three others wrong.)
	sf.h, sf.lo, sf.hi, _, sf.ok = stoneLattice(sf.blobs)
	if sf.ok {
		inv, ok := invert3(sf.h)
		sf.ok = ok
		for _, b := range sf.blobs {
			g := applyH(inv, Point2{b.x, b.y})
			if ok && offPoint(g) < 0.25 {
				sf.onLattice = append(sf.onLattice, b)
				sf.nums = append(sf.nums, [2]int{int(math.Round(g.X)), int(math.Round(g.Y))})
			}
		}
	}
	return sf.ok
}

// count is how many stones on the lattice have grid number n along axis (0: columns, 1: rows).
func (sf *stoneFinder) count(axis, n int) int {
	c := 0
	for _, g := range sf.nums {
		if g[axis] == n {
			c++
		}
	}
	return c
}

// vouch is the confidence of the line grid g once the stones have had their say: stoneFitConfidence
// times the share of the stones inside g that sit on its intersections, when that share is nine in
// ten and g holds eight in ten of the stones on the stones' lattice (a 9x9 or 13x13 grid inside a
// crowded 19x19 board has stones on its intersections too, but leaves half or more outside; a dark
// table along the board's edge can put a few blobs on the lattice out there); otherwise g's own
// confidence.
func (sf *stoneFinder) vouch(w *workImage, g gridFit) float64 {
	if g.conf >= stoneFitConfidence || !sf.find(w) || len(sf.onLattice) < 12 {
		return g.conf
	}
	inv, ok := g.blobsToGrid(w.lines.w, w.lines.h)
	if !ok {
		return g.conf
	}
	held := 0
	for _, b := range sf.onLattice {
		if onBoard(applyH(inv, Point2{b.x, b.y}), g.cols, g.rows) {
			held++
		}
	}
	if held*10 < 8*len(sf.onLattice) {
		return g.conf
	}
	if share := blobsOnGrid(g, sf.blobs, w.lines.w, w.lines.h); share >= 0.9 {
		return max(g.conf, stoneFitConfidence*share)
	}
	return g.conf
}

// candidates places grids on the lattice the black stones' centres form, for a frame whose
// lines the line passes fit weakly or not at all: late in a game stones hide most lines, and
// the edges of rows of stones make lattices of their own at half a spacing. Each allowed size
// that holds the stones' span is placed where the line evidence fits it best (expandToSize)
// and kept when nine in ten of the stones inside it still sit on its intersections. Its
// confidence is the line fit's, or stoneFitConfidence times that share if more.
func (sf *stoneFinder) candidates(w *workImage, sizes []int, cap float32) []gridFit {
	if !sf.find(w) {
		return nil
	}
	blobs, h, lo, hi := sf.blobs, sf.h, sf.lo, sf.hi
	// A dark table along the board's edge can add a line of blobs on the lattice just outside
	// the board: a span wider than the largest board loses its sparsest outer lines, three at most.
	big := slices.Max(sizes)
	for axis := 0; axis < 2; axis++ {
		for k := 0; k < 3 && hi[axis]-lo[axis]+1 > big; k++ {
			if sf.count(axis, lo[axis]) <= sf.count(axis, hi[axis]) {
				lo[axis]++
			} else {
				hi[axis]--
			}
		}
	}
	cols, rows := hi[0]-lo[0]+1, hi[1]-lo[1]+1
	if min(cols, rows) < 7 {
		return nil
	}
	// The grid is placed over the span less its outer lines: a line of blobs just outside the
	// board (the dark table) can stand in for the board's sparse edge line, so the lines decide
	// among the placements a line either way.
	u0, v0, u1, v1 := float64(lo[0]+1), float64(lo[1]+1), float64(hi[0]-1), float64(hi[1]-1)
	g := gridFit{cols: cols - 2, rows: rows - 2, corners: latticeQuad(h, u0, v0, u1, v1)}
	var out []gridFit
	for _, s := range sizes {
		if s < max(cols, rows)-2 {
			continue
		}
		e, ok := expandToSize(&w.lines, g, s, w.lines.w, w.lines.h, cap)
		if !ok {
			continue
		}
		// Refined by the lines, the grid can slide off the stones (a fold, a printed frame) or
		// out of the picture: then the best placement straight on the stones' lattice that
		// lies in view is taken instead.
		share := stonesOnCandidate(&w.lines, e, blobs, cap)
		if share < 0.9 || !e.inView(w.lines.w, w.lines.h) {
			d, ok := placeOnStones(&w.lines, h, [2]int{lo[0] + 1, lo[1] + 1}, [2]int{hi[0] - 1, hi[1] - 1}, s, w.lines.w, w.lines.h, cap, edgeSlack)
			if !ok {
				continue
			}
			e, share = d, stonesOnCandidate(&w.lines, d, blobs, cap)
		}
		if share < 0.9 {
			continue
		}
		// A board smaller than the largest allowed that the lines alone are not sure of can be a
		// patch of a larger one whose stones bunch together: its lines must stop at its edges.
		lined := e.confidence(&w.lines, &w.gray, cap)
		if s < big && lined < DefaultMinConfidence && !linesStopAtEdges(&w.lines, e, cap) {
			continue
		}
		e.conf = max(lined, stoneFitConfidence*share)
		out = append(out, e)
	}
	return out
}

// placeOnStones places an s x s grid on the stones' lattice h (grid numbers to work pixels) so
// that it holds the stones' span lo..hi and lies in view (its corners at most slack spacings out),
// where the line evidence fits it best (strong lines on the grid, weak between and beyond, lines
// running up to every edge), unrefined.
func placeOnStones(lines *plane, h [9]float64, lo, hi [2]int, s, w, ht int, cap float32, slack float64) (gridFit, bool) {
	best, bestRank := gridFit{}, math.Inf(-1)
	for left := hi[0] - s + 1; left <= lo[0]; left++ {
		for top := hi[1] - s + 1; top <= lo[1]; top++ {
			a, b := float64(left), float64(top)
			g := gridFit{cols: s, rows: s, corners: latticeQuad(h, a, b, a+float64(s-1), b+float64(s-1))}
			if !g.inViewWithin(w, ht, slack) {
				continue
			}
			g.on, g.off, g.out = gridEvidence(lines, s, s, g.corners, cap, true)
			if r := g.score() + 0.5*minStubs(lines, g, cap); r > bestRank {
				best, bestRank = g, r
			}
		}
	}
	return best, best.cols != 0
}

// stonesOnCandidate is the share of the stones inside a grid placed on the stones' lattice that
// sit on its intersections: within a quarter spacing (blobsOnGrid), or, when that share is short
// of nine in ten, within a third of a spacing on a grid whose lines do not run on past its edges
// (linesStopAtEdges). Stones a hand put down sit up to a third of a spacing off their points,
// and a black stone's dark disc leans away from the light on a photo taken at an angle: two
// crowded Roboflow boards had 0.85 and 0.63 of their stones within a quarter spacing of the
// true grid, 0.96 and 0.94 within a third. A 13x13 grid over the stones of a 19x19 board cut by
// the picture's edge has them within a third as well (three Roboflow photos), but the board's
// lines run on past its edges.
func stonesOnCandidate(lines *plane, g gridFit, blobs []stoneBlob, cap float32) float64 {
	share := blobsOnGrid(g, blobs, lines.w, lines.h)
	if share >= 0.9 {
		return share
	}
	if loose := blobsOnGridWithin(g, blobs, 1.0/3, lines.w, lines.h); loose >= 0.9 && linesStopAtEdges(lines, g, cap) && !edgeRowOfBlobs(g, blobs, lines.w, lines.h) {
		return loose
	}
	return share
}

// edgeRowOfBlobs reports whether an edge line of g holds a dark blob at all its points but two:
// a dark table along the board's edge, not a game's stones (a rendered board's grid placed a row
// off, its last row on the table, held 19 such blobs).
func edgeRowOfBlobs(g gridFit, blobs []stoneBlob, w, ht int) bool {
	inv, ok := g.blobsToGrid(w, ht)
	if !ok {
		return false
	}
	lu, lv := float64(g.cols-1), float64(g.rows-1)
	var on [4]int // top, right, bottom, left
	for _, b := range blobs {
		p := applyH(inv, Point2{b.x, b.y})
		if !onBoard(p, g.cols, g.rows) || offPoint(p) >= 1.0/3 {
			continue
		}
		u, v := math.Round(p.X), math.Round(p.Y)
		for side, at := range [4]bool{v == 0, u == lu, v == lv, u == 0} {
			if at {
				on[side]++
			}
		}
	}
	return on[0] >= g.cols-2 || on[2] >= g.cols-2 || on[1] >= g.rows-2 || on[3] >= g.rows-2
}

// linesStopAtEdges reports whether, on every side of g, the perpendicular lines do not run on
// into the gap beyond its edge line: their evidence there is under half the grid's mean line
// evidence. A board's margin has no line stubs; a grid inside a bigger lattice has them as
// strong as its own lines. Measured on Roboflow's loosely placed grids: right ones 0.43 at most,
// grids inside bigger boards 0.66 at least.
func linesStopAtEdges(lines *plane, g gridFit, cap float32) bool {
	h, ok := gridH(g.cols, g.rows, g.corners)
	if !ok {
		return false
	}
	on, _, _ := gridEvidence(lines, g.cols, g.rows, g.corners, cap, true)
	r := evidenceReader{lines: lines, h: h, cap: cap, along: fineAlong}
	beyond := r.gapStubs(g.cols, g.rows, 1)
	return on > 0 && max(beyond[0], beyond[1], beyond[2], beyond[3]) < 0.5*on
}

// blobsToGrid returns the homography taking the middle of a black stone's blob (work pixels of a
// w x ht picture) to the grid coordinates of the point of g it stands on (blobsToGrid), or false
// when g is degenerate.
func (g gridFit) blobsToGrid(w, ht int) ([9]float64, bool) {
	h, ok := gridH(g.cols, g.rows, g.corners)
	if !ok {
		return h, false
	}
	return blobsToGrid(h, w, ht)
}

// blobsOnGrid is the share of the stones inside g that sit within a quarter spacing of one of
// its intersections (0 when fewer than a dozen are inside).
func blobsOnGrid(g gridFit, blobs []stoneBlob, w, ht int) float64 {
	return blobsOnGridWithin(g, blobs, 0.25, w, ht)
}

// blobsOnGridWithin is blobsOnGrid with a stone counted on a point within tol spacings of it.
func blobsOnGridWithin(g gridFit, blobs []stoneBlob, tol float64, w, ht int) float64 {
	inv, ok := g.blobsToGrid(w, ht)
	if !ok {
		return 0
	}
	in, on := 0, 0
	for _, b := range blobs {
		p := applyH(inv, Point2{b.x, b.y})
		if !onBoard(p, g.cols, g.rows) {
			continue
		}
		in++
		if offPoint(p) < tol {
			on++
		}
	}
	if in < 12 {
		return 0
	}
	return float64(on) / float64(in)
}

// pixelToGrid returns the homography from work pixels to g's grid coordinates, or false when g
// is degenerate.
func (g gridFit) pixelToGrid() ([9]float64, bool) {
	h, ok := gridH(g.cols, g.rows, g.corners)
	if !ok {
		return h, false
	}
	return invert3(h)
}
