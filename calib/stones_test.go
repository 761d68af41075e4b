package calib

import (
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"
)

// tiltedBoard is the homography taking 19x19 grid numbers to the pixels of a board seen a little
// from the side in a w x h frame.
func tiltedBoard(t testing.TB, w, h float64) [9]float64 {
	return boardAt(t, w, h, [4]Point2{{0.2, 0.1}, {0.8, 0.12}, {0.87, 0.9}, {0.13, 0.88}})
}

// steepBoard is tiltedBoard for a board seen at about 45 degrees: its far edge is under half as
// wide as its near one, and its far rows under a quarter as deep (14 pixels against 66).
func steepBoard(t testing.TB, w, h float64) [9]float64 {
	return boardAt(t, w, h, [4]Point2{{0.3, 0.15}, {0.7, 0.15}, {0.95, 0.9}, {0.05, 0.9}})
}

// boardAt is the homography taking 19x19 grid numbers to the pixels of a w x h frame whose board
// corners (TL, TR, BR, BL) are at the given shares of its width and height.
func boardAt(t testing.TB, w, h float64, at [4]Point2) [9]float64 {
	t.Helper()
	var px [4]Point2
	for i, a := range at {
		px[i] = Point2{a.X * w, a.Y * h}
	}
	hm, ok := homographyFrom4([4]Point2{{0, 0}, {18, 0}, {18, 18}, {0, 18}}, px)
	if !ok {
		t.Fatal("no homography for the test board")
	}
	return hm
}

// TestStoneLatticeNumbersTheStones: stone centres on a tilted 19x19 board, a few pixels off
// their points, with specks between the points, are numbered so that every pair of stones is as
// many points apart as on the board (whatever the numbering's origin, turn or mirror).
func TestStoneLatticeNumbersTheStones(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stones int // of 361 points
		specks int
		steep  bool // seen at about 45 degrees: the far edge under half as wide as the near one
	}{
		{"an opening", 40, 0, false},
		{"a middle game with specks", 150, 10, false},
		{"a crowded board", 300, 20, false},
		{"a middle game seen steeply", 150, 0, true},
		{"a crowded board seen steeply", 250, 10, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.stones), 7))
			hm := tiltedBoard(t, 1000, 750)
			if tc.steep {
				hm = steepBoard(t, 1000, 750)
			}
			var blobs []stoneBlob
			var truth []Point2
			for _, k := range rng.Perm(361)[:tc.stones] {
				g := Point2{float64(k % 19), float64(k / 19)}
				p := applyH(hm, g)
				// A stone is about as wide as the spacing where it lies.
				q := applyH(hm, Point2{g.X + 1, g.Y})
				r := 0.45 * math.Hypot(q.X-p.X, q.Y-p.Y)
				blobs = append(blobs, stoneBlob{x: p.X + rng.NormFloat64(), y: p.Y + rng.NormFloat64(), r: r})
				truth = append(truth, g)
			}
			for i := 0; i < tc.specks; i++ {
				g := Point2{rng.Float64()*17 + 0.5, rng.Float64()*17 + 0.5}
				g.X, g.Y = math.Floor(g.X)+0.5, math.Floor(g.Y)+0.5 // between four points
				p := applyH(hm, g)
				blobs = append(blobs, stoneBlob{x: p.X, y: p.Y, r: 12})
			}
			h, lo, hi, n, ok := stoneLattice(blobs)
			if !ok {
				if tc.stones < 100 {
					return // few stones seldom neighbour each other: the lines find such a board
				}
				t.Fatal("no lattice found")
			}
			if n < tc.stones*9/10 || n > tc.stones {
				t.Errorf("%d stones on the lattice, want about %d", n, tc.stones)
			}
			if hi[0]-lo[0] > 18 || hi[1]-lo[1] > 18 {
				t.Errorf("the stones span %v..%v, more than a board", lo, hi)
			}
			inv, ok := invert3(h)
			if !ok {
				t.Fatal("the lattice has no inverse")
			}
			found := make([]Point2, len(truth))
			for i := range truth {
				p := applyH(inv, Point2{blobs[i].x, blobs[i].y})
				found[i] = Point2{math.Round(p.X), math.Round(p.Y)}
			}
			bad := 0
			for i := range truth {
				for j := i + 1; j < len(truth); j++ {
					dt := math.Hypot(truth[i].X-truth[j].X, truth[i].Y-truth[j].Y)
					df := math.Hypot(found[i].X-found[j].X, found[i].Y-found[j].Y)
					if math.Abs(dt-df) > 1e-9 {
						bad++
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d pairs of stones numbered a different distance apart than on the board", bad)
			}
		})
	}
}

// TestStoneLatticeNeedsALattice: scattered blobs with no common spacing give no lattice.
func TestStoneLatticeNeedsALattice(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var blobs []stoneBlob
	for i := 0; i < 80; i++ {
		blobs = append(blobs, stoneBlob{x: rng.Float64() * 1000, y: rng.Float64() * 700, r: 10})
	}
	if _, _, _, n, ok := stoneLattice(blobs); ok && n >= 40 {
		t.Errorf("a lattice of %d stones found in scattered blobs", n)
	}
	if _, _, _, _, ok := stoneLattice(blobs[:5]); ok {
		t.Error("a lattice found from five blobs")
	}
}

// blackStone says whether drawCrowdedBoard draws the stone on point k black: about half of them,
// in no pattern (black on even k would be every other point, itself a lattice).
func blackStone(k int) bool { return (uint32(k)*2654435761)>>15&1 == 0 }

// drawCrowdedBoard draws a tilted 19x19 board in a w x h frame: light wood, thin dark lines,
// and black and white stones on the points listed (black where blackStone says).
func drawCrowdedBoard(t testing.TB, w, h int, stones []int) (gocv.Mat, [9]float64) {
	t.Helper()
	hm := tiltedBoard(t, float64(w), float64(h))
	img := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(60, 90, 70, 0), h, w, gocv.MatTypeCV8UC3)
	corner := func(u, v float64) image.Point { p := applyH(hm, Point2{u, v}); return image.Pt(int(p.X), int(p.Y)) }
	board := gocv.NewPointVectorFromPoints([]image.Point{corner(-0.7, -0.7), corner(18.7, -0.7), corner(18.7, 18.7), corner(-0.7, 18.7)})
	defer board.Close()
	pv := gocv.NewPointsVector()
	defer pv.Close()
	pv.Append(board)
	gocv.FillPoly(&img, pv, color.RGBA{120, 180, 215, 0})
	for i := 0; i < 19; i++ {
		f := float64(i)
		gocv.Line(&img, corner(f, 0), corner(f, 18), color.RGBA{40, 40, 40, 0}, 2)
		gocv.Line(&img, corner(0, f), corner(18, f), color.RGBA{40, 40, 40, 0}, 2)
	}
	for _, k := range stones {
		// A stone is a little narrower than the spacing where it lies (nearer is wider; a disc
		// drawn the width of the foreshortened spacing would overlap its neighbours).
		u, v := float64(k%19), float64(k/19)
		l, rt := applyH(hm, Point2{u - 0.5, v}), applyH(hm, Point2{u + 0.5, v})
		up, dn := applyH(hm, Point2{u, v - 0.5}), applyH(hm, Point2{u, v + 0.5})
		r := int(0.46 * math.Min(math.Hypot(rt.X-l.X, rt.Y-l.Y), math.Hypot(dn.X-up.X, dn.Y-up.Y)))
		c := color.RGBA{25, 25, 25, 0}
		if !blackStone(k) {
			c = color.RGBA{235, 235, 235, 0}
		}
		gocv.Circle(&img, corner(float64(k%19), float64(k/19)), r, c, -1)
	}
	return img, hm
}

// TestFindStoneBlobsFindsTheBlackStones: every black stone of a drawn board is found within a
// third of its radius of its centre (a touching neighbour pulls the peak towards it), and nothing
// else on the board (its lines are opened away, its white stones are not dark). The dark table
// along the board's edge may give blobs: they lie off the board.
func TestFindStoneBlobsFindsTheBlackStones(t *testing.T) {
	b := newBlobBoard(t)
	found, stray := b.check(findStoneBlobs(b.gray))
	for _, g := range stray {
		t.Errorf("a blob at %.2f,%.2f on the board is no black stone", g.X, g.Y)
	}
	for p := range b.black {
		if !found[p] {
			t.Errorf("black stone at %d,%d not found", p[0], p[1])
		}
	}
}

// blobBoard is a drawn crowded board (200 stones, about half of them black) in grey, for the
// stone blob finders' tests.
type blobBoard struct {
	gray  gocv.Mat
	hm    [9]float64      // its points to pixels
	black map[[2]int]bool // its black stones' points
}

// newBlobBoard draws the board; its grey image is closed when the test ends.
func newBlobBoard(t *testing.T) blobBoard {
	t.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	stones := rng.Perm(361)[:200]
	img, hm := drawCrowdedBoard(t, 1000, 750, stones)
	defer img.Close()
	b := blobBoard{gray: gocv.NewMat(), hm: hm, black: map[[2]int]bool{}}
	t.Cleanup(func() { b.gray.Close() })
	gocv.CvtColor(img, &b.gray, gocv.ColorBGRToGray)
	for _, k := range stones {
		if blackStone(k) {
			b.black[[2]int{k % 19, k / 19}] = true
		}
	}
	return b
}

// check returns the black stones found among blobs (within a third of a stone's radius of one)
// and the grid positions of the blobs on the board that are none.
func (b blobBoard) check(blobs []stoneBlob) (found map[[2]int]bool, stray []Point2) {
	inv, _ := invert3(b.hm)
	const near = 0.35 * 0.48 // a third of a stone's radius, in spacings
	found = map[[2]int]bool{}
	for _, bl := range blobs {
		g := applyH(inv, Point2{bl.x, bl.y})
		if g.X < -0.5 || g.Y < -0.5 || g.X > 18.5 || g.Y > 18.5 {
			continue
		}
		p := [2]int{int(math.Round(g.X)), int(math.Round(g.Y))}
		if !b.black[p] || math.Hypot(g.X-float64(p[0]), g.Y-float64(p[1])) > near {
			stray = append(stray, g)
			continue
		}
		found[p] = true
	}
	return found, stray
}

// BenchmarkStoneLattice is finding the black stones of a crowded board in a work image (the
// size a 1080p frame is reduced to) and fitting their lattice.
func BenchmarkStoneLattice(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	img, _ := drawCrowdedBoard(b, 1000, 562, rng.Perm(361)[:280])
	defer img.Close()
	gray := gocv.NewMat()
	defer gray.Close()
	gocv.CvtColor(img, &gray, gocv.ColorBGRToGray)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, _, _, ok := stoneLattice(findStoneBlobs(gray)); !ok {
			b.Fatal("no lattice")
		}
	}
}

// crowdedWork is a drawn board with 300 stones (on a dark table), prepared for finding, and the
// homography of its points.
func crowdedWork(t *testing.T) (*workImage, [9]float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(8, 9))
	img, hm := drawCrowdedBoard(t, 1000, 750, rng.Perm(361)[:300])
	defer img.Close()
	w, err := prepare(img, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return w, hm
}

// TestStonesVouchForTheWholeBoardOnly: on a crowded board the stones raise a weak line fit of
// the whole 19x19 grid to the confidence a further check needs, but not a 9x9 grid inside it
// (its intersections hold stones too, but most stones lie outside it) nor a grid half a spacing
// off (the stones sit between its intersections).
func TestStonesVouchForTheWholeBoardOnly(t *testing.T) {
	w, hm := crowdedWork(t)
	grid := func(u0, v0, n float64) gridFit {
		u1, v1 := u0+n-1, v0+n-1
		return gridFit{cols: int(n), rows: int(n), conf: 0.1, corners: latticeQuad(hm, u0, v0, u1, v1)}
	}
	sf := &stoneFinder{}
	for _, tc := range []struct {
		name string
		g    gridFit
		want bool
	}{
		{"the whole board", grid(0, 0, 19), true},
		{"a 9x9 grid inside it", grid(5, 5, 9), false},
		{"the board half a spacing off", grid(0.5, 0.5, 19), false},
	} {
		if got := sf.vouch(w, tc.g); (got >= 0.4) != tc.want {
			t.Errorf("%s: confidence %.2f from 0.1", tc.name, got)
		}
	}
}

// TestStoneCandidatesPlaceTheBoard: on a crowded board whose dark table puts blobs on the lattice
// just outside it, the stones' lattice places the 19x19 grid on the board's points.
func TestStoneCandidatesPlaceTheBoard(t *testing.T) {
	w, hm := crowdedWork(t)
	cands := (&stoneFinder{}).candidates(w, []int{19}, lineCap(&w.lines))
	if len(cands) == 0 {
		t.Fatal("no grid placed on the stones")
	}
	spacing := math.Hypot(applyH(hm, Point2{10, 9}).X-applyH(hm, Point2{9, 9}).X, applyH(hm, Point2{10, 9}).Y-applyH(hm, Point2{9, 9}).Y)
	truth := [4]Point2{applyH(hm, Point2{0, 0}), applyH(hm, Point2{18, 0}), applyH(hm, Point2{18, 18}), applyH(hm, Point2{0, 18})}
	if e := cornerError(orderCorners(cands[0].corners), orderCorners(truth)) / spacing; e > 0.3 {
		t.Errorf("the grid's corners are %.2f spacings off (confidence %.2f)", e, cands[0].conf)
	}
}

// TestFindDimStoneBlobsFindsTheBlackStonesOnADarkTable: the drawn board of
// TestFindStoneBlobsFindsTheBlackStones in a dim room, where the table is as dark as the black
// stones. findStoneBlobs, which asks a stone to be dark against the frame, finds few of them;
// findDimStoneBlobs, which asks it to be dark against the board around it, inside the board's
// outline, finds every one and nothing else on the board.
func TestFindDimStoneBlobsFindsTheBlackStonesOnADarkTable(t *testing.T) {
	b := newBlobBoard(t)
	// The table (the drawn frame's own grey around the board) made as dark as a black stone.
	const table = 28
	tableGrey := b.gray.GetUCharAt(0, 0)
	for y := 0; y < b.gray.Rows(); y++ {
		for x := 0; x < b.gray.Cols(); x++ {
			if b.gray.GetUCharAt(y, x) == tableGrey {
				b.gray.SetUCharAt(y, x, table)
			}
		}
	}
	if found, _ := b.check(findStoneBlobs(b.gray)); 2*len(found) > len(b.black) {
		t.Errorf("findStoneBlobs found %d of the %d black stones: the frame is not dim enough for the test", len(found), len(b.black))
	}
	// The board's outline, as drawn.
	var q [4]Point2
	for i, c := range [4]Point2{{-0.7, -0.7}, {18.7, -0.7}, {18.7, 18.7}, {-0.7, 18.7}} {
		q[i] = applyH(b.hm, c)
	}
	found, stray := b.check(findDimStoneBlobs(b.gray, q))
	if len(found) != len(b.black) || len(stray) > 0 {
		t.Errorf("findDimStoneBlobs found %d of the %d black stones, and %d blobs on the board that are none", len(found), len(b.black), len(stray))
	}
}

// TestFitAffineRecoversTheMap: grid numbers taken through an affine map (a turned, sheared,
// shifted patch of the lattice) are fitted back to that map; numbers all on one line are refused.
func TestFitAffineRecoversTheMap(t *testing.T) {
	want := [9]float64{31, -4, 212, 6, 27, 95, 0, 0, 1}
	for _, tc := range []struct {
		name string
		src  []Point2
		ok   bool
	}{
		{"a patch of seven stones", []Point2{{0, 0}, {1, 0}, {2, 1}, {0, 2}, {-1, 1}, {1, -2}, {3, 3}}, true},
		{"six stones on one line", []Point2{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}, {5, 0}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := make([]Point2, len(tc.src))
			for i, p := range tc.src {
				dst[i] = applyH(want, p)
			}
			got, ok := fitAffine(tc.src, dst)
			if ok != tc.ok {
				t.Fatalf("fitted %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			for i := range got {
				if math.Abs(got[i]-want[i]) > 1e-6 {
					t.Fatalf("fitted %v, want %v", got, want)
				}
			}
		})
	}
}
