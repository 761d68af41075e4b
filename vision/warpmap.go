package vision

import (
	"fmt"
	"math"

	"gocv.io/x/gocv"

	"tengen/calib"
)

// interBits is OpenCV's INTER_BITS: remap's fixed-point maps keep a source coordinate's
// fraction in 5 bits, and bilinear interpolation uses a table of 32x32 weights.
const interBits = 5

// warpMaps are the fixed-point maps cv::remap takes in place of a perspective warp: for every
// canonical pixel, the image pixel it comes from (xy, CV_16SC2) and its fraction (frac,
// CV_16UC1, row*32+column of OpenCV's interpolation table). A Reader keeps its calibration
// from frame to frame (until aimed at another), so computing the homography per pixel once,
// not in every frame, saves cv::warpPerspective about two fifths of its time; the pixels come
// out the same. The maps are 6 bytes a canonical pixel (0.96 MB for 19x19).
type warpMaps struct {
	xy, frac gocv.Mat
}

// canonMap takes a canonical pixel to the frame's: a homography to the pinhole picture, then the
// lens's bending (nil for none).
type canonMap struct {
	h    [9]float64
	bend func(calib.Point2) calib.Point2
}

// at maps canonical pixel (u, v) to the frame; ok is false behind the camera.
func (m canonMap) at(u, v float64) (x, y float64, ok bool) {
	h := m.h
	z := h[6]*u + h[7]*v + h[8]
	if z <= 0 {
		return 0, 0, false
	}
	x, y = (h[0]*u+h[1]*v+h[2])/z, (h[3]*u+h[4]*v+h[5])/z
	if m.bend != nil {
		p := m.bend(calib.Point2{X: x, Y: y})
		x, y = p.X, p.Y
	}
	return x, y, true
}

// newWarpMaps computes the maps of toImg (canonical pixel -> image pixel) for a side x side
// canonical image. Without a lens the pixels are those of cv::warpPerspective, rounded as it
// rounds; a lens bends each pixel's source (computed once, so a frame costs no more).
func newWarpMaps(toImg canonMap, side int) (warpMaps, error) {
	// The maps live in OpenCV's memory, written through Go views of it: no Go memory is held
	// by C, and the Go heap does not grow by a megabyte it cannot collect.
	m := warpMaps{xy: gocv.NewMatWithSize(side, side, gocv.MatTypeCV16SC2),
		frac: gocv.NewMatWithSize(side, side, gocv.MatTypeCV16UC1)}
	if err := m.fill(toImg, side); err != nil {
		m.Close()
		return warpMaps{}, err
	}
	return m, nil
}

// fill writes the maps of toImg into m, made for a side x side canonical image.
func (m warpMaps) fill(toImg canonMap, side int) error {
	xy, err := m.xy.DataPtrInt16()
	if err != nil {
		return fmt.Errorf("vision: warp map: %w", err)
	}
	frac, err := m.frac.DataPtrUint16()
	if err != nil {
		return fmt.Errorf("vision: warp map: %w", err)
	}
	if len(xy) != 2*side*side || len(frac) != side*side {
		return fmt.Errorf("vision: warp map of %d and %d values for a side of %d", len(xy), len(frac), side)
	}
	const tab = 1 << interBits
	h := toImg.h
	for v := 0; v < side; v++ {
		for u := 0; u < side; u++ {
			fu, fv := float64(u), float64(v)
			var x, y int32
			if toImg.bend != nil {
				px, py, ok := toImg.at(fu, fv)
				if !ok {
					px, py = -1e9, -1e9 // behind the camera: outside, as the pinhole map puts it
				}
				x, y = fixedCoord(px*tab), fixedCoord(py*tab)
			} else {
				w := h[6]*fu + h[7]*fv + h[8]
				if w != 0 {
					w = tab / w
				}
				x = fixedCoord((h[0]*fu + h[1]*fv + h[2]) * w)
				y = fixedCoord((h[3]*fu + h[4]*fv + h[5]) * w)
			}
			i := v*side + u
			xy[2*i], xy[2*i+1] = saturateInt16(x>>interBits), saturateInt16(y>>interBits)
			frac[i] = uint16((y&(tab-1))*tab + (x & (tab - 1)))
		}
	}
	return nil
}

// fixedCoord rounds a coordinate in 1/32 pixels to an int32 as cv::warpPerspective does
// (clamped, then rounded half to even).
func fixedCoord(f float64) int32 {
	f = max(math.MinInt32, min(math.MaxInt32, f))
	return int32(math.RoundToEven(f))
}

// saturateInt16 clamps v to the int16 range, as OpenCV's saturate_cast<short> does.
func saturateInt16(v int32) int16 {
	return int16(max(math.MinInt16, min(math.MaxInt16, v)))
}

// Close releases the maps' OpenCV memory.
func (m warpMaps) Close() {
	m.xy.Close()
	m.frac.Close()
}
