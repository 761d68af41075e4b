package calib

import "math"

// A black stone is not a mark on the board: it stands up from it, and the middle of the dark
// blob a camera sees of it is the middle of the stone's body, about half its thickness above the
// point. Seen at an angle that is a fraction of a spacing toward the board's far side (a stone
// 0.4 spacing thick, at 45 degrees, about 0.15). Every test of whether the stones sit on a grid's
// points takes that into account: the blobs are read on the plane of the stones' middles, which
// a camera sees through a homography with the board's vanishing line and its translation moved
// toward the vanishing point of the board's normal.

// stoneLift is the height above the board, in grid spacings, of the middle of a black stone's
// blob: half a stone's thickness (Japanese stones are 7 to 10 mm thick on lines 22 mm apart). On
// 300 late-game renders' true grids, with stones 0.3 to 0.45 spacing thick, the share of frames
// whose stones sit on the points (StoneFit.sitOn) was highest at 0.1 to 0.2 (with a fixed focal
// length; 0.15 with focalOf's gave 191 of 295 against 159 flat).
const stoneLift = 0.15

// liftGrid returns the homography of the plane lift grid spacings above the board whose grid
// homography is hg (grid coordinates to pixels of a w x h picture), for a camera whose axis meets
// the picture at its centre and whose focal length is the one hg implies (focalOf). A negative
// lift takes the stones' plane back down to the board. Where hg implies no focal length (a board
// seen from nearly straight above shows no vanishing point) or is no view of a plane, hg is
// returned unchanged: from above, the lift only moves the stones out from the camera's axis by
// about a percent of their distance from it, and a cropped picture hides where that axis is.
func liftGrid(hg [9]float64, lift float64, w, h int) [9]float64 {
	cx, cy := float64(w)/2, float64(h)/2
	f, ok := focalOf(hg, cx, cy, float64(max(w, h)))
	if !ok {
		return hg
	}
	// The camera's view of the board, K^-1 hg = s [r1 r2 t]: the board's axes r1, r2 and origin t.
	var col [3]vec3
	for j := 0; j < 3; j++ {
		col[j] = vec3{(hg[j] - cx*hg[6+j]) / f, (hg[3+j] - cy*hg[6+j]) / f, hg[6+j]}
	}
	n1, n2 := math.Sqrt(dot(col[0], col[0])), math.Sqrt(dot(col[1], col[1]))
	up := cross(col[0].unit(), col[1].unit()).unit()
	if !(n1 > 0 && n2 > 0) || dot(up, up) == 0 {
		return hg
	}
	// Up is toward the camera: the camera stands at height -up.t above the board.
	k := (n1 + n2) / 2 * lift
	if dot(up, col[2]) > 0 {
		k = -k
	}
	t := vec3{col[2][0] + k*up[0], col[2][1] + k*up[1], col[2][2] + k*up[2]}
	out := hg
	out[2] = f*t[0] + cx*t[2]
	out[5] = f*t[1] + cy*t[2]
	out[8] = t[2]
	return out
}

// focalOf is the focal length, in pixels, of the camera that sees a board of square spacings
// through hg (grid coordinates to pixels) with its axis at (cx, cy): the one for which the board's
// axes come out at right angles and equally long (the two conditions fitted together by least
// squares). It fails unless it lies within 0.4 to 4 times side (the picture's longer side: fields
// of view from about 14 to 100 degrees), which is where the view is too near straight on for its
// perspective to tell.
func focalOf(hg [9]float64, cx, cy, side float64) (float64, bool) {
	var c [9]float64
	for j := 0; j < 3; j++ {
		c[j], c[3+j], c[6+j] = hg[j]-cx*hg[6+j], hg[3+j]-cy*hg[6+j], hg[6+j]
	}
	// With x = 1/f^2: the axes at right angles, a1 x + b1 = 0; equally long, a2 x + b2 = 0.
	a1, b1 := c[0]*c[1]+c[3]*c[4], c[6]*c[7]
	a2, b2 := c[0]*c[0]+c[3]*c[3]-c[1]*c[1]-c[4]*c[4], c[6]*c[6]-c[7]*c[7]
	den := a1*a1 + a2*a2
	if !(den > 0) {
		return 0, false
	}
	x := -(a1*b1 + a2*b2) / den
	if !(x > 0) {
		return 0, false
	}
	f := 1 / math.Sqrt(x)
	return f, f >= 0.4*side && f <= 4*side
}

// blobsToGrid returns the homography taking the middle of a black stone's blob (pixels of a w x h
// picture) to the grid coordinates of the point the stone stands on, for the grid homography hg;
// false when it has no inverse.
func blobsToGrid(hg [9]float64, w, h int) ([9]float64, bool) {
	return invert3(liftGrid(hg, stoneLift, w, h))
}
