package vision

import (
	"image"
	"image/draw"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	"tengen/demo"
	"tengen/vision/observe"
)

// eyeScene is a 9x9 position with stones of both colours.
func eyeScene() demo.Scene {
	rng := rand.New(rand.NewPCG(9, 9))
	stones := make([]demo.Stone, 81)
	for i := range stones {
		if rng.IntN(4) == 0 {
			stones[i] = demo.Stone(1 + rng.IntN(2))
		}
	}
	return demo.Scene{Size: 9, Stones: stones, Frame: 1}
}

// shifted is img moved by (dx, dy) on a canvas of the same size filled with its corner colour.
func shifted(img *image.RGBA, dx, dy int) *image.RGBA {
	out := image.NewRGBA(img.Bounds())
	draw.Draw(out, out.Bounds(), image.NewUniform(img.At(0, 0)), image.Point{}, draw.Src)
	draw.Draw(out, img.Bounds().Add(image.Pt(dx, dy)), img, image.Point{}, draw.Src)
	return out
}

// TestEyeFindsReadsAndFollowsTheBoard: the Eye finds the board in its first frame and reads it;
// when the picture shifts (a bumped camera) it sees the grid off the lines, finds the board again
// and reads on; a frame with no board is a board that moved, with the reason.
func TestEyeFindsReadsAndFollowsTheBoard(t *testing.T) {
	sc := eyeScene()
	img, err := demo.NewRenderer(1).Render(640, 480, sc)
	if err != nil {
		t.Fatal(err)
	}
	eye, err := NewEye(EyeOptions{Size: 9, MovedAfter: 1, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer eye.Close()
	at := time.Unix(1000, 0)
	want := func(sg observe.Sight, what string) {
		t.Helper()
		if sg.View != observe.ViewBoard {
			t.Fatalf("%s: view %v (%s), want the board", what, sg.View, sg.Why)
		}
		wrong := 0
		for i, s := range sc.Stones {
			if observe.Stone(s) != sg.Observation.Stones[i] {
				wrong++
			}
		}
		if wrong > 0 {
			t.Fatalf("%s: %d points read wrong", what, wrong)
		}
	}
	sg, err := eye.LookImage(img, at, 1)
	if err != nil {
		t.Fatal(err)
	}
	want(sg, "first frame")
	before, _ := eye.Calibration()

	at = at.Add(2 * time.Second)
	sg, err = eye.LookImage(shifted(img, 36, -24), at, 2)
	if err != nil {
		t.Fatal(err)
	}
	want(sg, "after the camera was bumped")
	after, _ := eye.Calibration()
	if dx := after.Corners[0].X - before.Corners[0].X; dx < 30 || dx > 42 {
		t.Fatalf("the board was found again %.1f px to the right, want about 36", dx)
	}

	at = at.Add(3 * time.Second)
	blank := image.NewRGBA(img.Bounds())
	draw.Draw(blank, blank.Bounds(), image.NewUniform(img.At(0, 0)), image.Point{}, draw.Src)
	sg, err = eye.LookImage(blank, at, 3)
	if err != nil {
		t.Fatal(err)
	}
	if sg.View != observe.ViewMoved || sg.Why == "" {
		t.Fatalf("a frame without a board: view %v, why %q; want moved with a reason", sg.View, sg.Why)
	}
}
