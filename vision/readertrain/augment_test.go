package readertrain

import (
	"image"
	"image/color"
	"math"
	"testing"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/vision/observe"
)

// drawnBoard draws a 9x9 board seen from above: wood, dark lines, a black stone at (2,2) and a
// white one at (6,4), everything else empty. It returns the picture, its calibration and labels.
func drawnBoard(t *testing.T) (gocv.Mat, calib.Calibration, []observe.Stone, []bool) {
	t.Helper()
	const n, sp, off = 9, 30, 40
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 90, 70, 0), 2*off+(n-1)*sp, 2*off+(n-1)*sp, gocv.MatTypeCV8UC3)
	wood := color.RGBA{R: 220, G: 180, B: 120}
	gocv.Rectangle(&img, image.Rect(off-sp, off-sp, off+n*sp, off+n*sp), wood, -1)
	for i := 0; i < n; i++ {
		gocv.Line(&img, image.Pt(off+i*sp, off), image.Pt(off+i*sp, off+(n-1)*sp), color.RGBA{R: 60, G: 40, B: 20}, 1)
		gocv.Line(&img, image.Pt(off, off+i*sp), image.Pt(off+(n-1)*sp, off+i*sp), color.RGBA{R: 60, G: 40, B: 20}, 1)
	}
	labels, known := make([]observe.Stone, n*n), make([]bool, n*n)
	for i := range known {
		known[i] = true
	}
	gocv.Circle(&img, image.Pt(off+2*sp, off+2*sp), 14, color.RGBA{R: 25, G: 25, B: 30}, -1)
	labels[2*n+2] = observe.Black
	gocv.Circle(&img, image.Pt(off+6*sp, off+4*sp), 14, color.RGBA{R: 235, G: 235, B: 230}, -1)
	labels[4*n+6] = observe.White
	e := float64(off + (n-1)*sp)
	cal, err := calib.FromCorners(img.Cols(), img.Rows(), n, [4]calib.Point2{{X: off, Y: off}, {X: e, Y: off}, {X: e, Y: e}, {X: off, Y: e}})
	if err != nil {
		t.Fatal(err)
	}
	return img, cal, labels, known
}

// pixelAt is the BGR colour of m at p.
func pixelAt(m gocv.Mat, p image.Point) [3]float64 {
	v := m.GetVecbAt(p.Y, p.X)
	return [3]float64{float64(v[0]), float64(v[1]), float64(v[2])}
}

// applied returns a function that takes a change's result, fails the test on its error and
// closes the picture when the test ends.
func applied(t *testing.T) func(gocv.Mat, error) gocv.Mat {
	return func(out gocv.Mat, err error) gocv.Mat {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { out.Close() })
		return out
	}
}

// TestPaleBoardChangesOnlyTheBoard checks a pale board on a drawn board: the wood takes the pale
// colour and the lines keep the contrast asked, while the stones' discs and the table around the
// board keep their look.
func TestPaleBoardChangesOnlyTheBoard(t *testing.T) {
	img, cal, labels, known := drawnBoard(t)
	defer img.Close()
	white, black, table := image.Pt(220, 160), image.Pt(100, 100), image.Pt(3, 3)
	cell, line := image.Pt(175, 145), image.Pt(160, 145) // a cell's centre, and a line beside it
	to := [3]float64{230, 235, 240}
	tests := []struct {
		name         string
		style        PaleBoard
		wood         [3]float64 // the cell's colour after, or 0 for as before
		fadeLo, fade float64    // the line's contrast after, as a share of before
	}{
		{"none", PaleBoard{}, [3]float64{}, 1, 1},
		{"all the way, lines at half", PaleBoard{Strength: 1, To: to, LineFade: 0.5}, to, 0.35, 0.65},
		{"all the way, lines relit with the wood", PaleBoard{Strength: 1, To: to, LineFade: 1}, to, 1.2, 1.4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := applied(t)(tc.style.Apply(img, cal, labels, known))
			want := tc.wood
			if want == ([3]float64{}) {
				want = pixelAt(img, cell)
			}
			for ch := range want {
				if got := pixelAt(out, cell)[ch]; math.Abs(got-want[ch]) > 2 {
					t.Errorf("wood channel %d is %.0f, want %.0f", ch, got, want[ch])
				}
			}
			contrast := func(m gocv.Mat) float64 { return pixelAt(m, cell)[1] - pixelAt(m, line)[1] }
			if cb, ca := contrast(img), contrast(out); ca < tc.fadeLo*cb || ca > tc.fade*cb {
				t.Errorf("line contrast %.0f, before %.0f: want %.2f to %.2f of it", ca, cb, tc.fadeLo, tc.fade)
			}
			for _, p := range []image.Point{white, black, table} {
				if pixelAt(out, p) != pixelAt(img, p) {
					t.Errorf("%v changed from %v to %v", p, pixelAt(img, p), pixelAt(out, p))
				}
			}
		})
	}
}

// TestCastShadowsDarkenBesideStones checks cast shadows on a drawn board: the board beside each
// stone, on the shadows' side, darkens by the depth asked, while the stones' discs, the board on
// their other side, the board away from stones and the table keep their look.
func TestCastShadowsDarkenBesideStones(t *testing.T) {
	img, cal, labels, known := drawnBoard(t)
	defer img.Close()
	// The black stone stands at (100, 100), the white at (220, 160); a spacing is 30 pixels.
	black, white, table, cell := image.Pt(100, 100), image.Pt(220, 160), image.Pt(3, 3), image.Pt(175, 145)
	eastOfBlack, westOfBlack := image.Pt(119, 106), image.Pt(81, 106)
	eastOfWhite, westOfWhite := image.Pt(239, 166), image.Pt(201, 166)
	tests := []struct {
		name     string
		shadows  CastShadows
		dark     []image.Point // darkened by the depth
		keptLook []image.Point // unchanged
	}{
		{"none", CastShadows{}, nil, []image.Point{black, white, table, cell, eastOfBlack, westOfBlack, eastOfWhite, westOfWhite}},
		{"lamp to the west", CastShadows{Dir: 0, Offset: 0.3, Depth: 0.5, Softness: 0.1},
			[]image.Point{eastOfBlack, eastOfWhite}, []image.Point{black, white, table, cell, westOfBlack, westOfWhite}},
		{"lamp to the east", CastShadows{Dir: math.Pi, Offset: 0.3, Depth: 0.5, Softness: 0.1},
			[]image.Point{westOfBlack, westOfWhite}, []image.Point{black, white, table, cell, eastOfBlack, eastOfWhite}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := applied(t)(tc.shadows.Apply(img, cal, labels, known))
			for _, p := range tc.dark {
				before, after := pixelAt(img, p), pixelAt(out, p)
				for ch := range before {
					if want := before[ch] * (1 - tc.shadows.Depth); math.Abs(after[ch]-want) > 1 {
						t.Errorf("%v channel %d is %.0f, want %.0f (from %.0f)", p, ch, after[ch], want, before[ch])
					}
				}
			}
			for _, p := range tc.keptLook {
				if pixelAt(out, p) != pixelAt(img, p) {
					t.Errorf("%v changed from %v to %v", p, pixelAt(img, p), pixelAt(out, p))
				}
			}
		})
	}
}
