package calib

import (
	"errors"
	"fmt"
	"hash/fnv"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tengen/internal/shareddata"
)

// The robustness evaluation: the labelled dev photos, re-photographed in software the way the
// sealed sets differ from them (608x608 frames, quarter turns, shear, steep tilt, coloured and
// uneven light, blur, noise, JPEG, a small board on a table, the wooden border cut off, a hand
// over a corner, a late-game board full of stones), with the true corners carried through
// every transform. It measures, per source and per kind of variant, how often the board is
// found, refused (and why) or found wrong.

// augPhoto is one dev photo with its true corner intersections (19x19) in its own pixels, or,
// for Roboflow photos (no corners known), its labelled stone centres.
type augPhoto struct {
	source  string
	path    string
	corners [4]Point2 // zero for Roboflow
	stones  []Point2  // Roboflow stone centres, in pixels
}

func (p augPhoto) labelled() bool { return p.corners != [4]Point2{} }

// augKind is one kind of variant: how it is made and whether the whole grid stays in view.
type augKind struct {
	name   string
	inView bool // false: the crop removes grid lines, and a refusal is the right answer
	// needsCorners: the variant is built around the true grid (crop, hand, stones).
	needsCorners bool
	make         func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame
}

// augFrame is a variant: the picture and the homography from the source photo's pixels to it.
type augFrame struct {
	img gocv.Mat
	h   mat3
}

// augKinds are the variants: "b-" ones imitate sealed set B (608x608 top-down frames with
// quarter turns, shear, light changes, blur and noise), "a-" ones sealed set A (phone and webcam
// photos, oblique, club light, small boards, hands, late games).
func augKinds() []augKind {
	return []augKind{
		{name: "b-plain", inView: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			return augGeom(rng, src, p, augGeomOpts{square: true})
		}},
		{name: "b-turn", inView: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			f := augGeom(rng, src, p, augGeomOpts{square: true, turn: 1 + rng.IntN(3)})
			augLight(rng, f.img, false)
			return f
		}},
		{name: "b-shear", inView: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			return augGeom(rng, src, p, augGeomOpts{square: true, turn: rng.IntN(4), shear: 0.15 + 0.15*rng.Float64()})
		}},
		{name: "b-light", inView: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			f := augGeom(rng, src, p, augGeomOpts{square: true, turn: rng.IntN(4)})
			augLight(rng, f.img, true)
			return f
		}},
		{name: "b-blurnoise", inView: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			f := augGeom(rng, src, p, augGeomOpts{square: true, turn: rng.IntN(4)})
			augBlurNoise(rng, &f.img)
			return f
		}},
		{name: "b-combo", inView: true, needsCorners: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			f := augGeom(rng, src, p, augGeomOpts{square: true, turn: rng.IntN(4), shear: 0.2 * rng.Float64()})
			augStones(rng, f, p, 60+rng.IntN(120))
			augHand(rng, f, p)
			augLight(rng, f.img, true)
			augBlurNoise(rng, &f.img)
			return f
		}},
		{name: "b-tight", inView: true, needsCorners: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			f := augGeom(rng, src, p, augGeomOpts{square: true, turn: rng.IntN(4), crop: 0.05 + 0.35*rng.Float64()})
			if rng.IntN(2) == 0 {
				augBlurNoise(rng, &f.img)
			}
			return f
		}},
		{name: "a-tilt", inView: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			f := augGeom(rng, src, p, augGeomOpts{long: 960, tilt: 30 + 15*rng.Float64(), spin: 60 * (rng.Float64() - 0.5)})
			augLight(rng, f.img, false)
			return f
		}},
		{name: "a-small", inView: true, needsCorners: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			return augGeom(rng, src, p, augGeomOpts{long: 960, spin: 40 * (rng.Float64() - 0.5), tilt: 25 * rng.Float64(), boardFrac: 0.25})
		}},
		{name: "a-crop", inView: true, needsCorners: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			return augGeom(rng, src, p, augGeomOpts{long: 608, spin: 10 * (rng.Float64() - 0.5), crop: 0.2 + 0.2*rng.Float64()})
		}},
		{name: "a-hand", inView: true, needsCorners: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			f := augGeom(rng, src, p, augGeomOpts{long: 960, tilt: 20 * rng.Float64(), spin: 30 * (rng.Float64() - 0.5)})
			augHand(rng, f, p)
			return f
		}},
		{name: "a-late", inView: true, needsCorners: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			f := augGeom(rng, src, p, augGeomOpts{long: 960, tilt: 30 * rng.Float64(), spin: 30 * (rng.Float64() - 0.5)})
			augStones(rng, f, p, 130+rng.IntN(150))
			augLight(rng, f.img, rng.IntN(2) == 0)
			return f
		}},
		{name: "a-dense", inView: true, needsCorners: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			f := augGeom(rng, src, p, augGeomOpts{long: 960, tilt: 20 + 25*rng.Float64(), spin: 40 * (rng.Float64() - 0.5)})
			augStones(rng, f, p, 200+rng.IntN(84))
			augLight(rng, f.img, true)
			return f
		}},
		{name: "cut", inView: false, needsCorners: true, make: func(rng *rand.Rand, src gocv.Mat, p augPhoto) augFrame {
			return augGeom(rng, src, p, augGeomOpts{long: 608, crop: -(1.6 + 2*rng.Float64())})
		}},
	}
}

// augGeomOpts says how augGeom frames the photo.
type augGeomOpts struct {
	square    bool    // a 608x608 frame, stretched (as set B and Roboflow are)
	long      int     // otherwise the longer side (the source's aspect)
	turn      int     // quarter turns clockwise
	shear     float64 // horizontal or vertical shear factor
	tilt      float64 // degrees the camera turns about an axis in the image plane (perspective)
	spin      float64 // degrees of in-plane rotation
	boardFrac float64 // when set, the board covers about this fraction of the frame, on a table
	crop      float64 // when set, the frame is the grid plus this many spacings around it (negative: lines cut off)
}

// augGeom maps the photo into a new frame through one homography: quarter turn, in-plane
// rotation, shear and a camera tilt about the image centre, then a scale and shift that frame
// the photo (or the board, for a small board or a crop). What lies outside the photo is a
// table-like texture.
func augGeom(rng *rand.Rand, src gocv.Mat, p augPhoto, o augGeomOpts) augFrame {
	sw, sh := float64(src.Cols()), float64(src.Rows())
	cx, cy := sw/2, sh/2
	g := mat3{1, 0, -cx, 0, 1, -cy, 0, 0, 1} // centre the photo at the origin
	if o.turn%4 != 0 {
		a := float64(o.turn%4) * math.Pi / 2
		g = mat3{math.Cos(a), -math.Sin(a), 0, math.Sin(a), math.Cos(a), 0, 0, 0, 1}.mul(g)
	}
	if o.spin != 0 {
		a := o.spin * math.Pi / 180
		g = mat3{math.Cos(a), -math.Sin(a), 0, math.Sin(a), math.Cos(a), 0, 0, 0, 1}.mul(g)
	}
	if o.shear != 0 {
		s := o.shear
		if rng.IntN(2) == 0 {
			s = -s
		}
		if rng.IntN(2) == 0 {
			g = mat3{1, s, 0, 0, 1, 0, 0, 0, 1}.mul(g)
		} else {
			g = mat3{1, 0, 0, s, 1, 0, 0, 0, 1}.mul(g)
		}
	}
	if o.tilt != 0 {
		// K R K⁻¹ with the focal length of a normal lens: what a camera turned by tilt degrees
		// about an axis through the image centre sees.
		f := math.Max(sw, sh)
		ax := rng.Float64() * math.Pi
		ux, uy := math.Cos(ax), math.Sin(ax)
		th := o.tilt * math.Pi / 180
		c, s := math.Cos(th), math.Sin(th)
		// Rodrigues rotation about (ux, uy, 0).
		r := mat3{
			c + ux*ux*(1-c), ux * uy * (1 - c), uy * s,
			uy * ux * (1 - c), c + uy*uy*(1-c), -ux * s,
			-uy * s, ux * s, c,
		}
		k := mat3{f, 0, 0, 0, f, 0, 0, 0, 1}
		ki := mat3{1 / f, 0, 0, 0, 1 / f, 0, 0, 0, 1}
		g = k.mul(r).mul(ki).mul(g)
	}
	pt := func(m mat3, q Point2) Point2 {
		x, y, _ := m.applyPt(q.X, q.Y)
		return Point2{x, y}
	}
	// What to frame: the photo, or the board (grid plus a margin).
	var frame []Point2
	switch {
	case o.crop != 0 || o.boardFrac != 0:
		m := o.crop
		if o.boardFrac != 0 {
			m = 0
		}
		hb, _ := gridH(19, 19, p.corners)
		for _, q := range []Point2{{-m, -m}, {18 + m, -m}, {18 + m, 18 + m}, {-m, 18 + m}} {
			frame = append(frame, pt(g, applyH(hb, q)))
		}
	default:
		frame = []Point2{pt(g, Point2{0, 0}), pt(g, Point2{sw, 0}), pt(g, Point2{sw, sh}), pt(g, Point2{0, sh})}
	}
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, q := range frame {
		x0, y0, x1, y1 = min(x0, q.X), min(y0, q.Y), max(x1, q.X), max(y1, q.Y)
	}
	bw, bh := x1-x0, y1-y0
	var ow, oh int
	var sx, sy float64
	switch {
	case o.square:
		ow, oh = 608, 608
		sx, sy = 608/bw, 608/bh
	default:
		long := o.long
		if o.turn%2 == 1 {
			sw, sh = sh, sw
		}
		if sw >= sh {
			ow, oh = long, int(math.Round(float64(long)*sh/sw))
		} else {
			ow, oh = int(math.Round(float64(long)*sw/sh)), long
		}
		sx = math.Min(float64(ow)/bw, float64(oh)/bh)
		sy = sx
	}
	tx, ty := (float64(ow)-sx*bw)/2-sx*x0, (float64(oh)-sy*bh)/2-sy*y0
	if o.boardFrac != 0 {
		// The board's bounding box covers boardFrac of the frame, placed anywhere in it.
		sx = math.Sqrt(o.boardFrac*float64(ow*oh)/(bw*bh)) * 1.1
		sy = sx
		tx = (float64(ow)-sx*bw)*rng.Float64() - sx*x0
		ty = (float64(oh)-sy*bh)*rng.Float64() - sy*y0
	}
	g = mat3{sx, 0, tx, 0, sy, ty, 0, 0, 1}.mul(g)
	// Shrink the photo first when the map shrinks it a lot (a warp alone would alias).
	scale := math.Sqrt(math.Abs(g[0]*g[4]-g[1]*g[3])) / math.Abs(g[8]+g[6]*cx+g[7]*cy)
	in := src
	pre := 1.0
	if scale < 0.6 {
		pre = scale * 1.4
		small := gocv.NewMat()
		defer small.Close()
		gocv.Resize(src, &small, image.Pt(int(float64(src.Cols())*pre), int(float64(src.Rows())*pre)), 0, 0, gocv.InterpolationArea)
		pre = float64(small.Cols()) / float64(src.Cols())
		in = small
	}
	warp := g.mul(mat3{1 / pre, 0, 0, 0, 1 / pre, 0, 0, 0, 1})
	out := augTable(rng, ow, oh)
	m := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer m.Close()
	for i, v := range warp {
		m.SetDoubleAt(i/3, i%3, v)
	}
	gocv.WarpPerspectiveWithParams(in, &out, m, image.Pt(ow, oh), gocv.InterpolationLinear, gocv.BorderTransparent, color.RGBA{})
	return augFrame{img: out, h: g}
}

// augTable is a table-like background: a base colour (wood, cloth, felt, laminate) with soft
// blotches, a grain and fine noise.
func augTable(rng *rand.Rand, w, h int) gocv.Mat {
	bases := [][3]float64{{40, 70, 110}, {70, 110, 150}, {90, 90, 90}, {60, 100, 50}, {140, 100, 60}, {200, 200, 205}, {30, 30, 35}}
	base := bases[rng.IntN(len(bases))]
	low := gocv.NewMatWithSize(6, 8, gocv.MatTypeCV8UC1)
	defer low.Close()
	lowb, _ := low.DataPtrUint8()
	for i := range lowb {
		lowb[i] = uint8(rng.IntN(256))
	}
	big := gocv.NewMat()
	defer big.Close()
	gocv.Resize(low, &big, image.Pt(w, h), 0, 0, gocv.InterpolationCubic)
	lb, _ := big.DataPtrUint8()
	out := gocv.NewMatWithSize(h, w, gocv.MatTypeCV8UC3)
	b, _ := out.DataPtrUint8()
	grainA := rng.Float64() * math.Pi
	gx, gy := math.Cos(grainA), math.Sin(grainA)
	for i := 0; i < w*h; i++ {
		x, y := float64(i%w), float64(i/w)
		v := (float64(lb[i])-128)/128*25 + 8*math.Sin((x*gx+y*gy)/3+2*math.Sin((x*gy-y*gx)/40)) + 6*(rng.Float64()-0.5)
		for c := 0; c < 3; c++ {
			b[3*i+c] = uint8(min(255, max(0, base[c]+v)))
		}
	}
	return out
}

// augLight changes exposure, gamma and colour (orange, blue or green club light) and, when
// uneven is set, adds a light gradient and a glare spot.
func augLight(rng *rand.Rand, img gocv.Mat, uneven bool) {
	casts := [][3]float64{{1, 1, 1}, {0.6, 0.85, 1.15}, {1.2, 0.95, 0.7}, {0.8, 1.15, 0.75}, {0.75, 0.9, 1.2}}
	cast := casts[rng.IntN(len(casts))]
	gain := 0.55 + 0.7*rng.Float64()
	gamma := math.Exp((rng.Float64() - 0.5) * 1.2)
	var lut [256]float64
	for i := range lut {
		lut[i] = 255 * math.Pow(float64(i)/255, gamma)
	}
	w, h := img.Cols(), img.Rows()
	ga := rng.Float64() * 2 * math.Pi
	gx, gy := math.Cos(ga)/float64(max(w, h)), math.Sin(ga)/float64(max(w, h))
	spotX, spotY := rng.Float64()*float64(w), rng.Float64()*float64(h)
	spotR := float64(max(w, h)) * (0.05 + 0.1*rng.Float64())
	b, _ := img.DataPtrUint8()
	for i := 0; i < w*h; i++ {
		x, y := float64(i%w), float64(i/w)
		m, add := gain, 0.0
		if uneven {
			m *= 1 + 0.6*((x-float64(w)/2)*gx+(y-float64(h)/2)*gy)
			d2 := ((x-spotX)*(x-spotX) + (y-spotY)*(y-spotY)) / (spotR * spotR)
			if d2 < 9 {
				add = 160 * math.Exp(-d2)
			}
		}
		for c := 0; c < 3; c++ {
			v := lut[b[3*i+c]]*m*cast[c] + add
			b[3*i+c] = uint8(min(255, max(0, v)))
		}
	}
}

// augBlurNoise blurs (focus or motion-free camera shake), adds sensor noise and round-trips
// the frame through a low-quality JPEG.
func augBlurNoise(rng *rand.Rand, img *gocv.Mat) {
	s := 0.8 + 1.4*rng.Float64()
	k := int(3*s)*2 + 1
	gocv.GaussianBlur(*img, img, image.Pt(k, k), s, s, gocv.BorderReflect)
	sd := 4 + 8*rng.Float64()
	b, _ := img.DataPtrUint8()
	for i := range b {
		b[i] = uint8(min(255, max(0, float64(b[i])+rng.NormFloat64()*sd)))
	}
	buf, err := gocv.IMEncodeWithParams(gocv.JPEGFileExt, *img, []int{gocv.IMWriteJpegQuality, 20 + rng.IntN(30)})
	if err != nil {
		return
	}
	defer buf.Close()
	dec, err := gocv.IMDecode(buf.GetBytes(), gocv.IMReadColor)
	if err != nil || dec.Empty() {
		return
	}
	img.Close()
	*img = dec
}

// gridPoly is a circle of radius r (in spacings) around grid point (u, v), through hm.
func gridPoly(hm [9]float64, u, v, r float64, n int) []image.Point {
	pts := make([]image.Point, n)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / float64(n)
		q := applyH(hm, Point2{u + r*math.Cos(a), v + r*math.Sin(a)})
		pts[i] = image.Pt(int(math.Round(q.X)), int(math.Round(q.Y)))
	}
	return pts
}

// augStones puts n stones (about half black) on random empty-looking intersections: a late
// game, where stones hide most of the lines.
func augStones(rng *rand.Rand, f augFrame, p augPhoto, n int) {
	hm, ok := augTruthH(f, p)
	if !ok {
		return
	}
	perm := rng.Perm(361)
	for k, idx := range perm[:min(n, 361)] {
		u, v := float64(idx%19), float64(idx/19)
		fill := func(r float64, c color.RGBA) {
			pv := gocv.NewPointsVectorFromPoints([][]image.Point{gridPoly(hm, u, v, r, 20)})
			gocv.FillPoly(&f.img, pv, c)
			pv.Close()
		}
		if k%2 == 0 {
			fill(0.47, color.RGBA{22, 22, 26, 0})
			hl := gridPoly(hm, u-0.15, v-0.15, 0.1, 10)
			pv := gocv.NewPointsVectorFromPoints([][]image.Point{hl})
			gocv.FillPoly(&f.img, pv, color.RGBA{90, 90, 95, 0})
			pv.Close()
		} else {
			fill(0.48, color.RGBA{120, 125, 130, 0})
			fill(0.43, color.RGBA{215, 220, 222, 0})
		}
	}
}

// augHand lays a hand and its sleeve over one corner intersection, coming in from the nearest
// image edge.
func augHand(rng *rand.Rand, f augFrame, p augPhoto) {
	hm, ok := augTruthH(f, p)
	if !ok {
		return
	}
	k := rng.IntN(4)
	gu, gv := [4]float64{0, 18, 18, 0}[k], [4]float64{0, 0, 18, 18}[k]
	du, dv := [4]float64{-1, 1, 1, -1}[k], [4]float64{-1, -1, 1, 1}[k]
	c := applyH(hm, Point2{gu + 0.3*du, gv + 0.3*dv})
	far := applyH(hm, Point2{gu + 6*du, gv + 6*dv})
	skin := [][3]uint8{{120, 150, 210}, {90, 120, 170}, {60, 80, 120}}[rng.IntN(3)]
	sleeve := [][3]uint8{{120, 40, 20}, {40, 40, 40}, {200, 200, 200}, {30, 30, 140}}[rng.IntN(4)]
	hand := gridPoly(hm, gu+0.6*du, gv+0.6*dv, 1.6+0.8*rng.Float64(), 24)
	// The sleeve: a wide band from the hand out past the image edge.
	dx, dy := far.X-c.X, far.Y-c.Y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	nx, ny := -dy/l, dx/l
	wdt := 1.5 * applyDist(hm, gu, gv)
	ext := 3 * float64(max(f.img.Cols(), f.img.Rows())) / l
	a := Point2{c.X + 1.5*dx/6*1, c.Y + 1.5*dy/6}
	b := Point2{c.X + dx*ext, c.Y + dy*ext}
	sl := []image.Point{
		image.Pt(int(a.X+nx*wdt), int(a.Y+ny*wdt)), image.Pt(int(b.X+nx*wdt), int(b.Y+ny*wdt)),
		image.Pt(int(b.X-nx*wdt), int(b.Y-ny*wdt)), image.Pt(int(a.X-nx*wdt), int(a.Y-ny*wdt)),
	}
	pv := gocv.NewPointsVectorFromPoints([][]image.Point{sl})
	gocv.FillPoly(&f.img, pv, color.RGBA{sleeve[0], sleeve[1], sleeve[2], 0})
	pv.Close()
	pv = gocv.NewPointsVectorFromPoints([][]image.Point{hand})
	gocv.FillPoly(&f.img, pv, color.RGBA{skin[0], skin[1], skin[2], 0})
	pv.Close()
}

// applyDist is the image length of one spacing at grid point (u, v).
func applyDist(hm [9]float64, u, v float64) float64 {
	a, b := applyH(hm, Point2{u, v}), applyH(hm, Point2{u + 1, v})
	return math.Hypot(a.X-b.X, a.Y-b.Y)
}

// augTruthH is the grid-to-frame homography of a variant's true board.
func augTruthH(f augFrame, p augPhoto) ([9]float64, bool) {
	if !p.labelled() {
		return [9]float64{}, false
	}
	var cs [4]Point2
	for i, q := range p.corners {
		x, y, ok := f.h.applyPt(q.X, q.Y)
		if !ok {
			return [9]float64{}, false
		}
		cs[i] = Point2{x, y}
	}
	return gridH(19, 19, cs)
}

// augTruth is a variant's true calibration (corners ordered as Find orders them).
func augTruth(f augFrame, p augPhoto) (Calibration, bool) {
	var cs [4]Point2
	for i, q := range p.corners {
		x, y, ok := f.h.applyPt(q.X, q.Y)
		if !ok {
			return Calibration{}, false
		}
		cs[i] = Point2{x, y}
	}
	c := Calibration{Version: FormatVersion, ImageWidth: f.img.Cols(), ImageHeight: f.img.Rows(), Size: 19, Corners: orderCorners(cs), Confidence: 1}
	return c, true
}

// gridInFrame reports whether every corner intersection of c lies inside the frame.
func gridInFrame(c Calibration) bool {
	for _, q := range c.Corners {
		if q.X < 0 || q.Y < 0 || q.X > float64(c.ImageWidth-1) || q.Y > float64(c.ImageHeight-1) {
			return false
		}
	}
	return true
}

// cornerErrorAnyTurn is cornerErrorInSpacings, taking the best of the four ways the corners of
// a square grid can be matched (a found grid's TL need not be the truth's after a quarter turn).
func cornerErrorAnyTurn(got, gt Calibration) float64 {
	best := math.Inf(1)
	for s := 0; s < 4; s++ {
		g := gt
		for i := range g.Corners {
			g.Corners[i] = gt.Corners[(i+s)%4]
		}
		best = math.Min(best, cornerErrorInSpacings(got, g))
	}
	return best
}

// refusalReason shortens a Find error (or vision.FindBoard's, whose grid check refuses a fit
// that shows its lines at too few points) to its kind.
func refusalReason(err error) string {
	s := err.Error()
	switch {
	case strings.Contains(s, "shows its lines"):
		return "gridcheck"
	case strings.Contains(s, "not entirely in view"):
		return "inview"
	case strings.Contains(s, "no regular lattice"):
		return "lattice"
	case strings.Contains(s, "confidence"):
		return "lowconf"
	case strings.Contains(s, "too few straight"):
		return "fewlines"
	default:
		return "other"
	}
}

// augPhotos collects the sources. Imago photos have no corners: their ground truth is the
// finder's grid on the full photo, kept only when the labelled stones sit on dark and bright
// points at its intersections (as TestFindImago checks it). Every stride-th photo is used.
func augPhotos(t *testing.T, stride int) []augPhoto {
	t.Helper()
	var out []augPhoto
	gdir, truth := verifiedCorners(t)
	names := make([]string, 0, len(truth))
	for k := range truth {
		names = append(names, k)
	}
	sort.Strings(names)
	for i, name := range names {
		if i%stride != 0 {
			continue
		}
		var cs [4]Point2
		for j, q := range truth[name] {
			cs[j] = Point2{q[0], q[1]}
		}
		out = append(out, augPhoto{source: "gomrade", path: filepath.Join(gdir, filepath.FromSlash(name)), corners: cs})
	}
	idir := shareddata.Path(t, "vision-eval", "imago-tests")
	for _, set := range []string{"t1", "t2", "t3"} {
		files, _ := filepath.Glob(filepath.Join(idir, set, "*.jpg"))
		skip, _ := filepath.Glob(filepath.Join(idir, set, "skip", "*.jpg"))
		files = append(files, skip...)
		sort.Strings(files)
		for i, f := range files {
			if i%stride != 0 {
				continue
			}
			labels, err := readLabels(strings.TrimSuffix(f, ".jpg") + ".txt")
			if err != nil {
				t.Fatal(err)
			}
			img := loadRaw(t, f)
			c, err := Find(img, FindOptions{Size: 19})
			if err != nil {
				img.Close()
				t.Logf("%s: no ground truth (%v)", filepath.Base(f), err)
				continue
			}
			good, total := stoneCheck(img, c, labels)
			img.Close()
			if good < total*9/10 || c.Confidence < 0.5 {
				t.Logf("%s: no ground truth (stones %d/%d, confidence %.2f)", filepath.Base(f), good, total, c.Confidence)
				continue
			}
			out = append(out, augPhoto{source: "imago-" + set, path: f, corners: c.Corners})
		}
	}
	rdir := shareddata.Path(t, "vision-eval", "roboflow-stone-detection")
	var rfiles []string
	for _, sp := range []string{"valid", "test"} {
		m, _ := filepath.Glob(filepath.Join(rdir, sp, "images", "*.jpg"))
		rfiles = append(rfiles, m...)
	}
	sort.Strings(rfiles)
	notWhole := readNotWhole(t)
	for i, f := range rfiles {
		if i%stride != 0 {
			continue
		}
		// A photo whose board the picture cuts (testdata/roboflow-not-whole.txt) is left out:
		// its variants are not whole boards, and a warp that frames it in black can show the cut
		// line's place as a sleeve over the board would, where a grid is right. Its refusal is
		// TestFindBoardRoboflow's to check.
		if notWhole[filepath.Base(f)[:12]] {
			continue
		}
		lbl := strings.Replace(strings.Replace(f, "/images/", "/labels/", 1), ".jpg", ".txt", 1)
		out = append(out, augPhoto{source: "roboflow", path: f, stones: roboflowStones(lbl)})
	}
	return out
}

// readNotWhole reads testdata/roboflow-not-whole.txt, the Roboflow photos judged not to show a
// whole board (the first field of each line not starting with #).
func readNotWhole(t *testing.T) map[string]bool {
	t.Helper()
	const path = "testdata/roboflow-not-whole.txt"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && !strings.HasPrefix(f[0], "#") {
			if len(f[0]) != 12 || f[1] != "cut" && f[1] != "size" {
				t.Fatalf("%s: bad line %q", path, l)
			}
			m[f[0]] = true
		}
	}
	return m
}

// roboflowStones reads the stone centres of a YOLO label file, in 640x640 pixels.
func roboflowStones(path string) []Point2 {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []Point2
	for _, line := range strings.Split(string(b), "\n") {
		var cls int
		var x, y, w, h float64
		if n, _ := fmt.Sscan(line, &cls, &x, &y, &w, &h); n == 5 {
			out = append(out, Point2{x * 640, y * 640})
		}
	}
	return out
}

// augTally counts one source's (or kind's) outcomes.
type augTally struct {
	n, found, low, wrong int
	sureWrong            int // wrong grids with confidence >= DefaultMinConfidence
	refused              map[string]int
	errs                 []float64
	falseFinds           int // grids found where lines are cut off
	cut                  int
}

func (a *augTally) add(o augTally) {
	if a.refused == nil {
		a.refused = map[string]int{}
	}
	a.n += o.n
	a.found += o.found
	a.low += o.low
	a.wrong += o.wrong
	a.sureWrong += o.sureWrong
	a.cut += o.cut
	a.falseFinds += o.falseFinds
	for k, v := range o.refused {
		a.refused[k] += v
	}
	a.errs = append(a.errs, o.errs...)
}

func (a *augTally) String() string {
	var rs []string
	for _, k := range []string{"inview", "lattice", "lowconf", "fewlines", "other"} {
		if a.refused[k] > 0 {
			rs = append(rs, fmt.Sprintf("%s %d", k, a.refused[k]))
		}
	}
	med, worst := math.NaN(), math.NaN()
	if len(a.errs) > 0 {
		e := append([]float64(nil), a.errs...)
		sort.Float64s(e)
		med, worst = e[len(e)/2], e[len(e)-1]
	}
	return fmt.Sprintf("%4d  found %4d (%5.1f%%, %3d under conf 0.5)  wrong %3d (%d sure)  err med %.3f worst %.3f  refused: %s  | cut frames %d, grids found in them %d",
		a.n, a.found, 100*float64(a.found)/math.Max(1, float64(a.n)), a.low, a.wrong, a.sureWrong, med, worst, strings.Join(rs, ", "), a.cut, a.falseFinds)
}

// augOutcome runs Find on one variant and scores it.
func augOutcome(p augPhoto, k augKind, f augFrame) (augTally, string) {
	var o augTally
	o.refused = map[string]int{}
	opts := FindOptions{Size: 19, MinConfidence: 0.3} // as the kiosk reads a 19x19 photo (vision.FindBoard)
	if !p.labelled() {
		opts.Size = 0
	}
	c, err := Find(f.img, opts)
	if !k.inView {
		o.cut = 1
		if err == nil {
			o.falseFinds = 1
			return o, fmt.Sprintf("FOUND in a cut frame (conf %.2f)", c.Confidence)
		}
		return o, "refused " + refusalReason(err)
	}
	o.n = 1
	if err != nil {
		if !errors.Is(err, ErrNoBoard) {
			return o, "error " + err.Error()
		}
		o.refused[refusalReason(err)]++
		return o, "refused " + err.Error()
	}
	o.found = 1
	if c.Confidence < 0.5 {
		o.low = 1
	}
	if !p.labelled() {
		on, inside, total := 0, 0, 0
		for _, s := range p.stones {
			x, y, ok := f.h.applyPt(s.X, s.Y)
			if !ok || x < 0 || y < 0 || x >= float64(f.img.Cols()) || y >= float64(f.img.Rows()) {
				continue
			}
			g := c.ImageToGrid(Point2{x, y})
			total++
			if !onBoard(g, c.Size, c.Size) {
				continue
			}
			inside++
			if offPoint(g) < 0.3 {
				on++
			}
		}
		if total >= 5 && (float64(on) < 0.8*float64(inside) || float64(inside) < 0.6*float64(total)) {
			o.wrong = 1
			if c.Confidence >= DefaultMinConfidence {
				o.sureWrong = 1
			}
			return o, fmt.Sprintf("WRONG size %d conf %.2f stones %d/%d of %d", c.Size, c.Confidence, on, inside, total)
		}
		return o, fmt.Sprintf("ok size %d conf %.2f stones %d/%d of %d", c.Size, c.Confidence, on, inside, total)
	}
	gt, _ := augTruth(f, p)
	e := cornerErrorAnyTurn(c, gt)
	if c.Size != 19 || e > 0.5 {
		o.wrong = 1
		if c.Confidence >= DefaultMinConfidence {
			o.sureWrong = 1
		}
		return o, fmt.Sprintf("WRONG size %d conf %.2f corner error %.2f spacing: corners %.0f, true %.0f", c.Size, c.Confidence, e, c.Corners, gt.Corners)
	}
	o.errs = append(o.errs, e)
	return o, fmt.Sprintf("ok conf %.2f corner error %.3f", c.Confidence, e)
}

// TestAugmentedRobustness is the robustness evaluation (see the top of this file). By default it
// uses every fourth photo of each source and every kind of variant once (a couple of minutes);
// CALIB_AUGMENT=full uses every photo, CALIB_AUGMENT=N (a number) makes N variants of each kind
// per photo. CALIB_AUGMENT_DUMP=dir writes every variant that is not found right as a PNG.
// It fails when a source's found share or the cut-frame refusals drop under the floors below,
// or when any labelled variant is found wrong.
func TestAugmentedRobustness(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skips the augmented robustness evaluation")
	}
	stride, reps := 4, 1
	switch v := os.Getenv("CALIB_AUGMENT"); {
	case v == "full":
		stride = 1
	case v != "":
		if _, err := fmt.Sscan(v, &reps); err != nil || reps < 1 {
			t.Fatalf("CALIB_AUGMENT=%q: want full or a number", v)
		}
	}
	dump := os.Getenv("CALIB_AUGMENT_DUMP")
	photos := augPhotos(t, stride)
	kinds := augKinds()
	bySource := map[string]*augTally{}
	byKind := map[string]*augTally{}
	var sources []string
	start := time.Now()
	only := os.Getenv("CALIB_AUGMENT_ONLY")       // a developer aid: only photos whose path contains it
	kindsOnly := os.Getenv("CALIB_AUGMENT_KINDS") // and only these kinds (comma-separated)
	eachVariant(t, photos, kinds, reps, only, kindsOnly, func(p augPhoto, name string, k augKind, r int, f augFrame) {
		o, msg := augOutcome(p, k, f)
		t.Logf("%-9s %-14s %-11s %s", p.source, name, k.name, msg)
		if dump != "" && (o.wrong > 0 || o.low > 0 || o.falseFinds > 0 || (k.inView && o.found == 0)) {
			gocv.IMWrite(filepath.Join(dump, fmt.Sprintf("%s_%s_%s_%d.png", p.source, name, k.name, r)), f.img)
		}
		if bySource[p.source] == nil {
			bySource[p.source] = &augTally{}
			sources = append(sources, p.source)
		}
		bySource[p.source].add(o)
		if byKind[k.name] == nil {
			byKind[k.name] = &augTally{}
		}
		if p.labelled() {
			byKind[k.name].add(o)
		}
	})
	t.Logf("augmented robustness, %d photos, %v:", len(photos), time.Since(start).Round(time.Second))
	for _, s := range sources {
		t.Logf("  %-10s %s", s, bySource[s])
	}
	for _, k := range kinds {
		if byKind[k.name] != nil {
			t.Logf("  %-11s %s", k.name, byKind[k.name])
		}
	}
	// Floors, set just under what the finder reaches in the default run (found share per
	// source: gomrade 59 of 65, t1 26 of 26, t2 90 of 91, t3 52 of 52, Roboflow 42 of 48 when the
	// floors were set, variants seeded by photo name; on 2026-12-03 gomrade 63 of 65, t1 39 of 39, t2 91,
	// t3 52, and Roboflow 42 of 42 without the photo whose board the picture cuts, 44 of
	// 48 with it); a drop is a regression. A wrong grid the finder is sure of (confidence of at
	// least DefaultMinConfidence) is never allowed on the labelled sources; Roboflow's check
	// (stone boxes on intersections) is looser, so one such grid in a hundred is let pass there
	// (and any wrong grid in forty: the default run has one, at 82 of 103 stones on). Frames
	// whose grid is cut by the picture's edge must all be refused.
	floors := map[string]float64{"gomrade": 0.95, "imago-t1": 0.95, "imago-t2": 0.97, "imago-t3": 0.98, "roboflow": 0.95}
	if stride != 4 || reps != 1 || only != "" || kindsOnly != "" {
		floors = map[string]float64{} // another selection: figures only
	}
	for _, s := range sources {
		a := bySource[s]
		if frac := float64(a.found) / math.Max(1, float64(a.n)); frac < floors[s] {
			t.Errorf("%s: found %.0f%% of the variants (floor %.0f%%)", s, 100*frac, 100*floors[s])
		}
		allowed, allowedAny := 0, 1
		if s == "roboflow" {
			allowed, allowedAny = max(1, a.n/100), max(2, a.n/40)
		}
		if a.sureWrong > allowed || a.wrong > allowedAny {
			t.Errorf("%s: %d variants found with a wrong grid, %d of them with confidence >= %.1f", s, a.wrong, a.sureWrong, DefaultMinConfidence)
		}
		if a.falseFinds > 0 {
			t.Errorf("%s: %d frames with grid lines cut off gave a board", s, a.falseFinds)
		}
	}
}

// eachVariant makes reps variants of every kind (or of the kinds named in kindsOnly,
// comma-separated) of every photo (or of those whose path contains only) and hands each to fn,
// which must not keep the frame: it is closed when fn returns. Labelled variants that did not
// come out as meant (the whole grid in view, or cut, as the kind says) are skipped.
func eachVariant(t *testing.T, photos []augPhoto, kinds []augKind, reps int, only, kindsOnly string, fn func(p augPhoto, name string, k augKind, r int, f augFrame)) {
	t.Helper()
	for _, p := range photos {
		if only != "" && !strings.Contains(p.path, only) {
			continue
		}
		src := loadRaw(t, p.path)
		name := strings.TrimSuffix(filepath.Base(p.path), ".jpg")
		if p.source == "gomrade" {
			rel, _ := filepath.Rel(filepath.Dir(filepath.Dir(p.path)), p.path)
			name = strings.ReplaceAll(strings.TrimSuffix(rel, ".jpg"), "/", "_")
		}
		if p.source == "roboflow" {
			name = name[:12]
		}
		h := fnv.New64a()
		h.Write([]byte(p.source + "/" + name))
		seed := h.Sum64()
		for ki, k := range kinds {
			if k.needsCorners && !p.labelled() || kindsOnly != "" && !strings.Contains(","+kindsOnly+",", ","+k.name+",") {
				continue
			}
			for r := 0; r < reps; r++ {
				// Seeded by the photo's name, not its place in the list: a photo gaining or
				// losing its ground truth leaves every other photo's variants as they were.
				rng := rand.New(rand.NewPCG(seed+uint64(ki), uint64(r+1)))
				f := k.make(rng, src, p)
				if p.labelled() {
					gt, ok := augTruth(f, p)
					if !ok || gridInFrame(gt) != k.inView {
						f.img.Close()
						continue // the variant did not come out as meant (a rare framing)
					}
				}
				fn(p, name, k, r, f)
				f.img.Close()
			}
		}
		src.Close()
	}
}
