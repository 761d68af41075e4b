package demo

import (
	"fmt"
	"image"
	"math"
	"sort"
	"sync"

	"tengen/internal/homography"
	"tengen/internal/hoshi"
)

// LookRenderer draws photos of a board of one size under a Look: a pinhole camera at any angle up to
// about 45 degrees, coloured lamps with pools, hard or soft shadows and glare, a lens that distorts,
// darkens, blurs and smears, a noisy sensor and JPEG compression. Stones are lenses with height (an
// oblique camera sees their sides and their tops shifted off their points), placed off their points
// and pushed apart where they touch. It is the training and test renderer; the kiosk's demo uses
// Renderer, which is cheaper. Frames are deterministic in the look and the scene (Scene.Frame varies
// the noise). A LookRenderer is safe for concurrent use.
type LookRenderer struct {
	look Look
	size int

	mu  sync.Mutex
	lay *photoLayer // the static picture for the last frame size drawn
}

// NewLookRenderer returns a renderer of size x size boards under look.
func NewLookRenderer(look Look, size int) (*LookRenderer, error) {
	if size < 2 || size > 25 {
		return nil, fmt.Errorf("demo: board size %d out of range 2..25", size)
	}
	look.Lamps = append([]Lamp(nil), look.Lamps...)
	return &LookRenderer{look: look, size: size}, nil
}

// NewRandomRenderer returns a renderer of size x size boards under RandomLook(seed).
func NewRandomRenderer(seed uint64, size int) (*LookRenderer, error) {
	return NewLookRenderer(RandomLook(seed), size)
}

// Look returns the renderer's look.
func (r *LookRenderer) Look() Look {
	l := r.look
	l.Lamps = append([]Lamp(nil), l.Lamps...)
	return l
}

// Size returns the board size the renderer draws.
func (r *LookRenderer) Size() int { return r.size }

// photoGeom is the camera for one frame size: the board plane (physical units: one horizontal grid
// spacing; grid point (col,row) at X=col, Y=row*aspect) to undistorted pixels, and the lens.
type photoGeom struct {
	w, h      int
	n, aspect float64
	toImage   homography.Matrix // board plane -> undistorted pixels
	toBoard   homography.Matrix
	cam       [3]float64 // camera centre in board coordinates (Z up from the playing surface)
	ppu       float64    // mean pixels per unit over the grid
	k         float64    // lens: undistorted = c + (d-c)*(1 + k*r^2)*lensScale, r in half-diagonals
	cx, cy    float64
	rn        float64 // half-diagonal
}

// undistort maps a pixel of the output frame to the pinhole picture.
func (g *photoGeom) undistort(x, y float64) (float64, float64) {
	if g.k == 0 {
		return x, y
	}
	dx, dy := (x-g.cx)/g.rn, (y-g.cy)/g.rn
	f := (1 + g.k*(dx*dx+dy*dy)) * g.lensScale()
	return g.cx + dx*f*g.rn, g.cy + dy*f*g.rn
}

// lensScale keeps the whole frame inside the pinhole picture: a barrel lens is zoomed so that the
// frame's corners see the picture's corners (nothing outside the rendered picture is ever needed).
func (g *photoGeom) lensScale() float64 {
	if g.k > 0 {
		return 1 / (1 + g.k)
	}
	return 1
}

// distort maps a pixel of the pinhole picture to the output frame (the inverse of undistort).
func (g *photoGeom) distort(x, y float64) (float64, float64) {
	if g.k == 0 {
		return x, y
	}
	ux, uy := (x-g.cx)/g.rn, (y-g.cy)/g.rn
	ru := math.Hypot(ux, uy)
	if ru == 0 {
		return x, y
	}
	rd := ru
	ls := g.lensScale()
	for range 8 { // Newton on ls*rd*(1+k rd^2) = ru
		f := ls*rd*(1+g.k*rd*rd) - ru
		d := ls * (1 + 3*g.k*rd*rd)
		if d <= 0.05 {
			break
		}
		rd -= f / d
	}
	s := rd / ru
	return g.cx + ux*s*g.rn, g.cy + uy*s*g.rn
}

// project maps a point of the board's space to undistorted pixels.
func (g *photoGeom) project(x, y, z float64) (float64, float64) {
	if z == 0 {
		return g.toImage.Apply(x, y)
	}
	// A point above the plane appears where the camera's ray through it meets the plane.
	t := g.cam[2] / (g.cam[2] - z)
	return g.toImage.Apply(g.cam[0]+(x-g.cam[0])*t, g.cam[1]+(y-g.cam[1])*t)
}

// geometry places the camera for a w x h frame.
func (r *LookRenderer) geometry(w, h int) photoGeom {
	lk := &r.look
	n := float64(r.size - 1)
	asp := lk.Aspect
	if asp <= 0 {
		asp = 1
	}
	g := photoGeom{w: w, h: h, n: n, aspect: asp, cx: float64(w) / 2, cy: float64(h) / 2,
		rn: math.Hypot(float64(w), float64(h)) / 2, k: lk.Barrel}
	fov := lk.FOV
	if fov < 10 || fov > 120 {
		fov = 60
	}
	f := float64(w) / 2 / math.Tan(fov*math.Pi/360)
	ext := math.Max(n+2*lk.MarginX, n*asp+2*lk.MarginY)
	scale, sx, sy := lk.Scale, lk.ShiftX, lk.ShiftY
	if scale <= 0 {
		scale = 0.8
	}
	tilt, az, roll := lk.Tilt*math.Pi/180, lk.Azimuth*math.Pi/180, lk.Roll*math.Pi/180
	tx, ty := n/2, n*asp/2
	gridCorners := [4][2]float64{{0, 0}, {n, 0}, {n, n * asp}, {0, n * asp}}
	for try := 0; ; try++ {
		dist := f * ext / (scale * float64(h))
		dh := [3]float64{math.Sin(az), math.Cos(az), 0}
		c := [3]float64{tx + dist*math.Sin(tilt)*dh[0], ty + dist*math.Sin(tilt)*dh[1], dist * math.Cos(tilt)}
		fw := norm3(sub3([3]float64{tx, ty, 0}, c))
		right := norm3(cross3([3]float64{-dh[0], -dh[1], 0}, fw))
		down := cross3(right, fw)
		cr, sr := math.Cos(roll), math.Sin(roll)
		ox, oy := float64(w)/2+sx*float64(w), float64(h)/2+sy*float64(h)
		proj := func(p [2]float64) [2]float64 {
			v := sub3([3]float64{p[0], p[1], 0}, c)
			x, y := f*dot3(v, right)/dot3(v, fw), f*dot3(v, down)/dot3(v, fw)
			return [2]float64{ox + cr*x - sr*y, oy + sr*x + cr*y}
		}
		var dst [4][2]float64
		for i, p := range gridCorners {
			dst[i] = proj(p)
		}
		toImage, ok1 := homography.From4(gridCorners, dst)
		toBoard, ok2 := toImage.Inverse()
		if !ok1 || !ok2 {
			toImage, toBoard = homography.Identity(), homography.Identity()
		}
		g.toImage, g.toBoard, g.cam = toImage, toBoard, c
		wpx := math.Hypot(dst[1][0]-dst[0][0], dst[1][1]-dst[0][1]) + math.Hypot(dst[2][0]-dst[3][0], dst[2][1]-dst[3][1])
		hpx := math.Hypot(dst[3][0]-dst[0][0], dst[3][1]-dst[0][1]) + math.Hypot(dst[2][0]-dst[1][0], dst[2][1]-dst[1][1])
		g.ppu = (wpx + hpx/asp) / (4 * math.Max(n, 1))
		// The grid (and half a spacing around it) must be in the picture.
		fits := true
		m := 0.6 * g.ppu
		for _, p := range dst {
			for _, d := range [4][2]float64{{-m, -m}, {m, -m}, {m, m}, {-m, m}} {
				x, y := g.distort(p[0]+d[0], p[1]+d[1])
				if x < 2 || y < 2 || x > float64(w)-2 || y > float64(h)-2 {
					fits = false
				}
			}
		}
		if fits || try > 40 {
			return g
		}
		scale *= 0.95
		sx, sy = sx*0.85, sy*0.85
	}
}

func sub3(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func dot3(a, b [3]float64) float64    { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func cross3(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func norm3(a [3]float64) [3]float64 {
	l := math.Sqrt(dot3(a, a))
	if l == 0 {
		return a
	}
	return [3]float64{a[0] / l, a[1] / l, a[2] / l}
}

// Corners returns where the four corner intersections appear in a w x h frame: top-left, top-right,
// bottom-right, bottom-left as seen in the picture (grid points (0,0), (size-1,0), (size-1,size-1),
// (0,size-1)), lens distortion included.
func (r *LookRenderer) Corners(w, h int) [4][2]float64 {
	g := r.geometry(w, h)
	n := r.size - 1
	var out [4][2]float64
	for i, p := range [4][2]int{{0, 0}, {n, 0}, {n, n}, {0, n}} {
		out[i][0], out[i][1] = r.pointIn(&g, p[0], p[1])
	}
	return out
}

// Intersection returns the pixel at which intersection (col,row) appears in a w x h frame.
func (r *LookRenderer) Intersection(w, h, col, row int) (x, y float64) {
	g := r.geometry(w, h)
	return r.pointIn(&g, col, row)
}

func (r *LookRenderer) pointIn(g *photoGeom, col, row int) (float64, float64) {
	x, y := g.toImage.Apply(float64(col), float64(row)*g.aspect)
	return g.distort(x, y)
}

// lampAt is one lamp in board coordinates, with what the layer derives from it.
type lampAt struct {
	pos   [3]float64
	color [3]float64
	size  float64
	glare [2]float64 // where its reflection on the board lies
}

// photoLayer is the static picture for one frame size: the lit table, board and clutter as linear
// radiance (3 floats a pixel, before the camera), and the buffers the frames reuse.
type photoLayer struct {
	g         photoGeom
	lamps     []lampAt
	base      []float32
	stones    []float32 // the base with the last scene's stones
	stonesKey uint64    // sceneKey of the stones drawn in stones (without the hand); 0 when none
	work      []float32 // the stones with the last scene's hand
	workKey   uint64
	tmp       []float32
	tmp2      []float32
	noise     []float32
	tex       *noiseTex
	clutter   []clutterObj
}

func (r *LookRenderer) layerFor(w, h int) *photoLayer {
	if l := r.lay; l != nil && l.g.w == w && l.g.h == h {
		return l
	}
	l := r.buildLayer(w, h)
	r.lay = l
	return l
}

// bodyShadow is the share of the lamps' light a player leaning over the board leaves at (x,y).
func (l *photoLayer) bodyShadow(lk *Look, x, y float64) float64 {
	if lk.Shadow <= 0 {
		return 1
	}
	n := l.g.n
	dx := (x - n/2 - lk.ShadowCenter[0]) / math.Max(lk.ShadowRadius[0], 0.5)
	dy := (y - n*l.g.aspect/2 - lk.ShadowCenter[1]) / math.Max(lk.ShadowRadius[1], 0.5)
	d := (math.Sqrt(dx*dx+dy*dy) - 1) * math.Min(lk.ShadowRadius[0], lk.ShadowRadius[1])
	return 1 - lk.Shadow*smoothstep(lk.ShadowSoft, -lk.ShadowSoft, d)
}

// irradiance returns the light falling on an upward surface at (x,y,z), per channel, and the part of
// it lamp i gives (before any shadow).
func (l *photoLayer) irradiance(lk *Look, x, y, z float64, out *[3]float64, part *[4][3]float64) {
	n := l.g.n
	ext := n + 1
	a := 1 + lk.AmbientTilt[0]*(x-n/2)/ext + lk.AmbientTilt[1]*(y-n*l.g.aspect/2)/ext
	if a < 0.2 {
		a = 0.2
	}
	for c := range 3 {
		out[c] = lk.Ambient[c] * a
	}
	for i := range l.lamps {
		lp := &l.lamps[i]
		dx, dy, dz := lp.pos[0]-x, lp.pos[1]-y, lp.pos[2]-z
		d2 := dx*dx + dy*dy + dz*dz
		hz := lp.pos[2]
		k := hz * hz / d2 * dz / math.Sqrt(d2) * l.bodyShadow(lk, x, y)
		for c := range 3 {
			v := lp.color[c] * k
			out[c] += v
			if part != nil && i < 4 {
				part[i][c] = v
			}
		}
	}
}

func (r *LookRenderer) buildLayer(w, h int) *photoLayer {
	lk := &r.look
	g := r.geometry(w, h)
	l := &photoLayer{g: g, base: make([]float32, 3*w*h), stones: make([]float32, 3*w*h), noise: make([]float32, noisePeriod+w),
		tex: newNoiseTex(hash64(lk.Seed, 11))}
	cam := g.cam
	n, asp := g.n, g.aspect
	for i, lp := range lk.Lamps {
		if i >= 4 {
			break
		}
		p := [3]float64{n/2 + lp.X, n*asp/2 + lp.Y, math.Max(lp.Z, 2)}
		// Mirror the lamp in the board plane: its reflection lies where the camera's ray to the
		// mirrored lamp crosses the plane.
		t := cam[2] / (cam[2] + p[2])
		gl := [2]float64{cam[0] + (p[0]-cam[0])*t, cam[1] + (p[1]-cam[1])*t}
		l.lamps = append(l.lamps, lampAt{pos: p, color: lp.Color, size: lp.Size, glare: gl})
	}
	ng := rng{s: hash64(lk.Seed, 401)}
	for i := range l.noise {
		l.noise[i] = gaussApprox(ng.next())
	}
	l.clutter = makeClutter(lk, n, asp, hash64(lk.Seed, 77))

	x0b, x1b := -lk.MarginX, n+lk.MarginX
	y0b, y1b := -lk.MarginY, n*asp+lk.MarginY
	thick := math.Max(lk.Thickness, 0.05)
	stars := hoshi.Points(r.size)
	if r.size < 9 {
		stars = nil
	}
	grainCos, grainSin := 1.0, 0.0
	if hash64(lk.Seed, 12)&1 == 1 {
		grainCos, grainSin = 0, 1 // grain across the board
	}
	glareW := 0.8 + 5*(1-lk.Gloss)
	var irr [3]float64
	var part [4][3]float64
	// The light on the board (the lamps' pools and their reflections) is smooth: it is computed every
	// few pixels and interpolated.
	lightGrid := newLightGrid(w, h, func(x, y float64) [6]float32 {
		u, v := g.toBoard.Apply(x, y)
		var e [3]float64
		l.irradiance(lk, u, v, 0, &e, nil)
		var out [6]float32
		for c := range 3 {
			out[c] = float32(e[c])
		}
		if lk.Glare > 0 {
			for i := range l.lamps {
				lp := &l.lamps[i]
				dx, dy := u-lp.glare[0], v-lp.glare[1]
				sw := glareW * (1 + 2*lp.size)
				d2 := (dx*dx + dy*dy) / (2 * sw * sw)
				k := lk.Glare * 0.12 * fastExp(-d2/16) // broad sheen
				if d2 < 12 {
					k += lk.Glare * (0.35 + 1.2*lk.Gloss) / (1 + 2*lp.size) * fastExp(-d2)
				}
				for c := range 3 {
					out[3+c] += float32(lp.color[c] * k)
				}
			}
		}
		return out
	})
	// The table is drawn in 2x2 blocks (it is out of the board's focus and carries no labels).
	tablePrev, tableCur := make([]bool, w), make([]bool, w)
	var wood [3]float64
	for y := 0; y < h; y++ {
		tablePrev, tableCur = tableCur, tablePrev
		woodOK := false
		for x := 0; x < w; x++ {
			tableCur[x] = false
			wasBoard := woodOK
			woodOK = false
			if y&1 == 1 && tablePrev[x] && x&1 == 0 && x+1 < w && tablePrev[x+1] {
				copy(l.base[3*(y*w+x):3*(y*w+x)+6], l.base[3*((y-1)*w+x):3*((y-1)*w+x)+6])
				tableCur[x], tableCur[x+1] = true, true
				x++
				continue
			}
			if x&1 == 1 && tableCur[x-1] {
				copy(l.base[3*(y*w+x):3*(y*w+x)+3], l.base[3*(y*w+x-1):3*(y*w+x)])
				tableCur[x] = true
				continue
			}
			fx, fy := float64(x)+0.5, float64(y)+0.5
			m := &g.toBoard
			hw := m[6]*fx + m[7]*fy + m[8]
			u, v := (m[0]*fx+m[1]*fy+m[2])/hw, (m[3]*fx+m[4]*fy+m[5])/hw
			ju, jv := (m[0]-u*m[6])/hw, (m[3]-v*m[6])/hw
			ps := math.Sqrt(ju*ju + jv*jv) // board units per pixel here
			var cr, cg, cb float64
			if u >= x0b && u <= x1b && v >= y0b && v <= y1b {
				// Board surface.
				// The wood is drawn at half the width (the lines at full resolution).
				if x&1 == 0 || !wasBoard {
					wood = r.woodAlbedo(l, u, v, grainCos, grainSin)
				}
				woodOK = true
				a := r.boardAlbedo(l, wood, u, v, ps, stars)
				lt := lightGrid.at(fx, fy)
				cr, cg, cb = a[0]*float64(lt[0])+float64(lt[3]), a[1]*float64(lt[1])+float64(lt[4]), a[2]*float64(lt[2])+float64(lt[5])
				// Edge bevel.
				edge := fmin(fmin(u-x0b, x1b-u), fmin(v-y0b, y1b-v))
				if edge < 0.06 {
					k := 0.75 + 0.25*edge/0.06
					cr, cg, cb = cr*k, cg*k, cb*k
				}
			} else {
				// The ray misses the top: it meets the board's side or the table below.
				e := thick / cam[2]
				qx, qy := u+(u-cam[0])*e, v+(v-cam[1])*e
				dout := fmax(fmax(x0b-u, u-x1b), fmax(y0b-v, v-y1b))
				near := dout < fmax(abs(qx-u), abs(qy-v))+0.01
				s, side := 0.0, false
				if near {
					s, side = segmentEnters(u, v, qx, qy, x0b, y0b, x1b, y1b)
				}
				if side {
					a := r.woodAlbedo(l, u+v, 0.3*s, grainCos, grainSin)
					l.irradiance(lk, u, v, 0, &irr, nil)
					k := 0.45 * (1 - 0.3*s)
					cr, cg, cb = a[0]*irr[0]*k, a[1]*irr[1]*k, a[2]*irr[2]*k
				} else {
					a, onClutter := r.tableAlbedo(l, qx, qy)
					l.irradiance(lk, qx, qy, -thick, &irr, &part)
					// The board's shadow on the table, lamp by lamp.
					for i := range l.lamps {
						lp := &l.lamps[i]
						t := thick / (lp.pos[2] + thick)
						sx, sy := qx+(lp.pos[0]-qx)*t, qy+(lp.pos[1]-qy)*t
						din := fmin(fmin(sx-x0b, x1b-sx), fmin(sy-y0b, y1b-sy))
						pw := 0.05 + lp.size*thick*0.8
						if occ := smoothstep(-pw, pw, din); occ > 0 && i < 4 {
							for c := range 3 {
								irr[c] -= occ * part[i][c]
							}
						}
					}
					// Soft contact darkening along the board's foot.
					dq := fmax(fmax(x0b-qx, qx-x1b), fmax(y0b-qy, qy-y1b))
					k := 1 - 0.35*smoothstep(0.6, 0, dq)
					cr, cg, cb = a[0]*irr[0]*k, a[1]*irr[1]*k, a[2]*irr[2]*k
					tableCur[x] = dout > 0.5 && !onClutter // full detail near the board's edge and on things
				}
			}
			i := 3 * (y*w + x)
			l.base[i], l.base[i+1], l.base[i+2] = float32(cr), float32(cg), float32(cb)
		}
	}
	return l
}

// segmentEnters reports whether the segment from (ax,ay) (outside the rectangle) to (bx,by) enters
// it, and how far along (0..1).
func segmentEnters(ax, ay, bx, by, x0, y0, x1, y1 float64) (float64, bool) {
	t0, t1 := 0.0, 1.0
	dx, dy := bx-ax, by-ay
	for _, c := range [4][2]float64{{-dx, ax - x0}, {dx, x1 - ax}, {-dy, ay - y0}, {dy, y1 - ay}} {
		p, q := c[0], c[1]
		if p == 0 {
			if q < 0 {
				return 0, false
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = math.Max(t0, t)
		} else {
			t1 = math.Min(t1, t)
		}
		if t0 > t1 {
			return 0, false
		}
	}
	return t0, true
}

// woodAlbedo is the board's material without lines at (u,v).
func (r *LookRenderer) woodAlbedo(l *photoLayer, u, v, grainCos, grainSin float64) [3]float64 {
	lk := &r.look
	a := lk.BoardColor
	if lk.Grain <= 0 {
		k := 1 + 0.03*(l.tex.at(u*3.1, v*3.1)-0.5)
		return scale3(a, k)
	}
	gu := u*grainCos + v*grainSin
	gv := -u*grainSin + v*grainCos
	warp := l.tex.fbm(gu*0.35+11, gv*0.12, 2)
	gr := 0.5 + 0.5*math.Sin((gu*lk.GrainScale+warp*5)*2*math.Pi)
	gr *= gr
	slow := l.tex.at(u*0.15+37, v*0.15+5)
	fine := l.tex.at(gu*9+3, gv*0.8)
	k := 1 + lk.Grain*(0.10*(0.5-gr)+0.08*(slow-0.5)+0.05*(fine-0.5))
	// Slightly more saturated in the dark bands of the grain.
	return [3]float64{a[0] * k, a[1] * k * (1 - 0.02*lk.Grain*gr), a[2] * k * (1 - 0.06*lk.Grain*gr)}
}

// boardAlbedo is the board's surface at (u,v): wood, lines and star points, antialiased over ps.
func (r *LookRenderer) boardAlbedo(l *photoLayer, wood [3]float64, u, v, ps float64, stars [][2]int) [3]float64 {
	lk := &r.look
	a := wood
	n, asp := l.g.n, l.g.aspect
	half := lk.LineWidth / 2
	ink := 0.0
	if u > -half-ps && u < n+half+ps && v > -half-ps && v < n*asp+half+ps {
		iu := math.Round(u)
		if iu >= 0 && iu <= n && v >= -half && v <= n*asp+half {
			ink = fmax(ink, boxCover(abs(u-iu), half, ps))
		}
		iv := math.Round(v / asp)
		if iv >= 0 && iv <= n && u >= -half && u <= n+half {
			ink = fmax(ink, boxCover(abs(v-iv*asp), half, ps))
		}
		for _, s := range stars {
			du, dv := u-float64(s[0]), v-float64(s[1])*asp
			if rr := lk.StarRadius + ps; du*du+dv*dv < rr*rr {
				ink = fmax(ink, clamp01((lk.StarRadius-math.Sqrt(du*du+dv*dv))/ps+0.5))
			}
		}
	}
	if ink > 0 {
		for c := range 3 {
			a[c] = a[c]*(1-ink) + lk.LineColor[c]*ink
		}
	}
	return a
}

// boxCover is how much of a pixel of width ps, centred d from the middle of a line of half-width
// half, the line covers.
func boxCover(d, half, ps float64) float64 {
	lo := math.Max(d-ps/2, -half)
	hi := math.Min(d+ps/2, half)
	if hi <= lo {
		return 0
	}
	return (hi - lo) / ps
}

// tableAlbedo is the table (and what lies on it) at (x,y) on the table's plane.
func (r *LookRenderer) tableAlbedo(l *photoLayer, x, y float64) (a [3]float64, clutter bool) {
	lk := &r.look
	for i := range l.clutter {
		if a, ok := l.clutter[i].albedo(lk, l.tex, x, y); ok {
			return a, true
		}
	}
	a = lk.Table
	var k float64
	if lk.TableCloth {
		k = 1 + 0.10*(l.tex.at(x*6, y*6)-0.5) + 0.06*(l.tex.fbm(x*0.2+50, y*0.2, 2)-0.5)
	} else {
		gr := 0.5 + 0.5*math.Sin((x*0.45+2.5*l.tex.fbm(x*0.05+70, y*0.25, 3))*2*math.Pi)
		k = 1 - 0.12*gr*gr + 0.08*(l.tex.at(x*2, y*0.15+40)-0.5) + 0.05*(l.tex.at(x*0.5, y*7)-0.5)
	}
	return scale3(a, k), false
}

// placedStone is a stone where it lies: its centre on the board plane and its colour.
type placedStone struct {
	x, y     float64
	s        Stone
	col, row int
	tone     float64 // small per-stone variation of colour
	phase    float64 // per-stone texture phase
}

// placeStones returns where the scene's stones lie: each off its point by up to the look's Offset
// (most a little, a few a lot), then pushed apart where neighbours would overlap.
func (r *LookRenderer) placeStones(sc Scene, asp float64) []placedStone {
	lk := &r.look
	n := sc.Size
	idx := make([]int, n*n)
	var out []placedStone
	for row := range n {
		for col := range n {
			s := sc.Stones[row*n+col]
			idx[row*n+col] = -1
			if s != Black && s != White {
				continue
			}
			hv := hash64(lk.Seed, 501, uint64(col), uint64(row), uint64(s))
			m := lk.Offset * unit(hv)
			if hv>>60 < 11 {
				m *= 0.4
			}
			ang := 2 * math.Pi * unit(hash64(hv, 1))
			idx[row*n+col] = len(out)
			out = append(out, placedStone{x: float64(col) + m*math.Cos(ang), y: float64(row)*asp + m*math.Sin(ang),
				s: s, col: col, row: row, tone: unit(hash64(hv, 2)) - 0.5, phase: unit(hash64(hv, 3))})
		}
	}
	minD := 2 * lk.StoneRadius * 1.01
	for range 6 {
		moved := false
		for i := range out {
			a := &out[i]
			for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}} {
				c, rw := a.col+d[0], a.row+d[1]
				if c < 0 || c >= n || rw >= n || idx[rw*n+c] < 0 {
					continue
				}
				b := &out[idx[rw*n+c]]
				dx, dy := b.x-a.x, b.y-a.y
				dd := math.Hypot(dx, dy)
				if dd >= minD || dd == 0 {
					continue
				}
				push := (minD - dd) / 2 / dd
				a.x, a.y = a.x-dx*push, a.y-dy*push
				b.x, b.y = b.x+dx*push, b.y+dy*push
				moved = true
			}
		}
		if !moved {
			break
		}
	}
	return out
}

// Render draws the scene as a w x h photo.
func (r *LookRenderer) Render(w, h int, sc Scene) (*image.RGBA, error) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if err := r.RenderInto(img, sc); err != nil {
		return nil, err
	}
	return img, nil
}

// RenderInto draws the scene into dst (whose bounds must start at 0,0).
func (r *LookRenderer) RenderInto(dst *image.RGBA, sc Scene) error {
	b := dst.Bounds()
	if b.Min != (image.Point{}) {
		return fmt.Errorf("demo: frame bounds %v must start at 0,0", b)
	}
	w, h := b.Dx(), b.Dy()
	if w < 64 || h < 48 || w > 8192 || h > 8192 {
		return fmt.Errorf("demo: frame size %dx%d out of range 64x48..8192x8192", w, h)
	}
	if sc.Size != r.size {
		return fmt.Errorf("demo: a %dx%d scene for a %dx%d renderer", sc.Size, sc.Size, r.size, r.size)
	}
	if len(sc.Stones) != sc.Size*sc.Size {
		return fmt.Errorf("demo: %d stones for a %dx%d board", len(sc.Stones), sc.Size, sc.Size)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.layerFor(w, h)
	// The stones are kept apart from the hand: while a hand moves over a still board only the hand
	// is drawn again.
	still := sc
	still.Hand = nil
	if key := sceneKey(still); key != l.stonesKey {
		copy(l.stones, l.base)
		stones := r.placeStones(sc, l.g.aspect)
		r.drawStoneShadows(l, l.stones, stones)
		r.drawPhotoStones(l, l.stones, stones)
		l.stonesKey, l.workKey = key, 0
	}
	src := l.stones
	if sc.Hand != nil {
		if len(l.work) != len(l.stones) {
			l.work = make([]float32, len(l.stones))
		}
		if key := sceneKey(sc); key != l.workKey {
			copy(l.work, l.stones)
			r.drawPhotoHand(l, l.work, *sc.Hand)
			l.workKey = key
		}
		src = l.work
	}
	return r.develop(l, src, dst, sc.Frame)
}

// stoneLight is what shading a stone needs about the light at it.
type stoneLight struct {
	amb   [3]float64
	e     [4][3]float64 // each lamp's irradiance at the stone, facing it
	dir   [4][3]float64 // toward each lamp
	half  [4][3]float64 // half vector between lamp and camera
	exp   [4]float64
	specK [4]float64
	view  [3]float64
	nl    int
}

func (r *LookRenderer) lightAtStone(l *photoLayer, x, y, z float64) stoneLight {
	lk := &r.look
	var sl stoneLight
	n := l.g.n
	ext := n + 1
	a := math.Max(0.2, 1+lk.AmbientTilt[0]*(x-n/2)/ext+lk.AmbientTilt[1]*(y-n*l.g.aspect/2)/ext)
	sl.amb = scale3(lk.Ambient, a)
	sl.view = norm3(sub3(l.g.cam, [3]float64{x, y, z}))
	for i := range l.lamps {
		if i >= 4 {
			break
		}
		lp := &l.lamps[i]
		d := sub3(lp.pos, [3]float64{x, y, z})
		d2 := dot3(d, d)
		k := lp.pos[2] * lp.pos[2] / d2
		sl.e[i] = scale3(lp.color, k*l.bodyShadow(lk, x, y))
		sl.dir[i] = norm3(d)
		sl.half[i] = norm3([3]float64{sl.dir[i][0] + sl.view[0], sl.dir[i][1] + sl.view[1], sl.dir[i][2] + sl.view[2]})
		sl.exp[i] = math.Max(lk.Shininess/(1+6*lp.size), 2)
		sl.specK[i] = 1 / (1 + 3*lp.size)
		sl.nl = i + 1
	}
	return sl
}

// drawStoneShadows darkens the board under and beside each stone: a contact shadow from the room's
// light and a cast shadow away from each lamp (sharp under a small lamp, soft under a big one).
func (r *LookRenderer) drawStoneShadows(l *photoLayer, buf []float32, stones []placedStone) {
	lk := &r.look
	R, H := lk.StoneRadius, math.Max(lk.StoneHeight, 0.05)
	var irr [3]float64
	var part [4][3]float64
	for _, st := range stones {
		l.irradiance(lk, st.x, st.y, 0, &irr, &part)
		type cast struct {
			ax, ay, bx, by, pw float64
			frac               [3]float64
		}
		var casts [4]cast
		nc := 0
		minX, minY, maxX, maxY := st.x-R-0.2, st.y-R-0.2, st.x+R+0.2, st.y+R+0.2
		for i := range l.lamps {
			if i >= 4 {
				break
			}
			lp := &l.lamps[i]
			dx, dy := st.x-lp.pos[0], st.y-lp.pos[1]
			z1, z2 := 0.3*H, 0.8*H
			t1, t2 := z1/(lp.pos[2]-z1), z2/(lp.pos[2]-z2)
			c := cast{ax: st.x + dx*t1, ay: st.y + dy*t1, bx: st.x + dx*t2, by: st.y + dy*t2, pw: 0.015 + lp.size*0.2}
			for ch := range 3 {
				c.frac[ch] = part[i][ch] / math.Max(irr[ch], 1e-6)
			}
			casts[nc] = c
			nc++
			minX, maxX = math.Min(minX, c.bx-R-c.pw), math.Max(maxX, c.bx+R+c.pw)
			minY, maxY = math.Min(minY, c.by-R-c.pw), math.Max(maxY, c.by+R+c.pw)
		}
		ambFrac := [3]float64{}
		for ch := range 3 {
			ambFrac[ch] = (irr[ch] - sumPart(part, ch, nc)) / math.Max(irr[ch], 1e-6)
		}
		x0, y0, x1, y1 := l.boxFor((minX+maxX)/2, (minY+maxY)/2, math.Max(maxX-minX, maxY-minY)/2)
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				u, v := l.g.toBoard.Apply(float64(x)+0.5, float64(y)+0.5)
				d := math.Sqrt((u-st.x)*(u-st.x) + (v-st.y)*(v-st.y))
				var k [3]float64
				ao := 0.45 * smoothstep(R+0.14, R-0.05, d)
				for ch := range 3 {
					k[ch] = 1 - ao*ambFrac[ch]
				}
				for i := 0; i < nc; i++ {
					c := &casts[i]
					sd := capsuleDist(u, v, c.ax, c.ay, c.bx, c.by) - R*0.97
					if occ := smoothstep(c.pw, -c.pw, sd); occ > 0 {
						for ch := range 3 {
							k[ch] -= occ * c.frac[ch]
						}
					}
				}
				if k[0] < 1 || k[1] < 1 || k[2] < 1 {
					p := buf[3*(y*l.g.w+x):]
					for ch := range 3 {
						p[ch] *= float32(math.Max(k[ch], 0.02))
					}
				}
			}
		}
	}
}

func sumPart(part [4][3]float64, ch, n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += part[i][ch]
	}
	return s
}

// capsuleDist returns the distance from (x,y) to the segment a-b.
func capsuleDist(x, y, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = clamp01(((x-ax)*dx + (y-ay)*dy) / l2)
	}
	ex, ey := ax+t*dx-x, ay+t*dy-y
	return math.Sqrt(ex*ex + ey*ey)
}

// boxFor returns the pixel rectangle covering the board-plane square centred on (u,v) with half-size rad.
func (l *photoLayer) boxFor(u, v, rad float64) (x0, y0, x1, y1 int) {
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, c := range [4][2]float64{{u - rad, v - rad}, {u + rad, v - rad}, {u + rad, v + rad}, {u - rad, v + rad}} {
		x, y := l.g.toImage.Apply(c[0], c[1])
		minX, maxX = math.Min(minX, x), math.Max(maxX, x)
		minY, maxY = math.Min(minY, y), math.Max(maxY, y)
	}
	x0, y0 = max(int(minX)-1, 0), max(int(minY)-1, 0)
	x1, y1 = min(int(maxX)+2, l.g.w), min(int(maxY)+2, l.g.h)
	return
}

// drawPhotoStones draws the stones farthest from the camera first, each as a lens (an ellipsoid of
// the stone's radius and thickness) that the camera's rays meet: seen from an angle a stone shows its
// side, and its top stands off its point toward the far side.
func (r *LookRenderer) drawPhotoStones(l *photoLayer, buf []float32, stones []placedStone) {
	cam := l.g.cam
	sort.SliceStable(stones, func(i, j int) bool {
		di := (stones[i].x-cam[0])*(stones[i].x-cam[0]) + (stones[i].y-cam[1])*(stones[i].y-cam[1])
		dj := (stones[j].x-cam[0])*(stones[j].x-cam[0]) + (stones[j].y-cam[1])*(stones[j].y-cam[1])
		return di > dj
	})
	for i := range stones {
		r.drawLens(l, buf, &stones[i])
	}
}

// drawLens draws one stone.
func (r *LookRenderer) drawLens(l *photoLayer, buf []float32, st *placedStone) {
	lk := &r.look
	cam := l.g.cam
	R := lk.StoneRadius
	H := math.Max(lk.StoneHeight, 0.05)
	hh := H / 2
	sl := r.lightAtStone(l, st.x, st.y, hh)
	alb := lk.WhiteColor
	shine := lk.WhiteShine
	if st.s == Black {
		alb, shine = lk.BlackColor, lk.BlackShine
	}
	alb = scale3(alb, 1+0.05*st.tone)
	// The top's image lies toward the far side: cover both.
	tz := H / (cam[2] - H)
	topX, topY := st.x-(cam[0]-st.x)*tz, st.y-(cam[1]-st.y)*tz
	x0, y0, x1, y1 := l.boxFor((st.x+topX)/2, (st.y+topY)/2, R+0.05+math.Hypot(topX-st.x, topY-st.y)/2)
	iR2, ih2 := 1/(R*R), 1/(hh*hh)
	stripes := lk.Stones == SlateShell && st.s == White
	sAng := st.phase * math.Pi
	sdx, sdy := math.Cos(sAng), math.Sin(sAng)
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			u, v := l.g.toBoard.Apply(float64(x)+0.5, float64(y)+0.5)
			u2, v2 := l.g.toBoard.Apply(float64(x)+1.5, float64(y)+0.5)
			ps := math.Sqrt((u2-u)*(u2-u) + (v2-v)*(v2-v))
			ex, ey := (cam[0]-u)/cam[2], (cam[1]-v)/cam[2]
			dx, dy := u-st.x, v-st.y
			a := (ex*ex+ey*ey)*iR2 + ih2
			b := 2*(dx*ex+dy*ey)*iR2 - 2/hh
			c := (dx*dx + dy*dy) * iR2
			disc := b*b - 4*a*c
			gx, gy := (b*ex-2*a*dx)*4*iR2, (b*ey-2*a*dy)*4*iR2
			gl := math.Sqrt(gx*gx+gy*gy)*ps + 1e-12
			cov := clamp01(disc/gl + 0.5)
			if cov <= 0 {
				continue
			}
			z := -b / (2 * a)
			if disc > 0 {
				z = (-b + math.Sqrt(disc)) / (2 * a)
			}
			qx, qy := dx+ex*z, dy+ey*z
			nx, ny, nz := qx*iR2, qy*iR2, (z-hh)*ih2
			nn := math.Sqrt(nx*nx + ny*ny + nz*nz)
			if nn == 0 {
				nz, nn = 1, 1
			}
			nx, ny, nz = nx/nn, ny/nn, nz/nn
			tex := 1.0
			if stripes {
				tex = 1 - 0.03*(0.5+0.5*math.Sin((qx*sdx+qy*sdy)/0.11*2*math.Pi+st.phase*9))
			}
			var col [3]float64
			amb := 0.55 + 0.45*nz
			for ch := range 3 {
				col[ch] = alb[ch] * tex * sl.amb[ch] * amb
			}
			for i := 0; i < sl.nl; i++ {
				d := nx*sl.dir[i][0] + ny*sl.dir[i][1] + nz*sl.dir[i][2]
				sp := 0.0
				if hd := nx*sl.half[i][0] + ny*sl.half[i][1] + nz*sl.half[i][2]; hd > 0.6 {
					sp = shine * sl.specK[i] * math.Pow(hd, sl.exp[i])
				}
				if d < 0 {
					d = 0
				}
				for ch := range 3 {
					col[ch] += sl.e[i][ch] * (alb[ch]*tex*d + sp)
				}
			}
			// Glossy stones mirror the room at grazing angles.
			nv := nx*sl.view[0] + ny*sl.view[1] + nz*sl.view[2]
			if fr := 1 - math.Max(nv, 0); fr > 0 {
				f := 0.25 * shine * fr * fr * fr
				for ch := range 3 {
					col[ch] += sl.amb[ch] * f
				}
			}
			p := buf[3*(y*l.g.w+x):]
			k := float32(cov)
			for ch := range 3 {
				p[ch] = p[ch]*(1-k) + float32(col[ch])*k
			}
		}
	}
}

// drawPhotoHand draws the hand (sized to a real hand over the board), its shadow away from the main
// lamp, and the stone it holds.
func (r *LookRenderer) drawPhotoHand(l *photoLayer, buf []float32, hd Hand) {
	lk := &r.look
	parts, sx, sy, sr := r.photoHandShape(l, hd)
	sp := l.g.ppu * lk.HandScale
	// Shadow: the hand is about three units above the board.
	offX, offY, soft, dark := 0.7*sp, 0.6*sp, 1.0*sp, 0.35
	tu, tv := hd.Col, hd.Row*l.g.aspect
	var irr [3]float64
	var part [4][3]float64
	l.irradiance(lk, tu, tv, 0, &irr, &part)
	if len(l.lamps) > 0 {
		lp := &l.lamps[0]
		const hz = 3.0
		t := hz / math.Max(lp.pos[2]-hz, 1)
		su, sv := tu+(tu-lp.pos[0])*t, tv+(tv-lp.pos[1])*t
		x1, y1 := l.g.toImage.Apply(tu, tv)
		x2, y2 := l.g.toImage.Apply(su, sv)
		offX, offY = x2-x1, y2-y1
		soft = (0.25 + 2*lp.size) * sp
		sum := irr[0] + irr[1] + irr[2]
		dark = 0.9 * (part[0][0] + part[0][1] + part[0][2]) / math.Max(sum, 1e-6)
	}
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range parts {
		minX = math.Min(minX, math.Min(c.ax, c.bx)-c.r-soft+math.Min(offX, 0))
		maxX = math.Max(maxX, math.Max(c.ax, c.bx)+c.r+soft+math.Max(offX, 0))
		minY = math.Min(minY, math.Min(c.ay, c.by)-c.r-soft+math.Min(offY, 0))
		maxY = math.Max(maxY, math.Max(c.ay, c.by)+c.r+soft+math.Max(offY, 0))
	}
	x0, y0 := max(int(minX), 0), max(int(minY), 0)
	x1, y1 := min(int(maxX)+1, l.g.w), min(int(maxY)+1, l.g.h)
	sleeve := lk.Sleeve[0]
	if hd.Player == White {
		sleeve = lk.Sleeve[1]
	}
	// The hand's light: the main lamp's part as a direction in the picture, the rest as ambient.
	var handKey, handAmb [3]float64
	hlx, hly, hlz := 0.0, 0.0, 1.0
	for ch := range 3 {
		handAmb[ch] = irr[ch]
	}
	if len(l.lamps) > 0 {
		lp := &l.lamps[0]
		for ch := range 3 {
			handKey[ch] = part[0][ch]
			handAmb[ch] -= part[0][ch]
		}
		x1, y1 := l.g.toImage.Apply(tu, tv)
		x2, y2 := l.g.toImage.Apply(lp.pos[0], lp.pos[1]) // the point under the lamp
		dx, dy := x2-x1, y2-y1
		el := math.Atan2(lp.pos[2], math.Hypot(lp.pos[0]-tu, lp.pos[1]-tv))
		if dl := math.Hypot(dx, dy); dl > 0 {
			hlx, hly, hlz = dx/dl*math.Cos(el), dy/dl*math.Cos(el), math.Sin(el)
		}
	}
	stoneAlb := lk.BlackColor
	if hd.Player == White {
		stoneAlb = lk.WhiteColor
	}
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			p := buf[3*(y*l.g.w+x):]
			sd := math.Inf(1)
			for _, c := range parts {
				if c.near(fx-offX, fy-offY, soft+1) {
					sd = math.Min(sd, c.dist(fx-offX, fy-offY))
				}
			}
			if k := 1 - dark*smoothstep(soft, -soft, sd); k < 1 {
				for ch := range 3 {
					p[ch] *= float32(k)
				}
			}
			best, bi := math.Inf(1), -1
			for k, c := range parts {
				if !c.near(fx, fy, 1) {
					continue
				}
				if d := c.dist(fx, fy); d < best {
					best, bi = d, k
				}
			}
			if best < 0.5 {
				c := &parts[bi]
				cov := float32(clamp01(0.5 - best))
				// A rounded limb: its normal from the capsule's axis, lit by the room and the main lamp.
				ax, ay := c.bx-c.ax, c.by-c.ay
				t := 0.0
				if l2 := ax*ax + ay*ay; l2 > 0 {
					t = clamp01(((fx-c.ax)*ax + (fy-c.ay)*ay) / l2)
				}
				nx, ny := (fx-c.ax-t*ax)/c.r, (fy-c.ay-t*ay)/c.r
				nz := math.Sqrt(math.Max(0, 1-nx*nx-ny*ny))
				key := math.Max(0, nx*hlx+ny*hly+nz*hlz)
				alb := sleeve
				tex := 1 + 0.06*(l.tex.at(fx*0.7, fy*0.7)-0.5)
				if c.skin {
					alb = lk.Skin
					tex = 1 + 0.04*(l.tex.at(fx*0.3+90, fy*0.3)-0.5)
				}
				for ch := range 3 {
					v := alb[ch] * tex * (handAmb[ch]*(0.55+0.45*nz) + handKey[ch]*key*1.3)
					p[ch] = p[ch]*(1-cov) + float32(v)*cov
				}
			}
			if sr > 0 {
				d := math.Hypot(fx-sx, fy-sy)
				if cov := clamp01(sr - d + 0.5); cov > 0 {
					nx, ny := (fx-sx)/sr, (fy-sy)/sr
					nz := math.Sqrt(math.Max(0, 1-0.8*(nx*nx+ny*ny)))
					k := 0.45 + 0.55*nz + 0.6*pow40(math.Max(0, 0.5*(nz-0.3*nx-0.3*ny)+0.5))*(1-stoneAlb[0])
					for ch := range 3 {
						p[ch] = p[ch]*float32(1-cov) + float32(stoneAlb[ch]*irr[ch]*k*cov)
					}
				}
			}
		}
	}
}

// photoHandShape is the hand's capsules in undistorted pixels, sized to the board's spacing, and the
// held stone's centre and radius (radius 0 when nothing is held).
func (r *LookRenderer) photoHandShape(l *photoLayer, hd Hand) ([]capsule, float64, float64, float64) {
	tx, ty := l.g.toImage.Apply(hd.Col, hd.Row*l.g.aspect)
	sp := l.g.ppu * r.look.HandScale
	parts, sx, sy := photoHandCapsules(tx, ty, sp, float64(l.g.h), hd)
	sr := 0.0
	if hd.Holding {
		sr = r.look.StoneRadius * 1.1 * l.g.ppu // a stone, a little nearer the camera
	}
	return parts, sx, sy, sr
}

// Covered returns, for every point of the board (row-major), whether the scene's hand (or the stone
// it holds) hides some of the point's stone or crossing in a w x h frame.
func (r *LookRenderer) Covered(w, h int, sc Scene) []bool {
	n := r.size
	out := make([]bool, n*n)
	if sc.Hand == nil {
		return out
	}
	g := r.geometry(w, h)
	l := &photoLayer{g: g}
	parts, sx, sy, sr := r.photoHandShape(l, *sc.Hand)
	R := r.look.StoneRadius
	for row := range n {
		for col := range n {
			u, v := float64(col), float64(row)*g.aspect
		probe:
			for _, d := range [9][2]float64{{0, 0}, {-R, 0}, {R, 0}, {0, -R}, {0, R}, {-0.7 * R, -0.7 * R}, {0.7 * R, -0.7 * R}, {0.7 * R, 0.7 * R}, {-0.7 * R, 0.7 * R}} {
				x, y := g.toImage.Apply(u+d[0], v+d[1])
				if sr > 0 && math.Hypot(x-sx, y-sy) < sr {
					out[row*n+col] = true
					break
				}
				for _, c := range parts {
					if c.near(x, y, 1) && c.dist(x, y) < 0 {
						out[row*n+col] = true
						break probe
					}
				}
			}
		}
	}
	return out
}

// lightGrid holds a smooth function of the pixel (six values: light and its reflection) sampled every
// lightCell pixels, for bilinear interpolation.
type lightGrid struct {
	gw, gh int
	v      [][6]float32
}

const lightCell = 4

func newLightGrid(w, h int, f func(x, y float64) [6]float32) *lightGrid {
	g := &lightGrid{gw: w/lightCell + 2, gh: h/lightCell + 2}
	g.v = make([][6]float32, g.gw*g.gh)
	for j := range g.gh {
		for i := range g.gw {
			g.v[j*g.gw+i] = f(float64(i*lightCell), float64(j*lightCell))
		}
	}
	return g
}

// at interpolates the grid at pixel position (x,y).
func (g *lightGrid) at(x, y float64) [6]float32 {
	fx, fy := x/lightCell, y/lightCell
	i, j := int(fx), int(fy)
	i, j = clampInt(i, 0, g.gw-2), clampInt(j, 0, g.gh-2)
	tx, ty := float32(fx-float64(i)), float32(fy-float64(j))
	a, b := &g.v[j*g.gw+i], &g.v[j*g.gw+i+1]
	c, d := &g.v[(j+1)*g.gw+i], &g.v[(j+1)*g.gw+i+1]
	var out [6]float32
	for k := range 6 {
		out[k] = (a[k]*(1-tx)+b[k]*tx)*(1-ty) + (c[k]*(1-tx)+d[k]*tx)*ty
	}
	return out
}
