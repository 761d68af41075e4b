package vision

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tengen/demo"
	"tengen/vision/observe"
)

// TestReadsRenderedBoardsOfEverySize renders random positions on 9x9, 13x13 and 19x19 boards with
// the demo renderer (perspective, wood grain, uneven light, shaded stones with shadows, sensor
// noise, stones jittered off their points) and reads them back through a DrawSource, on the
// renderer's true corners: every point must come back as it lies.
func TestReadsRenderedBoardsOfEverySize(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for _, size := range []int{9, 13, 19} {
		for _, density := range []float64{0, 0.3, 0.6} {
			t.Run(fmt.Sprintf("%dx%d/%.0f%%", size, size, 100*density), func(t *testing.T) {
				const w, h = 960, 720
				r := demo.NewRenderer(uint64(size))
				stones := make([]demo.Stone, size*size)
				for i := range stones {
					if rng.Float64() < density {
						stones[i] = demo.Stone(1 + rng.IntN(2))
					}
				}
				sc := demo.Scene{Size: size, Stones: stones, Frame: 3}
				src, err := NewDrawSource(w, h, func(_ context.Context, pix []byte) (time.Time, error) {
					return time.Time{}, r.RenderBGR(pix, w, h, sc)
				})
				if err != nil {
					t.Fatal(err)
				}
				defer src.Close()
				frame := gocv.NewMat()
				defer frame.Close()
				if _, err := src.Next(context.Background(), &frame); err != nil {
					t.Fatal(err)
				}
				cal := drawnCalibration(t, w, h, size, r.Corners(w, h))
				got := readFrame(t, frame, cal, Params{})
				o := got.Observation(cal, time.Time{}, 0) // Black at the bottom: board = image
				bad := 0
				for i, s := range stones {
					if o.Stones[i] != observe.Stone(s) {
						bad++
						if bad <= 5 {
							t.Errorf("point x=%d y=%d is %v, read %v", i%size, i/size, observe.Stone(s), o.Stones[i])
						}
					}
				}
			})
		}
	}
}
