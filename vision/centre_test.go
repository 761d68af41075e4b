package vision

import (
	"math"
	"testing"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/demo"
	"tengen/internal/rendertest"
)

// crowdedStones is a 19x19 position as crowded as a late game: three points in five hold a
// stone, of either colour, chosen by a hash of the point so that every run draws the same board.
func crowdedStones() []demo.Stone {
	const n = 19
	st := make([]demo.Stone, n*n)
	for k := range st {
		h := uint32(k+1) * 2654435761
		switch {
		case h>>8%5 >= 3:
		case h>>20&1 == 0:
			st[k] = demo.Black
		default:
			st[k] = demo.White
		}
	}
	return st
}

// crowdedFrame renders crowdedStones at w x h and returns the sample, its frame (closed when the
// test ends) and its drawn grid at confidence 0.45, a fit under the sure bar.
func crowdedFrame(tb testing.TB, w, h int) (demo.Sample, gocv.Mat, calib.Calibration) {
	tb.Helper()
	s, img, err := rendertest.Frame(4552755645299769736, demo.SampleOptions{Size: 19, W: w, H: h, Stones: crowdedStones()})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { img.Close() })
	drawn, err := rendertest.DrawnGrid(s)
	if err != nil {
		tb.Fatal(err)
	}
	drawn.Confidence = 0.45
	return s, img, drawn
}

// TestCentreOnStones draws a crowded 19x19 board and hands centreOnStones its drawn grid, the
// same grid moved half a spacing (its points on the rims between the stones), and the moved grid
// found at CentreBelow. Only the unsure moved grid is moved, and back onto the drawn one. On the
// drawn grid the reader gives all 361 points centreSure or more; moved half a spacing sideways,
// 181; up or down, 80; both ways, 60 (the reader before 2026-11-30: 158, 126 and 35). (At 0.9,
// the bar before centreSure, the reader then was sure of 333 points of the grid moved sideways,
// which fall between two stones side by side, and the move passed unseen.)
func TestCentreOnStones(t *testing.T) {
	s, img, drawn := crowdedFrame(t, 800, 600)
	if _, moved := centreOnStones(img, drawn, Params{}); moved {
		t.Errorf("the drawn grid was moved")
	}
	for _, d := range [][2]float64{{0.5, 0.5}, {-0.5, -0.5}, {0, 0.5}, {0.5, 0}} {
		off, err := movedLines(drawn, d)
		if err != nil {
			t.Fatal(err)
		}
		c, moved := centreOnStones(img, off, Params{})
		if !moved {
			t.Errorf("moved by %v: not moved back", d)
			continue
		}
		if e := rendertest.SpacingsOff(c, s.Corners, false); e > 0.25 {
			t.Errorf("moved by %v: moved back to a grid %.2f spacing off the drawn one", d, e)
		}
		if c.Confidence >= StillMinConfidence {
			t.Errorf("moved by %v: the moved grid keeps confidence %.2f, at or over the sure bar", d, c.Confidence)
		}
		sure := off
		sure.Confidence = CentreBelow
		if _, moved := centreOnStones(img, sure, Params{}); moved {
			t.Errorf("moved by %v: a grid found at %.2f was asked", d, CentreBelow)
		}
	}
}

// BenchmarkCentreOnStones1080p is what centreOnStones adds to FindBoard for an unsure grid at
// 1920x1080: the grid half a spacing off a crowded board, read four times (as it is and moved
// three ways), and the moves of the way the reader is surest of checked against the board's lines.
func BenchmarkCentreOnStones1080p(b *testing.B) {
	benchmarkOffGrid(b, 1920, 1080, [2]float64{0.5, 0.5}, func(img gocv.Mat, off calib.Calibration) bool {
		_, moved := centreOnStones(img, off, Params{})
		return moved
	})
}

// benchmarkOffGrid times mend on the crowded board drawn at w x h with its grid moved by d (lines),
// and fails if mend does not take the moved grid.
func benchmarkOffGrid(b *testing.B, w, h int, d [2]float64, mend func(gocv.Mat, calib.Calibration) bool) {
	_, img, drawn := crowdedFrame(b, w, h)
	off, err := movedLines(drawn, d)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if !mend(img, off) {
			b.Fatalf("the grid moved by %v was not taken", d)
		}
	}
}

// TestPhasedOnOutline hands phasedOnOutline the crowded board's drawn grid, the same grid a line
// off down, left, or both ways (the reader is as sure of its points: the table beyond the edge
// reads surely empty), and the grid half a spacing off. The drawn grid is kept, the grids off by whole lines are moved
// back onto it by the board's outline, and the grid whose points fall between the stones is not
// taken.
func TestPhasedOnOutline(t *testing.T) {
	s, img, drawn := crowdedFrame(t, 800, 600)
	cases := []struct {
		move [2]float64
		ok   bool
	}{
		{[2]float64{0, 0}, true},
		{[2]float64{0, 1}, true},
		{[2]float64{-1, 0}, true},
		{[2]float64{1, -1}, true},
		{[2]float64{0.5, 0.5}, false},
	}
	for _, tc := range cases {
		off, err := movedLines(drawn, tc.move)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := phasedOnOutline(img, off, Params{})
		if ok != tc.ok {
			t.Errorf("moved by %v: taken %v, want %v", tc.move, ok, tc.ok)
			continue
		}
		if e := rendertest.SpacingsOff(c, s.Corners, false); ok && e > 0.1 {
			t.Errorf("moved by %v: gave a grid %.2f spacing off the drawn one", tc.move, e)
		}
	}
}

// BenchmarkPhasedOnOutline720p is FindBoard's last look at an unsure grid at 1280x720: the
// crowded board's grid a line off, read, framed by the board's outlines, moved back and read
// again. (Drawn at 1920x1080, this board's top corner touches the picture's edge, so no outline
// frames it and the grid is not taken.)
func BenchmarkPhasedOnOutline720p(b *testing.B) {
	benchmarkOffGrid(b, 1280, 720, [2]float64{0, 1}, func(img gocv.Mat, off calib.Calibration) bool {
		_, ok := phasedOnOutline(img, off, Params{})
		return ok
	})
}

// TestSameGrid: FindBoard does not take back from its search at the sure bar the grid it moved
// onto the stones, and tells it by sameGrid: the same size, every corner within a quarter spacing.
func TestSameGrid(t *testing.T) {
	grid := func(size int, shift float64) calib.Calibration {
		c, err := calib.FromCorners(800, 600, size, [4]calib.Point2{{X: 100 + shift, Y: 100}, {X: 460, Y: 100}, {X: 460, Y: 460}, {X: 100, Y: 460}})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	spacing := 360.0 / 18
	tests := []struct {
		name string
		a, b calib.Calibration
		want bool
	}{
		{"the same grid", grid(19, 0), grid(19, 0), true},
		{"a corner a fifth of a spacing off", grid(19, 0.2*spacing), grid(19, 0), true},
		{"a corner a third of a spacing off", grid(19, spacing/3), grid(19, 0), false},
		{"the same corners, another size", grid(13, 0), grid(19, 0), false},
	}
	for _, tc := range tests {
		if got := sameGrid(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: sameGrid = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestReaderDoubts hands readerDoubts grids of the crowded board at confidences around the
// finder's sure bar. The drawn grid is taken on the finder's word; a grid half a spacing off both
// ways (the reader sure of 111 of its points) and a finer lattice turned across the stones (288),
// as the finder fitted at 0.50 to late-game renders enlarged to 3072x2304 and 5120x3840, are
// doubted at the sure bar and over it (over CentreBelow too, since 2026-12-03), and not asked
// under the bar, where FindBoard judges a grid as unsure anyway. readerUnsure, which
// FindBoard asks of every grid it would keep as an unsure fit, finds the reader unsure of both at
// any confidence and sure of the drawn grid. (Turned 15 to 45 degrees at 0.6 to 0.8 spacing, such
// lattices read 274 to 301 points surely; the one at 0.7 and 45 degrees, every second point on a
// point of the board, 344.)
func TestReaderDoubts(t *testing.T) {
	_, img, drawn := crowdedFrame(t, 800, 600)
	half, err := movedLines(drawn, [2]float64{0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	// A finer lattice turned across the stones: 0.7 spacing apart, turned 30 degrees about the
	// board's centre, as the finder fitted at 0.50 to a late-game render enlarged to 5120x3840.
	turned := func(scale, deg float64) calib.Calibration {
		t.Helper()
		sn, cs := math.Sincos(deg * math.Pi / 180)
		var q [4]calib.Point2
		for i, g := range [4][2]float64{{-9, -9}, {9, -9}, {9, 9}, {-9, 9}} {
			x, y := scale*(cs*g[0]-sn*g[1]), scale*(sn*g[0]+cs*g[1])
			q[i] = drawn.GridPixel(9+x, 9+y)
		}
		c, err := calib.FromCorners(drawn.ImageWidth, drawn.ImageHeight, 19, q)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	across := turned(0.7, 30)
	cases := []struct {
		name          string
		grid          calib.Calibration
		conf          float64
		doubt, unsure bool // readerDoubts, readerUnsure
	}{
		{"drawn", drawn, 0.55, false, false},
		{"drawn, unsure", drawn, 0.4, false, false},
		{"half off", half, 0.55, true, true},
		{"turned lattice", across, StillMinConfidence, true, true},
		{"turned lattice, sure", across, CentreBelow, true, true},
		{"half off, surer", half, 0.9, true, true},
		{"half off, unsure", half, StillMinConfidence - 0.01, false, true},
	}
	for _, tc := range cases {
		g := tc.grid
		g.Confidence = tc.conf
		sure := surePoints(img, g, Params{})
		if got := readerDoubts(img, g, Params{}); got != tc.doubt {
			t.Errorf("%s at %.2f: doubted %v, want %v (the reader sure of %d of 361 points)", tc.name, tc.conf, got, tc.doubt, sure)
		}
		if got := readerUnsure(img, g, Params{}); got != tc.unsure {
			t.Errorf("%s: readerUnsure %v, want %v (the reader sure of %d of 361 points)", tc.name, got, tc.unsure, sure)
		}
	}
}

// BenchmarkReaderDoubts1080p is what readerDoubts adds to FindBoard for a grid found at the sure
// bar or over it at 1920x1080: one reading of the frame on the grid.
func BenchmarkReaderDoubts1080p(b *testing.B) {
	_, img, drawn := crowdedFrame(b, 1920, 1080)
	drawn.Confidence = 0.55
	b.ReportAllocs()
	for b.Loop() {
		if readerDoubts(img, drawn, Params{}) {
			b.Fatal("the drawn grid was doubted")
		}
	}
}
