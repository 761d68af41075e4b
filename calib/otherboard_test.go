package calib

import "testing"

// TestOtherBoard: the noise-floor pass's sure grid replaces an unsure one only where the two are
// different answers (another size, or a corner more than two spacings from every corner of the
// other), not one board's grid placed a fraction of a spacing or a line apart; the outline's grid
// replaces it where the two lie more than outlineApart (0.75 spacing) apart, a line off or more.
func TestOtherBoard(t *testing.T) {
	grid := func(size int, q [4]Point2) Calibration {
		c, err := FromCorners(1024, 768, size, q)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// A 19x19 board at 30 pixels a spacing, seen from above.
	board := [4]Point2{{X: 200, Y: 100}, {X: 740, Y: 100}, {X: 740, Y: 640}, {X: 200, Y: 640}}
	moved := func(dx, dy float64, corners ...int) [4]Point2 {
		q := board
		for _, i := range corners {
			q[i].X += dx
			q[i].Y += dy
		}
		return q
	}
	for _, tc := range []struct {
		name        string
		b           Calibration
		want        bool // otherBoard
		wantOutline bool // apart by outlineApart
	}{
		{"the same grid", grid(19, board), false, false},
		{"half a spacing off", grid(19, moved(15, 0, 0, 1, 2, 3)), false, false},
		{"a line off at one corner", grid(19, moved(30, 30, 2)), false, true},
		{"a line off along one side", grid(19, moved(-30, 0, 0, 3)), false, true},
		{"squeezed onto the bottom seven rows", grid(19, [4]Point2{{X: 200, Y: 460}, {X: 740, Y: 460}, {X: 740, Y: 640}, {X: 200, Y: 640}}), true, true},
		{"three lines off", grid(19, moved(90, 0, 0, 1, 2, 3)), true, true},
		{"another size through the same corners", grid(13, board), true, true},
		{"the same corners listed from another one", grid(19, [4]Point2{board[1], board[2], board[3], board[0]}), false, false},
	} {
		if got := otherBoard(grid(19, board), tc.b); got != tc.want {
			t.Errorf("%s: otherBoard = %v, want %v", tc.name, got, tc.want)
		}
		if got := apart(grid(19, board), tc.b, outlineApart); got != tc.wantOutline {
			t.Errorf("%s: apart by %.2f spacing = %v, want %v", tc.name, outlineApart, got, tc.wantOutline)
		}
	}
}
