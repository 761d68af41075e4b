package rendertest

import (
	"math"
	"slices"
	"testing"

	"tengen/calib"
	"tengen/demo"
)

// TestSpacingsOff checks the judge on a 19x19 grid of spacing 10: a corner moved by half a
// spacing, a quarter turn (matched only with anyTurn) and a mirror image.
func TestSpacingsOff(t *testing.T) {
	drawn := [4][2]float64{{0, 0}, {180, 0}, {180, 180}, {0, 180}}
	same := [4]calib.Point2{{X: 0, Y: 0}, {X: 180, Y: 0}, {X: 180, Y: 180}, {X: 0, Y: 180}}
	moved := [4]calib.Point2{{X: 5, Y: 0}, {X: 180, Y: 0}, {X: 180, Y: 180}, {X: 0, Y: 180}}
	turned := [4]calib.Point2{{X: 180, Y: 0}, {X: 180, Y: 180}, {X: 0, Y: 180}, {X: 0, Y: 0}}
	mirrored := [4]calib.Point2{{X: 0, Y: 0}, {X: 0, Y: 180}, {X: 180, Y: 180}, {X: 180, Y: 0}}
	for _, c := range []struct {
		name    string
		found   [4]calib.Point2
		anyTurn bool
		want    float64
	}{
		{"same", same, false, 0},
		{"a corner half a spacing off", moved, false, 0.5},
		{"turned, as given", turned, false, 18},
		{"turned, any turn", turned, true, 0},
		{"mirrored, any turn", mirrored, true, 0},
	} {
		if got := SpacingsOff(calib.Calibration{Size: 19, Corners: c.found}, drawn, c.anyTurn); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: %.3f spacings off, want %.3f", c.name, got, c.want)
		}
	}
}

// TestFrame checks that the rendered photo arrives as a Mat of the asked size.
func TestFrame(t *testing.T) {
	s, m, err := Frame(1, demo.SampleOptions{Size: 9, W: 320, H: 240})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.Cols() != 320 || m.Rows() != 240 || m.Channels() != 3 || s.Size != 9 {
		t.Errorf("got a %dx%d Mat of %d channels for a %d board", m.Cols(), m.Rows(), m.Channels(), s.Size)
	}
	if _, _, err := Frame(1, demo.SampleOptions{Size: 1, W: 320, H: 240}); err == nil {
		t.Error("a 1x1 board rendered without an error")
	}
}

// TestDrawnGrid: the drawn grid's calibration has the sample's size, frame and corners, and is
// nothing off them.
func TestDrawnGrid(t *testing.T) {
	s, m, err := Frame(1, demo.SampleOptions{Size: 13, W: 320, H: 240})
	if err != nil {
		t.Fatal(err)
	}
	m.Close()
	c, err := DrawnGrid(s)
	if err != nil {
		t.Fatal(err)
	}
	if c.Size != 13 || c.ImageWidth != 320 || c.ImageHeight != 240 {
		t.Errorf("a %dx%d grid in a %dx%d frame, want 13x13 in 320x240", c.Size, c.Size, c.ImageWidth, c.ImageHeight)
	}
	if off := SpacingsOff(c, s.Corners, false); off > 1e-9 {
		t.Errorf("the drawn grid is %.3g spacings off the drawn corners", off)
	}
	s.Corners[1] = s.Corners[0]
	if _, err := DrawnGrid(s); err == nil {
		t.Error("a grid with two corners on one point was made without an error")
	}
}

// TestPosition parses positions as render-boards writes them, and refuses what is not a point.
func TestPosition(t *testing.T) {
	tests := []struct {
		text string
		want []demo.Stone
		ok   bool
	}{
		{".X\nO.\n", []demo.Stone{demo.Empty, demo.Black, demo.White, demo.Empty}, true},
		{"", nil, true},
		{".?\n..", nil, false},
		{".Z", nil, false},
	}
	for _, tc := range tests {
		got, err := Position(tc.text)
		if (err == nil) != tc.ok {
			t.Errorf("Position(%q): error %v, want ok %v", tc.text, err, tc.ok)
			continue
		}
		if tc.ok && !slices.Equal(got, tc.want) {
			t.Errorf("Position(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// FuzzPosition: any text gives either a position of empty points and stones, one per point
// character, or an error; never a panic.
func FuzzPosition(f *testing.F) {
	f.Add(".X\nO.\n")
	f.Add("x?b\n")
	f.Fuzz(func(t *testing.T, text string) {
		got, err := Position(text)
		if err != nil {
			return
		}
		for _, s := range got {
			if s != demo.Empty && s != demo.Black && s != demo.White {
				t.Fatalf("Position(%q) gave %v", text, s)
			}
		}
	})
}
