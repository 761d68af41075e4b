package calib

import (
	"fmt"
	"image"
	"math"

	"gocv.io/x/gocv"
)

// Lens limits: a Calibration's Lens outside them is refused (ErrCorrupt). Below MinLens the
// model folds the frame's corners back on themselves; above MaxLens no camera a table uses bends.
const (
	MinLens = -0.25
	MaxLens = 0.5
)

// lensModel is one radial term about the frame's centre: a frame pixel d is where a pinhole camera
// would have put c + (d-c)(1 + k r^2), r being d's distance from the centre c in half-diagonals.
// Positive k is barrel distortion (straight lines bow outward), negative pincushion.
type lensModel struct {
	k, cx, cy, rn float64
}

func (c Calibration) lens() lensModel {
	w, h := float64(c.ImageWidth), float64(c.ImageHeight)
	return lensModel{k: c.Lens, cx: w / 2, cy: h / 2, rn: math.Hypot(w, h) / 2}
}

// straighten maps a frame pixel to the pinhole picture, where the board's lines are straight.
func (l lensModel) straighten(p Point2) Point2 {
	if l.k == 0 || l.rn == 0 {
		return p
	}
	dx, dy := (p.X-l.cx)/l.rn, (p.Y-l.cy)/l.rn
	f := 1 + l.k*(dx*dx+dy*dy)
	return Point2{l.cx + dx*f*l.rn, l.cy + dy*f*l.rn}
}

// bend maps a pixel of the pinhole picture to the frame (the inverse of straighten), by Newton's
// method on the radius.
func (l lensModel) bend(p Point2) Point2 {
	if l.k == 0 || l.rn == 0 {
		return p
	}
	ux, uy := (p.X-l.cx)/l.rn, (p.Y-l.cy)/l.rn
	ru := math.Hypot(ux, uy)
	if ru == 0 {
		return p
	}
	rd := ru
	for range 12 {
		d := 1 + 3*l.k*rd*rd
		if d <= 0.05 {
			break // past the fold of a strong pincushion: no frame pixel maps there
		}
		step := (rd*(1+l.k*rd*rd) - ru) / d
		rd -= step
		if math.Abs(step) < 1e-10 {
			break
		}
	}
	s := rd / ru
	return Point2{l.cx + ux*s*l.rn, l.cy + uy*s*l.rn}
}

// checkLens refuses a lens term that is not a number or outside MinLens..MaxLens.
func checkLens(k float64) error {
	if math.IsNaN(k) || k < MinLens || k > MaxLens {
		return fmt.Errorf("%w: lens term %v outside %g..%g", ErrCorrupt, k, MinLens, MaxLens)
	}
	return nil
}

// Lens fitting: the terms tried, and what a term must show to be kept.
const (
	// lensStep and lensSteps are the coarse search, 0 to 0.3 (a strong webcam lens); the best
	// term is then refined in steps of lensStep/4 around it. Only barrel terms are tried: a
	// wide lens above a board bows lines outward. Tried both ways on the labelled photos, a
	// pincushion term was fitted to a Roboflow photo whose straight grid sat a little off its
	// faint lines, where bending either way raised the contrast, and read it worse.
	lensStep  = 0.02
	lensSteps = 15
	// lensGain is how much more line contrast the best term must show than none.
	lensGain = 0.02
)

// FitLens returns cal with the Lens term under which its grid lies best on the board's lines in
// frame, the corners kept where they are. A homography through four corners is a pinhole
// camera's grid; a wide lens bows the lines between them, a fifth of a spacing or more at a
// 19x19 board's edges, which is where the reader would then look beside its stones. The lines'
// contrast is measured along every grid line for barrel terms from 0 to 0.3, and the best term
// is kept only when it is a lens's doing: the lines show lensGain more contrast with it than
// without, they show more along each of the board's four sides, and bending the other way
// shows less than no term (a straight grid a little off its lines gains from a bend either
// way). Otherwise Lens is 0. A calibration's frames never change the term, so it is fitted
// once, when the board is found or its corners set.
func FitLens(frame gocv.Mat, cal Calibration) (Calibration, error) {
	if err := cal.Validate(); err != nil {
		return cal, err
	}
	if err := cal.CheckImage(frame.Cols(), frame.Rows()); err != nil {
		return cal, err
	}
	gray, err := lensGray(frame, cal.Spacing())
	if err != nil {
		return cal, err
	}
	defer gray.Close()
	pix, err := gray.DataPtrUint8()
	if err != nil || len(pix) != gray.Cols()*gray.Rows() {
		return cal, fmt.Errorf("%w: grey frame: %v", ErrBadImage, err)
	}
	// A view of OpenCV's memory, read while gray is open: no copy on the Go heap.
	g := grayPlane{w: gray.Cols(), h: gray.Rows(), pix: pix}
	// The lines' polarity as they show with no term: corners set by hand do not say it.
	at := func(k float64, light bool) Calibration {
		c := cal
		c.Lens, c.LightLines = k, light
		return c
	}
	samples := lineSamples(&g, cal)
	dark, _ := lineContrast(&g, at(0, false), samples)
	lightC, _ := lineContrast(&g, at(0, true), samples)
	light := lightC > dark
	score := func(k float64) float64 {
		s, _ := lineContrast(&g, at(k, light), samples)
		return s
	}
	base, sides0 := lineContrast(&g, at(0, light), samples)
	best, bestK := base, 0.0
	for i := 1; i <= lensSteps; i++ {
		k := lensStep * float64(i)
		if s := score(k); s > best {
			best, bestK = s, k
		}
	}
	coarse := bestK
	for i := -3; i <= 3; i++ {
		k := coarse + lensStep/4*float64(i)
		if i == 0 || k <= 0 {
			continue
		}
		if s := score(k); s > best {
			best, bestK = s, k
		}
	}
	cal.Lens = 0
	if bestK == 0 || base <= 0 || best < base*(1+lensGain) || score(-bestK) >= base {
		return cal, nil
	}
	_, sides := lineContrast(&g, at(bestK, light), samples)
	for i := range sides {
		if sides[i] <= sides0[i] {
			return cal, nil
		}
	}
	cal.Lens = math.Round(bestK*1e4) / 1e4
	return cal, nil
}

// lensGray is the frame in grey, smoothed a little so that a line a pixel wide is seen from
// a fraction of a pixel beside it. The caller closes it.
func lensGray(frame gocv.Mat, spacing float64) (gocv.Mat, error) {
	gray := gocv.NewMat()
	switch {
	case frame.Empty():
	case frame.Type() == gocv.MatTypeCV8UC1:
		frame.CopyTo(&gray)
	case frame.Type() == gocv.MatTypeCV8UC3:
		gocv.CvtColor(frame, &gray, gocv.ColorBGRToGray)
	case frame.Type() == gocv.MatTypeCV8UC4:
		gocv.CvtColor(frame, &gray, gocv.ColorBGRAToGray)
	}
	if gray.Empty() || !gray.IsContinuous() {
		gray.Close()
		return gocv.Mat{}, fmt.Errorf("%w: need 8-bit grey, BGR or BGRA pixels, got %v (%dx%d)", ErrBadImage, frame.Type(), frame.Cols(), frame.Rows())
	}
	sigma := max(0.8, spacing/40)
	gocv.GaussianBlur(gray, &gray, image.Pt(0, 0), sigma, sigma, gocv.BorderReplicate)
	return gray, nil
}

// lineSample is where lineContrast looks: a point on a grid line and the two points a third of a
// spacing to either side of it, in grid coordinates, and the board edge it is nearest to (left,
// top, right, bottom) when it lies in the board's outer third, or -1.
type lineSample struct {
	on, a, b Point2
	side     int
}

// lineSamples lists every fifth of a spacing along every grid line of cal whose three points lie
// in g on the straight grid through the corners: lineContrast judges every lens term on the same
// samples, and one a term bends out of the frame counts as no contrast.
func lineSamples(g *grayPlane, cal Calibration) []lineSample {
	straight := cal
	straight.Lens = 0
	at := straight.GridMapper()
	inFrame := func(p Point2) bool {
		q := at(p.X, p.Y)
		_, ok := g.bilinear(q.X, q.Y)
		return ok
	}
	n := float64(cal.Size - 1)
	const side, step = 0.3, 0.2
	out := make([]lineSample, 0, 2*(cal.Size)*(int(n/step)+1))
	for i := 0; i <= int(n); i++ {
		fi := float64(i)
		for j := 0; float64(j)*step <= n+1e-9; j++ {
			t := float64(j) * step
			for _, q := range [2]lineSample{
				{on: Point2{fi, t}, a: Point2{fi - side, t}, b: Point2{fi + side, t}}, // across column line i
				{on: Point2{t, fi}, a: Point2{t, fi - side}, b: Point2{t, fi + side}}, // across row line i
			} {
				if !inFrame(q.on) || !inFrame(q.a) || !inFrame(q.b) {
					continue
				}
				d := [4]float64{q.on.X, q.on.Y, n - q.on.X, n - q.on.Y}
				q.side = 0
				for k := range d {
					if d[k] < d[q.side] {
						q.side = k
					}
				}
				if d[q.side] >= n/3 {
					q.side = -1
				}
				out = append(out, q)
			}
		}
	}
	return out
}

// lineContrast is the mean contrast of cal's grid lines in g at the samples: how much darker the
// line is than the board to either side (or lighter, for light lines), counted from 0 up to a cap
// so that a stone's rim or a shadow does not outweigh the lines. sides is the same on the samples
// nearest each of the board's edges in its outer third, where a lens bends the grid most.
func lineContrast(g *grayPlane, cal Calibration, samples []lineSample) (all float64, sides [4]float64) {
	if len(samples) == 0 {
		return 0, sides
	}
	at := cal.GridMapper()
	sign := 1.0
	if cal.LightLines {
		sign = -1
	}
	const cap = 40.0
	var sum float64
	var sideSum [4]float64
	var sideCount [4]int
	for _, q := range samples {
		p0, p1, p2 := at(q.on.X, q.on.Y), at(q.a.X, q.a.Y), at(q.b.X, q.b.Y)
		c, ok0 := g.bilinear(p0.X, p0.Y)
		a, ok1 := g.bilinear(p1.X, p1.Y)
		b, ok2 := g.bilinear(p2.X, p2.Y)
		v := 0.0
		if ok0 && ok1 && ok2 {
			v = max(0, min(cap, sign*((a+b)/2-c)))
		}
		sum += v
		if q.side >= 0 {
			sideSum[q.side] += v
			sideCount[q.side]++
		}
	}
	for k := range sides {
		if sideCount[k] > 0 {
			sides[k] = sideSum[k] / float64(sideCount[k])
		}
	}
	return sum / float64(len(samples)), sides
}
