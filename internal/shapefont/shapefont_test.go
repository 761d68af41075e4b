package shapefont

import (
	"bytes"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/go-text/render"
	"github.com/go-text/typesetting/font"

	"tengen/internal/sfnt"
)

func parse(t *testing.T) *font.Face {
	t.Helper()
	face, err := font.ParseTTF(bytes.NewReader(Build()))
	if err != nil {
		t.Fatalf("the built font does not parse: %v", err)
	}
	return face
}

func TestFontMetrics(t *testing.T) {
	face := parse(t)
	if got := face.Upem(); got != unitsPerEm {
		t.Fatalf("units per em %d, want %d", got, unitsPerEm)
	}
	ext, ok := face.FontHExtents()
	if !ok || ext.Ascender != half || ext.Descender != -half || ext.LineGap != 0 {
		t.Errorf("extents %+v (ok %v), want ascender %d, descender %d, no gap", ext, ok, half, -half)
	}
	for _, r := range []rune{' ', Disc, Rim, Square, Cross} {
		g, ok := face.NominalGlyph(r)
		if !ok {
			t.Errorf("U+%04X has no glyph", r)
			continue
		}
		if adv := face.HorizontalAdvance(g); adv != unitsPerEm {
			t.Errorf("U+%04X advance %v, want one em", r, adv)
		}
	}
	if _, ok := face.NominalGlyph('A'); ok {
		t.Error("the font maps a letter")
	}
}

// draw renders r at size px into a px x px image (white on transparent) as Fyne draws text: the
// baseline at the ascent.
func draw(t *testing.T, face *font.Face, r rune, px int) *image.NRGBA {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, px, px))
	rd := render.Renderer{FontSize: float32(px), PixScale: 1, Color: color.White}
	rd.DrawStringAt(string(r), img, 0, px/2, face)
	return img
}

// TestShapes renders each shape and checks which probe points (fractions of the box, from the top
// left) it covers and what share of the box it fills.
func TestShapes(t *testing.T) {
	face := parse(t)
	const px = 200
	in := func(img *image.NRGBA, fx, fy float64) bool {
		return img.NRGBAAt(int(fx*px), int(fy*px)).A > 0xc0
	}
	for _, tc := range []struct {
		name     string
		r        rune
		area     float64 // the shape's share of the box
		inside   [][2]float64
		outside  [][2]float64
		areaSlop float64
	}{
		{"disc", Disc, math.Pi / 4, [][2]float64{{0.5, 0.5}, {0.02, 0.5}, {0.5, 0.97}}, [][2]float64{{0.03, 0.03}, {0.97, 0.97}}, 0.01},
		{"rim", Rim, math.Pi / 4 * (1 - (1-RimWidth)*(1-RimWidth)), [][2]float64{{0.01, 0.5}, {0.5, 0.99}}, [][2]float64{{0.5, 0.5}, {0.2, 0.5}, {0.03, 0.03}}, 0.01},
		{"square", Square, 1, [][2]float64{{0.01, 0.01}, {0.5, 0.5}, {0.99, 0.99}}, nil, 0.01},
		{"cross", Cross, 0, [][2]float64{{0.5, 0.5}, {0.1, 0.1}, {0.9, 0.1}, {0.1, 0.9}, {0.9, 0.9}}, [][2]float64{{0.5, 0.1}, {0.1, 0.5}, {0.9, 0.5}, {0.5, 0.9}}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			img := draw(t, face, tc.r, px)
			for _, p := range tc.inside {
				if !in(img, p[0], p[1]) {
					t.Errorf("(%.2f, %.2f) is not covered", p[0], p[1])
				}
			}
			for _, p := range tc.outside {
				if in(img, p[0], p[1]) {
					t.Errorf("(%.2f, %.2f) is covered", p[0], p[1])
				}
			}
			if tc.areaSlop == 0 {
				return
			}
			sum := 0.0
			for i := 3; i < len(img.Pix); i += 4 {
				sum += float64(img.Pix[i]) / 255
			}
			if got := sum / (px * px); math.Abs(got-tc.area) > tc.areaSlop {
				t.Errorf("covers %.4f of the box, want %.4f", got, tc.area)
			}
		})
	}
}

// The shapes are symmetric about the box's centre: a mirrored picture differs by anti-aliasing
// only.
func TestShapesAreCentred(t *testing.T) {
	face := parse(t)
	const px = 120
	for _, r := range []rune{Disc, Rim, Square, Cross} {
		img := draw(t, face, r, px)
		worst := 0
		for y := 0; y < px; y++ {
			for x := 0; x < px; x++ {
				a := int(img.NRGBAAt(x, y).A)
				for _, b := range []int{int(img.NRGBAAt(px-1-x, y).A), int(img.NRGBAAt(x, px-1-y).A)} {
					worst = max(worst, abs(a-b))
				}
			}
		}
		if worst > 40 {
			t.Errorf("U+%04X: a mirrored pixel differs by %d of 255", r, worst)
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func TestBuildIsStable(t *testing.T) {
	if !bytes.Equal(Build(), Build()) {
		t.Error("two builds differ")
	}
}

func TestChecksum(t *testing.T) {
	f := Build()
	if s := sfnt.Checksum(f); s != 0xB1B0AFBA {
		t.Errorf("whole-font checksum %#x, want 0xB1B0AFBA (the head table's adjustment is wrong)", s)
	}
}
