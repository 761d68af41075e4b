package dashboard

import (
	"fmt"
	"html/template"
	"strings"

	"tengen/internal/hoshi"
)

// columns are the board's column letters (no I, as Go boards write them).
const columns = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// boardSVG draws a position (Size*Size of '.', 'X', 'O', top row first) as inline SVG; coords adds
// the letters and numbers around it; last ("D4") marks the last move.
func boardSVG(size int, position, last string, coords bool) template.HTML {
	if size < 2 || size > 25 || len(position) != size*size {
		return template.HTML(`<svg class="board" viewBox="0 0 100 100" role="img" aria-label="no board yet"><rect width="100" height="100" fill="#dcb35c"/></svg>`)
	}
	const cell = 20
	margin := cell
	if coords {
		margin = 2 * cell
	}
	span := (size-1)*cell + 2*margin
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="board" viewBox="0 0 %d %d" role="img" aria-label="%dx%d board">`, span, span, size, size)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#dcb35c"/>`, span, span)
	end := margin + (size-1)*cell
	for i := 0; i < size; i++ {
		p := margin + i*cell
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000" stroke-width="1"/>`, margin, p, end, p)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#000" stroke-width="1"/>`, p, margin, p, end)
		if coords {
			fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" text-anchor="middle">%c</text>`, p, margin-cell+4, columns[i])
			fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" text-anchor="middle">%c</text>`, p, end+cell+4, columns[i])
			fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" text-anchor="middle">%d</text>`, margin-cell, p+4, size-i)
			fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="11" text-anchor="middle">%d</text>`, end+cell, p+4, size-i)
		}
	}
	for _, h := range hoshi.Points(size) {
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="2.5"/>`, margin+h[0]*cell, margin+h[1]*cell)
	}
	lx, ly := parseVertex(last, size)
	for i := 0; i < len(position); i++ {
		x, y := i%size, i/size
		var fill, stroke string
		switch position[i] {
		case 'X':
			fill, stroke = "#111", "#000"
		case 'O':
			fill, stroke = "#f4f4f4", "#333"
		default:
			continue
		}
		cx, cy := margin+x*cell, margin+y*cell
		fmt.Fprintf(&b, `<circle class="stone %c" cx="%d" cy="%d" r="9.4" fill="%s" stroke="%s"/>`, position[i], cx, cy, fill, stroke)
		if x == lx && y == ly {
			mark := "#fff"
			if position[i] == 'O' {
				mark = "#000"
			}
			fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="4.5" fill="none" stroke="%s" stroke-width="2"/>`, cx, cy, mark)
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// parseVertex reads a GTP vertex ("D4", or "B D4") into board coordinates (x from the left, y
// from the top); -1, -1 for a pass or anything else.
func parseVertex(v string, size int) (x, y int) {
	if i := strings.LastIndexByte(v, ' '); i >= 0 {
		v = v[i+1:]
	}
	if len(v) < 2 {
		return -1, -1
	}
	col := strings.IndexByte(columns[:size], strings.ToUpper(v[:1])[0])
	n := 0
	for _, c := range v[1:] {
		if c < '0' || c > '9' || n > size {
			return -1, -1
		}
		n = n*10 + int(c-'0')
	}
	if col < 0 || n < 1 || n > size {
		return -1, -1
	}
	return col, size - n
}
