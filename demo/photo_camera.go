package demo

import (
	"bytes"
	"image"
	"image/jpeg"
	"math"
)

// noiseTex is smooth value noise from a 256x256 lattice of random values (it repeats every 256 units):
// table look-ups instead of hashing every lattice corner of every pixel.
type noiseTex struct {
	v []float32
}

func newNoiseTex(seed uint64) *noiseTex {
	t := &noiseTex{v: make([]float32, 256*256)}
	g := rng{s: seed}
	for i := range t.v {
		t.v[i] = float32(g.f())
	}
	return t
}

// at returns noise in [0, 1] at (x, y).
func (t *noiseTex) at(x, y float64) float64 {
	fx, fy := math.Floor(x), math.Floor(y)
	tx, ty := x-fx, y-fy
	ix, iy := int(int64(fx)&255), int(int64(fy)&255)
	ix1, iy1 := (ix+1)&255, (iy+1)&255
	sx := tx * tx * (3 - 2*tx)
	sy := ty * ty * (3 - 2*ty)
	v := t.v
	top := float64(v[iy<<8|ix])*(1-sx) + float64(v[iy<<8|ix1])*sx
	bot := float64(v[iy1<<8|ix])*(1-sx) + float64(v[iy1<<8|ix1])*sx
	return top*(1-sy) + bot*sy
}

// fbm sums octaves of the noise, normalised to [0, 1].
func (t *noiseTex) fbm(x, y float64, octaves int) float64 {
	sum, amp, norm := 0.0, 1.0, 0.0
	for o := 0; o < octaves; o++ {
		sum += amp * t.at(x+float64(o)*37.3, y+float64(o)*11.7)
		norm += amp
		amp *= 0.5
		x *= 2
		y *= 2
	}
	return sum / norm
}

// gaussApprox turns a random 64-bit value into a nearly normal number (mean 0, deviation 1): the sum
// of its four 16-bit parts, which is plenty for sensor noise and costs no logarithm.
func gaussApprox(h uint64) float32 {
	s := float32(h&0xffff) + float32(h>>16&0xffff) + float32(h>>32&0xffff) + float32(h>>48)
	return (s/65536 - 2) * 1.7320508 // the sum of four uniforms has variance 1/3
}

// develop turns the scene's radiance into the camera's frame in dst: the lens (distortion, vignette,
// defocus, motion blur), exposure and white balance, the tone curve, sensor noise for this frame, and
// JPEG compression.
func (r *LookRenderer) develop(l *photoLayer, src []float32, dst *image.RGBA, frame uint64) error {
	lk := &r.look
	g := &l.g
	w, h := g.w, g.h
	px := float64(w) / 640
	// Without distortion or blur the frame is toned straight from the scene.
	direct := g.k == 0 && lk.Blur*px <= 0.3 && lk.MotionBlur*px < 1
	if !direct && len(l.tmp) != 3*w*h {
		l.tmp = make([]float32, 3*w*h)
	}
	tmp := l.tmp
	exp := lk.Exposure
	if exp <= 0 {
		exp = 1
	}
	var gain [3]float32
	for c := range 3 {
		b := lk.Balance[c]
		if b <= 0 {
			b = 1
		}
		gain[c] = float32(exp * b)
	}
	// Lens: distortion (bilinear resampling) and vignette.
	vg := float32(lk.Vignette)
	g0, g1, g2 := gain[0]*255, gain[1]*255, gain[2]*255
	for y := range h {
		if direct {
			break
		}
		fy := float64(y) + 0.5
		dy := float32((fy - g.cy) / g.rn)
		out := tmp[3*y*w : 3*(y+1)*w]
		for x := range w {
			fx := float64(x) + 0.5
			dx := float32((fx - g.cx) / g.rn)
			r2 := dx*dx + dy*dy
			vig := 1 - vg*r2*(0.6+0.4*r2)
			o := out[3*x : 3*x+3 : 3*x+3]
			if g.k == 0 {
				p := src[3*(y*w+x) : 3*(y*w+x)+3 : 3*(y*w+x)+3]
				o[0], o[1], o[2] = p[0]*g0*vig, p[1]*g1*vig, p[2]*g2*vig
				continue
			}
			sx, sy := g.undistort(fx, fy)
			sx, sy = sx-0.5, sy-0.5
			ix, iy := int(math.Floor(sx)), int(math.Floor(sy))
			tx, ty := float32(sx-float64(ix)), float32(sy-float64(iy))
			ix0, iy0 := clampInt(ix, 0, w-1), clampInt(iy, 0, h-1)
			ix1, iy1 := clampInt(ix+1, 0, w-1), clampInt(iy+1, 0, h-1)
			p00, p10 := src[3*(iy0*w+ix0):], src[3*(iy0*w+ix1):]
			p01, p11 := src[3*(iy1*w+ix0):], src[3*(iy1*w+ix1):]
			for c := range 3 {
				v := (p00[c]*(1-tx)+p10[c]*tx)*(1-ty) + (p01[c]*(1-tx)+p11[c]*tx)*ty
				o[c] = v * gain[c] * vig * 255
			}
		}
	}
	if s := lk.Blur * px; s > 0.3 {
		if len(l.tmp2) != len(tmp) {
			l.tmp2 = make([]float32, len(tmp))
		}
		gaussBlur(tmp, l.tmp2, w, h, s)
	}
	if m := lk.MotionBlur * px; m >= 1 {
		if len(l.tmp2) != len(tmp) {
			l.tmp2 = make([]float32, len(tmp))
		}
		motionBlur(tmp, l.tmp2, w, h, m, lk.MotionAngle*math.Pi/180)
	}
	// Tone, noise, quantisation.
	fh := hash64(lk.Seed, 402, frame)
	ct := float32(lk.Contrast)
	ns := float32(lk.Noise)
	for y := range h {
		rh := hash64(fh, uint64(y))
		lo, co := int(rh%noisePeriod), int((rh>>32)%noisePeriod)
		luma, chroma := l.noise[lo:lo+w], l.noise[co:co+w]
		row := dst.Pix[y*dst.Stride : y*dst.Stride+4*w]
		var in []float32
		m0, m1, m2 := float32(1.0/255), float32(1.0/255), float32(1.0/255)
		dy := float32((float64(y) + 0.5 - g.cy) / g.rn)
		if direct {
			in = src[3*y*w : 3*(y+1)*w]
		} else {
			in = tmp[3*y*w : 3*(y+1)*w]
		}
		for x := range w {
			q := in[3*x : 3*x+3 : 3*x+3]
			if direct {
				dx := float32((float64(x) + 0.5 - g.cx) / g.rn)
				r2 := dx*dx + dy*dy
				vig := 1 - vg*r2*(0.6+0.4*r2)
				m0, m1, m2 = gain[0]*vig, gain[1]*vig, gain[2]*vig
			}
			m := [3]float32{m0, m1, m2}
			var o [3]float32
			for c := range 3 {
				t := q[c] * m[c]
				if t > 1 {
					t = 1
				} else if t < 0 {
					t = 0
				}
				o[c] = (t + ct*(t*t*(3-2*t)-t)) * 255
			}
			lum := 0.3*o[0] + 0.59*o[1] + 0.11*o[2]
			sd := ns * (0.55 + 0.45*fsqrt(lum*(1.0/128)))
			n1 := luma[x] * sd
			n2 := chroma[x] * sd * 0.35
			p := row[4*x : 4*x+4 : 4*x+4]
			p[0] = clampU8(int32(o[0] + n1 + n2 + 0.5))
			p[1] = clampU8(int32(o[1] + n1 + 0.5))
			p[2] = clampU8(int32(o[2] + n1 - n2 + 0.5))
			p[3] = 255
		}
	}
	if lk.JPEG > 0 {
		return jpegRoundTrip(dst, lk.JPEG)
	}
	return nil
}

func fsqrt(x float32) float32 {
	if x <= 0 {
		return 0
	}
	return float32(math.Sqrt(float64(x)))
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

// gaussBlur blurs the 3-channel image in place (tmp is scratch of the same size).
func gaussBlur(img, tmp []float32, w, h int, sigma float64) {
	rad := max(int(math.Ceil(2*sigma)), 1)
	k := make([]float32, 2*rad+1)
	sum := float32(0)
	for i := -rad; i <= rad; i++ {
		v := float32(math.Exp(-float64(i*i) / (2 * sigma * sigma)))
		k[i+rad] = v
		sum += v
	}
	for i := range k {
		k[i] /= sum
	}
	// Rows into tmp.
	for y := range h {
		row := img[3*y*w : 3*(y+1)*w]
		out := tmp[3*y*w : 3*(y+1)*w]
		for x := range w {
			var a0, a1, a2 float32
			if x >= rad && x < w-rad {
				p := row[3*(x-rad) : 3*(x+rad+1)]
				for i, kv := range k {
					a0 += p[3*i] * kv
					a1 += p[3*i+1] * kv
					a2 += p[3*i+2] * kv
				}
			} else {
				for i := -rad; i <= rad; i++ {
					xx := clampInt(x+i, 0, w-1)
					kv := k[i+rad]
					a0 += row[3*xx] * kv
					a1 += row[3*xx+1] * kv
					a2 += row[3*xx+2] * kv
				}
			}
			out[3*x], out[3*x+1], out[3*x+2] = a0, a1, a2
		}
	}
	// Columns back into img, a whole row at a time.
	for y := range h {
		out := img[3*y*w : 3*(y+1)*w]
		for i := range out {
			out[i] = 0
		}
		for i := -rad; i <= rad; i++ {
			yy := clampInt(y+i, 0, h-1)
			kv := k[i+rad]
			in := tmp[3*yy*w : 3*(yy+1)*w]
			for j, v := range in {
				out[j] += v * kv
			}
		}
	}
}

// motionBlur smears the 3-channel image in place along angle over length pixels.
func motionBlur(img, tmp []float32, w, h int, length, angle float64) {
	n := int(math.Ceil(length))
	if n < 2 {
		return
	}
	var offs [][2]int
	for i := 0; i < n; i++ {
		t := (float64(i)/float64(n-1) - 0.5) * length
		offs = append(offs, [2]int{int(math.Round(t * math.Cos(angle))), int(math.Round(t * math.Sin(angle)))})
	}
	inv := 1 / float32(len(offs))
	copy(tmp, img)
	for y := range h {
		for x := range w {
			var a [3]float32
			for _, o := range offs {
				p := tmp[3*(clampInt(y+o[1], 0, h-1)*w+clampInt(x+o[0], 0, w-1)):]
				a[0] += p[0]
				a[1] += p[1]
				a[2] += p[2]
			}
			q := img[3*(y*w+x):]
			q[0], q[1], q[2] = a[0]*inv, a[1]*inv, a[2]*inv
		}
	}
}

// jpegRoundTrip compresses the frame as a camera or a phone would and decodes it back in place.
func jpegRoundTrip(img *image.RGBA, quality int) error {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: quality}); err != nil {
		return err
	}
	dec, err := jpeg.Decode(&buf)
	if err != nil {
		return err
	}
	yc, ok := dec.(*image.YCbCr)
	if !ok {
		return nil
	}
	b := img.Bounds()
	for y := 0; y < b.Dy(); y++ {
		row := img.Pix[y*img.Stride:]
		for x := 0; x < b.Dx(); x++ {
			yi := yc.YOffset(x, y)
			ci := yc.COffset(x, y)
			rr, gg, bb := ycbcrToRGB(yc.Y[yi], yc.Cb[ci], yc.Cr[ci])
			row[4*x], row[4*x+1], row[4*x+2] = rr, gg, bb
		}
	}
	return nil
}

// ycbcrToRGB is JFIF's YCbCr to RGB conversion.
func ycbcrToRGB(y, cb, cr uint8) (uint8, uint8, uint8) {
	yy := float32(y)
	cbf, crf := float32(cb)-128, float32(cr)-128
	r := yy + 1.402*crf
	g := yy - 0.344136*cbf - 0.714136*crf
	b := yy + 1.772*cbf
	return clampU8(int32(r + 0.5)), clampU8(int32(g + 0.5)), clampU8(int32(b + 0.5))
}
