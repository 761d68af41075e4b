package demo

import "math"

// handParts is how many capsules make a hand: sleeve, wrist, palm, two fingers, the thumb and the
// curled fingers.
const handParts = 7

// capsule is a segment with a radius: the building block of the hand and arm.
type capsule struct {
	ax, ay, bx, by, r float64
	skin              bool // skin, or sleeve
}

// near reports whether (x,y) lies within margin of the capsule's bounding box (a cheap test before
// the distance).
func (c capsule) near(x, y, margin float64) bool {
	m := c.r + margin
	return x >= min(c.ax, c.bx)-m && x <= max(c.ax, c.bx)+m && y >= min(c.ay, c.by)-m && y <= max(c.ay, c.by)+m
}

// dist returns the signed distance from (x,y) to the capsule's surface (negative inside).
func (c capsule) dist(x, y float64) float64 {
	dx, dy := c.bx-c.ax, c.by-c.ay
	l2 := dx*dx + dy*dy
	t := 0.0
	if l2 > 0 {
		t = clamp01(((x-c.ax)*dx + (y-c.ay)*dy) / l2)
	}
	px, py := c.ax+t*dx-x, c.ay+t*dy-y
	return math.Sqrt(px*px+py*py) - c.r
}

// handShape returns the capsules of a hand reaching toward its target, in image pixels, plus the
// held stone's centre and radius (radius 0 when nothing is held).
func (r *Renderer) handShape(l *layer, hd Hand) (parts [handParts]capsule, sx, sy, sr float64) {
	tx, ty := l.toImage.Apply(hd.Col, hd.Row)
	return handCapsules(tx, ty, l.pxPerUnit, float64(l.h), hd)
}

// handCapsules returns the capsules of a hand whose fingertips move toward (tx,ty) in a picture of
// height frameH, sized by sp pixels (the demo's board spacing), plus the held stone's centre and
// radius (radius 0 when nothing is held).
func handCapsules(tx, ty, sp, frameH float64, hd Hand) (parts [handParts]capsule, sx, sy, sr float64) {
	// The arm enters from the player's side, a little to the right (a right-handed player).
	fx, fy, dx, dy, px, py := handAxes(tx, ty, frameH, 1.5*sp, 6*sp, hd)
	palmX, palmY := fx-dx*1.9*sp, fy-dy*1.9*sp
	wristX, wristY := fx-dx*3.0*sp, fy-dy*3.0*sp
	parts = [handParts]capsule{
		{wristX - dx*12*sp, wristY - dy*12*sp, wristX, wristY, 0.85 * sp, false}, // sleeve
		{wristX, wristY, palmX, palmY, 0.72 * sp, true},                          // wrist
		{palmX - px*0.2*sp, palmY - py*0.2*sp, palmX + dx*0.4*sp, palmY + dy*0.4*sp, 0.95 * sp, true},
		{palmX + dx*0.5*sp + px*0.15*sp, palmY + dy*0.5*sp + py*0.15*sp, fx, fy, 0.23 * sp, true},                                                       // index
		{palmX + dx*0.4*sp - px*0.35*sp, palmY + dy*0.4*sp - py*0.35*sp, fx - px*0.45*sp - dx*0.25*sp, fy - py*0.45*sp - dy*0.25*sp, 0.22 * sp, true},   // middle
		{palmX + px*0.75*sp, palmY + py*0.75*sp, fx + px*0.38*sp - dx*0.15*sp, fy + py*0.38*sp - dy*0.15*sp, 0.25 * sp, true},                           // thumb
		{palmX + dx*0.2*sp - px*0.75*sp, palmY + dy*0.2*sp - py*0.75*sp, palmX + dx*1.1*sp - px*0.8*sp, palmY + dy*1.1*sp - py*0.8*sp, 0.22 * sp, true}, // curled fingers
	}
	if hd.Holding {
		sx, sy, sr = fx+px*0.12*sp+dx*0.1*sp, fy+py*0.12*sp+dy*0.1*sp, 0.46*sp
	}
	return parts, sx, sy, sr
}

// drawHand paints the hand's soft shadow on whatever lies below it, then the sleeve, the skin and the
// held stone.
func (r *Renderer) drawHand(l *layer, buf []uint8, hd Hand) {
	parts, sx, sy, sr := r.handShape(l, hd)
	sp := l.pxPerUnit
	offX, offY := 0.5*sp, 0.4*sp // the hand is above the board: its shadow falls away from the lamp
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range parts {
		minX = math.Min(minX, math.Min(c.ax, c.bx)-c.r)
		maxX = math.Max(maxX, math.Max(c.ax, c.bx)+c.r+offX+sp)
		minY = math.Min(minY, math.Min(c.ay, c.by)-c.r)
		maxY = math.Max(maxY, math.Max(c.ay, c.by)+c.r+offY+sp)
	}
	x0, y0 := max(int(minX), 0), max(int(minY), 0)
	x1, y1 := min(int(maxX)+1, l.w), min(int(maxY)+1, l.h)
	// Sleeves in mid-tone colours: a sleeve is neither as dark as a black stone nor as pale as a white one.
	sleeveR, sleeveG, sleeveB := 90.0, 130.0, 210.0
	if hd.Player == White {
		sleeveR, sleeveG, sleeveB = 80, 150, 90
	}
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			i := 3 * (y*l.w + x)
			// Shadow.
			sd := math.Inf(1)
			for _, c := range parts {
				if c.near(fx-offX, fy-offY, 0.6*sp) {
					sd = math.Min(sd, c.dist(fx-offX, fy-offY))
				}
			}
			if k := 1 - 0.3*smoothstep(0.6*sp, -0.6*sp, sd); k < 1 {
				shade(buf[i:i+3], float32(k))
			}
			// Body.
			best, bestR := math.Inf(1), 1.0
			skin := false
			for _, c := range parts {
				if !c.near(fx, fy, 1) {
					continue
				}
				if d := c.dist(fx, fy); d < best {
					best, bestR, skin = d, c.r, c.skin
				}
			}
			if best < 0.5 {
				cov := clamp01(0.5 - best)
				sh := 0.72 + 0.28*clamp01(-best/bestR)
				cr, cg, cb := sleeveR, sleeveG, sleeveB
				if skin {
					cr, cg, cb = 196, 124, 98
				}
				blend(buf[i:i+3], float32(cov), l.lightAt(x, y), cr*sh, cg*sh, cb*sh)
			}
			if sr > 0 {
				d := math.Hypot(fx-sx, fy-sy)
				if cov := clamp01(sr - d + 0.5); cov > 0 {
					cr, cg, cb := stoneShade(hd.Player, (fx-sx)/sr, (fy-sy)/sr)
					blend(buf[i:i+3], float32(cov), l.lightAt(x, y), cr, cg, cb)
				}
			}
		}
	}
}

// photoHandCapsules is a hand of real proportions for the photos, sp pixels to a grid spacing
// (22 mm): a forearm in its sleeve, the wrist, a palm about 4 x 3.6 spacings, the index and middle
// fingers reaching (about 3.5 spacings long) to the fingertips at (tx,ty) at full reach, the ring and
// little fingers curled, the thumb meeting the index under the held stone. It returns the capsules in
// picture pixels and the held stone's centre (its radius is the caller's).
func photoHandCapsules(tx, ty, sp, frameH float64, hd Hand) (parts []capsule, sx, sy float64) {
	// The thumb is on the -p side.
	fx, fy, dx, dy, px, py := handAxes(tx, ty, frameH, 2.5*sp, 14*sp, hd)
	at := func(along, across float64) (float64, float64) {
		return fx + dx*along*sp + px*across*sp, fy + dy*along*sp + py*across*sp
	}
	seg := func(a0, c0, a1, c1, r float64, skin bool) capsule {
		x0, y0 := at(a0, c0)
		x1, y1 := at(a1, c1)
		return capsule{x0, y0, x1, y1, r * sp, skin}
	}
	// Distances along the fingers, back from the fingertips (0).
	parts = []capsule{
		seg(-8.6, 0.3, -30, 0.8, 1.65, false),   // forearm in its sleeve
		seg(-7.6, 0.25, -8.8, 0.3, 1.25, true),  // wrist
		seg(-6.6, 0.55, -4.4, 0.55, 1.05, true), // palm, thumb side
		seg(-6.6, -0.55, -4.2, -0.55, 1.05, true),
		seg(-4.3, -0.6, -0.05, -0.2, 0.37, true),  // index
		seg(-4.3, 0.15, 0, 0.3, 0.39, true),       // middle
		seg(-4.3, 0.9, -2.3, 1.25, 0.37, true),    // ring, curled
		seg(-4.5, 1.55, -3.0, 1.8, 0.32, true),    // little, curled
		seg(-6.2, -1.35, -0.5, -1.05, 0.42, true), // thumb
	}
	if !hd.Holding {
		// Reaching or pressing: the index points, the thumb stays by the palm.
		parts[8] = seg(-6.2, -1.35, -3.6, -1.8, 0.42, true)
	}
	sx, sy = at(0.15, -0.55)
	return parts, sx, sy
}

// handAxes places a hand reaching toward (tx,ty): its arm enters from the player's edge of a
// picture of height frameH, aside pixels to the right of the target (a right-handed player) and
// beyond pixels outside the picture. It returns the fingertips at the hand's reach, the unit
// direction along the fingers (dx,dy) and across the hand (px,py).
func handAxes(tx, ty, frameH, aside, beyond float64, hd Hand) (fx, fy, dx, dy, px, py float64) {
	ex, ey := tx+aside, frameH+beyond
	if hd.Player == White {
		ex, ey = tx-aside, -beyond
	}
	reach := clamp01(hd.Reach)
	fx, fy = ex+(tx-ex)*reach, ey+(ty-ey)*reach
	dx, dy = tx-ex, ty-ey
	dl := math.Hypot(dx, dy)
	if dl == 0 {
		dl = 1
	}
	dx, dy = dx/dl, dy/dl
	return fx, fy, dx, dy, -dy, dx
}
