package readertrain

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"

	"gocv.io/x/gocv"

	"tengen/calib"
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
	nc.BlackSide = cal.BlackSide
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
