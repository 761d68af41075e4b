package calib

import (
	"math"
	"testing"
)

// pinholeView is a camera looking at a 19x19 board (grid spacings, the board's plane z = 0, z up)
// from a tilt of some degrees, with its axis through the picture's centre and a focal length of
// 0.9 times the picture's longer side (a field of view of about 58 degrees across it).
type pinholeView struct {
	w, h   int
	centre vec3 // the camera, in board spacings
	right  vec3 // the picture's x axis, in the board's space
	down   vec3 // its y axis
	fwd    vec3 // the camera's axis
}

// newPinholeView places a camera dist spacings from the board's centre, tilted tilt degrees from
// straight above toward the board's near (bottom) edge.
func newPinholeView(w, h int, tilt, dist float64) pinholeView {
	t := tilt * math.Pi / 180
	c := vec3{9, 9 + dist*math.Sin(t), dist * math.Cos(t)}
	fwd := vec3{9 - c[0], 9 - c[1], -c[2]}.unit()
	right := cross(fwd, vec3{0, 1, 0}).unit() // along the board's x, seen from the near side
	return pinholeView{w: w, h: h, centre: c, right: right, down: cross(fwd, right), fwd: fwd}
}

// project is the pixel where the camera sees the point p of the board's space.
func (v pinholeView) project(p [3]float64) Point2 {
	d := vec3{p[0] - v.centre[0], p[1] - v.centre[1], p[2] - v.centre[2]}
	f := 0.9 * float64(max(v.w, v.h))
	z := dot(d, v.fwd)
	return Point2{float64(v.w)/2 + f*dot(d, v.right)/z, float64(v.h)/2 + f*dot(d, v.down)/z}
}

// TestLiftGridSeesTheStonesMiddles checks liftGrid against a pinhole camera at 20, 45 and 60
// degrees from straight above: the homography it gives for a plane above the board (from nothing
// but the board's four corners, the focal length found from them) puts every point of that plane
// where the camera sees it, and lifting back down gives the board's homography again. From
// straight above, where the board's corners tell no focal length, it leaves the grid as it is.
func TestLiftGridSeesTheStonesMiddles(t *testing.T) {
	for _, tc := range []struct {
		name       string
		tilt, dist float64
		lifted     bool // whether liftGrid moves the plane
	}{
		{"straight above", 0, 30, false},
		{"20 degrees", 20, 35, true},
		{"45 degrees", 45, 40, true},
		{"60 degrees", 60, 30, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newPinholeView(1000, 750, tc.tilt, tc.dist)
			var corners [4]Point2
			for i, g := range [4][2]float64{{0, 0}, {18, 0}, {18, 18}, {0, 18}} {
				corners[i] = v.project([3]float64{g[0], g[1], 0})
			}
			board, ok := gridH(19, 19, corners)
			if !ok {
				t.Fatal("no grid homography")
			}
			if f, ok := focalOf(board, 500, 375, 1000); ok != tc.lifted || (ok && math.Abs(f-900) > 1e-6) {
				t.Errorf("focalOf = %.3f, %v; want 900 only when the view is tilted (%v)", f, ok, tc.lifted)
			}
			for _, lift := range []float64{stoneLift, 0.4} {
				up := liftGrid(board, lift, v.w, v.h)
				if !tc.lifted {
					if up != board {
						t.Errorf("lift %.2f: seen from straight above the grid moved", lift)
					}
					continue
				}
				worst, moved := 0.0, 0.0
				for _, g := range [][2]float64{{0, 0}, {18, 0}, {9, 9}, {3, 15}, {18, 18}} {
					want := v.project([3]float64{g[0], g[1], lift})
					got := applyH(up, Point2{g[0], g[1]})
					worst = math.Max(worst, math.Hypot(got.X-want.X, got.Y-want.Y))
					flat := applyH(board, Point2{g[0], g[1]})
					moved = math.Max(moved, math.Hypot(flat.X-want.X, flat.Y-want.Y))
				}
				if worst > 1e-6 {
					t.Errorf("lift %.2f: a point of the plane %.2g px from where the camera sees it", lift, worst)
				}
				if moved < 0.5 {
					t.Errorf("lift %.2f: the camera sees the plane at most %.2f px from the board: the test's view shows no lift", lift, moved)
				}
				down := liftGrid(up, -lift, v.w, v.h)
				for _, g := range [][2]float64{{0, 0}, {18, 18}, {5, 12}} {
					a, b := applyH(down, Point2{g[0], g[1]}), applyH(board, Point2{g[0], g[1]})
					if d := math.Hypot(a.X-b.X, a.Y-b.Y); d > 1e-6 {
						t.Errorf("lift %.2f and back: point %v %.2g px off", lift, g, d)
					}
				}
			}
		})
	}
}

// TestLiftGridRefusesADegenerateGrid: a homography that is no view of a plane comes back as it
// was rather than as NaNs.
func TestLiftGridRefusesADegenerateGrid(t *testing.T) {
	var zero [9]float64
	if got := liftGrid(zero, stoneLift, 640, 480); got != zero {
		t.Errorf("liftGrid of a zero homography = %v", got)
	}
	if _, ok := blobsToGrid(zero, 640, 480); ok {
		t.Error("blobsToGrid of a zero homography has an inverse")
	}
}
