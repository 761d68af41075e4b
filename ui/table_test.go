package ui

import (
	"fmt"
	"image"
	"testing"

	"tengen/engine"
)

func TestTableScreenDrawsBoardAndClocks(t *testing.T) {
	newTestApp(t)
	for _, sz := range displays {
		t.Run(fmt.Sprintf("%vx%v", sz.Width, sz.Height), func(t *testing.T) {
			ts := NewTableScreen(nil, nil)
			v := sampleTable(t)
			ts.SetView(v)
			img := capture(t, fmt.Sprintf("table-%vx%v", sz.Width, sz.Height), ts.Content(), sz)
			// The board: mostly wood on the left.
			bp, bs := ts.Board.Position(), ts.Board.Size()
			r := image.Rectangle{Min: scale(img, sz, bp), Max: scale(img, sz, bp.Add(bs))}
			if wood := countNear(img, r, colWood, 12); wood < r.Dx()*r.Dy()/2 {
				t.Errorf("board area has %d wood pixels of %d", wood, r.Dx()*r.Dy())
			}
			// White is to move: its face is lit, Black's is not.
			wp, ws := ts.White.Position(), ts.White.Size()
			wr := image.Rectangle{Min: scale(img, sz, wp), Max: scale(img, sz, wp.Add(ws))}
			if lit := countNear(img, wr, colToMove, 10); lit < wr.Dx()*wr.Dy()/3 {
				t.Errorf("white (to move) face has %d lit pixels of %d", lit, wr.Dx()*wr.Dy())
			}
			bpos, bsz := ts.Black.Position(), ts.Black.Size()
			br := image.Rectangle{Min: scale(img, sz, bpos), Max: scale(img, sz, bpos.Add(bsz))}
			if lit := countNear(img, br, colToMove, 10); lit > 0 {
				t.Errorf("black (not to move) face has %d lit pixels", lit)
			}
			// The clock digits are large: the time text is at least 1/12 of the display's height.
			if ts.Black.Size().Height < sz.Height/4 {
				t.Errorf("black clock only %v high on a %v display", ts.Black.Size().Height, sz)
			}
			// Stones: the black stone on E6 is dark.
			g := boardGeometry(ts.Board.Size(), 9)
			p, _ := engine.ParsePoint("E6", 9)
			at := scale(img, sz, bp.AddXY(g.x0+float32(p.X)*g.step+g.step*0.25, g.y0+float32(p.Y)*g.step+g.step*0.25))
			if !near(img.At(at.X, at.Y), colBlack, 30) {
				t.Errorf("E6 pixel %v is not a black stone", img.At(at.X, at.Y))
			}
		})
	}
}
