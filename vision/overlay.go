package vision

import (
	"image"
	"image/color"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/vision/observe"
)

// Overlay draws a calibration's grid and a reading over a copy of img (BGR) for people to check
// a board by eye (`kiosk detect --debug`): the grid lines in green (bent by the lens term), a red ring on each black
// stone, a blue ring on each white one, a yellow cross on each obscured point, and a magenta
// dot on every point read with a confidence under 0.9. The caller closes the result.
func Overlay(img gocv.Mat, cal calib.Calibration, rd Reading) gocv.Mat {
	out := img.Clone()
	if out.Type() == gocv.MatTypeCV8UC1 {
		gocv.CvtColor(out, &out, gocv.ColorGrayToBGR)
	}
	n := cal.Size
	pt := func(c, r float64) image.Point {
		p := cal.GridPixel(c, r)
		return image.Pt(int(p.X+0.5), int(p.Y+0.5))
	}
	sp := 0.0
	for i := 0; i < 4; i++ {
		a, b := cal.Corners[i], cal.Corners[(i+1)%4]
		sp += (abs64(a.X-b.X) + abs64(a.Y-b.Y)) / 4 / float64(n-1)
	}
	thick := max(1, int(sp/15))
	green := color.RGBA{G: 220, A: 255}
	// Each line from point to point, so that a lens term's bend shows.
	for k := 0; k < n; k++ {
		for j := 0; j+1 < n; j++ {
			fk, fj := float64(k), float64(j)
			gocv.Line(&out, pt(fk, fj), pt(fk, fj+1), green, thick)
			gocv.Line(&out, pt(fj, fk), pt(fj+1, fk), green, thick)
		}
	}
	rad := max(2, int(0.42*sp))
	for r := 0; r < n && rd.Size == n; r++ {
		for c := 0; c < n; c++ {
			i := r*n + c
			p := pt(float64(c), float64(r))
			switch rd.Stones[i] {
			case observe.Black:
				gocv.Circle(&out, p, rad, color.RGBA{R: 255, A: 255}, thick+1)
			case observe.White:
				gocv.Circle(&out, p, rad, color.RGBA{B: 255, G: 80, A: 255}, thick+1)
			case observe.Obscured:
				d := image.Pt(rad/2, rad/2)
				yellow := color.RGBA{R: 255, G: 230, A: 255}
				gocv.Line(&out, p.Sub(d), p.Add(d), yellow, thick+1)
				gocv.Line(&out, p.Add(image.Pt(-d.X, d.Y)), p.Add(image.Pt(d.X, -d.Y)), yellow, thick+1)
			}
			if i < len(rd.Confidence) && rd.Confidence[i] < 0.9 {
				gocv.Circle(&out, p, max(2, rad/4), color.RGBA{R: 255, B: 255, A: 255}, -1)
			}
		}
	}
	return out
}

func abs64(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
