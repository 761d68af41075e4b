package calib

import (
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"
)

// plane is a single-channel float image held in Go memory, so the search loops run without cgo
// calls. A compact plane keeps 8-bit values in pix8 instead (pix is nil), viewing the bytes of
// the Mat it was made from: a line map that is only sampled, for as long as the workImage
// holding that Mat is open.
type plane struct {
	w, h int
	pix  []float32
	pix8 []uint8
}

// at samples p bilinearly; points outside the image read as 0.
func (p *plane) at(x, y float64) float32 {
	if !(x >= 0 && y >= 0 && x <= float64(p.w-1) && y <= float64(p.h-1)) {
		return 0
	}
	x0, y0 := int(x), int(y)
	x1, y1 := x0+1, y0+1
	if x1 >= p.w {
		x1 = x0
	}
	if y1 >= p.h {
		y1 = y0
	}
	fx, fy := float32(x-float64(x0)), float32(y-float64(y0))
	i00, i01, i10, i11 := y0*p.w+x0, y0*p.w+x1, y1*p.w+x0, y1*p.w+x1
	var v00, v01, v10, v11 float32
	if p.pix8 != nil {
		v00, v01, v10, v11 = float32(p.pix8[i00]), float32(p.pix8[i01]), float32(p.pix8[i10]), float32(p.pix8[i11])
	} else {
		v00, v01, v10, v11 = p.pix[i00], p.pix[i01], p.pix[i10], p.pix[i11]
	}
	r0 := v00*(1-fx) + v01*fx
	r1 := v10*(1-fx) + v11*fx
	return r0*(1-fy) + r1*fy
}

// histogram counts the plane's values, clamped to 0..255, in 256 bins.
func (p *plane) histogram() (hist [256]int, n int) {
	if p.pix8 != nil {
		for _, v := range p.pix8 {
			hist[v]++
		}
		return hist, len(p.pix8)
	}
	for _, v := range p.pix {
		hist[min(255, max(0, int(v)))]++
	}
	return hist, len(p.pix)
}

// planeFromMat copies a single-channel CV_8U or CV_32F Mat into a plane; with compact, an 8-bit
// Mat's values stay bytes (pix8), not copied: the plane reads m's memory and must not be used
// once m is closed.
func planeFromMat(m gocv.Mat, compact bool) (plane, error) {
	if m.Empty() || m.Channels() != 1 {
		return plane{}, fmt.Errorf("%w: need one channel", ErrBadImage)
	}
	w, h := m.Cols(), m.Rows()
	p := plane{w: w, h: h}
	switch m.Type() {
	case gocv.MatTypeCV8U:
		if !m.IsContinuous() {
			return plane{}, fmt.Errorf("%w: non-continuous Mat", ErrBadImage)
		}
		b, err := m.DataPtrUint8()
		if err != nil {
			return plane{}, fmt.Errorf("%w: %v", ErrBadImage, err)
		}
		if compact {
			p.pix8 = b[: w*h : w*h]
			return p, nil
		}
		p.pix = make([]float32, w*h)
		for i := range p.pix {
			p.pix[i] = float32(b[i])
		}
	case gocv.MatTypeCV32F:
		if !m.IsContinuous() {
			return plane{}, fmt.Errorf("%w: non-continuous Mat", ErrBadImage)
		}
		f, err := m.DataPtrFloat32()
		if err != nil {
			return plane{}, fmt.Errorf("%w: %v", ErrBadImage, err)
		}
		p.pix = append([]float32(nil), f[:w*h]...)
	default:
		return plane{}, fmt.Errorf("%w: Mat type %v", ErrBadImage, m.Type())
	}
	return p, nil
}

// workImage is a frame prepared for grid finding: downscaled and turned into a map of thin dark
// lines (a morphological black-hat), which is what grid lines are on every board we know of.
type workImage struct {
	sx, sy float64   // work pixels per original pixel (<= 1), horizontally and vertically
	lines  plane     // black-hat response, lightly blurred, in work pixels
	gray   grayPlane // the grey work image, for reading stones (finding only; empty for drift checks)
	segs   []segment
	// lineMat is the line map a compact lines plane views (nil otherwise); close releases it.
	lineMat *gocv.Mat
}

// close releases the OpenCV memory a compact line map views; the workImage must not be used
// after. It is a no-op for a workImage whose planes are Go copies.
func (w *workImage) close() {
	if w.lineMat != nil {
		w.lineMat.Close()
		w.lineMat, w.lines = nil, plane{}
	}
}

// defaultWorkSize is the longer side, in pixels, that frames are reduced to before finding.
const defaultWorkSize = 1000

// prepare converts img (BGR, BGRA or grey, any size) into a workImage whose longer side is at
// most maxSide pixels.
func prepare(img gocv.Mat, maxSide int) (*workImage, error) {
	return prepareWith(img, maxSide, true, lineFilter{})
}

// lineFilter says how prepareWith brings out a board's lines.
type lineFilter struct {
	light  bool // light lines on a dark board (a top-hat filter instead of a black-hat)
	wide   bool // a kernel for blurred or thick lines
	smooth bool // smooth the frame first: sensor noise breaks a blurred line into short pieces
	// floor subtracts the line map's noise floor once the segments are found (removeFloor): in a
	// dim, noisy frame the filter's response to noise is most of a faint line's own.
	floor bool
	// equalize evens out the frame's contrast tile by tile (CLAHE) before the filter: a pale
	// board under a dim lamp, or a dark one, has lines a few levels from the wood, under the
	// segment search's least response.
	equalize bool
	// compact keeps the line map as bytes (a compact plane): a drift check only samples it, and
	// every second a float copy of it was the kiosk's largest passing allocation.
	compact bool
}

// equalizeClip and equalizeTiles set the contrast equalization of lineFilter.equalize: each of
// equalizeTiles x equalizeTiles tiles has its histogram spread, its contrast gain capped at
// equalizeClip.
const (
	equalizeClip  = 3.0
	equalizeTiles = 8
)

// shrunkSize is the size img is reduced to for its longer side to be maxSide, and whether it
// must be reduced at all.
func shrunkSize(img gocv.Mat, maxSide int) (image.Point, bool) {
	long := max(img.Cols(), img.Rows())
	if long <= maxSide {
		return image.Point{}, false
	}
	f := float64(maxSide) / float64(long)
	return image.Pt(max(1, int(math.Round(float64(img.Cols())*f))), max(1, int(math.Round(float64(img.Rows())*f)))), true
}

// shrinkToGray returns img (8-bit grey, BGR or BGRA) as grey with its longer side at most
// maxSide, and the scale from img's pixels to it along x and y. It shrinks first, still in
// colour, then converts: a 4032x3024 frame never gets a full-size grey copy. The caller closes
// the result.
func shrinkToGray(img gocv.Mat, maxSide int) (gocv.Mat, float64, float64) {
	src := img
	sx, sy := 1.0, 1.0
	small := gocv.NewMat()
	defer small.Close()
	if sz, ok := shrunkSize(img, maxSide); ok {
		gocv.Resize(img, &small, sz, 0, 0, gocv.InterpolationArea)
		src = small
		sx, sy = float64(sz.X)/float64(img.Cols()), float64(sz.Y)/float64(img.Rows())
	}
	gray := gocv.NewMat()
	switch src.Channels() {
	case 1:
		src.CopyTo(&gray)
	case 3:
		gocv.CvtColor(src, &gray, gocv.ColorBGRToGray)
	default:
		gocv.CvtColor(src, &gray, gocv.ColorBGRAToGray)
	}
	return gray, sx, sy
}

// checkFrame returns an error wrapping ErrBadImage unless img is a picture of 8-bit grey, BGR or
// BGRA pixels, at least 16 pixels each way.
func checkFrame(img gocv.Mat) error {
	if img.Empty() || img.Cols() < 16 || img.Rows() < 16 {
		return fmt.Errorf("%w: %dx%d", ErrBadImage, img.Cols(), img.Rows())
	}
	switch img.Type() {
	case gocv.MatTypeCV8UC1, gocv.MatTypeCV8UC3, gocv.MatTypeCV8UC4:
		return nil
	default:
		return fmt.Errorf("%w: need 8-bit grey, BGR or BGRA pixels, got %v", ErrBadImage, img.Type())
	}
}

// prepareWith is prepare, optionally skipping the line-segment search (drift checks only
// sample the line map), with the line filter f. With f.compact the caller must close the
// workImage.
func prepareWith(img gocv.Mat, maxSide int, segments bool, f lineFilter) (*workImage, error) {
	if err := checkFrame(img); err != nil {
		return nil, err
	}
	// Each intermediate image is released as soon as the next one is made (Close is then a
	// no-op for the deferred calls): a drift check runs every second beside the camera loop,
	// and the kiosk's peak memory is its frames and these at one moment.
	gray, sx, sy := shrinkToGray(img, maxSide)
	defer gray.Close()
	var err error
	w := &workImage{sx: sx, sy: sy}
	if segments {
		if w.gray, err = grayFromMat(gray); err != nil {
			return nil, err
		}
	}
	// Kernel a few times a grid line's width at this scale, smaller than a stone.
	k := max(5, int(math.Round(float64(max(gray.Cols(), gray.Rows()))/140))|1)
	if f.wide {
		// A blurred or thick line is wider than that kernel and shows only faintly in its
		// response; this kernel catches it (still narrower than a grid cell in most frames).
		k = int(math.Round(float64(k)*1.8)) | 1
	}
	kernel := gocv.GetStructuringElement(gocv.MorphEllipse, image.Pt(k, k))
	defer kernel.Close()
	// A compact line map views bh's bytes (a drift check every second used to copy them: the
	// kiosk's largest churn of Go memory), so the workImage then keeps bh until closed.
	compact := f.compact && !segments && !f.floor
	bh := gocv.NewMat()
	defer func() {
		if !compact {
			bh.Close()
		}
	}()
	op := gocv.MorphBlackhat // thin dark lines
	if f.light {
		op = gocv.MorphTophat // thin light lines
	}
	lineSrc := gray
	smooth := gocv.NewMat()
	defer smooth.Close()
	if f.smooth {
		// A blurred frame is often a noisy one too (a phone in dim club light): sensor noise
		// through the line filter breaks the lines into pieces too short for the line finder.
		// Smoothing first costs a blurred line little.
		gocv.GaussianBlur(gray, &smooth, image.Pt(0, 0), 1.2, 1.2, gocv.BorderReplicate)
		lineSrc = smooth
	}
	eq := gocv.NewMat()
	defer eq.Close()
	if f.equalize {
		c := gocv.NewCLAHEWithParams(equalizeClip, image.Pt(equalizeTiles, equalizeTiles))
		c.Apply(lineSrc, &eq)
		c.Close()
		lineSrc = eq
	}
	gocv.MorphologyEx(lineSrc, &bh, op, kernel)
	eq.Close()
	smooth.Close()
	gray.Close()
	gocv.GaussianBlur(bh, &bh, image.Pt(3, 3), 0.8, 0.8, gocv.BorderReplicate)

	if w.lines, err = planeFromMat(bh, compact); err != nil {
		compact = false
		return nil, err
	}
	if compact {
		w.lineMat = &bh
	}
	if segments {
		w.segs = findSegments(bh, &w.lines)
	}
	if f.floor {
		w.lines.removeFloor()
	}
	return w, nil
}

// segment is a straight piece of a dark line, in work pixels.
type segment struct {
	x1, y1, x2, y2 float64
	len            float64
}

// findSegments thresholds the line map at a high percentile and runs the probabilistic Hough
// transform on it.
func findSegments(bh gocv.Mat, lines *plane) []segment {
	hist, count := lines.histogram()
	// Grid lines cover a few per cent of a frame; keep the strongest 7% of pixels, but never
	// pixels barely darker than their surroundings (a black or flat frame has none).
	target := count * 93 / 100
	t, acc := 0, 0
	for t = 0; t < 255; t++ {
		acc += hist[t]
		if acc >= target {
			break
		}
	}
	t = max(t, 6)
	bin := gocv.NewMat()
	defer bin.Close()
	gocv.Threshold(bh, &bin, float32(t), 255, gocv.ThresholdBinary)
	long := float32(max(lines.w, lines.h))
	hl := gocv.NewMat()
	defer hl.Close()
	gocv.HoughLinesPWithParams(bin, &hl, 1, math.Pi/360, int(long/25), long/30, long/200)
	n := hl.Rows()
	const maxSegs = 4000
	if n > maxSegs {
		n = maxSegs
	}
	segs := make([]segment, 0, n)
	for i := 0; i < n; i++ {
		v := hl.GetVeciAt(i, 0)
		s := segment{x1: float64(v[0]), y1: float64(v[1]), x2: float64(v[2]), y2: float64(v[3])}
		s.len = math.Hypot(s.x2-s.x1, s.y2-s.y1)
		if s.len > 0 {
			segs = append(segs, s)
		}
	}
	return segs
}

// grayPlane is the grey work image, 8 bits a pixel, for reading stones.
type grayPlane struct {
	w, h int
	pix  []uint8
}

// grayFromMat copies a continuous CV_8UC1 Mat.
func grayFromMat(m gocv.Mat) (grayPlane, error) {
	if m.Type() != gocv.MatTypeCV8UC1 || !m.IsContinuous() {
		return grayPlane{}, fmt.Errorf("%w: grey plane needs a continuous 8-bit Mat", ErrBadImage)
	}
	b, err := m.DataPtrUint8()
	if err != nil {
		return grayPlane{}, fmt.Errorf("%w: %v", ErrBadImage, err)
	}
	return grayPlane{w: m.Cols(), h: m.Rows(), pix: append([]uint8(nil), b...)}, nil
}

// at reads the nearest pixel; ok is false outside the image.
func (g *grayPlane) at(x, y float64) (float64, bool) {
	xi, yi := int(x+0.5), int(y+0.5)
	if xi < 0 || yi < 0 || xi >= g.w || yi >= g.h {
		return 0, false
	}
	return float64(g.pix[yi*g.w+xi]), true
}

// bilinear reads the image between pixels; ok is false outside it.
func (g *grayPlane) bilinear(x, y float64) (float64, bool) {
	if !(x >= 0 && y >= 0 && x <= float64(g.w-1) && y <= float64(g.h-1)) {
		return 0, false
	}
	x0, y0 := min(int(x), g.w-2), min(int(y), g.h-2)
	if x0 < 0 || y0 < 0 {
		return 0, false
	}
	fx, fy := x-float64(x0), y-float64(y0)
	i := y0*g.w + x0
	a, b := float64(g.pix[i]), float64(g.pix[i+1])
	c, d := float64(g.pix[i+g.w]), float64(g.pix[i+g.w+1])
	return (a*(1-fx)+b*fx)*(1-fy) + (c*(1-fx)+d*fx)*fy, true
}

// removeFloor subtracts the line map's median, clipping at zero: most of a frame is no line, so
// the median is the filter's response to sensor noise and texture.
func (p *plane) removeFloor() {
	var hist [257]int
	for _, v := range p.pix {
		hist[min(256, max(0, int(v)))]++
	}
	half, acc, med := len(p.pix)/2, 0, 0
	for med = 0; med < 256; med++ {
		if acc += hist[med]; acc > half {
			break
		}
	}
	if med == 0 {
		return
	}
	f := float32(med)
	for i, v := range p.pix {
		p.pix[i] = max(0, v-f)
	}
}
