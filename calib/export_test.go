package calib

import (
	"math"
	"testing"

	"gocv.io/x/gocv"
)

// AugVariant is one frame of the robustness evaluation (augment_test.go), for tests outside the
// package: the reader's grid check (vision.FindBoard) judged on the same frames as Find.
type AugVariant struct {
	Source, Photo, Kind string
	// InView is false for a frame whose grid lines the picture cuts (a refusal is right).
	InView bool
	Img    gocv.Mat // closed when the callback returns
	// Truth is the true 19x19 calibration of a labelled variant (nil for Roboflow photos).
	Truth *Calibration
	// Stones are a Roboflow photo's labelled stone centres in the frame's pixels.
	Stones []Point2
	// Path is the photo's file, to find its labels.
	Path string
	// LabelCorners are a labelled photo's corner intersections in the order its labels read the
	// board (row 0 the top of the photo), carried into the frame: a calibration from them reads
	// the frame's points in the labels' order, whatever the variant's turn.
	LabelCorners [4]Point2
}

// ReadNotWhole is readNotWhole: the Roboflow photos judged not to show a whole board.
var ReadNotWhole = readNotWhole

// EachAugVariant makes reps variants of each kind (only the kinds listed in kinds,
// comma-separated, when it is not empty) of every stride-th photo of each source and hands
// each to fn.
func EachAugVariant(t *testing.T, stride, reps int, kinds string, fn func(AugVariant)) {
	t.Helper()
	eachVariant(t, augPhotos(t, stride), augKinds(), reps, "", kinds, func(p augPhoto, name string, k augKind, r int, f augFrame) {
		fn(augVariant(p, name, k, f))
	})
}

// EachAugVariantOf is EachAugVariant (one variant of each kind) for the photos whose path
// contains photo, of every photo in the evaluation, not only every stride-th.
func EachAugVariantOf(t *testing.T, photo, kinds string, fn func(AugVariant)) {
	t.Helper()
	eachVariant(t, augPhotos(t, 1), augKinds(), 1, photo, kinds, func(p augPhoto, name string, k augKind, r int, f augFrame) {
		fn(augVariant(p, name, k, f))
	})
}

// augVariant describes the variant f (of kind k) of photo p for tests outside the package.
func augVariant(p augPhoto, name string, k augKind, f augFrame) AugVariant {
	v := AugVariant{Source: p.source, Photo: name, Kind: k.name, InView: k.inView, Img: f.img, Path: p.path}
	if p.labelled() {
		for i, q := range p.corners {
			x, y, _ := f.h.applyPt(q.X, q.Y)
			v.LabelCorners[i] = Point2{x, y}
		}
		gt, _ := augTruth(f, p)
		v.Truth = &gt
	}
	for _, s := range p.stones {
		if x, y, ok := f.h.applyPt(s.X, s.Y); ok && x >= 0 && y >= 0 && x < float64(f.img.Cols()) && y < float64(f.img.Rows()) {
			v.Stones = append(v.Stones, Point2{x, y})
		}
	}
	return v
}

// Judge says whether c is the variant's board: for a labelled one, 19x19 with every corner
// within half a spacing of the truth (err is the worst corner's distance in spacings); for a
// Roboflow photo, most labelled stones on c's intersections and no three on the line just beyond
// one of its edges (err is NaN).
func (v AugVariant) Judge(c Calibration) (right bool, err float64) {
	if v.Truth != nil {
		e := cornerErrorAnyTurn(c, *v.Truth)
		return c.Size == 19 && e <= 0.5, e
	}
	on, inside := 0, 0
	var beyond [4]int
	for _, s := range v.Stones {
		g := c.ImageToGrid(s)
		if side := justBeyond(g, c.Size); side >= 0 {
			beyond[side]++
		}
		if !onBoard(g, c.Size, c.Size) {
			continue
		}
		inside++
		if offPoint(g) < 0.3 {
			on++
		}
	}
	total := len(v.Stones)
	if total < 5 {
		return true, math.NaN()
	}
	// Stones lie on the board: three or more on the line just beyond an edge say the grid leaves
	// out a line of the board (a grid a line off, or a 13x13 inside a bigger board), which the
	// shares below let pass while most stones still sit on its points.
	if max(beyond[0], beyond[1], beyond[2], beyond[3]) >= 3 {
		return false, math.NaN()
	}
	return float64(on) >= 0.8*float64(inside) && float64(inside) >= 0.6*float64(total), math.NaN()
}

// justBeyond is the side (0 top, 1 right, 2 bottom, 3 left) of an n x n grid whose next line out
// grid point g lies nearest to (within half a spacing, across from the grid's own span), or -1.
func justBeyond(g Point2, n int) int {
	last := float64(n - 1)
	inX, inY := g.X > -0.5 && g.X < last+0.5, g.Y > -0.5 && g.Y < last+0.5
	switch {
	case inX && g.Y <= -0.5 && g.Y > -1.5:
		return 0
	case inY && g.X >= last+0.5 && g.X < last+1.5:
		return 1
	case inX && g.Y >= last+0.5 && g.Y < last+1.5:
		return 2
	case inY && g.X <= -0.5 && g.X > -1.5:
		return 3
	}
	return -1
}

// RefusalReason is refusalReason for tests outside the package: a refusal shortened to its kind.
func RefusalReason(err error) string { return refusalReason(err) }

// FindStraight exposes findStraight (Find without the lens term) to the external tests.
var FindStraight = findStraight
