// Package rendertest gives tests a rendered photo with its true corners as the board finder
// sees it (a gocv Mat), and judges a found grid against those corners in grid spacings. The
// board finder's own tests (package calib) cannot use it: it imports calib.
package rendertest

import (
	"fmt"
	"math"
	"strings"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/demo"
	"tengen/vision/observe"
)

// Frame renders demo.RenderSample(seed, opt) and returns the sample with its photo as a BGR
// Mat, which the caller closes.
func Frame(seed uint64, opt demo.SampleOptions) (demo.Sample, gocv.Mat, error) {
	s, err := demo.RenderSample(seed, opt)
	if err != nil {
		return s, gocv.Mat{}, err
	}
	m, err := gocv.ImageToMatRGB(s.Image)
	if err != nil {
		return s, gocv.Mat{}, fmt.Errorf("rendertest: %w", err)
	}
	return s, m, nil
}

// DrawnGrid is the calibration of the grid s was drawn with (its true corners, no lens term), for
// a test that reads a rendered photo on the right grid whatever the finder makes of it.
func DrawnGrid(s demo.Sample) (calib.Calibration, error) {
	var corners [4]calib.Point2
	for i, p := range s.Corners {
		corners[i] = calib.Point2{X: p[0], Y: p[1]}
	}
	b := s.Image.Bounds()
	c, err := calib.FromCorners(b.Dx(), b.Dy(), s.Size, corners)
	if err != nil {
		return calib.Calibration{}, fmt.Errorf("rendertest: %w", err)
	}
	return c, nil
}

// SpacingsOff is the distance of the worst of found's corners from the drawn ones (top-left,
// top-right, bottom-right, bottom-left as seen) of a grid of found's size, in grid spacings.
// With anyTurn it takes the best of the eight ways a square grid's corners can be matched (a
// found grid's top-left need not be the drawn one's after a quarter turn).
func SpacingsOff(found calib.Calibration, drawn [4][2]float64, anyTurn bool) float64 {
	spacing := math.Hypot(drawn[1][0]-drawn[0][0], drawn[1][1]-drawn[0][1]) / float64(found.Size-1)
	turns, mirrors := 1, []bool{false}
	if anyTurn {
		turns, mirrors = 4, []bool{false, true}
	}
	best := math.Inf(1)
	for turn := 0; turn < turns; turn++ {
		for _, mirror := range mirrors {
			worst := 0.0
			for i, p := range found.Corners {
				j := (i + turn) % 4
				if mirror {
					j = (4 - i + turn) % 4
				}
				worst = math.Max(worst, math.Hypot(p.X-drawn[j][0], p.Y-drawn[j][1]))
			}
			best = math.Min(best, worst/spacing)
		}
	}
	return best
}

// Position parses a board written as demo.BoardText writes it (rows of '.', 'X' and 'O', one per
// line, as `render-boards` labels its scenes), so that a test can draw a labelled scene again
// with its position.
func Position(text string) ([]demo.Stone, error) {
	var out []demo.Stone
	for _, r := range strings.ReplaceAll(strings.TrimSpace(text), "\n", "") {
		s, err := observe.StoneFromRune(r)
		if err != nil {
			return nil, fmt.Errorf("rendertest: %w", err)
		}
		switch s {
		case observe.Empty:
			out = append(out, demo.Empty)
		case observe.Black:
			out = append(out, demo.Black)
		case observe.White:
			out = append(out, demo.White)
		default:
			return nil, fmt.Errorf("rendertest: %q is not a stone or an empty point", r)
		}
	}
	return out, nil
}
