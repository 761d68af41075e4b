// Package calib finds a Go board in a camera frame, describes where its intersections are
// (a Calibration), stores that description in a versioned JSON file and notices when the board
// or the camera has been bumped so the grid no longer matches.
//
// Grid coordinates used here are "as seen in the image": col 0 is the board edge line nearest
// the image's left, row 0 the one nearest the image's top, and the four corners are the corner
// INTERSECTIONS (not the wooden edge). BlackSide says how that maps to the players' view.
package calib

import (
	"errors"
	"fmt"
	"math"

	"gocv.io/x/gocv"

	"tengen/internal/homography"
)

// FormatVersion is the calibration file format this package writes and reads.
const FormatVersion = 1

// Board-size policy: files and manual corners accept any size the rules engine plays (2..25);
// the automatic finder looks for the common sizes 9, 13 and 19 unless told a size.
const (
	MinSize = 2
	MaxSize = 25
)

// Sentinel errors, checked with errors.Is, so the UI can tell the user what to do
// (usually: recalibrate).
var (
	// ErrNoBoard means no board grid could be found in the frame.
	ErrNoBoard = errors.New("calib: no board found")
	// ErrCorrupt means a calibration file is not valid JSON or is truncated.
	ErrCorrupt = errors.New("calib: calibration file is corrupt")
	// ErrVersion means a calibration file has a format version this program does not know.
	ErrVersion = errors.New("calib: unsupported calibration file version")
	// ErrImageSize means the calibration was made for a different image size than the camera gives.
	ErrImageSize = errors.New("calib: calibration image size does not match the camera")
	// ErrBoardSize means the board size is outside the supported range.
	ErrBoardSize = errors.New("calib: unsupported board size")
	// ErrCorners means the four corners do not form a convex quadrilateral inside the image.
	ErrCorners = errors.New("calib: corners are not a convex quadrilateral inside the image")
	// ErrBadImage means the frame handed in is empty or of an unsupported type.
	ErrBadImage = errors.New("calib: empty or unsupported image")
	// ErrNotInView means the best grid leaves the picture: a board is there, but not all of it
	// (the camera must be moved). It is an ErrNoBoard too.
	ErrNotInView error = notInView{}
)

// notInView is ErrNotInView: its own sentinel, and an ErrNoBoard to every caller that asks.
type notInView struct{}

// Error reads as the finder's refusals always have.
func (notInView) Error() string { return ErrNoBoard.Error() + ": the board is not entirely in view" }

// Is makes errors.Is(err, ErrNoBoard) hold.
func (notInView) Is(target error) bool { return target == ErrNoBoard }

// Point2 is a position in image pixels (x to the right, y down).
type Point2 struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Side names an edge of the image; it records where Black sits.
type Side int

// The image edges. Bottom is the zero value: Black sits nearest the camera's bottom edge,
// so the board as seen by Black is the board as seen in the image.
const (
	Bottom Side = iota
	Top
	Left
	Right
)

var sideNames = [...]string{"bottom", "top", "left", "right"}

// String returns "bottom", "top", "left" or "right".
func (s Side) String() string {
	if s < 0 || int(s) >= len(sideNames) {
		return fmt.Sprintf("Side(%d)", int(s))
	}
	return sideNames[s]
}

// MarshalText writes the side as its name, so files stay readable.
func (s Side) MarshalText() ([]byte, error) {
	if s < 0 || int(s) >= len(sideNames) {
		return nil, fmt.Errorf("calib: invalid side %d", int(s))
	}
	return []byte(sideNames[s]), nil
}

// UnmarshalText parses a side name.
func (s *Side) UnmarshalText(b []byte) error {
	for i, n := range sideNames {
		if string(b) == n {
			*s = Side(i)
			return nil
		}
	}
	return fmt.Errorf("calib: unknown side %q", b)
}

// Corner indexes into Calibration.Corners.
const (
	TopLeft = iota
	TopRight
	BottomRight
	BottomLeft
)

// Calibration says where a board's intersections are in camera frames of one size.
// It is plain data; Save and Load store it as versioned JSON.
type Calibration struct {
	Version     int `json:"version"`
	ImageWidth  int `json:"image_width"`
	ImageHeight int `json:"image_height"`
	// Size is the number of lines (9, 13, 19, ...).
	Size int `json:"size"`
	// Corners are the corner intersections TL, TR, BR, BL as seen in the image, in pixels.
	Corners [4]Point2 `json:"corners"`
	// BlackSide is the image edge Black sits at.
	BlackSide Side `json:"black_side"`
	// Confidence is how sure the finder was (0..1); 1 for corners set by hand.
	Confidence float64 `json:"confidence"`
	// LightLines is set for boards with light lines on a dark surface (electronic boards);
	// drift checks then look for light lines.
	LightLines bool `json:"light_lines,omitempty"`
	// Lens bends the grid as the camera's lens does: 0 for a pinhole picture, positive for barrel
	// distortion (a webcam's wide lens bows straight lines outward), negative for pincushion.
	// A frame pixel d is where a pinhole camera would have put c + (d-c)(1 + Lens r^2), c being the
	// frame's centre and r d's distance from it in half-diagonals. The corners are frame pixels,
	// so a lens term bends the lines between them, not the corners. See FitLens.
	Lens float64 `json:"lens,omitempty"`
}

// FromCorners builds a calibration from four corner intersections given by hand
// (TL, TR, BR, BL as seen in a w x h image). It fails with ErrBoardSize, ErrImageSize or
// ErrCorners when the input cannot describe a board.
func FromCorners(w, h, size int, corners [4]Point2) (Calibration, error) {
	c := Calibration{
		Version:     FormatVersion,
		ImageWidth:  w,
		ImageHeight: h,
		Size:        size,
		Corners:     corners,
		BlackSide:   Bottom,
		Confidence:  1,
	}
	if err := c.Validate(); err != nil {
		return Calibration{}, err
	}
	return c, nil
}

// Validate checks that c can be used: known version, positive image size, board size in
// MinSize..MaxSize, a known BlackSide and corners forming a convex, clockwise quadrilateral
// that lies within (a small margin around) the image.
func (c Calibration) Validate() error {
	if c.Version != FormatVersion {
		return fmt.Errorf("%w: %d (this program reads version %d)", ErrVersion, c.Version, FormatVersion)
	}
	if c.ImageWidth <= 0 || c.ImageHeight <= 0 || c.ImageWidth > 1<<16 || c.ImageHeight > 1<<16 {
		return fmt.Errorf("%w: %dx%d is not a valid image size", ErrImageSize, c.ImageWidth, c.ImageHeight)
	}
	if c.Size < MinSize || c.Size > MaxSize {
		return fmt.Errorf("%w: %d (supported %d..%d)", ErrBoardSize, c.Size, MinSize, MaxSize)
	}
	if c.BlackSide < Bottom || c.BlackSide > Right {
		return fmt.Errorf("%w: black side %d", ErrCorrupt, int(c.BlackSide))
	}
	if math.IsNaN(c.Confidence) || c.Confidence < 0 || c.Confidence > 1 {
		return fmt.Errorf("%w: confidence %v outside 0..1", ErrCorrupt, c.Confidence)
	}
	if err := checkLens(c.Lens); err != nil {
		return err
	}
	return checkQuad(c.Corners, float64(c.ImageWidth), float64(c.ImageHeight))
}

// checkQuad reports ErrCorners unless q is a convex quadrilateral, ordered clockwise on screen
// (TL, TR, BR, BL), of reasonable area, with every corner within a 10% margin of the image.
func checkQuad(q [4]Point2, w, h float64) error {
	for i, p := range q {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
			return fmt.Errorf("%w: corner %d is not a number", ErrCorners, i)
		}
		if p.X < -0.1*w || p.X > 1.1*w || p.Y < -0.1*h || p.Y > 1.1*h {
			return fmt.Errorf("%w: corner %d (%.1f,%.1f) is outside the %gx%g image", ErrCorners, i, p.X, p.Y, w, h)
		}
	}
	for i := 0; i < 4; i++ {
		a, b, c := q[i], q[(i+1)%4], q[(i+2)%4]
		// Image y points down, so a clockwise-on-screen turn has a positive cross product.
		cross := (b.X-a.X)*(c.Y-b.Y) - (b.Y-a.Y)*(c.X-b.X)
		if cross <= 0 {
			return fmt.Errorf("%w: not convex and clockwise (TL, TR, BR, BL) at corner %d", ErrCorners, (i+1)%4)
		}
	}
	if area := quadArea(q); area < 16 {
		return fmt.Errorf("%w: area %.1f px² is too small", ErrCorners, area)
	}
	return nil
}

// quadArea is the area of a simple quadrilateral (shoelace formula).
func quadArea(q [4]Point2) float64 {
	var s float64
	for i := 0; i < 4; i++ {
		a, b := q[i], q[(i+1)%4]
		s += a.X*b.Y - b.X*a.Y
	}
	return math.Abs(s) / 2
}

// CheckImage returns ErrImageSize unless c was made for w x h frames.
func (c Calibration) CheckImage(w, h int) error {
	if c.ImageWidth != w || c.ImageHeight != h {
		return fmt.Errorf("%w: calibrated for %dx%d, camera gives %dx%d", ErrImageSize, c.ImageWidth, c.ImageHeight, w, h)
	}
	return nil
}

// InView reports whether the whole grid lies in c's image, by the test the finder applies to its
// grids (up to half a cell in from each corner intersection): a grid moved after it was found
// (vision.CheckGrid) must pass it too.
func (c Calibration) InView() bool {
	g := gridFit{cols: c.Size, rows: c.Size, corners: c.Corners}
	return g.inView(c.ImageWidth, c.ImageHeight)
}

// GridToImage returns the 3x3 homography (row-major) taking grid coordinates (col, row),
// with (0,0) the TL corner intersection and (Size-1, Size-1) the BR one, to image pixels, as a
// pinhole camera sees them: with a Lens term it is the straight grid through the corners, and
// GridPixel is where the points are.
func (c Calibration) GridToImage() [9]float64 {
	n := float64(c.Size - 1)
	src := [4]Point2{{0, 0}, {n, 0}, {n, n}, {0, n}}
	h, _ := homographyFrom4(src, c.Corners)
	return h
}

// pinholeGrid returns the homography taking grid coordinates to the pinhole picture (the frame
// straightened by the lens term), and the lens.
func (c Calibration) pinholeGrid() ([9]float64, lensModel) {
	l := c.lens()
	if l.k == 0 {
		return c.GridToImage(), l
	}
	n := float64(c.Size - 1)
	src := [4]Point2{{0, 0}, {n, 0}, {n, n}, {0, n}}
	var dst [4]Point2
	for i, p := range c.Corners {
		dst[i] = l.straighten(p)
	}
	h, _ := homographyFrom4(src, dst)
	return h, l
}

// PinholeGridToImage returns the homography taking grid coordinates to the pinhole picture:
// the frame as it would be without the lens's bending (Bend takes its pixels to the frame's).
// Without a Lens term it is GridToImage.
func (c Calibration) PinholeGridToImage() [9]float64 {
	h, _ := c.pinholeGrid()
	return h
}

// Bend maps a pixel of the pinhole picture (see PinholeGridToImage) to the frame by the Lens
// term; without one it returns p.
func (c Calibration) Bend(p Point2) Point2 { return c.lens().bend(p) }

// Homography returns GridToImage as a 3x3 CV_64F Mat for OpenCV calls (warpPerspective with
// WarpInverseMap, perspectiveTransform). The caller must Close it.
func (c Calibration) Homography() gocv.Mat {
	h := c.GridToImage()
	m := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	for i := 0; i < 9; i++ {
		m.SetDoubleAt(i/3, i%3, h[i])
	}
	return m
}

// IntersectionPixel returns where intersection (col, row), counted as seen in the image from
// the top-left corner (0..Size-1), lies in the image.
func (c Calibration) IntersectionPixel(col, row int) Point2 {
	return c.GridPixel(float64(col), float64(row))
}

// GridPixel is IntersectionPixel for fractional grid coordinates (points between lines,
// or just outside the edge lines).
func (c Calibration) GridPixel(col, row float64) Point2 {
	return c.GridMapper()(col, row)
}

// GridMapper returns GridPixel as a function, the homography and lens worked out once: for
// callers that map many points of one calibration.
func (c Calibration) GridMapper() func(col, row float64) Point2 {
	h, l := c.pinholeGrid()
	return func(col, row float64) Point2 { return l.bend(applyH(h, Point2{col, row})) }
}

// ImageToGrid maps an image pixel to fractional grid coordinates (col, row) as seen in the image.
func (c Calibration) ImageToGrid(p Point2) Point2 {
	h, l := c.pinholeGrid()
	inv, ok := invert3(h)
	if !ok {
		return Point2{math.NaN(), math.NaN()}
	}
	return applyH(inv, l.straighten(p))
}

// ImageGrid converts a board point as seen from Black's side (x from Black's left, y = 0 the far
// row, as engine.Point) to image grid coordinates (col, row), using BlackSide.
func (c Calibration) ImageGrid(x, y int) (col, row int) {
	n := c.Size - 1
	switch c.BlackSide {
	case Top:
		return n - x, n - y
	case Left:
		return n - y, x
	case Right:
		return y, n - x
	default:
		return x, y
	}
}

// PointPixel returns the image pixel of board point (x, y) as seen from Black's side.
func (c Calibration) PointPixel(x, y int) Point2 {
	col, row := c.ImageGrid(x, y)
	return c.IntersectionPixel(col, row)
}

// Spacing returns the mean distance in pixels between neighbouring lines along the board edges.
func (c Calibration) Spacing() float64 {
	if c.Size < 2 {
		return 0
	}
	var s float64
	for i := 0; i < 4; i++ {
		a, b := c.Corners[i], c.Corners[(i+1)%4]
		s += math.Hypot(b.X-a.X, b.Y-a.Y)
	}
	return s / 4 / float64(c.Size-1)
}

// applyH applies a row-major homography to p (internal/homography, the one solver of the project).
func applyH(h [9]float64, p Point2) Point2 {
	x, y := homography.Matrix(h).Apply(p.X, p.Y)
	return Point2{x, y}
}

// homographyFrom4 solves for the homography taking src[i] to dst[i] (h[8] = 1).
func homographyFrom4(src, dst [4]Point2) ([9]float64, bool) {
	var s, d [4][2]float64
	for i := range src {
		s[i], d[i] = [2]float64{src[i].X, src[i].Y}, [2]float64{dst[i].X, dst[i].Y}
	}
	m, ok := homography.From4(s, d)
	return [9]float64(m), ok
}

// invert3 inverts a homography; false when it has no inverse.
func invert3(m [9]float64) ([9]float64, bool) {
	inv, ok := homography.Matrix(m).Inverse()
	return [9]float64(inv), ok
}
