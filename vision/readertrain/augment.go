package readertrain

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"sort"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/vision/observe"
)

// Augmentation is one random change of a photo that a different camera, lamp or room would
// make: the things the reader failed on in photos it had never seen.
type Augmentation struct {
	Gain     [3]float64 // per-channel gains (B, G, R): white balance and coloured light
	Bright   float64    // overall gain
	Gamma    float64    // tone curve
	Slope    [2]float64 // light falling off across the picture (fraction per image width, height)
	Blur     float64    // Gaussian blur, sigma in grid spacings
	Noise    float64    // sensor noise, sigma in 8-bit levels
	Scale    float64    // the photo resized by this factor before reading (a smaller board)
	Jitter   float64    // corner error, sigma in grid spacings (an imperfect calibration)
	Glare    float64    // strength of a bright lamp reflection somewhere on the board (0..1)
	GlareX   float64    // where it falls, as fractions of the board (0..1)
	GlareY   float64
	Identity bool // no change at all
}

// RandomAugmentation draws one augmentation.
func RandomAugmentation(rng *rand.Rand) Augmentation {
	a := Augmentation{Bright: math.Exp(rng.Float64()*0.9 - 0.55), Gamma: math.Exp(rng.NormFloat64() * 0.25),
		Blur: rng.Float64() * 0.09, Noise: rng.Float64() * 7, Scale: 1, Jitter: 0.04 + 0.12*rng.Float64()}
	cast := rng.IntN(4) // 0: neutral-ish, 1: warm, 2: cold, 3: any colour
	for c := range a.Gain {
		a.Gain[c] = math.Exp(rng.NormFloat64() * 0.08)
	}
	switch cast {
	case 1:
		a.Gain[0] *= 0.6 + 0.25*rng.Float64()
		a.Gain[2] *= 1.1 + 0.2*rng.Float64()
	case 2:
		a.Gain[0] *= 1.1 + 0.25*rng.Float64()
		a.Gain[2] *= 0.65 + 0.25*rng.Float64()
	case 3:
		for c := range a.Gain {
			a.Gain[c] *= math.Exp(rng.NormFloat64() * 0.25)
		}
	}
	a.Slope = [2]float64{rng.NormFloat64() * 0.35, rng.NormFloat64() * 0.35}
	if rng.IntN(2) == 0 {
		a.Scale = 0.35 + 0.65*rng.Float64()
	}
	if rng.IntN(3) == 0 {
		a.Glare, a.GlareX, a.GlareY = 0.3+0.7*rng.Float64(), rng.Float64(), rng.Float64()
	}
	return a
}

// Apply returns an augmented copy of img (BGR) and the calibration moved with it (resized, with
// its corners jittered by rng). spacing is the grid spacing in img's pixels.
func (a Augmentation) Apply(img gocv.Mat, cal calib.Calibration, spacing float64, rng *rand.Rand) (gocv.Mat, calib.Calibration, error) {
	if a.Identity {
		return img.Clone(), cal, nil
	}
	out := gocv.NewMat()
	w, h := img.Cols(), img.Rows()
	if a.Scale < 0.999 {
		nw, nh := max(int(float64(w)*a.Scale), 16), max(int(float64(h)*a.Scale), 16)
		gocv.Resize(img, &out, image.Pt(nw, nh), 0, 0, gocv.InterpolationArea)
	} else {
		img.CopyTo(&out)
	}
	sx, sy := float64(out.Cols())/float64(w), float64(out.Rows())/float64(h)
	spacing *= sx
	var q [4]calib.Point2
	for i, c := range cal.Corners {
		q[i] = calib.Point2{X: c.X*sx + rng.NormFloat64()*a.Jitter*spacing, Y: c.Y*sy + rng.NormFloat64()*a.Jitter*spacing}
	}
	nc, err := calib.FromCorners(out.Cols(), out.Rows(), cal.Size, q)
	if err != nil {
		out.Close()
		return gocv.Mat{}, calib.Calibration{}, fmt.Errorf("readertrain: jittered corners: %w", err)
	}
	nc.BlackSide, nc.Lens = cal.BlackSide, cal.Lens // the term is in half-diagonals: it holds when scaled
	if a.Blur > 0.005 {
		sigma := a.Blur * spacing
		k := int(math.Ceil(sigma*3))*2 + 1
		gocv.GaussianBlur(out, &out, image.Pt(k, k), sigma, sigma, gocv.BorderReplicate)
	}
	pix, err := out.DataPtrUint8()
	if err != nil {
		out.Close()
		return gocv.Mat{}, calib.Calibration{}, fmt.Errorf("readertrain: %w", err)
	}
	ow, oh := out.Cols(), out.Rows()
	var lut [3][256]float64
	for c := 0; c < 3; c++ {
		for v := 0; v < 256; v++ {
			lut[c][v] = 255 * math.Pow(float64(v)/255, a.Gamma) * a.Gain[c] * a.Bright
		}
	}
	// The glare: a soft bright spot around a point of the board, whiter than the light.
	var gx, gy, gr float64
	if a.Glare > 0 {
		p := nc.GridPixel(a.GlareX*float64(cal.Size-1), a.GlareY*float64(cal.Size-1))
		gx, gy, gr = p.X, p.Y, spacing*(1.5+3*a.Glare)
	}
	noise := rand.New(rand.NewPCG(rng.Uint64(), 7))
	for y := 0; y < oh; y++ {
		fy := float64(y)/float64(oh) - 0.5
		for x := 0; x < ow; x++ {
			fx := float64(x)/float64(ow) - 0.5
			light := math.Max(0.2, 1+a.Slope[0]*fx+a.Slope[1]*fy)
			var spot float64
			if gr > 0 {
				dx, dy := (float64(x)-gx)/gr, (float64(y)-gy)/gr
				if d2 := dx*dx + dy*dy; d2 < 4 {
					spot = a.Glare * 255 * math.Exp(-2*d2)
				}
			}
			k := 3 * (y*ow + x)
			n := 0.0
			if a.Noise > 0 {
				n = noise.NormFloat64() * a.Noise
			}
			for c := 0; c < 3; c++ {
				v := lut[c][pix[k+c]]*light + spot + n
				pix[k+c] = uint8(math.Min(math.Max(v+0.5, 0), 255))
			}
		}
	}
	return out, nc, nil
}

// PaleBoard is a random change of the board itself, which the light and lens changes of an
// Augmentation do not make: the wood moved toward a pale colour and its lines made fainter, as a
// white plastic or vinyl board looks, or a pale board under a lamp, nearly as bright as the white
// stones. The labelled photos are of wooden boards; a reader that learned only from them took the
// empty points of such a board for white stones.
type PaleBoard struct {
	Strength float64    // how far the wood moves toward To (0: not at all, 1: all the way)
	To       [3]float64 // the pale board's colour (B, G, R)
	LineFade float64    // the lines' contrast against the board is multiplied by this
}

// RandomPaleBoard draws a pale board for about a quarter of draws, and no change otherwise.
func RandomPaleBoard(rng *rand.Rand) PaleBoard {
	if rng.IntN(4) != 0 {
		return PaleBoard{}
	}
	s := PaleBoard{Strength: 0.6 + 0.4*rng.Float64(), LineFade: 0.35 + 0.55*rng.Float64()}
	base := 200 + 45*rng.Float64()
	for ch := range s.To {
		s.To[ch] = math.Min(base*math.Exp(rng.NormFloat64()*0.04), 255)
	}
	return s
}

// Identity reports whether the change changes nothing.
func (s PaleBoard) Identity() bool { return s.Strength <= 0 }

// Apply returns a copy of img (BGR) with the board made pale. cal places the board; labels are
// its points' stones in row-major order and known says which of them the labels settle: the
// stones' discs, and every point the labels do not settle (a hand, a stone between points), keep
// their look.
func (s PaleBoard) Apply(img gocv.Mat, cal calib.Calibration, labels []observe.Stone, known []bool) (gocv.Mat, error) {
	return paintedCopy(img, s.Identity(), func(pix []byte, w, h int) { s.paint(pix, w, h, cal, labels, known) })
}

// paintedCopy returns a copy of img (BGR) painted by paint, which is handed its pixels and size,
// or a plain copy when unchanged is set.
func paintedCopy(img gocv.Mat, unchanged bool, paint func(pix []byte, w, h int)) (gocv.Mat, error) {
	out := img.Clone()
	if unchanged {
		return out, nil
	}
	pix, err := out.DataPtrUint8()
	if err != nil {
		out.Close()
		return gocv.Mat{}, fmt.Errorf("readertrain: %w", err)
	}
	paint(pix, out.Cols(), out.Rows())
	return out, nil
}

// paint moves the board's wood toward s.To and fades its lines in pix, a w x h BGR picture.
func (s PaleBoard) paint(pix []byte, w, h int, cal calib.Calibration, labels []observe.Stone, known []bool) {
	n := cal.Size
	// empty reports whether the labels settle the point (c, r) as empty: every other point (a
	// stone, a hand, a box between points) keeps its look.
	empty := func(c, r int) bool {
		k := r*n + c
		return c >= 0 && r >= 0 && c < n && r < n && k < len(labels) && k < len(known) && known[k] && labels[k] == observe.Empty
	}
	// The wood's colour: the median of the cell centres between four empty points.
	var samples [3][]float64
	for r := 0; r+1 < n; r++ {
		for c := 0; c+1 < n; c++ {
			if !empty(c, r) || !empty(c+1, r) || !empty(c, r+1) || !empty(c+1, r+1) {
				continue
			}
			p := cal.GridPixel(float64(c)+0.5, float64(r)+0.5)
			x, y := int(p.X+0.5), int(p.Y+0.5)
			if x < 0 || y < 0 || x >= w || y >= h {
				continue
			}
			for ch := 0; ch < 3; ch++ {
				samples[ch] = append(samples[ch], float64(pix[3*(y*w+x)+ch]))
			}
		}
	}
	if len(samples[0]) < 8 {
		return
	}
	var wood, gain [3]float64
	for ch := range wood {
		sort.Float64s(samples[ch])
		wood[ch] = math.Max(samples[ch][len(samples[ch])/2], 8)
		gain[ch] = s.To[ch] / wood[ch]
	}
	lo, hi := -0.5, float64(n)-0.5
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			g := cal.ImageToGrid(calib.Point2{X: float64(x), Y: float64(y)})
			if !(g.X > lo-0.3 && g.X < hi+0.3 && g.Y > lo-0.3 && g.Y < hi+0.3) {
				continue
			}
			// Inside the board, fading out over 0.3 spacing past its outer half cell.
			m := math.Min(math.Min(g.X-(lo-0.3), hi+0.3-g.X), math.Min(g.Y-(lo-0.3), hi+0.3-g.Y)) / 0.3
			m = math.Min(m, 1)
			c, r := math.Round(g.X), math.Round(g.Y)
			if ci, ri := int(c), int(r); ci >= 0 && ri >= 0 && ci < n && ri < n {
				if !empty(ci, ri) {
					d := math.Hypot(g.X-c, g.Y-r)
					m *= math.Min(math.Max((d-0.4)/0.12, 0), 1) // a stone's disc keeps its look
				}
			}
			if m <= 0 {
				continue
			}
			k := 3 * (y*w + x)
			for ch := 0; ch < 3; ch++ {
				v := float64(pix[k+ch])
				pale := s.To[ch] - (s.To[ch]-v*gain[ch])*s.LineFade
				v += m * s.Strength * (pale - v)
				pix[k+ch] = uint8(math.Min(math.Max(v+0.5, 0), 255))
			}
		}
	}
}

// CastShadows is a random change of the light that the other changes do not make: a low lamp
// to one side, under which every stone throws a shadow onto the board beside it. A reader that
// never saw one took the dark crescent beside a stone for a stone's rim (gomrade 1/11.jpg, lit
// from the left, read the points right of its stones as black).
type CastShadows struct {
	Dir      float64 // the shadows' direction on the board, in radians of the grid's own axes
	Offset   float64 // how far a shadow's centre lies from its stone's, in grid spacings
	Depth    float64 // the share of the light a shadow's core takes away (0: no shadow)
	Softness float64 // the width of its edge, in grid spacings
}

// RandomCastShadows draws shadows for about a third of draws, and no change otherwise.
func RandomCastShadows(rng *rand.Rand) CastShadows {
	if rng.IntN(3) != 0 {
		return CastShadows{}
	}
	return CastShadows{Dir: 2 * math.Pi * rng.Float64(), Offset: 0.12 + 0.26*rng.Float64(),
		Depth: 0.25 + 0.45*rng.Float64(), Softness: 0.04 + 0.14*rng.Float64()}
}

// Identity reports whether the change changes nothing.
func (s CastShadows) Identity() bool { return s.Depth <= 0 }

// Apply returns a copy of img (BGR) in which every stone the labels settle throws its shadow.
// cal places the board; the stones' own discs, and every point the labels do not settle, keep
// their look.
func (s CastShadows) Apply(img gocv.Mat, cal calib.Calibration, labels []observe.Stone, known []bool) (gocv.Mat, error) {
	return paintedCopy(img, s.Identity(), func(pix []byte, w, h int) { s.paint(pix, w, h, cal, labels, known) })
}

// stoneRadius is a stone's radius in grid spacings, for the shadows it throws and the disc it
// keeps.
const stoneRadius = 0.47

// paint darkens pix, a w x h BGR picture, where the stones' shadows fall.
func (s CastShadows) paint(pix []byte, w, h int, cal calib.Calibration, labels []observe.Stone, known []bool) {
	n := cal.Size
	// at reports what the labels say of the point (c, r): a stone, empty, or unsettled (ok false).
	at := func(c, r int) (stone, ok bool) {
		k := r*n + c
		if c < 0 || r < 0 || c >= n || r >= n || k >= len(labels) || k >= len(known) || !known[k] {
			return false, false
		}
		return labels[k] == observe.Black || labels[k] == observe.White, true
	}
	ox, oy := s.Offset*math.Cos(s.Dir), s.Offset*math.Sin(s.Dir)
	lo, hi := -0.5, float64(n)-0.5
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			g := cal.ImageToGrid(calib.Point2{X: float64(x), Y: float64(y)})
			if !(g.X > lo && g.X < hi && g.Y > lo && g.Y < hi) {
				continue
			}
			// A stone's disc, or a point the labels do not settle, keeps its look.
			c, r := math.Round(g.X), math.Round(g.Y)
			stone, ok := at(int(c), int(r))
			if !ok || (stone && math.Hypot(g.X-c, g.Y-r) < stoneRadius) {
				continue
			}
			// The one stone whose shadow may cover this pixel stands at the point nearest to it
			// less the offset (a shadow is no wider than a stone, less than half a spacing).
			sc, sr := math.Round(g.X-ox), math.Round(g.Y-oy)
			if stone, _ := at(int(sc), int(sr)); !stone {
				continue
			}
			d := math.Hypot(g.X-ox-sc, g.Y-oy-sr)
			m := math.Min(math.Max((stoneRadius+s.Softness/2-d)/s.Softness, 0), 1)
			if m <= 0 {
				continue
			}
			k := 3 * (y*w + x)
			f := 1 - s.Depth*m
			for ch := 0; ch < 3; ch++ {
				pix[k+ch] = uint8(float64(pix[k+ch])*f + 0.5)
			}
		}
	}
}
