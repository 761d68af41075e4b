package vision

import (
	"fmt"
	"math"

	"gocv.io/x/gocv"
)

// interBits is OpenCV's INTER_BITS: remap's fixed-point maps keep a source coordinate's
// fraction in 5 bits, and bilinear interpolation uses a table of 32x32 weights.
const interBits = 5

// warpMaps are the fixed-point maps cv::remap takes in place of a perspective warp: for every
// canonical pixel, the image pixel it comes from (xy, CV_16SC2) and its fraction (frac,
// CV_16UC1, row*32+column of OpenCV's interpolation table). A calibration is fixed for a
// Reader's life, so computing the homography per pixel once, not in every frame, saves
// cv::warpPerspective about two fifths of its time; the pixels come out the same. The maps are
// 6 bytes a canonical pixel (0.96 MB for 19x19).
type warpMaps struct {
	xy, frac gocv.Mat
}

// newWarpMaps computes the maps of the homography toImg (canonical pixel -> image pixel) for a
// side x side canonical image, rounding as cv::warpPerspective does.
func newWarpMaps(toImg [9]float64, side int) (warpMaps, error) {
	// The maps live in OpenCV's memory, written through Go views of it: no Go memory is held
	// by C, and the Go heap does not grow by a megabyte it cannot collect.
	m := warpMaps{xy: gocv.NewMatWithSize(side, side, gocv.MatTypeCV16SC2),
		frac: gocv.NewMatWithSize(side, side, gocv.MatTypeCV16UC1)}
	xy, err := m.xy.DataPtrInt16()
	if err != nil {
		m.Close()
		return warpMaps{}, fmt.Errorf("vision: warp map: %w", err)
	}
	frac, err := m.frac.DataPtrUint16()
	if err != nil {
		m.Close()
		return warpMaps{}, fmt.Errorf("vision: warp map: %w", err)
	}
	if len(xy) != 2*side*side || len(frac) != side*side {
		m.Close()
		return warpMaps{}, fmt.Errorf("vision: warp map of %d and %d values for a side of %d", len(xy), len(frac), side)
	}
	const tab = 1 << interBits
	for v := 0; v < side; v++ {
		for u := 0; u < side; u++ {
			fu, fv := float64(u), float64(v)
			w := toImg[6]*fu + toImg[7]*fv + toImg[8]
			if w != 0 {
				w = tab / w
			}
			x := fixedCoord((toImg[0]*fu + toImg[1]*fv + toImg[2]) * w)
			y := fixedCoord((toImg[3]*fu + toImg[4]*fv + toImg[5]) * w)
			i := v*side + u
			xy[2*i], xy[2*i+1] = saturateInt16(x>>interBits), saturateInt16(y>>interBits)
			frac[i] = uint16((y&(tab-1))*tab + (x & (tab - 1)))
		}
	}
	return m, nil
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
