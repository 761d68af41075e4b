package vision

import (
	"math"
	"sort"

	"tengen/vision/observe"
)

// scratch holds the classifier's buffers between frames, so steady-state reading does not allocate.
type scratch struct {
	tmp, lines  []float64
	vis         []float64
	odd, seen   []bool
	stack, comp []int
}

// bools returns *b resized to n and cleared.
func (sc *scratch) bools(b *[]bool, n int) []bool {
	if cap(*b) < n {
		*b = make([]bool, n)
	}
	v := (*b)[:n]
	clear(v)
	return v
}

// levels are a frame's own reference values, measured from its points.
type levels struct {
	black   float64 // typical Rel of a clean black stone
	empty   float64 // typical Rel of an empty point
	line    float64 // typical InLine of an empty point
	blackTh float64 // Rel below which a point may be black
	chroma  float64 // least colour difference from the board of a white stone
	whiteTh float64 // Rel above which a point may be white
	lineVis float64 // typical LineVis of an empty point (how clearly this frame shows the grid)
	visNear float64 // typical LineVisNear of an empty point
}

// measureLevels calibrates the frame: black and empty levels and the black threshold.
func measureLevels(f []pointFeatures, p Params, sc *scratch) levels {
	lv := levels{black: 0.15, empty: 0.93, line: 0.1, chroma: p.WhiteMinChroma, whiteTh: p.WhiteMinRel}
	rel := func(x *pointFeatures) float64 { return x.Rel }
	if m, n := medianOf(&sc.tmp, f, func(x *pointFeatures) bool { return x.Rel < 0.55 && x.InLine < 0.12 }, rel); n > 0 {
		lv.black = m
	}
	// Points about as bright as the board are probably empty; those closest to it show the grid best.
	boardLike := func(x *pointFeatures) bool { return x.Rel >= 0.6 && x.Rel <= 1.15 }
	nearBoard := func(x *pointFeatures) bool { return x.Rel >= 0.85 && x.Rel <= 1.15 }
	lv.lineVis, _ = medianOf(&sc.vis, f, nearBoard, func(x *pointFeatures) float64 { return x.LineVis })
	lv.visNear, _ = medianOf(&sc.vis, f, nearBoard, func(x *pointFeatures) float64 { return x.LineVisNear })
	if m, n := medianOf(&sc.tmp, f, boardLike, rel); n > 0 {
		lv.empty = m
		lv.line, _ = medianOf(&sc.lines, f, boardLike, func(x *pointFeatures) float64 { return x.InLine })
		// The colour noise of empty points sets how small a colour difference still means "stone".
		noise, _ := medianOf(&sc.tmp, f, boardLike, func(x *pointFeatures) float64 { return x.Chroma })
		lv.chroma = math.Max(0.55*p.WhiteMinChroma, math.Min(p.WhiteMinChroma, 5*noise))
	}
	lv.blackTh = math.Min(p.BlackMaxRel, lv.black+0.5*(lv.empty-lv.black))
	// The frame's own white stones (clearly bright, neutral, hiding the lines) set how bright a
	// white stone must be here: a patch of board a little brighter than its surroundings is not one.
	clearWhite := func(x *pointFeatures) bool {
		return x.Rel > p.WhiteMinRel && x.Chroma > lv.chroma && x.InLine < 0.05
	}
	if m, n := medianOf(&sc.tmp, f, clearWhite, rel); n >= 3 {
		lv.whiteTh = math.Max(p.WhiteMinRel, lv.empty+0.3*(m-lv.empty))
	}
	return lv
}

// medianOf returns the median of get(x) over the points x that keep accepts, and how many there
// were (the median is 0 when there were none). *buf is scratch space, kept for the next frame.
func medianOf(buf *[]float64, f []pointFeatures, keep func(*pointFeatures) bool, get func(*pointFeatures) float64) (float64, int) {
	b := (*buf)[:0]
	for i := range f {
		if keep(&f[i]) {
			b = append(b, get(&f[i]))
		}
	}
	*buf = b[:0]
	if len(b) == 0 {
		return 0, 0
	}
	sort.Float64s(b)
	return percentile(b, 0.5), len(b)
}

// classify turns the features of every point into stones with confidences (as seen in the image).
// blobs, when not nil, finds dark blobs to rescue black stones placed off their points.
func classify(f []pointFeatures, size int, p Params, stones []observe.Stone, conf []float32, sc *scratch, blobs *blobFinder, find func(thresh float64) []float64) {
	lv := measureLevels(f, p, sc)
	for i, x := range f {
		col, row := i%size, i/size
		interior := col > 0 && row > 0 && col < size-1 && row < size-1
		s, c := classifyPoint(x, lv, p, interior)
		stones[i], conf[i] = s, c
	}
	if find != nil {
		rescueBlobs(f, size, p, lv, stones, conf, blobs, find)
	}
	markObscured(f, size, lv, p, stones, conf, sc)
}

// rescueBlobs turns into black the empty-looking points that own a dark stone-sized blob: stones
// placed off their point, or standing off it in an oblique view. A blob that overlaps a stone
// already found (closer than a stone's width) and is lighter than the frame's black stones is that
// stone's shadow, not a stone.
func rescueBlobs(f []pointFeatures, size int, p Params, lv levels, stones []observe.Stone, conf []float32, blobs *blobFinder, find func(float64) []float64) {
	rescue := lv.black + 0.5*(lv.blackTh-lv.black)
	notShadow := lv.black + 0.35*(lv.blackTh-lv.black)
	rel := find(rescue)
	px, py := blobs.parallax[0], blobs.parallax[1]
	for i, x := range f {
		if stones[i] != observe.Empty || rel[i] >= rescue || x.Rel > 0.9*lv.empty {
			continue
		}
		if x.InLine > p.ShadowLine && rel[i] > notShadow {
			continue
		}
		if rel[i] > lv.black+0.05 {
			bx, by := blobs.at[i][0], blobs.at[i][1]
			near := false
			for r := max(0, int(by)-1); r <= min(size-1, int(by)+2) && !near; r++ {
				for c := max(0, int(bx)-1); c <= min(size-1, int(bx)+2); c++ {
					k := r*size + c
					if k == i || (stones[k] != observe.Black && stones[k] != observe.White) {
						continue
					}
					if math.Hypot(float64(c)+px-bx, float64(r)+py-by) < 0.85 {
						near = true
						break
					}
				}
			}
			if near {
				continue
			}
		}
		stones[i], conf[i] = observe.Black, margin((rescue-rel[i])/0.1, 0.8)
	}
}

// classifyPoint decides one point from its features and the frame's levels.
func classifyPoint(x pointFeatures, lv levels, p Params, interior bool) (observe.Stone, float32) {
	// Black: clearly darker than the board, and not a shadow still showing the grid lines.
	if x.Rel < lv.blackTh {
		shadow := x.InLine > p.ShadowLine && x.Rel > lv.black+0.1
		if !shadow {
			return observe.Black, margin((lv.blackTh-x.Rel)/0.15, 1)
		}
		return observe.Empty, margin((x.InLine-p.ShadowLine)/0.1, 0.6)
	}
	// White: brighter than the board and of a different colour (stones are neutral, boards are not).
	// A white stone hides the grid lines; a bright patch of glare on the board does not.
	hidesLines := x.InLine < 0.15
	// With the grid a little off the stone's centre the disc takes in board and reads darker; its
	// inner part is still all stone. (Only for the brightness test: a point is never made darker.)
	x.Rel = math.Max(x.Rel, x.RelIn)
	// Its colour moves away from the board's toward neutral: a stone is never redder than wood
	// (a hand or a reddish reflection is).
	neutral := x.DR < 0
	// Strong colour evidence makes up for weak brightness evidence (white stones on a light board).
	strongColour := x.Rel > 0.97*lv.empty && x.Chroma > 3*lv.chroma
	// On a frame whose empty points show the grid clearly, an inner point as bright as the board
	// that hides both lines holds a stone even without any colour difference: white stones on a
	// white or light board. (Edge points are left out: the board's margin confuses the measure.)
	// The lines must be missing at their calibrated place and also a little off it: a grid a few
	// pixels off (imprecise corners) must not turn empty points into stones.
	hiddenGrid := interior && lv.visNear > 0.15 && x.LineVisNear < 0.15*lv.visNear && x.LineVis < 0.5*lv.lineVis &&
		x.Rel > 0.9*lv.empty && x.DR < 0.01
	// A little brighter than the board with each line gone even in the wide search: a cream stone
	// on a white board (a little redder than the board, far less than skin). Some board between it
	// and its neighbours is darker than it: a patch of glare brightens the cells around it too.
	hiddenGrid = hiddenGrid || interior && lv.visNear > 0.15 && x.LineVisNear < 0.2*lv.visNear && x.LineVisOne < 0.2*lv.lineVis &&
		x.Rel > lv.empty+0.03 && x.DR < 0.025 && x.CellRel < x.Rel-0.03
	if hidesLines && ((x.Rel > lv.whiteTh && x.Chroma > lv.chroma || strongColour) && neutral || x.Rel > 1.3 && x.Chroma > 0.015 && x.InLine < 0.03 && neutral || x.Rel > 1.6 || hiddenGrid) {
		m := math.Max((x.Rel-lv.whiteTh)/0.1, (x.Chroma-lv.chroma)/0.02)
		return observe.White, margin(m, 1)
	}
	m := math.Min((x.Rel-lv.blackTh)/0.15, math.Min((lv.whiteTh-x.Rel)/0.05+0.5, (lv.chroma-x.Chroma)/0.01+0.5))
	return observe.Empty, margin(m, 1)
}

// margin maps a distance from the decision boundary (in units of a typical spread) to 0.5..max.
func margin(d, max float64) float32 {
	if d < 0 {
		d = 0
	}
	c := 0.5 + 0.5*(1-math.Exp(-2*d))
	return float32(math.Min(c, max))
}

// markObscured marks groups of points that look like none of board, black or white: no grid lines
// visible, neither dark nor bright like a stone, and of a colour unlike the board (a hand, a sleeve).
func markObscured(f []pointFeatures, size int, lv levels, p Params, stones []observe.Stone, conf []float32, sc *scratch) {
	odd := sc.bools(&sc.odd, len(f))
	any := false
	// Some boards have light lines on dark wood: their lines' contrast is negative, and a point
	// shows its lines when its contrast has the board's sign and a good part of its size.
	sign := 1.0
	if lv.line < 0 {
		sign = -1
	}
	faint := 0.3 * math.Abs(lv.line)
	for i, x := range f {
		lines := sign * x.InLine
		// Bright and not board-coloured all around the point, where a stone would leave the board
		// visible between the stones: a hand or a sleeve, whatever the point itself looks like.
		covered := x.CellRel > 1.15 && x.CellChroma > 0.6*lv.chroma && lines < faint && !math.IsInf(x.CellRel, 0)
		// Or an empty-looking point without grid lines and of an unlike colour or brightness.
		noLines := stones[i] == observe.Empty && lines < faint && (x.Chroma > 0.04 || x.Rel < 0.75*lv.empty)
		if covered || noLines {
			odd[i] = true
			any = true
		}
	}
	if !any {
		return
	}
	seen := sc.bools(&sc.seen, len(f))
	stack, comp := sc.stack[:0], sc.comp[:0]
	defer func() { sc.stack, sc.comp = stack[:0], comp[:0] }()
	for i := range f {
		if !odd[i] || seen[i] {
			continue
		}
		comp = comp[:0]
		stack = append(stack[:0], i)
		seen[i] = true
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			comp = append(comp, k)
			x, y := k%size, k/size
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nx, ny := x+d[0], y+d[1]
				if nx < 0 || ny < 0 || nx >= size || ny >= size {
					continue
				}
				n := ny*size + nx
				if odd[n] && !seen[n] {
					seen[n] = true
					stack = append(stack, n)
				}
			}
		}
		if len(comp) >= p.ObscuredMinPoints {
			for _, k := range comp {
				stones[k] = observe.Obscured
				conf[k] = 0.5
			}
		}
	}
}

// percentile returns the p-quantile (0..1) of sorted values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[int(p*float64(len(sorted)-1))]
}
