package demo

import "math"

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

// fmin and fmax are math.Min and math.Max without the NaN and signed-zero cases, for inner loops.
func fmin(a, b float64) float64 {
	if a < b {
		return a
	}
	return b
}

func fmax(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

// fastExp is e^x for x <= 0 to about 1e-5 relative: 2^(x log2 e) split into an integer power (set in
// the exponent bits) and a polynomial of the fraction.
func fastExp(x float64) float64 {
	if x < -700 {
		return 0
	}
	t := x * 1.4426950408889634
	i := math.Floor(t)
	f := t - i
	p := 1 + f*(0.6931471805599453+f*(0.2402265069591007+f*(0.05550410866482158+f*(0.009618129107628477+f*(0.0013333558146428443+f*0.00015403530393381606)))))
	return math.Ldexp(p, int(i))
}
