// Package homography is the project's one four-point projective transform: calibration (the grid
// on the camera image), the pictures of a
// board drawn without OpenCV: the demo's synthetic camera frames and the grid the camera screen
// lays over a frame.
package homography

import "math"

// Matrix is a 3x3 projective transform in row-major order.
type Matrix [9]float64

// Identity is the transform that leaves every point where it is.
func Identity() Matrix { return Matrix{1, 0, 0, 0, 1, 0, 0, 0, 1} }

// Apply maps (x, y) through m.
func (m Matrix) Apply(x, y float64) (float64, float64) {
	w := m[6]*x + m[7]*y + m[8]
	if w == 0 {
		w = 1e-12
	}
	return (m[0]*x + m[1]*y + m[2]) / w, (m[3]*x + m[4]*y + m[5]) / w
}

// From4 returns the transform taking src[i] to dst[i] (Gauss-Jordan elimination with partial
// pivoting, m[8] = 1); ok is false when the system is singular (points that fix no transform, such
// as all in one place). Three destination corners on a line give a transform with no inverse.
func From4(src, dst [4][2]float64) (m Matrix, ok bool) {
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
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if math.Abs(a[piv][col]) < 1e-12 {
			return Matrix{}, false
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
	for i := 0; i < 8; i++ {
		m[i] = a[i][8] / a[i][i]
	}
	m[8] = 1
	return m, true
}

// Inverse returns the inverse transform; ok is false when m is singular.
func (m Matrix) Inverse() (Matrix, bool) {
	a, b, c, d, e, f, g, h, i := m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]
	det := a*(e*i-f*h) - b*(d*i-f*g) + c*(d*h-e*g)
	if math.Abs(det) < 1e-15 {
		return Matrix{}, false
	}
	inv := Matrix{
		e*i - f*h, c*h - b*i, b*f - c*e,
		f*g - d*i, a*i - c*g, c*d - a*f,
		d*h - e*g, b*g - a*h, a*e - b*d,
	}
	for k := range inv {
		inv[k] /= det
	}
	return inv, true
}
