package calib

import (
	"context"
	"fmt"
	"slices"
)

// stoneWindowSearch is Find's last pass, where every other refused: the grid placed on the black
// stones alone when their lattice runs wider than any board. A bowl of black stones, a score
// sheet, a sleeve or a dark table beside the board puts blobs on the board's lattice too, so a
// crowded board's lattice can run 23 to 44 lines wide, and the stones' candidates (which trim at
// most three outer lines) place nothing in it. It takes the window of the largest allowed size
// that holds the most stones, fits the lattice again to that window's stones alone, and places the
// grid on that fit where the line evidence fits it best (placeOnStones), unrefined by the lines
// and with its corners no more than a quarter spacing out of the picture. Its confidence is the
// stones' (stoneFitConfidence times their share on its points), under the sure bar, for a caller
// that reads the grid to check it. It comes last because, offered among the line passes'
// candidates, such a placement took the place of grids the later passes find surely.
func stoneWindowSearch(_ context.Context, w *workImage, sizes []int, stones *stoneFinder) (gridFit, error) {
	if stones == nil || !stones.find(w) {
		return gridFit{}, fmt.Errorf("%w: no lattice of stones", ErrNoBoard)
	}
	s := slices.Max(sizes)
	if stones.hi[0]-stones.lo[0]+1 <= s+3 && stones.hi[1]-stones.lo[1]+1 <= s+3 {
		return gridFit{}, fmt.Errorf("%w: the stones' lattice is no wider than a board", ErrNoBoard)
	}
	lo, hi, ok := densestWindow(stones.nums, stones.lo, stones.hi, s)
	if !ok {
		return gridFit{}, fmt.Errorf("%w: too few stones in any window of the stones' lattice", ErrNoBoard)
	}
	var src, dst []Point2
	for i, n := range stones.nums {
		if n[0] >= lo[0] && n[0] <= hi[0] && n[1] >= lo[1] && n[1] <= hi[1] {
			src = append(src, Point2{float64(n[0]), float64(n[1])})
			dst = append(dst, Point2{stones.onLattice[i].x, stones.onLattice[i].y})
		}
	}
	h, ok := fitGridPart(src, dst)
	if !ok {
		return gridFit{}, fmt.Errorf("%w: the stones' window does not fit a lattice", ErrNoBoard)
	}
	// The window's stones span lo..hi at most; the grid holds what they span on the refitted lattice.
	l, u := numberRange(src)
	slo, shi := [2]int{int(l.X), int(l.Y)}, [2]int{int(u.X), int(u.Y)}
	if min(shi[0]-slo[0], shi[1]-slo[1])+1 < 7 {
		return gridFit{}, fmt.Errorf("%w: the stones' window spans too few lines", ErrNoBoard)
	}
	cap := lineCap(&w.lines)
	g, ok := placeOnStones(&w.lines, h, slo, shi, s, w.lines.w, w.lines.h, cap, stoneWindowSlack)
	if !ok {
		return gridFit{}, fmt.Errorf("%w: the stones' window places no grid in view", ErrNoBoard)
	}
	share := stonesOnCandidate(&w.lines, g, stones.blobs, cap)
	if share < 0.9 {
		return gridFit{}, fmt.Errorf("%w: only %.0f%% of the stones in the stones' window grid sit on its points", ErrNoBoard, 100*share)
	}
	g.conf = stoneFitConfidence * share
	return g, nil
}

// stoneWindowSlack is how far, in spacings, the corners of a grid the stones' window places may
// lie out of the picture (edgeSlack is half a spacing). With no lines to bear the placement out,
// the half spacing let the grid of `render-boards -seed 6005` scene 110 (late games) slide a row
// down past the board's edge, its bottom corners 1.6 spacings off; at a quarter it lies 0.44 off.
const stoneWindowSlack = 0.25

// densestWindow is the s x s window of grid numbers within lo..hi that holds the most of the
// stones numbered nums (the first such, scanning left to right and top to bottom), or false when
// none holds a dozen.
func densestWindow(nums [][2]int, lo, hi [2]int, s int) (wlo, whi [2]int, ok bool) {
	best := 0
	for left := lo[0]; left <= max(lo[0], hi[0]-s+1); left++ {
		for top := lo[1]; top <= max(lo[1], hi[1]-s+1); top++ {
			n := 0
			for _, g := range nums {
				if g[0] >= left && g[0] < left+s && g[1] >= top && g[1] < top+s {
					n++
				}
			}
			if n > best {
				best, wlo, whi = n, [2]int{left, top}, [2]int{left + s - 1, top + s - 1}
			}
		}
	}
	return wlo, whi, best >= 12
}
