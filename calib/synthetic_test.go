package calib

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"gocv.io/x/gocv"
)

// syntheticBoard renders a size x size board with a few stones (some on the edge lines), seen in
// perspective on a dark cloth with sensor noise, and returns the frame and its true corners.
func syntheticBoard(t *testing.T, size int, quad [4]Point2) gocv.Mat {
	t.Helper()
	const side, margin = 900, 50
	board := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(120, 175, 215, 0), side, side, gocv.MatTypeCV8UC3)
	defer board.Close()
	sp := float64(side-2*margin) / float64(size-1)
	at := func(i int) int { return margin + int(float64(i)*sp+0.5) }
	for i := 0; i < size; i++ {
		gocv.Line(&board, image.Pt(at(i), at(0)), image.Pt(at(i), at(size-1)), color.RGBA{30, 30, 30, 0}, 3)
		gocv.Line(&board, image.Pt(at(0), at(i)), image.Pt(at(size-1), at(i)), color.RGBA{30, 30, 30, 0}, 3)
	}
	for k, p := range [][2]int{{0, 0}, {size - 1, 2}, {2, size - 1}, {size / 2, size / 2}, {3, 2}, {size - 2, size - 1}} {
		c := color.RGBA{20, 20, 20, 0}
		if k%2 == 1 {
			c = color.RGBA{235, 235, 235, 0}
		}
		gocv.Circle(&board, image.Pt(at(p[0]), at(p[1])), int(sp*0.46), c, -1)
	}
	src := gocv.NewPointVector()
	defer src.Close()
	dst := gocv.NewPointVector()
	defer dst.Close()
	// Map the board image's corner intersections to quad.
	for i, p := range [4][2]int{{at(0), at(0)}, {at(size - 1), at(0)}, {at(size - 1), at(size - 1)}, {at(0), at(size - 1)}} {
		src.Append(image.Pt(p[0], p[1]))
		dst.Append(image.Pt(int(quad[i].X), int(quad[i].Y)))
	}
	m := gocv.GetPerspectiveTransform(src, dst)
	defer m.Close()
	frame := gocv.NewMat()
	gocv.WarpPerspectiveWithParams(board, &frame, m, image.Pt(1280, 720), gocv.InterpolationLinear, gocv.BorderConstant, color.RGBA{90, 40, 30, 0})
	noise := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	defer noise.Close()
	gocv.RandN(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(6, 6, 6, 0))
	gocv.Add(frame, noise, &frame)
	gocv.GaussianBlur(frame, &frame, image.Pt(3, 3), 0.7, 0.7, gocv.BorderReflect)
	return frame
}

// TestFindSyntheticSizes: rendered 9x9, 13x13 and 19x19 boards in perspective are found with
// the right size and corners; the real photos in the evaluation set are nearly all 19x19.
func TestFindSyntheticSizes(t *testing.T) {
	quads := [][4]Point2{
		{{400, 90}, {900, 100}, {1010, 650}, {300, 640}}, // camera low in front
		{{330, 60}, {960, 80}, {940, 680}, {350, 660}},   // nearly top-down
		{{560, 30}, {1010, 250}, {800, 700}, {330, 470}}, // board turned about 25 degrees
	}
	for _, size := range []int{9, 13, 19} {
		for qi, q := range quads {
			t.Run(fmt.Sprintf("%dx%d view %d", size, size, qi), func(t *testing.T) {
				frame := syntheticBoard(t, size, q)
				defer frame.Close()
				c, err := Find(frame, FindOptions{})
				if err != nil {
					t.Fatal(err)
				}
				want, _ := FromCorners(1280, 720, size, q)
				e := cornerError(c.Corners, q)
				t.Logf("size %d conf %.2f worst corner %.1f px = %.3f spacing", c.Size, c.Confidence, e, e/want.Spacing())
				if c.Size != size || e > want.Spacing()/4 {
					t.Fatalf("found size %d corners %v, want size %d corners %v", c.Size, c.Corners, size, q)
				}
			})
		}
	}
}

// TestFindCancelled: a cancelled context stops the search with the context's error.
func TestFindCancelled(t *testing.T) {
	frame := syntheticBoard(t, 19, [4]Point2{{400, 90}, {900, 100}, {1010, 650}, {300, 640}})
	defer frame.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Find(frame, FindOptions{Context: ctx}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Find: %v", err)
	}
}

// TestExpandToSize: a part of a 19x19 board's lattice (what growGrid reaches when stones hide the
// lines around it) placed in the whole board is the board, wherever the part lies; a 13x13
// board's lattice placed in a 19x19 grid runs into its margin and scores below the board itself.
func TestExpandToSize(t *testing.T) {
	quad := [4]Point2{{400, 90}, {900, 100}, {1010, 650}, {300, 640}}
	work := func(size int) (*workImage, [4]Point2) {
		frame := syntheticBoard(t, size, quad)
		defer frame.Close()
		w, err := prepareWith(frame, defaultWorkSize, true, lineFilter{})
		if err != nil {
			t.Fatal(err)
		}
		var cs [4]Point2
		for i, p := range quad {
			cs[i] = Point2{(p.X+0.5)*w.sx - 0.5, (p.Y+0.5)*w.sy - 0.5}
		}
		return w, cs
	}
	part := func(cs [4]Point2, size, n, left, top int) gridFit {
		h, _ := gridH(size, size, cs)
		l, tp, m := float64(left), float64(top), float64(n-1)
		return gridFit{cols: n, rows: n, corners: [4]Point2{applyH(h, Point2{l, tp}), applyH(h, Point2{l + m, tp}),
			applyH(h, Point2{l + m, tp + m}), applyH(h, Point2{l, tp + m})}}
	}
	w, cs := work(19)
	cap := lineCap(&w.lines)
	spacing := math.Hypot(cs[1].X-cs[0].X, cs[1].Y-cs[0].Y) / 18
	for _, c := range []struct{ n, left, top int }{{13, 0, 0}, {13, 6, 6}, {13, 3, 1}, {9, 5, 5}, {9, 10, 0}, {9, 0, 10}} {
		e, ok := expandToSize(&w.lines, part(cs, 19, c.n, c.left, c.top), 19, w.lines.w, w.lines.h, cap)
		if !ok {
			t.Errorf("%dx%d at %d,%d: no 19x19 placement", c.n, c.n, c.left, c.top)
			continue
		}
		if d := cornerError(e.corners, cs); d > spacing/4 {
			t.Errorf("%dx%d at %d,%d: placed %.1f px (%.2f spacing) from the board", c.n, c.n, c.left, c.top, d, d/spacing)
		}
	}
	w13, cs13 := work(13)
	cap13 := lineCap(&w13.lines)
	board := refineGrid(&w13.lines, gridFit{cols: 13, rows: 13, corners: cs13}, cap13, 1, 0.12, false)
	board.conf = board.confidence(&w13.lines, &w13.gray, cap13)
	if e, ok := expandToSize(&w13.lines, board, 19, w13.lines.w, w13.lines.h, cap13); ok {
		if e.conf = e.confidence(&w13.lines, &w13.gray, cap13); e.conf >= board.conf {
			t.Errorf("a 13x13 board placed in a 19x19 grid scores %.2f, the board itself %.2f", e.conf, board.conf)
		}
	}
}
