package replay

import (
	"path/filepath"
	"strings"

	"tengen/engine"
	"tengen/vision/observe"
)

// LabelMoves derives the moves a sequence of frames shows from their ground-truth grids (X.txt beside
// each frame X, read with ReadLabel): one stone added between two frames is a move ("B D4"), an
// unchanged grid is none. It stops at the first step that adds several stones, which the referee
// refuses as "board differs" too, and returns the moves up to there. Tests compare recorded games
// with it.
func LabelMoves(dir string, frames []string) ([]string, error) {
	var out []string
	var prev observe.Observation
	for i, f := range frames {
		o, err := ReadLabel(filepath.Join(dir, strings.TrimSuffix(f, filepath.Ext(f))+".txt"))
		if err != nil {
			return out, err
		}
		if i > 0 {
			var added []int
			for k := range o.Stones {
				if prev.Stones[k] == observe.Empty && o.Stones[k] != observe.Empty {
					added = append(added, k)
				}
			}
			if len(added) > 1 {
				return out, nil
			}
			if len(added) == 1 {
				k := added[0]
				c := "B"
				if o.Stones[k] == observe.White {
					c = "W"
				}
				out = append(out, c+" "+engine.Point{X: k % o.Size, Y: k / o.Size}.GTP(o.Size))
			}
		}
		prev = o
	}
	return out, nil
}
