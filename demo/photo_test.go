package demo

import (
	"tengen/engine"

	"bytes"
	"fmt"
	"image"
	"math"
	"sort"
	"testing"
)

// TestLookRendererDeterministic: the same look and scene give the same pixels; the frame number
// changes the noise; another seed changes the picture.
func TestLookRendererDeterministic(t *testing.T) {
	sc := Scene{Size: 13, Stones: testStones(13), Hand: &Hand{Player: Black, Col: 6, Row: 6, Reach: 0.9, Holding: true}, Frame: 3}
	render := func(seed uint64, sc Scene) *image.RGBA {
		t.Helper()
		r, err := NewRandomRenderer(seed, 13)
		if err != nil {
			t.Fatal(err)
		}
		img, err := r.Render(320, 240, sc)
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	a, b := render(7, sc), render(7, sc)
	if !bytes.Equal(a.Pix, b.Pix) {
		t.Fatal("same seed and scene rendered different pixels")
	}
	sc.Frame = 4
	if c := render(7, sc); bytes.Equal(a.Pix, c.Pix) {
		t.Error("the noise does not change between frames")
	}
	if d := render(8, sc); bytes.Equal(a.Pix, d.Pix) {
		t.Error("another seed rendered the same picture")
	}
}

// TestLookGeometry: for every size and many looks, the corner intersections lie inside the frame,
// in the picture's order (top-left, top-right, bottom-right, bottom-left), and agree with Intersection.
func TestLookGeometry(t *testing.T) {
	for _, tc := range []struct{ size, w, h int }{{9, 640, 480}, {13, 800, 600}, {19, 1280, 720}, {19, 640, 480}} {
		t.Run(fmt.Sprintf("%dx%d@%dx%d", tc.size, tc.size, tc.w, tc.h), func(t *testing.T) {
			for seed := uint64(0); seed < 60; seed++ {
				r, err := NewRandomRenderer(seed, tc.size)
				if err != nil {
					t.Fatal(err)
				}
				c := r.Corners(tc.w, tc.h)
				n := tc.size - 1
				for i, p := range [4][2]int{{0, 0}, {n, 0}, {n, n}, {0, n}} {
					x, y := r.Intersection(tc.w, tc.h, p[0], p[1])
					if math.Hypot(x-c[i][0], y-c[i][1]) > 1e-6 {
						t.Errorf("seed %d corner %d: %v vs intersection %.2f,%.2f", seed, i, c[i], x, y)
					}
					if x < 0 || y < 0 || x > float64(tc.w) || y > float64(tc.h) {
						t.Errorf("seed %d corner %d outside the frame: %.1f,%.1f", seed, i, x, y)
					}
				}
				cx := (c[0][0] + c[1][0] + c[2][0] + c[3][0]) / 4
				cy := (c[0][1] + c[1][1] + c[2][1] + c[3][1]) / 4
				if !(c[0][0] < cx && c[0][1] < cy && c[1][0] > cx && c[1][1] < cy && c[2][0] > cx && c[2][1] > cy && c[3][0] < cx && c[3][1] > cy) {
					t.Errorf("seed %d: corners %v are not top-left, top-right, bottom-right, bottom-left", seed, c)
				}
			}
		})
	}
}

// TestLensRoundTrip: distort undoes undistort, and the lens never needs a pixel outside the picture.
func TestLensRoundTrip(t *testing.T) {
	for _, k := range []float64{-0.02, 0, 0.03, 0.12} {
		g := photoGeom{w: 640, h: 480, cx: 320, cy: 240, rn: 400, k: k}
		for y := 0.0; y <= 480; y += 40 {
			for x := 0.0; x <= 640; x += 40 {
				ux, uy := g.undistort(x, y)
				if ux < -1e-9 || uy < -1e-9 || ux > 640+1e-9 || uy > 480+1e-9 {
					t.Errorf("k %v: frame pixel %v,%v needs picture pixel %.2f,%.2f", k, x, y, ux, uy)
				}
				if dx, dy := g.distort(ux, uy); math.Hypot(dx-x, dy-y) > 1e-6 {
					t.Errorf("k %v: %v,%v -> %.3f,%.3f -> %.3f,%.3f", k, x, y, ux, uy, dx, dy)
				}
			}
		}
	}
}

// stoneTop returns where the top of the stone on (col,row) appears, ignoring its offset.
func stoneTop(r *LookRenderer, w, h, col, row int) (float64, float64) {
	g := r.geometry(w, h)
	x, y := g.project(float64(col), float64(row)*g.aspect, r.look.StoneHeight*0.8)
	return g.distort(x, y)
}

// medianLuma returns the median brightness of the disc of radius rad around (x,y).
func medianLuma(img *image.RGBA, x, y, rad float64) float64 {
	var v []float64
	for dy := -rad; dy <= rad; dy++ {
		for dx := -rad; dx <= rad; dx++ {
			if dx*dx+dy*dy > rad*rad {
				continue
			}
			c := img.RGBAAt(int(math.Round(x+dx)), int(math.Round(y+dy)))
			v = append(v, 0.299*float64(c.R)+0.587*float64(c.G)+0.114*float64(c.B))
		}
	}
	sort.Float64s(v)
	return v[len(v)/2]
}

// TestLookStonesReadable: under every look (hard light and glare included) a black stone looks darker
// than the white stones near it: the renders are hard, not wrong.
func TestLookStonesReadable(t *testing.T) {
	for _, tc := range []struct {
		size, w, h int
		hard       bool
	}{{9, 640, 480, false}, {13, 800, 600, false}, {19, 1280, 720, false}, {19, 1280, 720, true}} {
		t.Run(fmt.Sprintf("%dx%d hard=%v", tc.size, tc.size, tc.hard), func(t *testing.T) {
			for seed := uint64(0); seed < 12; seed++ {
				look := RandomLook(seed)
				if tc.hard {
					look = HardLook(seed)
				}
				look.Offset = 0
				r, _ := NewLookRenderer(look, tc.size)
				st := testStones(tc.size)
				img, err := r.Render(tc.w, tc.h, Scene{Size: tc.size, Stones: st})
				if err != nil {
					t.Fatal(err)
				}
				rad := 0.22 * r.geometry(tc.w, tc.h).ppu
				lum := make([]float64, len(st))
				for i := range st {
					x, y := stoneTop(r, tc.w, tc.h, i%tc.size, i/tc.size)
					lum[i] = medianLuma(img, x, y, rad)
				}
				pairs, bad := 0, 0
				for i, s := range st {
					if s != Black {
						continue
					}
					for j, o := range st {
						dc, dr := i%tc.size-j%tc.size, i/tc.size-j/tc.size
						if o != White || dc < -2 || dc > 2 || dr < -2 || dr > 2 {
							continue
						}
						pairs++
						if lum[i] >= lum[j] {
							bad++
						}
					}
				}
				limit := pairs / 25
				if tc.hard {
					limit = pairs / 12 // glare on black stones next to white ones in shadow
				}
				if bad > limit {
					t.Errorf("seed %d: %d of %d neighbouring black/white pairs have the black stone as bright", seed, bad, pairs)
				}
			}
		})
	}
}

// TestCoveredUnderTheHand: the point under the fingertips of a hand at full reach is covered, points
// far away are not, and no hand covers nothing.
func TestCoveredUnderTheHand(t *testing.T) {
	for _, tc := range []struct {
		size     int
		player   Stone
		col, row int
	}{{9, Black, 4, 4}, {13, White, 3, 9}, {19, Black, 10, 3}, {19, White, 15, 15}} {
		r, _ := NewRandomRenderer(uint64(tc.size), tc.size)
		sc := Scene{Size: tc.size, Stones: make([]Stone, tc.size*tc.size)}
		for _, c := range r.Covered(640, 480, sc) {
			if c {
				t.Fatalf("%d: a point is covered with no hand", tc.size)
			}
		}
		sc.Hand = &Hand{Player: tc.player, Col: float64(tc.col), Row: float64(tc.row), Reach: 1, Holding: true}
		cov := r.Covered(640, 480, sc)
		if !cov[tc.row*tc.size+tc.col] {
			t.Errorf("%+v: the target point is not covered", tc)
		}
		n := 0
		for _, c := range cov {
			if c {
				n++
			}
		}
		if n == 0 || n > len(cov)/2 {
			t.Errorf("%+v: %d of %d points covered", tc, n, len(cov))
		}
	}
}

// TestRandomPositionIsLegal: every chain has a liberty, and the boards fill as asked.
func TestRandomPositionIsLegal(t *testing.T) {
	for _, tc := range []struct {
		size int
		fill float64
	}{{9, 0.1}, {9, 0.6}, {13, 0.3}, {19, 0.05}, {19, 0.5}, {19, 0.75}} {
		for seed := uint64(0); seed < 5; seed++ {
			b := RandomPosition(seed, tc.size, tc.fill)
			n := 0
			for i, s := range b {
				if s == Empty {
					continue
				}
				n++
				if engine.Liberties(b, tc.size, pointOf(i, tc.size)) == 0 {
					t.Fatalf("%+v seed %d: the chain at %d has no liberty", tc, seed, i)
				}
			}
			if want := tc.fill * float64(len(b)); math.Abs(float64(n)-want) > 0.1*float64(len(b))+2 {
				t.Errorf("%+v seed %d: %d stones, want about %.0f", tc, seed, n, want)
			}
		}
	}
}

// TestPositionAfterMatchesTheScript: replaying the demo game gives the script's final board.
func TestPositionAfterMatchesTheScript(t *testing.T) {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	got, err := PositionAfter(s.Record, len(s.Record.Moves))
	if err != nil {
		t.Fatal(err)
	}
	pos := s.Positions()
	if want := pos[len(pos)-1]; !equalStones(got, want) {
		t.Errorf("final board\n%s\nwant\n%s", BoardText(s.Size, got), BoardText(s.Size, want))
	}
	if empty, _ := PositionAfter(s.Record, 0); !equalStones(empty, make([]Stone, s.Size*s.Size)) {
		t.Error("the board after no moves is not empty")
	}
}

// TestRenderSampleLabels: a sample's labels fit its board and frame.
func TestRenderSampleLabels(t *testing.T) {
	for _, tc := range []SampleOptions{
		{Size: 9, W: 640, H: 480},
		{Size: 13, W: 800, H: 600, HandChance: 1},
		{Size: 19, W: 1280, H: 720, Hard: true, HandChance: 1},
	} {
		s, err := RenderSample(uint64(tc.Size), tc)
		if err != nil {
			t.Fatal(err)
		}
		if s.Image.Bounds().Dx() != tc.W || len(s.Stones) != tc.Size*tc.Size || len(s.Covered) != len(s.Stones) {
			t.Errorf("%+v: image %v, %d stones, %d covered", tc, s.Image.Bounds(), len(s.Stones), len(s.Covered))
		}
		if tc.HandChance == 1 && s.Hand == nil {
			t.Errorf("%+v: no hand", tc)
		}
	}
	if _, err := RenderSample(1, SampleOptions{Size: 9, W: 640, H: 480, Stones: make([]Stone, 80)}); err == nil {
		t.Error("80 stones for a 9x9 board accepted")
	}
}

func TestLookRendererRejectsBadScenes(t *testing.T) {
	if _, err := NewRandomRenderer(1, 1); err == nil {
		t.Error("board size 1 accepted")
	}
	r, _ := NewRandomRenderer(1, 9)
	for _, tc := range []struct {
		name string
		w, h int
		sc   Scene
	}{
		{"tiny frame", 10, 10, Scene{Size: 9, Stones: make([]Stone, 81)}},
		{"other size", 640, 480, Scene{Size: 13, Stones: make([]Stone, 169)}},
		{"stone count", 640, 480, Scene{Size: 9, Stones: make([]Stone, 80)}},
	} {
		if _, err := r.Render(tc.w, tc.h, tc.sc); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// BenchmarkRenderSample is one training photo: a new look, its static picture, the stones and the
// camera, at 960x720 (the middle of cmd/render-boards' frame sizes), without writing the PNG.
func BenchmarkRenderSample(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := RenderSample(uint64(i), SampleOptions{Size: 19, W: 960, H: 720, HandChance: 0.3}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLookFrame is a frame of a game under one look with a moving hand at 960x720: the stones
// and hand drawn again and the camera applied, the static picture reused.
func BenchmarkLookFrame(b *testing.B) {
	r, err := NewLookRenderer(HardLook(1), 19)
	if err != nil {
		b.Fatal(err)
	}
	benchHandFrames(b, r, 960, 720, Scene{Size: 19, Stones: RandomPosition(1, 19, 0.4), Hand: &Hand{Player: Black, Col: 9, Row: 9, Reach: 1, Holding: true}})
}
