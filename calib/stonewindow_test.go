package calib

import "testing"

func TestDensestWindowHoldsTheCrowd(t *testing.T) {
	// block returns the grid numbers of every point of the cols x rows block from (u, v).
	block := func(u, v, cols, rows int) [][2]int {
		var out [][2]int
		for i := range cols {
			for j := range rows {
				out = append(out, [2]int{u + i, v + j})
			}
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		nums   [][2]int
		lo, hi [2]int
		s      int
		wlo    [2]int
		ok     bool
	}{
		{"a board's stones and a bowl's to its left", append(block(0, 0, 15, 15), block(-12, 2, 4, 4)...), [2]int{-12, 0}, [2]int{14, 14}, 19, [2]int{-4, 0}, true},
		{"a board's stones and a sheet's below", append(block(3, 3, 12, 12), block(5, 25, 6, 2)...), [2]int{3, 3}, [2]int{14, 26}, 19, [2]int{3, 3}, true},
		{"too few stones", block(0, 0, 3, 3), [2]int{0, 0}, [2]int{2, 2}, 19, [2]int{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wlo, whi, ok := densestWindow(tc.nums, tc.lo, tc.hi, tc.s)
			if ok != tc.ok {
				t.Fatalf("ok %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if wlo != tc.wlo || whi != [2]int{tc.wlo[0] + tc.s - 1, tc.wlo[1] + tc.s - 1} {
				t.Errorf("window %v..%v, want from %v", wlo, whi, tc.wlo)
			}
		})
	}
}
