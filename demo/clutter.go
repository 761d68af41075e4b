package demo

import "math"

// clutterKind is what lies on the table beside the board.
type clutterKind uint8

const (
	bowlBlack clutterKind = iota // a bowl of black stones
	bowlWhite                    // a bowl of white stones
	lid                          // an upturned lid with a few captured stones
	gameClock                    // a game clock
	paper                        // a score sheet
)

// clutterObj is one thing on the table, in board units on the table's plane.
type clutterObj struct {
	kind       clutterKind
	x, y       float64 // centre
	rad        float64 // bowls and lids
	hw, hh     float64 // half sizes of the clock and paper
	cos, sin   float64 // rotation of the clock and paper
	body       [3]float64
	stoneAlb   [3]float64
	seed       uint64
	stoneShare float64 // lids: share of cells holding a stone
}

// makeClutter places up to lk.Clutter things around the board: bowls beside it (left and right), a
// lid, a clock or paper above or below it.
func makeClutter(lk *Look, n, asp float64, seed uint64) []clutterObj {
	g := &rng{s: seed}
	var out []clutterObj
	x0, x1 := -lk.MarginX, n+lk.MarginX
	y0, y1 := -lk.MarginY, n*asp+lk.MarginY
	my := (y0 + y1) / 2
	woodBowl := hsv(g.in(20, 40), g.in(0.3, 0.7), g.in(0.2, 0.7))
	if g.chance(0.3) {
		woodBowl = hsv(g.in(0, 360), g.in(0, 0.5), g.in(0.1, 0.9)) // plastic
	}
	for i := 0; i < lk.Clutter; i++ {
		var o clutterObj
		o.seed = hash64(seed, uint64(i))
		switch i {
		case 0, 1:
			o.kind = bowlBlack
			o.stoneAlb = lk.BlackColor
			if (i == 1) != g.chance(0.5) {
				o.kind = bowlWhite
				o.stoneAlb = lk.WhiteColor
			}
			o.rad = g.in(3.0, 3.8)
			o.body = woodBowl
			side := x0 - o.rad - g.in(0.3, 2.5)
			if i == 1 {
				side = x1 + o.rad + g.in(0.3, 2.5)
			}
			o.x, o.y = side, my+g.in(-0.15, 0.15)*(y1-y0)
		case 2:
			o.kind = lid
			o.rad = g.in(3.0, 3.8)
			o.body = woodBowl
			o.stoneAlb = lk.WhiteColor
			if g.chance(0.5) {
				o.stoneAlb = lk.BlackColor
			}
			o.stoneShare = g.in(0.05, 0.4)
			side := x0 - o.rad - g.in(0.3, 2)
			if g.chance(0.5) {
				side = x1 + o.rad + g.in(0.3, 2)
			}
			o.x, o.y = side, y0+o.rad*0.6
			if g.chance(0.5) {
				o.y = y1 - o.rad*0.6
			}
			// Clear of the bowls.
			for _, b := range out {
				if d := math.Hypot(o.x-b.x, o.y-b.y); d < o.rad+b.rad {
					if o.x < x0 {
						o.x -= o.rad + b.rad - d + 0.3
					} else {
						o.x += o.rad + b.rad - d + 0.3
					}
				}
			}
		default:
			a := g.in(-0.3, 0.3)
			o.cos, o.sin = math.Cos(a), math.Sin(a)
			if g.chance(0.5) {
				o.kind = gameClock
				o.hw, o.hh = g.in(3.5, 5), g.in(1.8, 2.5)
				o.body = hsv(g.in(0, 360), g.in(0, 0.4), g.in(0.05, 0.5))
			} else {
				o.kind = paper
				o.hw, o.hh = g.in(4, 6), g.in(5, 7)
				v := g.in(0.82, 0.95)
				o.body = [3]float64{v, v, v * g.in(0.9, 1)}
			}
			o.x = g.in(x0, x1)
			if g.chance(0.5) {
				o.y = y0 - o.hh - g.in(0.5, 2)
			} else {
				o.y = y1 + o.hh + g.in(0.5, 2)
			}
		}
		out = append(out, o)
	}
	return out
}

// albedo returns the object's colour at (x,y) on the table, and false where the object is not.
func (o *clutterObj) albedo(lk *Look, tex *noiseTex, x, y float64) ([3]float64, bool) {
	switch o.kind {
	case bowlBlack, bowlWhite, lid:
		dx, dy := x-o.x, y-o.y
		d2 := dx*dx + dy*dy
		if d2 > o.rad*o.rad {
			return [3]float64{}, false
		}
		d := math.Sqrt(d2)
		if d > o.rad {
			return [3]float64{}, false
		}
		rim := 0.84 * o.rad
		if o.kind == lid {
			rim = 0.9 * o.rad
		}
		if d > rim {
			t := (d - rim) / (o.rad - rim)
			k := 0.75 + 0.45*math.Sin(t*math.Pi) - 0.2*t
			return scale3(o.body, k*(1+0.05*(tex.at(x*5, y*5)-0.5))), true
		}
		inner := 0.55
		if o.kind == lid {
			inner = 0.9
		}
		// Stones in the bowl: jittered cells.
		const cell = 0.95
		cx, cy := math.Floor(dx/cell), math.Floor(dy/cell)
		best, bx, by := 9.0, 0.0, 0.0
		for j := -1.0; j <= 1; j++ {
			for i := -1.0; i <= 1; i++ {
				h := hash64(o.seed, uint64(int64(cx+i)), uint64(int64(cy+j)))
				if o.kind == lid && unit(h>>7) > o.stoneShare {
					continue
				}
				px, py := (cx+i+0.2+0.6*unit(h))*cell, (cy+j+0.2+0.6*unit(h>>20))*cell
				if dd := math.Sqrt((dx-px)*(dx-px) + (dy-py)*(dy-py)); dd < best {
					best, bx, by = dd, dx-px, dy-py
				}
			}
		}
		if best < 0.47 {
			rr := best / 0.47
			k := 0.55 + 0.45*math.Sqrt(1-rr*rr) + 0.5*math.Max(0, -(bx+by)/0.47)*0.3
			return scale3(o.stoneAlb, k), true
		}
		if o.kind == lid {
			return scale3(o.body, inner*(1+0.05*(tex.at(x*4, y*4)-0.5))), true
		}
		return scale3(o.stoneAlb, 0.3), true
	case gameClock, paper:
		dx, dy := x-o.x, y-o.y
		u, v := dx*o.cos+dy*o.sin, -dx*o.sin+dy*o.cos
		if math.Abs(u) > o.hw || math.Abs(v) > o.hh {
			return [3]float64{}, false
		}
		if o.kind == gameClock {
			// Two displays and two buttons.
			for _, sx := range []float64{-1, 1} {
				cu := sx * o.hw * 0.5
				if math.Abs(u-cu) < o.hw*0.35 && math.Abs(v-o.hh*0.15) < o.hh*0.35 {
					a := [3]float64{0.62, 0.68, 0.58}
					// Digits: a few dark bars.
					du := (u - cu) / (o.hw * 0.35)
					dv := (v - o.hh*0.15) / (o.hh * 0.35)
					if math.Abs(dv) < 0.6 && math.Abs(du) < 0.8 && math.Mod(math.Abs(du)*5, 1) < 0.25 {
						a = [3]float64{0.1, 0.12, 0.1}
					}
					return a, true
				}
				if math.Hypot(u-cu, v+o.hh*0.7) < o.hh*0.22 {
					return [3]float64{0.7, 0.1, 0.1}, true
				}
			}
			edge := math.Min(o.hw-math.Abs(u), o.hh-math.Abs(v))
			return scale3(o.body, 0.8+0.2*smoothstep(0, 0.3, edge)), true
		}
		// Paper: lines of handwriting.
		a := o.body
		lv := (v + o.hh) / 0.55
		if fr := lv - math.Floor(lv); fr < 0.25 && math.Abs(u) < o.hw*0.85 && v > -o.hh*0.8 && v < o.hh*0.85 {
			if tex.at(u*3+float64(o.seed%97), math.Floor(lv)*7) > 0.45 {
				a = [3]float64{0.25, 0.25, 0.35}
			}
		}
		return a, true
	}
	return [3]float64{}, false
}
