// Package demo is Tengen's built-in demo: it draws camera frames of a real-looking goban (perspective,
// wood grain, lines and star points, shaded stones with shadows, uneven light, sensor noise, and a hand
// reaching over the board before each move) for a scripted game, so the kiosk can run its whole pipeline
// (vision, referee, screens) without a camera. Frames are plain image.RGBA, deterministic in a seed.
//
// LookRenderer draws harder pictures for training and testing the stone reader: 9x9, 13x13 and 19x19
// boards under a Look (RandomLook, HardLook) that varies what real photos fail on: the light's colour
// and direction, hard shadows, glare, lens faults, oblique views, board and stone styles, stones off
// their points, hands and clutter. RenderSample draws one labelled photo (cmd/render-boards writes
// training sets of them).
package demo

import (
	"fmt"
	"image"
	"math"
	"sync"

	"tengen/engine"
	"tengen/internal/homography"
	"tengen/internal/hoshi"
)

// Stone is what physically lies on one intersection of the board: the rules engine's colours.
type Stone = engine.Color

// What can lie on an intersection.
const (
	Empty = engine.Empty
	Black = engine.Black
	White = engine.White
)

// Hand is a player's hand and arm over the board. Black reaches in from Black's side (the bottom of the
// picture), White from the top.
type Hand struct {
	Player  Stone   // whose hand: Black or White
	Col     float64 // the intersection the fingertips move toward, in board coordinates
	Row     float64
	Reach   float64 // 0 = just outside the picture, 1 = fingertips on the target
	Holding bool    // a stone of the player's colour is held between the fingers
}

// Scene is everything the camera sees at one moment.
type Scene struct {
	Size   int
	Stones []Stone // Size*Size, row-major, row 0 = the top row as seen from Black's side
	Hand   *Hand   // nil when no hand is over the board
	Frame  uint64  // frame number; varies the sensor noise from frame to frame
}

// Renderer draws camera frames of a board. Its look (board placement, lamp, wood, stone placement
// jitter) depends only on the seed, so the same scene always renders to the same pixels. It is safe
// for concurrent use.
type Renderer struct {
	seed uint64

	mu    sync.Mutex
	layer *layer // the static board for the last frame size and board size drawn
}

// NewRenderer returns a renderer whose look is fixed by seed.
func NewRenderer(seed uint64) *Renderer {
	return &Renderer{seed: seed}
}

// layer is the static part of a frame for one image size and board size: the lit table and board
// (wood, lines, star points), the light falling on it, and the board-to-image transform. Pixels are
// kept as 8-bit RGB, already lit (a camera delivers no more), so a 640x480 layer is under 2 MB.
type layer struct {
	w, h, size int
	toImage    homography.Matrix // board coordinates (col,row) -> image pixels
	toBoard    homography.Matrix // image pixels -> board coordinates
	pxPerUnit  float64           // average grid spacing in pixels
	base       []uint8           // 3 per pixel: the lit table and board, no stones
	work       []uint8           // 3 per pixel: the last scene drawn (lit, before noise), reused under Renderer.mu
	workKey    uint64            // sceneKey of what work holds; 0 when nothing
	lampX      []float32         // column and row factors of the lamp's pool of light (see lightAt)
	lampY      []float32
	vignX      []float32 // column and row terms of the lens vignette (see lightAt)
	vignY      []float32
	noise      []int8 // sensor noise table; every row of every frame reads it from an offset of its own
}

// noisePeriod is how many offsets into the sensor noise table rows can start at; the table holds
// noisePeriod+w entries.
const noisePeriod = 1 << 16

// lightAt returns the illumination multiplier at pixel (x,y): a soft Gaussian pool of light around
// the lamp (the product of a column and a row factor) times a vignette darkening the corners.
func (l *layer) lightAt(x, y int) float32 {
	return (0.68 + 0.40*l.lampX[x]*l.lampY[y]) * (1 - 0.18*(l.vignX[x]+l.vignY[y]))
}

// bytes returns the memory the layer's pixel buffers and tables hold.
func (l *layer) bytes() int {
	return len(l.base) + len(l.work) + len(l.noise) + 4*(len(l.lampX)+len(l.lampY)+len(l.vignX)+len(l.vignY))
}

// sceneKey identifies a scene's stones and hand (not its frame number): frames of an unchanged scene
// reuse the drawn board and only get new noise.
func sceneKey(sc Scene) uint64 {
	h := hash64(uint64(sc.Size), 1)
	for i, s := range sc.Stones {
		if s != Empty {
			h = hash64(h, uint64(i), uint64(s))
		}
	}
	if hd := sc.Hand; hd != nil {
		h = hash64(h, uint64(hd.Player), math.Float64bits(hd.Col), math.Float64bits(hd.Row),
			math.Float64bits(hd.Reach), boolBit(hd.Holding))
	}
	if h == 0 {
		h = 1
	}
	return h
}

func boolBit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// Margin of wood around the grid, in grid spacings (a real board has a little under one).
const (
	marginX = 0.62
	marginY = 0.68
)

// Corners returns where the four corner intersections of the grid appear in a w x h frame:
// top-left, top-right, bottom-right, bottom-left as seen in the picture (Black's side at the bottom).
// Tests use it as ground truth for calibration.
func (r *Renderer) Corners(w, h int) [4][2]float64 {
	c := r.cornerFractions()
	var out [4][2]float64
	for i := range c {
		out[i] = framePoint(c[i], w, h)
	}
	return out
}

// framePoint places a corner given as fractions of a 4:3 frame into a w x h frame, keeping the board's
// proportions on wide frames (the camera's field is wider, the board stays the same shape).
func framePoint(f [2]float64, w, h int) [2]float64 {
	cw := math.Min(float64(w), float64(h)*4/3)
	ch := cw * 3 / 4
	return [2]float64{float64(w)/2 + (f[0]-0.5)*cw, float64(h)/2 + (f[1]-0.5)*ch}
}

// Intersection returns the pixel at which intersection (col,row) appears in a w x h frame.
func (r *Renderer) Intersection(w, h, size, col, row int) (x, y float64) {
	l := r.layerFor(w, h, size)
	return l.toImage.Apply(float64(col), float64(row))
}

// cornerFractions places the grid in the picture as a camera above and slightly in front of Black's
// side would see it: the far edge a little narrower, a slight rotation, all fixed by the seed.
func (r *Renderer) cornerFractions() [4][2]float64 {
	j := func(k uint64) float64 { return (unit(hash64(r.seed, 101, k)) - 0.5) * 0.03 }
	return [4][2]float64{
		{0.285 + j(0), 0.155 + j(1)},
		{0.725 + j(2), 0.145 + j(3)},
		{0.775 + j(4), 0.865 + j(5)},
		{0.232 + j(6), 0.875 + j(7)},
	}
}

func (r *Renderer) layerFor(w, h, size int) *layer {
	r.mu.Lock()
	defer r.mu.Unlock()
	if l := r.layer; l != nil && l.w == w && l.h == h && l.size == size {
		return l
	}
	l := r.buildLayer(w, h, size)
	r.layer = l
	return l
}

func (r *Renderer) buildLayer(w, h, size int) *layer {
	n := float64(size - 1)
	fr := r.cornerFractions()
	var dst [4][2]float64
	for i := range fr {
		dst[i] = framePoint(fr[i], w, h)
	}
	src := [4][2]float64{{0, 0}, {n, 0}, {n, n}, {0, n}}
	toImage, ok1 := homography.From4(src, dst)
	toBoard, ok2 := toImage.Inverse()
	if !ok1 || !ok2 {
		// The corner fractions are fixed and well-formed; this cannot happen for w, h > 0.
		toImage = homography.Identity()
		toBoard = toImage
	}
	widthPx := math.Hypot(dst[1][0]-dst[0][0], dst[1][1]-dst[0][1]) + math.Hypot(dst[2][0]-dst[3][0], dst[2][1]-dst[3][1])
	heightPx := math.Hypot(dst[3][0]-dst[0][0], dst[3][1]-dst[0][1]) + math.Hypot(dst[2][0]-dst[1][0], dst[2][1]-dst[1][1])
	ppu := (widthPx + heightPx) / (4 * math.Max(n, 1))
	l := &layer{w: w, h: h, size: size, toImage: toImage, toBoard: toBoard, pxPerUnit: ppu,
		base: make([]uint8, 3*w*h), work: make([]uint8, 3*w*h),
		lampX: make([]float32, w), vignX: make([]float32, w), lampY: make([]float32, h), vignY: make([]float32, h),
		noise: make([]int8, noisePeriod+w)}
	ns := hash64(r.seed, 401)
	for i := range l.noise {
		hv := hash64(ns, uint64(i))
		l.noise[i] = int8((unit(hv) + unit(hv*0x2545F4914F6CDD1D) - 1) * 10) // triangular, sd ~4
	}

	lampX := (0.3 + 0.4*unit(hash64(r.seed, 201))) * float64(w)
	lampY := (0.2 + 0.4*unit(hash64(r.seed, 202))) * float64(h)
	sigma := 0.55 * float64(w)
	for x := range w {
		dx := float64(x) - lampX
		rx := (float64(x)/float64(w) - 0.5) * 2
		l.lampX[x], l.vignX[x] = float32(math.Exp(-dx*dx/(2*sigma*sigma))), float32(rx*rx)
	}
	for y := range h {
		dy := float64(y) - lampY
		ry := (float64(y)/float64(h) - 0.5) * 2
		l.lampY[y], l.vignY[y] = float32(math.Exp(-dy*dy/(2*sigma*sigma))), float32(ry*ry)
	}

	ps := 1 / ppu // one pixel in board units
	lineHalf := 0.028
	if lineHalf < 0.6*ps {
		lineHalf = 0.6 * ps
	}
	stars := starPoints(size)
	grainSeed := hash64(r.seed, 301)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			u, v := toBoard.Apply(float64(x)+0.5, float64(y)+0.5)
			var cr, cg, cb float64
			inBoard := u >= -marginX && u <= n+marginX && v >= -marginY && v <= n+marginY
			if !inBoard {
				// Table: dark green cloth with a soft weave, darker in the board's shadow.
				t := fbm(grainSeed+5, float64(x)*0.08, float64(y)*0.08, 2)
				cr, cg, cb = 46+14*t, 62+16*t, 54+12*t
				du := math.Max(math.Max(-marginX-u, u-n-marginX), 0)
				dv := math.Max(math.Max(-marginY-v, v-n-marginY), 0)
				d := math.Hypot(du, dv)
				if u > -marginX-0.1 && v > -marginY-0.1 { // light from the top-left casts shadow right/down
					k := 1 - 0.5*smoothstep(0.35, 0, d)
					cr, cg, cb = cr*k, cg*k, cb*k
				}
			} else {
				// Wood: straight grain along the columns, wavy, with slow colour variation.
				warp := fbm(grainSeed, u*0.35, v*0.35, 3)
				g := 0.5 + 0.5*math.Sin((u*2.6+warp*5.0)*2*math.Pi)
				g = g * g
				slow := fbm(grainSeed+1, u*0.15, v*0.15, 2)
				fine := valueNoise(grainSeed+2, u*9, v*0.8)
				k := 0.90 + 0.10*(1-g) + 0.08*(slow-0.5) + 0.05*(fine-0.5)
				cr, cg, cb = 221*k, 174*k, 104*k
				// Bevelled edge: slightly darker near the rim.
				edge := math.Min(math.Min(u+marginX, n+marginX-u), math.Min(v+marginY, n+marginY-v))
				if edge < 0.06 {
					kk := 0.8 + 0.2*edge/0.06
					cr, cg, cb = cr*kk, cg*kk, cb*kk
				}
				ink := lineCoverage(u, v, n, lineHalf, ps)
				for _, s := range stars {
					d := math.Hypot(u-s[0], v-s[1])
					ink = math.Max(ink, clamp01((0.095-d)/ps+0.5))
				}
				if ink > 0 {
					cr = cr*(1-ink) + 38*ink
					cg = cg*(1-ink) + 28*ink
					cb = cb*(1-ink) + 20*ink
				}
			}
			i := 3 * (y*w + x)
			lt := float64(l.lightAt(x, y))
			l.base[i], l.base[i+1], l.base[i+2] = q8(float32(cr*lt)), q8(float32(cg*lt)), q8(float32(cb*lt))
		}
	}
	return l
}

// lineCoverage returns how much of the pixel at board coordinates (u,v) is covered by a grid line.
func lineCoverage(u, v, n, half, ps float64) float64 {
	cov := 0.0
	if v >= -half-ps && v <= n+half+ps {
		iu := math.Round(u)
		if iu >= 0 && iu <= n {
			cov = math.Max(cov, clamp01((half-abs(u-iu))/ps+0.5))
		}
	}
	if u >= -half-ps && u <= n+half+ps {
		iv := math.Round(v)
		if iv >= 0 && iv <= n {
			cov = math.Max(cov, clamp01((half-abs(v-iv))/ps+0.5))
		}
	}
	// Clip the line ends at the grid's border.
	if u < -half || u > n+half || v < -half || v > n+half {
		cov = 0
	}
	return cov
}

// starPoints returns the hoshi of the usual board sizes in board units; boards below 9x9 get none
// in the synthetic frames.
func starPoints(size int) [][2]float64 {
	if size < 9 {
		return nil
	}
	var out [][2]float64
	for _, p := range hoshi.Points(size) {
		out = append(out, [2]float64{float64(p[0]), float64(p[1])})
	}
	return out
}

// Render draws the scene as a w x h camera frame.
func (r *Renderer) Render(w, h int, sc Scene) (*image.RGBA, error) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if err := r.RenderInto(img, sc); err != nil {
		return nil, err
	}
	return img, nil
}

// RenderInto draws the scene into dst (whose bounds must start at 0,0), reusing its pixels.
func (r *Renderer) RenderInto(dst *image.RGBA, sc Scene) error {
	b := dst.Bounds()
	if b.Min != (image.Point{}) {
		return fmt.Errorf("demo: frame bounds %v must start at 0,0", b)
	}
	return r.render(b.Dx(), b.Dy(), sc, func(y int) []byte { return dst.Pix[y*dst.Stride : y*dst.Stride+4*b.Dx()] }, false)
}

// RenderBGR draws the scene as a w x h frame into pix: rows of 3*w bytes, blue first, the layout
// of an OpenCV BGR image, so a caller can draw straight into a camera frame's buffer.
func (r *Renderer) RenderBGR(pix []byte, w, h int, sc Scene) error {
	if w <= 0 || h <= 0 || len(pix) != 3*w*h {
		return fmt.Errorf("demo: %d bytes for a %dx%d BGR frame", len(pix), w, h)
	}
	return r.render(w, h, sc, func(y int) []byte { return pix[3*y*w : 3*(y+1)*w] }, true)
}

// render composes the scene (cached while it does not change) and writes it with this frame's
// sensor noise into the rows row returns: RGBA, or BGR when bgr is set.
func (r *Renderer) render(w, h int, sc Scene, row func(y int) []byte, bgr bool) error {
	if w < 64 || h < 48 || w > 8192 || h > 8192 {
		return fmt.Errorf("demo: frame size %dx%d out of range 64x48..8192x8192", w, h)
	}
	if sc.Size < 2 || sc.Size > 25 {
		return fmt.Errorf("demo: board size %d out of range 2..25", sc.Size)
	}
	if len(sc.Stones) != sc.Size*sc.Size {
		return fmt.Errorf("demo: %d stones for a %dx%d board", len(sc.Stones), sc.Size, sc.Size)
	}
	l := r.layerFor(w, h, sc.Size)
	r.mu.Lock()
	defer r.mu.Unlock()
	buf := l.work
	if key := sceneKey(sc); key != l.workKey {
		copy(buf, l.base)
		r.drawStones(l, buf, sc)
		if sc.Hand != nil {
			r.drawHand(l, buf, *sc.Hand)
		}
		l.workKey = key
	}
	// Sensor noise, luma and a little chroma, read from the noise table at an offset of its own for
	// every row of every frame.
	fh := hash64(r.seed, 402, sc.Frame)
	for y := range h {
		rh := hash64(fh, uint64(y))
		lo, co := int(rh%noisePeriod), int((rh>>32)%noisePeriod)
		luma, chroma := l.noise[lo:lo+w], l.noise[co:co+w]
		src := buf[3*y*w : 3*(y+1)*w]
		out := row(y)
		if bgr {
			for x := range w {
				n1 := int32(luma[x])
				n2 := int32(chroma[x]) * 3 / 10
				s, o := src[3*x:3*x+3:3*x+3], out[3*x:3*x+3:3*x+3]
				o[0] = clampU8(int32(s[2]) + n1 - n2)
				o[1] = clampU8(int32(s[1]) + n1)
				o[2] = clampU8(int32(s[0]) + n1 + n2)
			}
			continue
		}
		for x := range w {
			n1 := int32(luma[x])
			n2 := int32(chroma[x]) * 3 / 10
			s, o := src[3*x:3*x+3:3*x+3], out[4*x:4*x+4:4*x+4]
			o[0] = clampU8(int32(s[0]) + n1 + n2)
			o[1] = clampU8(int32(s[1]) + n1)
			o[2] = clampU8(int32(s[2]) + n1 - n2)
			o[3] = 255
		}
	}
	return nil
}

func clampU8(v int32) uint8 {
	if v < 0 {
		return 0
	}
	if v > 255 {
		return 255
	}
	return uint8(v)
}

func q8(v float32) uint8 {
	if v <= 0 {
		return 0
	}
	if v >= 255 {
		return 255
	}
	return uint8(v + 0.5)
}

const stoneRadius = 0.475

// jitter is how far the stone on (col,row) sits off its intersection, in grid spacings: players never
// place stones exactly.
func (r *Renderer) jitter(col, row int, s Stone) (float64, float64) {
	h := hash64(r.seed, 501, uint64(col), uint64(row), uint64(s))
	return (unit(h) - 0.5) * 0.07, (unit(h>>20) - 0.5) * 0.07
}

// boxFor returns the pixel rectangle covering the board-space square centred on (u,v) with half-size rad.
func (l *layer) boxFor(u, v, rad float64) (x0, y0, x1, y1 int) {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, c := range [4][2]float64{{u - rad, v - rad}, {u + rad, v - rad}, {u + rad, v + rad}, {u - rad, v + rad}} {
		x, y := l.toImage.Apply(c[0], c[1])
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		minY, maxY = math.Min(minY, y), math.Max(maxY, y)
	}
	x0, y0 = max(int(minX)-1, 0), max(int(minY)-1, 0)
	x1, y1 = min(int(maxX)+2, l.w), min(int(maxY)+2, l.h)
	return
}

// drawStones paints the stones' shadows on the wood, then the stones with a lens-shaped shading lit
// from the top-left, a specular highlight and a darker rim.
func (r *Renderer) drawStones(l *layer, buf []uint8, sc Scene) {
	n := sc.Size
	ps := 1 / l.pxPerUnit
	const shU, shV = 0.07, 0.09 // shadow offset: light from the top-left
	for pass := 0; pass < 2; pass++ {
		for row := 0; row < n; row++ {
			for col := 0; col < n; col++ {
				s := sc.Stones[row*n+col]
				if s != Black && s != White {
					continue
				}
				ju, jv := r.jitter(col, row, s)
				cu, cv := float64(col)+ju, float64(row)+jv
				if pass == 0 {
					cu += shU
					cv += shV
				}
				x0, y0, x1, y1 := l.boxFor(cu, cv, stoneRadius+0.12)
				for y := y0; y < y1; y++ {
					for x := x0; x < x1; x++ {
						u, v := l.toBoard.Apply(float64(x)+0.5, float64(y)+0.5)
						du, dv := u-cu, v-cv
						d := math.Hypot(du, dv)
						i := 3 * (y*l.w + x)
						if pass == 0 {
							k := 1 - 0.42*smoothstep(stoneRadius+0.09, stoneRadius-0.06, d)
							if k < 1 {
								shade(buf[i:i+3], float32(k))
							}
							continue
						}
						cov := clamp01((stoneRadius-d)/ps + 0.5)
						if cov <= 0 {
							continue
						}
						cr, cg, cb := stoneShade(s, du/stoneRadius, dv/stoneRadius)
						blend(buf[i:i+3], float32(cov), l.lightAt(x, y), cr, cg, cb)
					}
				}
			}
		}
	}
}

// stoneShade returns the unlit colour of a stone at normalised offset (x,y) from its centre.
func stoneShade(s Stone, x, y float64) (float64, float64, float64) {
	r2 := x*x + y*y
	if r2 > 1 {
		r2 = 1
	}
	// A lens: the surface normal tilts outward toward the rim.
	nz := math.Sqrt(1 - 0.8*r2)
	nx, ny := 0.9*x, 0.9*y
	nl := math.Sqrt(nx*nx + ny*ny + nz*nz)
	nx, ny, nz = nx/nl, ny/nl, nz/nl
	lx, ly, lz := -0.55, -0.68, 0.48 // towards the lamp, low: the highlight sits off the centre
	ll := math.Sqrt(lx*lx + ly*ly + lz*lz)
	lx, ly, lz = lx/ll, ly/ll, lz/ll
	diff := math.Max(0, nx*lx+ny*ly+nz*lz)
	hx, hy, hz := lx, ly, lz+1
	hl := math.Sqrt(hx*hx + hy*hy + hz*hz)
	spec := pow40(math.Max(0, (nx*hx+ny*hy+nz*hz)/hl))
	rim := smoothstep(0.82, 1.0, math.Sqrt(r2))
	if s == Black {
		v := 20 + 30*diff + 110*spec
		v *= 1 - 0.35*rim
		return v, v, v * 1.04
	}
	v := 178 + 62*diff + 25*spec
	v *= 1 - 0.16*rim
	return v, v * 0.995, v * 0.965
}

// pow40 returns x to the 40th power by squaring (math.Pow costs several times more, on every stone pixel).
func pow40(x float64) float64 {
	x2 := x * x
	x4 := x2 * x2
	x8 := x4 * x4
	x16 := x8 * x8
	return x16 * x16 * x8
}

// shade darkens a lit pixel (3 bytes) by the factor k: a shadow.
func shade(px []uint8, k float32) {
	px[0], px[1], px[2] = q8(float32(px[0])*k), q8(float32(px[1])*k), q8(float32(px[2])*k)
}

// blend covers the fraction cov of a lit pixel (3 bytes) with an unlit colour (r,g,b) under light lt.
func blend(px []uint8, cov, lt float32, r, g, b float64) {
	keep, add := 1-cov, cov*lt
	px[0] = q8(float32(px[0])*keep + float32(r)*add)
	px[1] = q8(float32(px[1])*keep + float32(g)*add)
	px[2] = q8(float32(px[2])*keep + float32(b)*add)
}
