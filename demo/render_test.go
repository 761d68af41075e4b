package demo

import (
	"bytes"
	"context"
	"image"
	"math"
	"testing"
	"time"
)

// luma returns the mean brightness of a small square around (x,y).
func luma(img *image.RGBA, x, y float64, rad int) float64 {
	sum, n := 0.0, 0
	for dy := -rad; dy <= rad; dy++ {
		for dx := -rad; dx <= rad; dx++ {
			c := img.RGBAAt(int(math.Round(x))+dx, int(math.Round(y))+dy)
			sum += 0.299*float64(c.R) + 0.587*float64(c.G) + 0.114*float64(c.B)
			n++
		}
	}
	return sum / float64(n)
}

func testStones(size int) []Stone {
	st := make([]Stone, size*size)
	for i := range st {
		switch (i * 7) % 5 {
		case 1:
			st[i] = Black
		case 3:
			st[i] = White
		}
	}
	return st
}

func TestRenderStonesReadable(t *testing.T) {
	for _, tc := range []struct {
		name       string
		w, h, size int
	}{
		{"9x9 VGA", 640, 480, 9},
		{"9x9 720p", 1280, 720, 9},
		{"13x13 VGA", 640, 480, 13},
		{"19x19 720p", 1280, 720, 19},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRenderer(3)
			st := testStones(tc.size)
			img, err := r.Render(tc.w, tc.h, Scene{Size: tc.size, Stones: st})
			if err != nil {
				t.Fatal(err)
			}
			for row := 0; row < tc.size; row++ {
				for col := 0; col < tc.size; col++ {
					x, y := r.Intersection(tc.w, tc.h, tc.size, col, row)
					nx, _ := r.Intersection(tc.w, tc.h, tc.size, col+1, row)
					off := 0.22 * math.Abs(nx-x)
					// Sample diagonally off the crossing: clear of lines and star points, inside a stone.
					l := luma(img, x+off, y+off, 1)
					switch s := st[row*tc.size+col]; s {
					case Black:
						if l > 90 {
							t.Errorf("black stone at %d,%d has luma %.0f", col, row, l)
						}
					case White:
						if l < 150 {
							t.Errorf("white stone at %d,%d has luma %.0f", col, row, l)
						}
					default:
						if l < 80 || l > 215 {
							t.Errorf("empty point at %d,%d has luma %.0f, want wood", col, row, l)
						}
					}
				}
			}
		})
	}
}

func TestRenderDeterministic(t *testing.T) {
	sc := Scene{Size: 9, Stones: testStones(9), Hand: &Hand{Player: White, Col: 3, Row: 4, Reach: 0.8, Holding: true}, Frame: 12}
	a, err := NewRenderer(42).Render(320, 240, sc)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewRenderer(42).Render(320, 240, sc)
	if !bytes.Equal(a.Pix, b.Pix) {
		t.Fatal("same seed and scene rendered different pixels")
	}
	sc.Frame = 13
	c, _ := NewRenderer(42).Render(320, 240, sc)
	if bytes.Equal(a.Pix, c.Pix) {
		t.Fatal("sensor noise does not change between frames")
	}
	d, _ := NewRenderer(43).Render(320, 240, sc)
	if bytes.Equal(c.Pix, d.Pix) {
		t.Fatal("a different seed rendered the same picture")
	}
}

func TestHandCoversTarget(t *testing.T) {
	r := NewRenderer(5)
	st := make([]Stone, 81)
	x, y := r.Intersection(640, 480, 9, 4, 4)
	bare, _ := r.Render(640, 480, Scene{Size: 9, Stones: st})
	for _, p := range []Stone{Black, White} {
		img, _ := r.Render(640, 480, Scene{Size: 9, Stones: st, Hand: &Hand{Player: p, Col: 4, Row: 4, Reach: 1}})
		// The wrist lies behind the fingertips, toward the player's side: the board there is covered.
		dy := 60.0
		if p == White {
			dy = -60
		}
		a, b := img.RGBAAt(int(x), int(y+dy)), bare.RGBAAt(int(x), int(y+dy))
		if math.Abs(float64(a.R)-float64(b.R))+math.Abs(float64(a.B)-float64(b.B)) < 30 {
			t.Errorf("%v hand does not show over the board: %v vs bare %v", p, a, b)
		}
		out, _ := r.Render(640, 480, Scene{Size: 9, Stones: st, Hand: &Hand{Player: p, Col: 4, Row: 4, Reach: 0}})
		if d := diffCount(out, bare); d > len(bare.Pix)/40 {
			t.Errorf("%v hand at reach 0 changes %d bytes; it should be (almost) out of the picture", p, d)
		}
	}
}

func diffCount(a, b *image.RGBA) int {
	n := 0
	for i := range a.Pix {
		d := int(a.Pix[i]) - int(b.Pix[i])
		if d > 20 || d < -20 {
			n++
		}
	}
	return n
}

func TestRenderRejectsBadScenes(t *testing.T) {
	r := NewRenderer(1)
	for _, tc := range []struct {
		name string
		w, h int
		sc   Scene
	}{
		{"tiny frame", 10, 10, Scene{Size: 9, Stones: make([]Stone, 81)}},
		{"board size 1", 640, 480, Scene{Size: 1, Stones: make([]Stone, 1)}},
		{"board size 26", 640, 480, Scene{Size: 26, Stones: make([]Stone, 26*26)}},
		{"stone count", 640, 480, Scene{Size: 9, Stones: make([]Stone, 80)}},
	} {
		if _, err := r.Render(tc.w, tc.h, tc.sc); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if err := r.RenderInto(image.NewRGBA(image.Rect(5, 5, 300, 300)), Scene{Size: 9, Stones: make([]Stone, 81)}); err == nil {
		t.Error("offset bounds: no error")
	}
}

func TestCornersMatchIntersections(t *testing.T) {
	r := NewRenderer(9)
	for _, wh := range [][2]int{{640, 480}, {1280, 720}} {
		c := r.Corners(wh[0], wh[1])
		idx := [4][2]int{{0, 0}, {8, 0}, {8, 8}, {0, 8}}
		for i, ij := range idx {
			x, y := r.Intersection(wh[0], wh[1], 9, ij[0], ij[1])
			if math.Hypot(x-c[i][0], y-c[i][1]) > 1e-6 {
				t.Errorf("%v corner %d: %v vs intersection %.2f,%.2f", wh, i, c[i], x, y)
			}
			if c[i][0] < 0 || c[i][1] < 0 || c[i][0] > float64(wh[0]) || c[i][1] > float64(wh[1]) {
				t.Errorf("%v corner %d outside the frame: %v", wh, i, c[i])
			}
		}
	}
}

// demoW and demoH are the kiosk's demo camera size (cmd/kiosk: demoWidth, demoHeight).
const demoW, demoH = 640, 480

// TestLayerMemory bounds what the renderer keeps between frames at the demo's size: the kiosk's
// resident memory budget has no room for float buffers of the whole frame.
func TestLayerMemory(t *testing.T) {
	r := NewRenderer(1)
	if _, err := r.Render(demoW, demoH, Scene{Size: 9, Stones: testStones(9)}); err != nil {
		t.Fatal(err)
	}
	n := r.layerFor(demoW, demoH, 9).bytes()
	t.Logf("layer at %dx%d: %d bytes", demoW, demoH, n)
	if n > 3<<20 {
		t.Errorf("layer at %dx%d holds %d bytes, want at most 3 MiB", demoW, demoH, n)
	}
}

// TestRenderIntoAllocatesNothing checks that frames after the first allocate nothing, whether the
// board is still, changes, or a hand moves over it.
func TestRenderIntoAllocatesNothing(t *testing.T) {
	r := NewRenderer(1)
	img := image.NewRGBA(image.Rect(0, 0, 320, 240))
	st := testStones(9)
	sc := Scene{Size: 9, Stones: st, Hand: &Hand{Player: White, Col: 2, Row: 6, Reach: 0.9, Holding: true}}
	if err := r.RenderInto(img, sc); err != nil {
		t.Fatal(err)
	}
	i := 0
	allocs := testing.AllocsPerRun(20, func() {
		i++
		sc.Frame = uint64(i)
		sc.Hand.Reach = 0.5 + float64(i%10)/20
		st[i%81] = Stone(i % 3)
		if err := r.RenderInto(img, sc); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("RenderInto allocates %.1f times a frame, want 0", allocs)
	}
}

// TestRenderBGRIsRenderIntoInOpenCVOrder: the BGR frame the kiosk draws into a Mat holds exactly
// the RGBA frame's pixels, blue first and without alpha, and it allocates nothing either.
func TestRenderBGRIsRenderIntoInOpenCVOrder(t *testing.T) {
	const w, h = 160, 120
	sc := Scene{Size: 9, Stones: testStones(9), Frame: 7, Hand: &Hand{Player: Black, Col: 4, Row: 4, Reach: 0.8, Holding: true}}
	rgba := image.NewRGBA(image.Rect(0, 0, w, h))
	if err := NewRenderer(3).RenderInto(rgba, sc); err != nil {
		t.Fatal(err)
	}
	r := NewRenderer(3)
	bgr := make([]byte, 3*w*h)
	if err := r.RenderBGR(bgr, w, h, sc); err != nil {
		t.Fatal(err)
	}
	for i := range w * h {
		p, q := rgba.Pix[4*i:4*i+4], bgr[3*i:3*i+3]
		if q[0] != p[2] || q[1] != p[1] || q[2] != p[0] {
			t.Fatalf("pixel %d: BGR %v, RGBA %v", i, q, p)
		}
	}
	if allocs := testing.AllocsPerRun(10, func() {
		sc.Frame++
		if err := r.RenderBGR(bgr, w, h, sc); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("RenderBGR allocates %.1f times a frame, want 0", allocs)
	}
	if err := r.RenderBGR(bgr[:len(bgr)-1], w, h, sc); err == nil {
		t.Error("a buffer one byte short was accepted")
	}
}

// BenchmarkRender640x480 is a camera frame of a moving hand: the board is drawn again every frame.
// The layer is built before the timer starts: this is the steady state of a running demo.
func BenchmarkRender640x480(b *testing.B) {
	r := NewRenderer(1)
	benchHandFrames(b, r, demoW, demoH, Scene{Size: 9, Stones: testStones(9), Hand: &Hand{Player: Black, Col: 4, Row: 4, Reach: 1, Holding: true}})
}

// benchHandFrames times frames of sc at w x h with its hand moving, after one untimed frame (the
// static layer built): what a renderer costs per frame while a player reaches over the board.
func benchHandFrames(b *testing.B, r interface {
	RenderInto(*image.RGBA, Scene) error
}, w, h int, sc Scene) {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if err := r.RenderInto(img, sc); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sc.Frame = uint64(i)
		sc.Hand.Reach = 0.5 + float64(i%10)/20
		if err := r.RenderInto(img, sc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderStill640x480 is a camera frame of an unchanged board (only the sensor noise is
// new): the kiosk's cost per frame while nobody moves.
func BenchmarkRenderStill640x480(b *testing.B) {
	r := NewRenderer(1)
	img := image.NewRGBA(image.Rect(0, 0, demoW, demoH))
	sc := Scene{Size: 9, Stones: testStones(9)}
	if err := r.RenderInto(img, sc); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sc.Frame = uint64(i)
		if err := r.RenderInto(img, sc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLayer640x480 is building the static board once (the first frame at a size), with the
// bytes the layer keeps.
func BenchmarkLayer640x480(b *testing.B) {
	r := NewRenderer(1)
	b.ReportAllocs()
	var l *layer
	for i := 0; i < b.N; i++ {
		l = r.buildLayer(demoW, demoH, 9)
	}
	b.ReportMetric(float64(l.bytes()), "layer-bytes")
}

// BenchmarkCameraDemo640x480 plays the default demo through the Camera at the kiosk's size and frame
// rate on a fake clock (no waiting), reusing one frame buffer as cmd/kiosk does: the real mix of
// still frames and frames with a moving hand. The layer is built before the timer starts.
func BenchmarkCameraDemo640x480(b *testing.B) {
	s, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	const fps = 4
	interval := time.Second / fps
	frames := uint64(s.Duration() / interval)
	start := time.Unix(0, 0)
	clock := start
	cam, err := NewCamera(s, NewRenderer(1), demoW, demoH, fps, start)
	if err != nil {
		b.Fatal(err)
	}
	cam.now = func() time.Time { return clock }
	buf := image.NewRGBA(image.Rect(0, 0, demoW, demoH))
	if _, _, err := cam.NextFrameInto(context.Background(), buf); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := uint64(i)%frames + 1
		if n == 1 {
			cam.seq = 0 // the demo starts over
		}
		clock = start.Add(time.Duration(n) * interval)
		if _, _, err := cam.NextFrameInto(context.Background(), buf); err != nil {
			b.Fatal(err)
		}
	}
}
