package sgf

import "tengen/engine"

// FromGame is the record of a game as the rules engine holds it: size, komi, the handicap stones
// (or, for a game set up from a position with no move yet, every stone of it), each move, and the
// result. Callers add what the engine does not know (players, event, clocks, comments); the
// moves' order matches g.Moves(), so per-move notes can be added by index.
func FromGame(g *engine.Game) *Record {
	r := &Record{Size: g.Size(), Komi: g.Komi(), HasKomi: true, Handicap: len(g.Handicap()), Result: g.Result()}
	for _, p := range g.Handicap() {
		r.Setup = append(r.Setup, Stone{Color: engine.Black, Point: p})
	}
	if len(r.Setup) == 0 && g.MoveNumber() == 0 {
		n := g.Size()
		for i, c := range g.Board() {
			if c != engine.Empty {
				r.Setup = append(r.Setup, Stone{Color: c, Point: engine.Point{X: i % n, Y: i / n}})
			}
		}
	}
	for _, m := range g.Moves() {
		r.Moves = append(r.Moves, Move{Color: m.Move.Color, Point: m.Move.Point, Pass: m.Move.Pass})
	}
	return r
}
