// Package homography is the project's one projective transform, from four points or fitted to
// many: calibration (the grid on the camera image, the stones' lattice), the pictures of a
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
		a[2*i], a[2*i+1] = rows(src[i], dst[i])
	}
	return solve(a)
}

// Fit returns the transform that takes src[i] nearest to dst[i] in the least-squares sense of
// the linear equations (m[8] = 1), for four or more pairs: the points are first moved to their
// centroid and scaled (Hartley's normalisation) so that the equations are well conditioned at
// any pixel scale. ok is false for fewer than four pairs or points that fix no transform.
func Fit(src, dst [][2]float64) (m Matrix, ok bool) {
	if len(src) < 4 || len(src) != len(dst) {
		return Matrix{}, false
	}
	ts, td := normaliser(src), normaliser(dst)
	// The normal equations of the 8 unknowns, in the augmented form solve takes.
	var a [8][9]float64
	for k := range src {
		var p, q [2]float64
		p[0], p[1] = ts.Apply(src[k][0], src[k][1])
		q[0], q[1] = td.Apply(dst[k][0], dst[k][1])
		r1, r2 := rows(p, q)
		for _, r := range [2][9]float64{r1, r2} {
			for i := 0; i < 8; i++ {
				for j := 0; j < 9; j++ {
					a[i][j] += r[i] * r[j]
				}
			}
		}
	}
	n, ok := solve(a)
	if !ok {
		return Matrix{}, false
	}
	tdInv, ok := td.Inverse()
	if !ok {
		return Matrix{}, false
	}
	return tdInv.Mul(n.Mul(ts)), true
}

// rows are the two linear equations in the eight unknowns (and the right-hand side) that the pair
// p -> q puts on a transform with m[8] = 1.
func rows(p, q [2]float64) ([9]float64, [9]float64) {
	x, y, X, Y := p[0], p[1], q[0], q[1]
	return [9]float64{x, y, 1, 0, 0, 0, -X * x, -X * y, X}, [9]float64{0, 0, 0, x, y, 1, -Y * x, -Y * y, Y}
}

// solve solves the augmented 8x9 system a by Gauss-Jordan elimination with partial pivoting.
func solve(a [8][9]float64) (m Matrix, ok bool) {
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

// normaliser is the similarity moving pts to their centroid and scaling them to a mean distance
// of sqrt 2 from it.
func normaliser(pts [][2]float64) Matrix {
	var cx, cy float64
	for _, p := range pts {
		cx += p[0]
		cy += p[1]
	}
	cx /= float64(len(pts))
	cy /= float64(len(pts))
	var d float64
	for _, p := range pts {
		d += math.Hypot(p[0]-cx, p[1]-cy)
	}
	d /= float64(len(pts))
	s := math.Sqrt2 / math.Max(d, 1e-9)
	return Matrix{s, 0, -s * cx, 0, s, -s * cy, 0, 0, 1}
}

// Mul is the transform m after b (the matrix product m b).
func (m Matrix) Mul(b Matrix) Matrix {
	var r Matrix
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				r[i*3+j] += m[i*3+k] * b[k*3+j]
			}
		}
	}
	return r
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
