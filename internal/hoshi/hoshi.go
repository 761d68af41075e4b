// Package hoshi gives the star points (hoshi) of a square Go board, so every picture of a board
// (the kiosk's board view, the synthetic camera frames of package demo) marks the same points.
package hoshi

// Points returns the star points of a size x size board as {x, y} pairs, 0-based: on the 3rd line
// (4th from 12x12 up) at the corners, plus the edge midpoints on odd boards from 15x15, plus the
// centre on odd boards. Boards smaller than 7x7 have none.
func Points(size int) [][2]int {
	if size < 7 {
		return nil
	}
	e := 2
	if size >= 12 {
		e = 3
	}
	at := []int{e, size - 1 - e}
	if size >= 15 && size%2 == 1 {
		at = []int{e, (size - 1) / 2, size - 1 - e}
	}
	var out [][2]int
	for _, a := range at {
		for _, b := range at {
			out = append(out, [2]int{a, b})
		}
	}
	if size < 15 && size%2 == 1 {
		out = append(out, [2]int{(size - 1) / 2, (size - 1) / 2})
	}
	return out
}
