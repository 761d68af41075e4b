package demo

// homography is a 3x3 projective transform in row-major order.
type homography [9]float64

// apply maps (x, y) through h.
func (h homography) apply(x, y float64) (float64, float64) {
	w := h[6]*x + h[7]*y + h[8]
	if w == 0 {
		w = 1e-12
	}
	return (h[0]*x + h[1]*y + h[2]) / w, (h[3]*x + h[4]*y + h[5]) / w
}

// homographyFrom4 returns the transform taking src[i] to dst[i]; ok is false when the points are
// degenerate (three on a line).
func homographyFrom4(src, dst [4][2]float64) (homography, bool) {
	var a [8][9]float64
	for i := 0; i < 4; i++ {
		x, y := src[i][0], src[i][1]
		X, Y := dst[i][0], dst[i][1]
		a[2*i] = [9]float64{x, y, 1, 0, 0, 0, -X * x, -X * y, X}
		a[2*i+1] = [9]float64{0, 0, 0, x, y, 1, -Y * x, -Y * y, Y}
	}
	for col := 0; col < 8; col++ {
		piv := col
		for r := col + 1; r < 8; r++ {
			if abs(a[r][col]) > abs(a[piv][col]) {
				piv = r
			}
		}
		if abs(a[piv][col]) < 1e-12 {
			return homography{}, false
		}
		a[col], a[piv] = a[piv], a[col]
		for r := 0; r < 8; r++ {
			if r == col {
				continue
			}
			f := a[r][col] / a[col][col]
			for c := col; c < 9; c++ {
				a[r][c] -= f * a[col][c]
			}
		}
	}
	var h homography
	for i := 0; i < 8; i++ {
		h[i] = a[i][8] / a[i][i]
	}
	h[8] = 1
	return h, true
}

// inverse returns the inverse transform; ok is false when h is singular.
func (h homography) inverse() (homography, bool) {
	a, b, c, d, e, f, g, hh, i := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
	det := a*(e*i-f*hh) - b*(d*i-f*g) + c*(d*hh-e*g)
	if abs(det) < 1e-15 {
		return homography{}, false
	}
	inv := homography{
		e*i - f*hh, c*hh - b*i, b*f - c*e,
		f*g - d*i, a*i - c*g, c*d - a*f,
		d*hh - e*g, b*g - a*hh, a*e - b*d,
	}
	for k := range inv {
		inv[k] /= det
	}
	return inv, true
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func clamp01(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// smoothstep is 0 below e0, 1 above e1, and a smooth ramp between (e0 may exceed e1 for a falling ramp).
func smoothstep(e0, e1, x float64) float64 {
	t := clamp01((x - e0) / (e1 - e0))
	return t * t * (3 - 2*t)
}

// hash64 mixes its inputs into a well-distributed 64-bit value (splitmix64 finaliser).
func hash64(vals ...uint64) uint64 {
	h := uint64(0x9E3779B97F4A7C15)
	for _, v := range vals {
		h ^= v + 0x9E3779B97F4A7C15 + (h << 6) + (h >> 2)
		h ^= h >> 30
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 27
		h *= 0x94D049BB133111EB
		h ^= h >> 31
	}
	return h
}

// unit maps a hash to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) / float64(1<<53) }

// valueNoise is smooth lattice noise in [0, 1] at (x, y), deterministic in seed.
func valueNoise(seed uint64, x, y float64) float64 {
	fx, fy := floor(x), floor(y)
	tx, ty := x-fx, y-fy
	ix, iy := int64(fx), int64(fy)
	corner := func(dx, dy int64) float64 {
		return unit(hash64(seed, uint64(ix+dx), uint64(iy+dy)))
	}
	sx := tx * tx * (3 - 2*tx)
	sy := ty * ty * (3 - 2*ty)
	top := corner(0, 0)*(1-sx) + corner(1, 0)*sx
	bot := corner(0, 1)*(1-sx) + corner(1, 1)*sx
	return top*(1-sy) + bot*sy
}

// fbm sums octaves of value noise, normalised to [0, 1].
func fbm(seed uint64, x, y float64, octaves int) float64 {
	sum, amp, norm := 0.0, 1.0, 0.0
	for o := 0; o < octaves; o++ {
		sum += amp * valueNoise(seed+uint64(o)*7919, x, y)
		norm += amp
		amp *= 0.5
		x *= 2
		y *= 2
	}
	return sum / norm
}

func floor(x float64) float64 {
	i := float64(int64(x))
	if i > x {
		i--
	}
	return i
}
