package demo

import (
	"fmt"
	"math"
)

// BoardStyle is the kind of board a Look shows.
type BoardStyle uint8

// The boards a Look can show.
const (
	LightWood    BoardStyle = iota // pale kaya-like wood with fine grain
	YellowWood                     // yellow shin-kaya or agathis, strong grain
	DarkWood                       // dark brown wood
	PlasticBoard                   // yellow plastic or laminate: flat colour, glossy
	WhiteBoard                     // white or grey printed board (vinyl, card, melamine)
)

// String returns the style's name.
func (b BoardStyle) String() string {
	switch b {
	case LightWood:
		return "light-wood"
	case YellowWood:
		return "yellow-wood"
	case DarkWood:
		return "dark-wood"
	case PlasticBoard:
		return "plastic"
	case WhiteBoard:
		return "white"
	}
	return fmt.Sprintf("BoardStyle(%d)", uint8(b))
}

// StoneStyle is the material of a Look's stones.
type StoneStyle uint8

// The stones a Look can show.
const (
	SlateShell    StoneStyle = iota // slate and shell: thick lens-shaped, matte to satin
	GlassStones                     // glass (yunzi-like): shiny, white ones milky
	PlasticStones                   // thin, flat-topped plastic
)

// String returns the style's name.
func (s StoneStyle) String() string {
	switch s {
	case SlateShell:
		return "slate-shell"
	case GlassStones:
		return "glass"
	case PlasticStones:
		return "plastic"
	}
	return fmt.Sprintf("StoneStyle(%d)", uint8(s))
}

// Lamp is a light above the table, in board units (grid spacings) from the board's centre: X to the
// right of the picture's upright view, Y toward the bottom, Z up from the playing surface.
type Lamp struct {
	X, Y, Z float64
	Color   [3]float64 // RGB colour times intensity (1 = a well-exposed key light)
	Size    float64    // the lamp's apparent size: 0 = a bare bulb (sharp shadows) .. 1 = a big softbox
}

// Look is everything about how a rendered photo looks apart from the position: camera, lens, light,
// board, stones, hands and clutter. RandomLook draws one from a seed; NewLookRenderer renders with it.
// All lengths are in grid spacings unless said otherwise.
type Look struct {
	Seed uint64 // wood grain, stone offsets, noise, clutter placement

	// Camera.
	Tilt    float64 // camera's angle from straight down, degrees (0..~45); positive: camera toward the bottom of the picture
	Azimuth float64 // the board's rotation on the table as the camera sees it, degrees
	Roll    float64 // the camera's rotation about its axis, degrees
	FOV     float64 // horizontal field of view, degrees
	Scale   float64 // the board's size in the frame: its outer extent as a fraction of the frame height
	ShiftX  float64 // the board centre's offset from the frame centre, fractions of the frame width
	ShiftY  float64 // and of the frame height

	// Lens and sensor.
	Barrel      float64    // radial distortion: positive bows straight lines outward (barrel), negative inward (pincushion); the shift at the frame's corners in half-diagonals
	Vignette    float64    // darkening at the frame's corners, 0..1
	Blur        float64    // defocus, Gaussian sigma in pixels of a 640-wide frame
	MotionBlur  float64    // motion blur length in pixels of a 640-wide frame
	MotionAngle float64    // its direction, degrees
	Noise       float64    // sensor noise at mid-grey, standard deviation in 8-bit levels
	JPEG        int        // JPEG quality the frame goes through (0: none)
	Exposure    float64    // overall gain
	Balance     [3]float64 // camera white balance gains, RGB
	Contrast    float64    // tone curve: 0 linear, 1 strong S-curve

	// Light.
	Ambient     [3]float64 // light from everywhere (room, windows): colour times intensity
	AmbientTilt [2]float64 // ambient gradient across the board, per board width, X and Y
	Lamps       []Lamp     // point lights: their pools, shadows and highlights
	Glare       float64    // strength of the lamps' reflections on the board surface (0 matte .. 1 varnished)
	Gloss       float64    // board reflection sharpness: 0 broad sheen .. 1 mirror-like spot

	// Board.
	Board      BoardStyle // the board's kind
	BoardColor [3]float64 // albedo, 0..1
	Grain      float64    // wood grain contrast
	GrainScale float64    // grain waves across a board unit
	Aspect     float64    // vertical / horizontal spacing (Japanese boards are ~1.07)
	MarginX    float64    // wood beyond the outer lines, horizontally
	MarginY    float64    // and vertically
	Thickness  float64    // board thickness (its side shows in oblique views)
	LineWidth  float64    // line width
	LineColor  [3]float64 // line albedo
	StarRadius float64    // star point radius
	Table      [3]float64 // table albedo
	TableCloth bool       // cloth (fine weave) rather than wood

	// Stones.
	Stones      StoneStyle // the stones' material
	BlackColor  [3]float64 // black stone albedo
	WhiteColor  [3]float64 // white stone albedo (cream, grey-ish or blue-ish)
	StoneRadius float64    // radius
	StoneHeight float64    // thickness
	BlackShine  float64    // black stones' specular strength
	WhiteShine  float64    // white stones' specular strength
	Shininess   float64    // specular exponent (8 matte .. 200 glassy)
	Offset      float64    // largest distance a stone sits off its point

	// Hands.
	HandScale float64       // hand size relative to a real hand over a real board
	Skin      [3]float64    // skin albedo
	Sleeve    [2][3]float64 // Black's and White's sleeve albedo

	// Clutter around the board: bowls, lids, a clock, paper.
	Clutter int // how many things lie on the table (up to 4: two bowls, a lid, a clock or paper)

	// Shadow is a player leaning over the board: a large soft shadow that takes away this share of the
	// lamps' light (0: none) inside an ellipse on the board's plane.
	Shadow       float64
	ShadowCenter [2]float64 // in board units from the board's centre
	ShadowRadius [2]float64 // half-axes
	ShadowSoft   float64    // width of its edge
}

// hsv returns an RGB colour from hue (degrees), saturation and value.
func hsv(h, s, v float64) [3]float64 {
	h = math.Mod(h, 360)
	if h < 0 {
		h += 360
	}
	c := v * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := v - c
	var r, g, b float64
	switch {
	case h < 60:
		r, g, b = c, x, 0
	case h < 120:
		r, g, b = x, c, 0
	case h < 180:
		r, g, b = 0, c, x
	case h < 240:
		r, g, b = 0, x, c
	case h < 300:
		r, g, b = x, 0, c
	default:
		r, g, b = c, 0, x
	}
	return [3]float64{r + m, g + m, b + m}
}

// rng is a small deterministic generator for drawing a Look (splitmix64).
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	return hash64(r.s)
}

// f returns a number in [0, 1).
func (r *rng) f() float64 { return unit(r.next()) }

// in returns a number in [lo, hi).
func (r *rng) in(lo, hi float64) float64 { return lo + (hi-lo)*r.f() }

// chance reports true with probability p.
func (r *rng) chance(p float64) bool { return r.f() < p }

// pick returns an index drawn with the given weights.
func (r *rng) pick(w ...float64) int {
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	t := r.f() * sum
	for i, x := range w {
		if t < x {
			return i
		}
		t -= x
	}
	return len(w) - 1
}

// normal returns a standard normal number.
func (r *rng) normal() float64 {
	u := math.Max(r.f(), 1e-12)
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*r.f())
}

func scale3(c [3]float64, k float64) [3]float64 { return [3]float64{c[0] * k, c[1] * k, c[2] * k} }

// lightColor draws the colour of a light source: tungsten, daylight, fluorescent or coloured LED.
func lightColor(g *rng) [3]float64 {
	switch g.pick(3, 3, 2.5, 1.5) {
	case 0: // warm tungsten
		return [3]float64{1, g.in(0.66, 0.82), g.in(0.36, 0.58)}
	case 1: // daylight / neutral LED
		return [3]float64{g.in(0.92, 1), g.in(0.95, 1), g.in(0.92, 1.05)}
	case 2: // cold fluorescent, sometimes greenish
		return [3]float64{g.in(0.78, 0.9), g.in(0.92, 1.02), g.in(0.95, 1.1)}
	}
	// coloured club light
	c := hsv(g.in(0, 360), g.in(0.25, 0.55), 1)
	return c
}

// RandomLook draws a look from seed: camera from straight down to about 45 degrees, rotation, scale,
// lens faults, light of any colour from one to three lamps (soft or hard, with glare), one of the
// board and stone styles, stones off their points, hands and clutter. The same seed always gives the
// same look.
func RandomLook(seed uint64) Look {
	g := &rng{s: hash64(seed, 0x100c)}
	l := Look{Seed: hash64(seed, 0x5eed)}

	// Camera: mostly in front of the board and above it, sometimes steep.
	switch g.pick(3, 4, 3) {
	case 0:
		l.Tilt = g.in(0, 8)
	case 1:
		l.Tilt = g.in(8, 28)
	default:
		l.Tilt = g.in(28, 46)
	}
	if g.chance(0.2) {
		l.Tilt = -l.Tilt * 0.6 // camera on the far side
	}
	l.Azimuth = g.normal() * 9
	if g.chance(0.15) {
		l.Azimuth = g.in(-35, 35)
	}
	l.Roll = g.normal() * 3
	l.FOV = g.in(45, 75)
	switch g.pick(7, 2.5, 0.5) {
	case 0:
		l.Scale = g.in(0.78, 1.12) // the board fills the picture, as most photos of a game do
	case 1:
		l.Scale = g.in(0.58, 0.78)
	default:
		l.Scale = g.in(0.45, 0.58)
	}
	l.ShiftX = g.normal() * 0.05
	l.ShiftY = g.normal() * 0.04

	if g.chance(0.55) {
		l.Barrel = math.Abs(g.normal()) * 0.05
		if g.chance(0.15) {
			l.Barrel = -g.in(0, 0.02) // pincushion
		}
	}
	l.Vignette = g.in(0, 0.45)
	if g.chance(0.4) {
		l.Blur = g.in(0.4, 0.9)
	}
	if g.chance(0.15) {
		l.Blur = g.in(0.8, 2.0)
	}
	if g.chance(0.15) {
		l.MotionBlur = g.in(1.5, 6)
		l.MotionAngle = g.in(0, 180)
	}
	l.Noise = g.in(1.5, 7)
	if g.chance(0.2) {
		l.Noise = g.in(7, 13)
	}
	if g.chance(0.6) {
		l.JPEG = int(g.in(35, 92))
	}
	l.Contrast = g.in(0, 0.6)

	// Light: an ambient colour and one to three lamps.
	amb := lightColor(g)
	hard := g.chance(0.35)
	ambK := g.in(0.35, 0.75)
	if hard {
		ambK = g.in(0.12, 0.3)
	}
	l.Ambient = scale3(amb, ambK)
	l.AmbientTilt = [2]float64{g.normal() * 0.25, g.normal() * 0.25}
	nLamps := 1 + g.pick(5, 3, 1.5)
	lampCol := lightColor(g)
	for i := range nLamps {
		c := lampCol
		if i > 0 && g.chance(0.4) {
			c = lightColor(g)
		}
		k := g.in(0.45, 0.9)
		if i > 0 {
			k *= g.in(0.3, 0.8)
		}
		if hard && i == 0 {
			k = g.in(0.8, 1.1)
		}
		lp := Lamp{X: g.normal() * 9, Y: g.normal() * 9, Z: g.in(14, 40), Color: scale3(c, k), Size: g.in(0.15, 1)}
		if hard {
			lp.Size = g.in(0, 0.15)
			if i == 0 && g.chance(0.5) {
				lp.Z = g.in(9, 18) // a low lamp: long shadows, steep falloff
			}
		}
		l.Lamps = append(l.Lamps, lp)
	}
	l.Glare = g.in(0, 0.35)
	if g.chance(0.3) {
		l.Glare = g.in(0.35, 1)
	}
	l.Gloss = g.f()
	// The camera balances the light partly (auto white balance is never perfect).
	tot := [3]float64{}
	for c := range 3 {
		tot[c] = l.Ambient[c]
		for _, lp := range l.Lamps {
			tot[c] += lp.Color[c] * 0.6
		}
	}
	wb := g.in(0.2, 0.95)
	for c := range 3 {
		l.Balance[c] = math.Pow(tot[1]/math.Max(tot[c], 0.05), wb)
	}
	lum := 0.3*tot[0]*l.Balance[0] + 0.59*tot[1]*l.Balance[1] + 0.11*tot[2]*l.Balance[2]
	l.Exposure = g.in(0.75, 1.15) / math.Max(lum, 0.1)

	// Board.
	l.Board = BoardStyle(g.pick(3, 3, 1.5, 1.5, 1))
	l.Grain = g.in(0.5, 1)
	l.GrainScale = g.in(1.5, 4)
	switch l.Board {
	case LightWood:
		l.BoardColor = hsv(g.in(30, 40), g.in(0.38, 0.55), g.in(0.78, 0.92))
	case YellowWood:
		l.BoardColor = hsv(g.in(36, 46), g.in(0.55, 0.75), g.in(0.8, 0.95))
		l.Grain = g.in(0.8, 1.4)
	case DarkWood:
		l.BoardColor = hsv(g.in(18, 32), g.in(0.45, 0.7), g.in(0.35, 0.6))
	case PlasticBoard:
		l.BoardColor = hsv(g.in(38, 50), g.in(0.45, 0.72), g.in(0.82, 0.97))
		l.Grain = g.in(0, 0.15)
		l.Glare = math.Max(l.Glare, g.in(0.3, 0.9))
	case WhiteBoard:
		v := g.in(0.55, 0.92)
		l.BoardColor = hsv(g.in(30, 220), g.in(0, 0.08), v)
		l.Grain = 0
	}
	l.Aspect = 1
	if g.chance(0.6) {
		l.Aspect = g.in(1.02, 1.08)
	}
	l.MarginX = g.in(0.45, 0.9)
	l.MarginY = l.MarginX + g.in(0, 0.2)
	l.Thickness = g.in(0.3, 3)
	l.LineWidth = g.in(0.022, 0.06)
	lc := g.in(0.02, 0.14)
	l.LineColor = [3]float64{lc, lc * 0.9, lc * 0.8}
	if l.Board == DarkWood && g.chance(0.3) {
		l.LineColor = [3]float64{0.85, 0.8, 0.7} // light lines on a dark board
	}
	l.StarRadius = g.in(0.06, 0.12)
	switch g.pick(2, 1.5, 1, 1.5, 1) {
	case 0:
		l.Table = hsv(g.in(0, 360), g.in(0.2, 0.6), g.in(0.12, 0.4))
		l.TableCloth = true
	case 1:
		l.Table = hsv(g.in(20, 35), g.in(0.4, 0.7), g.in(0.2, 0.5)) // wooden table
	case 2:
		v := g.in(0.6, 0.9)
		l.Table = [3]float64{v, v * 0.98, v * 0.95} // white tablecloth
		l.TableCloth = true
	case 3:
		v := g.in(0.05, 0.25)
		l.Table = [3]float64{v, v, v * 1.05}
	default:
		l.Table = hsv(g.in(180, 240), g.in(0.4, 0.8), g.in(0.2, 0.5))
		l.TableCloth = true
	}

	// Stones.
	l.Stones = StoneStyle(g.pick(4, 2.5, 1.5))
	bk := g.in(0.025, 0.09)
	l.BlackColor = [3]float64{bk, bk, bk * g.in(0.95, 1.15)}
	switch g.pick(3, 2, 2) {
	case 0:
		l.WhiteColor = [3]float64{g.in(0.84, 0.92), g.in(0.82, 0.9), g.in(0.74, 0.84)} // cream
	case 1:
		v := g.in(0.68, 0.82)
		l.WhiteColor = [3]float64{v, v, v * g.in(0.98, 1.04)} // grey-ish
	default:
		v := g.in(0.82, 0.93)
		l.WhiteColor = [3]float64{v, v * 0.99, v * g.in(0.96, 1.02)}
	}
	l.StoneRadius = g.in(0.46, 0.51)
	switch l.Stones {
	case SlateShell:
		l.StoneHeight = g.in(0.3, 0.45)
		l.Shininess = g.in(10, 40)
		l.BlackShine = g.in(0.05, 0.35)
		l.WhiteShine = g.in(0.03, 0.15)
	case GlassStones:
		l.StoneHeight = g.in(0.3, 0.4)
		l.Shininess = g.in(80, 300)
		l.BlackShine = g.in(0.8, 3)
		l.WhiteShine = g.in(0.3, 1)
		l.WhiteColor = scale3(l.WhiteColor, g.in(0.9, 1))
	case PlasticStones:
		l.StoneHeight = g.in(0.12, 0.2)
		l.Shininess = g.in(30, 120)
		l.BlackShine = g.in(0.3, 1.2)
		l.WhiteShine = g.in(0.1, 0.4)
	}
	if hard {
		l.BlackShine *= 1.5
	}
	switch g.pick(4, 4, 2) {
	case 0:
		l.Offset = g.in(0.02, 0.1)
	case 1:
		l.Offset = g.in(0.1, 0.2)
	default:
		l.Offset = g.in(0.2, 0.3)
	}

	// Hands.
	l.HandScale = g.in(0.85, 1.15)
	l.Skin = hsv(g.in(14, 30), g.in(0.25, 0.55), g.in(0.3, 0.9))
	for i := range l.Sleeve {
		switch g.pick(3, 1, 1, 1) {
		case 0:
			l.Sleeve[i] = hsv(g.in(0, 360), g.in(0.1, 0.8), g.in(0.15, 0.8))
		case 1:
			v := g.in(0.02, 0.12) // black sleeve
			l.Sleeve[i] = [3]float64{v, v, v}
		case 2:
			v := g.in(0.75, 0.95) // white sleeve
			l.Sleeve[i] = [3]float64{v, v, v}
		default:
			v := g.in(0.3, 0.6)
			l.Sleeve[i] = [3]float64{v, v, v}
		}
	}
	l.Clutter = g.pick(1.5, 1.5, 2.5, 2.5, 2.5)
	if g.chance(0.25) {
		l.Shadow = g.in(0.3, 0.85)
		side := 1.0
		if g.chance(0.5) {
			side = -1
		}
		l.ShadowCenter = [2]float64{g.normal() * 6, side * g.in(8, 14)}
		l.ShadowRadius = [2]float64{g.in(5, 10), g.in(4, 8)}
		l.ShadowSoft = g.in(0.5, 4)
	}
	return l
}

// HardLook is RandomLook(seed) under hard club light: one low bare lamp off to the side giving sharp
// long shadows and a strong pool, little ambient light, glossy stones with glare on the black ones and
// a reflection of the lamp on the board.
func HardLook(seed uint64) Look {
	l := RandomLook(seed)
	g := &rng{s: hash64(seed, 0x4a2d)}
	c := lightColor(g)
	l.Ambient = scale3(lightColor(g), g.in(0.1, 0.2))
	l.Lamps = []Lamp{{X: g.in(-12, 12), Y: g.in(-12, 4), Z: g.in(10, 16), Color: scale3(c, g.in(0.95, 1.2)), Size: g.in(0, 0.08)}}
	l.Glare = g.in(0.5, 0.9)
	l.Gloss = g.in(0.4, 1)
	l.BlackShine = g.in(1, 3)
	l.WhiteShine = g.in(0.3, 0.8)
	l.Shininess = g.in(60, 200)
	tot := [3]float64{}
	for ch := range 3 {
		tot[ch] = l.Ambient[ch] + 0.6*l.Lamps[0].Color[ch]
	}
	for ch := range 3 {
		l.Balance[ch] = math.Pow(tot[1]/math.Max(tot[ch], 0.05), 0.6)
	}
	lum := 0.3*tot[0]*l.Balance[0] + 0.59*tot[1]*l.Balance[1] + 0.11*tot[2]*l.Balance[2]
	l.Exposure = 1 / math.Max(lum, 0.1)
	return l
}
