package vision

import (
	"image"
	"image/color"
	"math"
	"testing"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/demo"
	"tengen/internal/rendertest"
)

// TestWarpMapsMatchWarpPerspective checks that remapping through the precomputed maps gives the
// pixels cv::warpPerspective gives, including where the homography reaches outside the frame
// or far beyond the int16 coordinates the maps hold. (A homography whose horizon crosses the
// canonical image is left to TestWarpMapsSurviveTheHorizon: there OpenCV itself differs between
// CPUs, as x86 and ARM turn out-of-range coordinates into integers differently.) OpenCV's vector code sums the homography's
// terms in another order, so a coordinate on a rounding boundary may land a 32nd of a pixel
// apart: a few values may differ, by a level or two.
func TestWarpMapsMatchWarpPerspective(t *testing.T) {
	_, frame, err := rendertest.Frame(3, demo.SampleOptions{Size: 19, W: 640, H: 480})
	if err != nil {
		t.Fatal(err)
	}
	defer frame.Close()
	tests := []struct {
		name  string
		toImg [9]float64
	}{
		{"identity", [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1}},
		{"scaled and shifted", [9]float64{1.37, 0.02, 101.3, -0.05, 1.21, 33.7, 0, 0, 1}},
		{"perspective", [9]float64{1.1, 0.3, 80, -0.2, 0.9, 60, 0.0004, -0.0007, 1}},
		{"partly outside", [9]float64{2.5, 0, -300, 0, 2.5, -250, 0, 0, 1}},
		{"beyond int16", [9]float64{400, 0, -1e5, 0, 300, 5e4, 0, 0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			const side = 240
			maps, err := newWarpMaps(canonMap{h: tc.toImg}, side)
			if err != nil {
				t.Fatal(err)
			}
			defer maps.Close()
			h := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
			defer h.Close()
			for i, v := range tc.toImg {
				h.SetDoubleAt(i/3, i%3, v)
			}
			want, got := gocv.NewMat(), gocv.NewMat()
			defer want.Close()
			defer got.Close()
			gocv.WarpPerspectiveWithParams(frame, &want, h, image.Pt(side, side),
				gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderReplicate, color.RGBA{})
			gocv.Remap(frame, &got, &maps.xy, &maps.frac, gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
			a, err := want.DataPtrUint8()
			if err != nil {
				t.Fatal(err)
			}
			b, err := got.DataPtrUint8()
			if err != nil {
				t.Fatal(err)
			}
			if len(a) != len(b) || len(a) != side*side*3 {
				t.Fatalf("%d pixels warped, %d remapped, want %d", len(a)/3, len(b)/3, side*side)
			}
			differ, most := 0, 0
			for i := range a {
				if d := max(int(a[i])-int(b[i]), int(b[i])-int(a[i])); d > 0 {
					differ++
					most = max(most, d)
				}
			}
			if differ > len(a)/10000 || most > 2 {
				t.Errorf("%d of %d channel values differ from cv::warpPerspective, by up to %d", differ, len(a), most)
			}
		})
	}
}

// TestWarpMapsSurviveTheHorizon checks that a homography whose horizon crosses the canonical
// image (no calibration of a board in view has one) still gives maps and a remapped image.
func TestWarpMapsSurviveTheHorizon(t *testing.T) {
	_, frame, err := rendertest.Frame(3, demo.SampleOptions{Size: 9, W: 320, H: 240})
	if err != nil {
		t.Fatal(err)
	}
	defer frame.Close()
	for _, h := range [][9]float64{
		{1, 0, 0, 0, 1, 0, 0.01, 0, -1},
		{1, 0, 0, 0, 1, 0, 0, 0, 0},
		{2, 1, 0, 1, 2, 0, 1e-3, 1e-3, -0.2},
	} {
		maps, err := newWarpMaps(canonMap{h: h}, 120)
		if err != nil {
			t.Fatalf("%v: %v", h, err)
		}
		got := gocv.NewMat()
		gocv.Remap(frame, &got, &maps.xy, &maps.frac, gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
		if got.Cols() != 120 || got.Rows() != 120 {
			t.Errorf("%v: remapped to %dx%d, want 120x120", h, got.Cols(), got.Rows())
		}
		got.Close()
		maps.Close()
	}
}

// BenchmarkWarp compares the Reader's warp of the hard-light 1920x1080 frame (cv::remap through
// the precomputed maps) with cv::warpPerspective of the same homography, which it replaced.
func BenchmarkWarp(b *testing.B) {
	frame, r := hardLightReader(b)
	side := r.geom.Side()
	b.Run("remap", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := r.warp(frame); err != nil {
				b.Fatal(err)
			}
		}
	})
	h := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV64F)
	defer h.Close()
	m := mul3(r.cal.GridToImage(), [9]float64{1 / float64(r.geom.Spacing), 0, -1, 0, 1 / float64(r.geom.Spacing), -1, 0, 0, 1})
	for i, v := range m {
		h.SetDoubleAt(i/3, i%3, v)
	}
	out := gocv.NewMat()
	defer out.Close()
	b.Run("warpPerspective", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			gocv.WarpPerspectiveWithParams(frame, &out, h, image.Pt(side, side),
				gocv.InterpolationLinear|gocv.WarpInverseMap, gocv.BorderReplicate, color.RGBA{})
		}
	})
}

// TestWarpMapsFollowTheLens checks that a Reader of a calibration with a lens term takes each
// intersection's canonical pixel from where the calibration puts the intersection in the frame
// (to the maps' 1/32 pixel), and that it is not where the straight grid puts it.
func TestWarpMapsFollowTheLens(t *testing.T) {
	cal, err := calib.FromCorners(1280, 720, 19, [4]calib.Point2{{X: 407, Y: 45}, {X: 939, Y: 55}, {X: 991, Y: 643}, {X: 329, Y: 621}})
	if err != nil {
		t.Fatal(err)
	}
	cal.Lens = 0.15
	r, err := NewReader(cal, Params{HandTuned: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	xy, err := r.toImg.xy.DataPtrInt16()
	if err != nil {
		t.Fatal(err)
	}
	frac, err := r.toImg.frac.DataPtrUint16()
	if err != nil {
		t.Fatal(err)
	}
	straight := cal
	straight.Lens = 0
	side, s := r.geom.Side(), r.geom.Spacing
	bentApart := 0.0
	for _, q := range [][2]int{{0, 0}, {9, 0}, {18, 9}, {9, 9}, {4, 16}, {0, 18}} {
		i := (s*(q[1]+1))*side + s*(q[0]+1)
		const tab = 1 << interBits
		x := float64(xy[2*i]) + float64(frac[i]%tab)/tab
		y := float64(xy[2*i+1]) + float64(frac[i]/tab)/tab
		want := cal.IntersectionPixel(q[0], q[1])
		if d := math.Hypot(x-want.X, y-want.Y); d > 0.05 {
			t.Errorf("intersection %v taken from (%.2f,%.2f), %.2f px from the bent grid's (%.2f,%.2f)", q, x, y, d, want.X, want.Y)
		}
		p := straight.IntersectionPixel(q[0], q[1])
		bentApart = max(bentApart, math.Hypot(p.X-want.X, p.Y-want.Y))
	}
	if bentApart < 2 {
		t.Errorf("the lens term moves no intersection by 2 px (at most %.2f): the test shows nothing", bentApart)
	}
}
