package vision

import (
	"errors"
	"testing"

	"tengen/calib"
	"tengen/demo"
	"tengen/internal/cutframe"
	"tengen/internal/rendertest"
	"tengen/vision/observe"
)

// TestCheckGridKeepsASureGrid renders boards on which the finder's grid is right and sure
// (confidence 0.5 or more) but the grid moved a line outward shows as many lined points: the
// board's dark edge taken for the outer line (scenes of `render-boards -seed 123` that CheckGrid
// used to move a line off; the board size not given, as those scenes were judged). CheckGrid must
// leave such a grid alone, and FindBoard return it.
func TestCheckGridKeepsASureGrid(t *testing.T) {
	for _, tc := range []struct {
		name string
		seed uint64
		opt  demo.SampleOptions
	}{
		{"19x19, scene 198", 6836206228656557124, demo.SampleOptions{Size: 19, W: 1024, H: 768, HandChance: 0.3}},
		{"13x13, scene 53", 14297634853820497425, demo.SampleOptions{Size: 13, W: 960, H: 720, HandChance: 0.3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, img, err := rendertest.Frame(tc.seed, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer img.Close()
			found, err := calib.Find(img, calib.FindOptions{MinConfidence: LowMinConfidence})
			if err != nil {
				t.Fatal(err)
			}
			if found.Confidence < StillMinConfidence {
				t.Fatalf("the finder's grid has confidence %.2f: the scene no longer tests a sure grid", found.Confidence)
			}
			if e := rendertest.SpacingsOff(found, s.Corners, false); e > 0.5 {
				t.Fatalf("the finder's grid is %.2f spacings off: the scene no longer tests a right grid", e)
			}
			if c := CheckGrid(img, found, Params{}); c.Corners != found.Corners {
				t.Errorf("CheckGrid moved a sure grid: now %.2f spacings off", rendertest.SpacingsOff(c, s.Corners, false))
			}
			c, err := FindBoard(img, 0, Params{})
			if err != nil {
				t.Fatal(err)
			}
			if e := rendertest.SpacingsOff(c, s.Corners, false); e > 0.5 {
				t.Errorf("FindBoard's grid is %.2f spacings off", e)
			}
		})
	}
}

// TestGridCheckReadsLightLines renders a 9x9 board with light lines on wood, blurred (scene 286
// of `render-boards -seed 123`), which the finder fitted with its plain light-line filter at a
// confidence under 0.5. The grid check must count its lines in their own polarity: it read them
// as dark lines and found none (0 of 81 points), refusing a right grid. Since the light pass
// tries the wider filters too the board is found surely (0.68), so the check is also run on
// the drawn grid directly, in both polarities.
func TestGridCheckReadsLightLines(t *testing.T) {
	const position = `
.........
....X....
..O...X..
.O.XO....
..X.X....
.........
......O..
..X......
......O..`
	o, err := observe.ParseText(position)
	if err != nil {
		t.Fatal(err)
	}
	stones := make([]demo.Stone, len(o.Stones))
	for i, st := range o.Stones {
		switch st {
		case observe.Black:
			stones[i] = demo.Black
		case observe.White:
			stones[i] = demo.White
		}
	}
	s, img, err := rendertest.Frame(8570922363859726409, demo.SampleOptions{Size: 9, W: 1280, H: 720, Stones: stones, HandChance: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	c, err := FindBoard(img, 0, Params{})
	if err != nil {
		t.Fatal(err)
	}
	if !c.LightLines {
		t.Errorf("found with dark lines at confidence %.2f", c.Confidence)
	}
	if e := rendertest.SpacingsOff(c, s.Corners, false); c.Size != 9 || e > 0.5 {
		t.Errorf("found a %dx%d grid %.2f spacings off", c.Size, c.Size, e)
	}
	drawn, err := rendertest.DrawnGrid(s)
	if err != nil {
		t.Fatal(err)
	}
	drawn.LightLines = true
	lined, empty := gridScoreEmpty(img, drawn, Params{})
	if !linedEnough(lined, empty, 81, true) {
		t.Errorf("read as light lines, the drawn grid shows its lines on %d of 81 points (%d empty): not enough", lined, empty)
	}
	drawn.LightLines = false
	if dark, _ := gridScoreEmpty(img, drawn, Params{}); dark >= lined {
		t.Errorf("read as dark lines, the drawn grid shows its lines on %d points, as light lines on %d", dark, lined)
	}
}

// TestFindBoardFramedByOutline renders a small 13x13 board with faint lines in a dark room
// (`render-boards -seed 31337` scene 232): the finder's grid is right but unsure (0.43), its
// lines show at too few points and its seven stones cannot place it, so the grid check refused
// it. The board's face against the table frames the grid evenly, and FindBoard must take it.
func TestFindBoardFramedByOutline(t *testing.T) {
	s, img, err := rendertest.Frame(10235915010151741733, demo.SampleOptions{Size: 13, W: 1280, H: 720, HandChance: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	c, err := FindBoard(img, 0, Params{})
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	if off := rendertest.SpacingsOff(c, s.Corners, true); c.Size != 13 || off > 0.5 {
		t.Fatalf("found a %dx%d grid %.2f spacings off the drawn one", c.Size, c.Size, off)
	}
	if c.Confidence >= StillMinConfidence {
		t.Fatalf("found at confidence %.2f: the scene no longer tests the grid check of an unsure fit", c.Confidence)
	}
	if _, ok := calib.FramedByOutline(img, c); !ok {
		t.Error("the board's outline does not frame the grid")
	}
}

// TestFramedAsksTheStones renders a 19x19 board with black stones on it and lays two grids on
// its corner points: its own, and a 13x13 grid stretched over it. The board's outline frames
// both evenly (the stretched grid's margins are two thirds of the board's), and half the
// stretched grid's lines lie on the board's, so an unsure fit of it is no rarity. Only the stones
// tell them apart: they sit on the 19x19 grid's points and between the 13x13 grid's.
func TestFramedAsksTheStones(t *testing.T) {
	s, img, err := rendertest.Frame(1, demo.SampleOptions{Size: 19, W: 1280, H: 720, Stones: demo.RandomPosition(1, 19, 0.3)})
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	var corners [4]calib.Point2
	for i, p := range s.Corners {
		corners[i] = calib.Point2{X: p[0], Y: p[1]}
	}
	for _, tc := range []struct {
		name string
		size int
		want bool
	}{
		{"the board's own grid", 19, true},
		{"a 13x13 grid stretched over it", 13, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := calib.FromCorners(img.Cols(), img.Rows(), tc.size, corners)
			if err != nil {
				t.Fatal(err)
			}
			if m, ok := calib.FramedByOutline(img, c); !ok {
				t.Fatalf("the outline does not frame the grid (margins %.2f): the scene no longer tests the stones", m)
			}
			fit, err := calib.FitStones(img, c)
			if err != nil {
				t.Fatal(err)
			}
			if !fit.Judges() {
				t.Fatalf("too few stones to judge by: %v", fit)
			}
			if got := framed(img, c, fit); got != tc.want {
				t.Errorf("framed %v, want %v (%v)", got, tc.want, fit)
			}
		})
	}
}

// TestFindBoardSlidOffBoard: the gomrade photo with its right third cut off, scaled to
// 1920x1080. The board runs out of the picture, and the finder fits a 19x19 grid (at 0.36) to
// what shows of its lines, carried on past the board's left edge over the table and a score
// sheet, whose points the reader still sees crossed (275 of 309). Its left edge line is missing
// and its right side lies against the picture's edge (slidOffBoard), so the frame is refused as
// a board not entirely in view.
func TestFindBoardSlidOffBoard(t *testing.T) {
	frame := cutframe.Gomrade(t, 2, 3)
	defer frame.Close()
	c, err := FindBoard(frame, 0, Params{})
	if err == nil {
		t.Fatalf("found a %dx%d grid at %.2f on a board the picture cuts", c.Size, c.Size, c.Confidence)
	}
	if !errors.Is(err, calib.ErrNotInView) {
		t.Fatalf("refused with %v, want calib.ErrNotInView", err)
	}
	t.Log(err)
}

// TestMoveLinesAndLineInPicture checks the two pieces of geometry CheckGrid's moves rest on: which
// line a move of the grid drops and takes in, and whether an edge line's points, or its stones,
// would lie wholly in the picture. A 19x19 grid of 40 px spacing stands at x 100..820, y 20..740 in a 1000x761
// picture: its top and bottom rows have 20 px to the picture's edge, half a spacing, and no more.
func TestMoveLinesAndLineInPicture(t *testing.T) {
	for _, tc := range []struct {
		d                    [2]float64
		axis, dropped, added int
	}{
		{[2]float64{1, 0}, 0, 0, 18},
		{[2]float64{-1, 0}, 0, 18, 0},
		{[2]float64{0, 1}, 1, 0, 18},
		{[2]float64{0, -1}, 1, 18, 0},
	} {
		axis, dropped, added := moveLines(19, tc.d)
		if axis != tc.axis || dropped != tc.dropped || added != tc.added {
			t.Errorf("moveLines(19, %v) = %d, %d, %d; want %d, %d, %d", tc.d, axis, dropped, added, tc.axis, tc.dropped, tc.added)
		}
	}
	grid := func(top, bottom float64) calib.Calibration {
		return calib.Calibration{Size: 19, ImageWidth: 1000, ImageHeight: 761,
			Corners: [4]calib.Point2{{X: 100, Y: top}, {X: 820, Y: top}, {X: 820, Y: bottom}, {X: 100, Y: bottom}}}
	}
	for _, tc := range []struct {
		name       string
		cal        calib.Calibration
		axis, line int
		out        float64
		want       bool
	}{
		{"left column, 80 px to spare", grid(20, 740), 0, 0, 0.5, true},
		{"right column, 160 px to spare", grid(20, 740), 0, 18, 0.5, true},
		{"top row, half a spacing to spare", grid(20, 740), 1, 0, 0.5, true},
		{"bottom row, half a spacing to spare", grid(20, 740), 1, 18, 0.5, true},
		{"top row, a pixel short", grid(19, 739), 1, 0, 0.5, false},
		{"bottom row at the picture's edge", grid(40, 760), 1, 18, 0.5, false},
		{"bottom row's points at the picture's edge, none to spare", grid(40, 760), 1, 18, 0, true},
		{"bottom row's points a pixel below the picture", grid(41, 761), 1, 18, 0, false},
		{"top row's points a pixel above the picture", grid(-1, 719), 1, 0, 0, false},
	} {
		if got := lineInPicture(tc.cal, tc.axis, tc.line, tc.out); got != tc.want {
			t.Errorf("%s: lineInPicture = %v, want %v", tc.name, got, tc.want)
		}
	}
}
