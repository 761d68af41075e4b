package infer

import (
	"math/rand/v2"
	"testing"

	"tengen/engine"
	"tengen/vision/observe"
)

// midGame plays n random legal moves (no eye filling) on a 19x19 board from a fixed seed, and
// returns the game and a move of the player to move that is legal.
func midGame(b *testing.B, n int) (*engine.Game, engine.Move) {
	r, err := engine.Preset("aga")
	if err != nil {
		b.Fatal(err)
	}
	g, err := engine.NewGame(19, r)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(19, 19))
	var next engine.Move
	for played := 0; played <= n; {
		p := engine.Point{X: rng.IntN(19), Y: rng.IntN(19)}
		c := g.ToMove()
		if g.IsOwnEye(c, p) || !g.IsLegal(c, p) {
			continue
		}
		m := engine.Move{Color: c, Point: p}
		if played == n {
			next = m
			break
		}
		if _, err := g.Play(m); err != nil {
			b.Fatal(err)
		}
		played++
	}
	return g, next
}

// readingOf is the board after m read with probabilities (0.98 for what is there, the rest
// shared), with a few unsure points as a real reading has.
func readingOf(b *testing.B, g *engine.Game, m engine.Move) observe.Observation {
	played, err := g.Play(m)
	if err != nil {
		b.Fatal(err)
	}
	board := g.Board()
	if err := g.Undo(); err != nil {
		b.Fatal(err)
	}
	_ = played
	o := observe.New(19)
	o.Probs = make([]observe.Probs, len(board))
	for i, c := range board {
		o.Stones[i] = observe.Stone(c)
		o.Probs[i] = observe.Probs{0.02 / 3, 0.02 / 3, 0.02 / 3, 0.02 / 3}
		o.Probs[i][c] = 0.98
	}
	for _, i := range []int{5, 77, 200, 301} { // unsure points
		o.Probs[i] = observe.Probs{0.5, 0.25, 0.2, 0.05}
	}
	return o
}

// BenchmarkRank19 ranks the explanations of a press on a 19x19 board in mid-game (150 stones
// played, about 200 empty points: each a move, a wrong-colour stone and the captures checked).
func BenchmarkRank19(b *testing.B) {
	g, m := midGame(b, 150)
	o := readingOf(b, g, m)
	r, err := Rank(g, m.Color, o)
	if err != nil {
		b.Fatal(err)
	}
	if !r.Clear() || r.Best.Move != m {
		b.Fatalf("best %v %v (margin %.2f, misfits %v), want %v", r.Best.Kind, r.Best.Move, r.Margin, r.Misfits, m)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := Rank(g, m.Color, o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRankSequence19 ranks two presses seen together (the catch-up) on the same board.
func BenchmarkRankSequence19(b *testing.B) {
	g, m := midGame(b, 150)
	o := readingOf(b, g, m)
	steps := []engine.Move{{Color: m.Color}, {Color: m.Color.Opponent(), Pass: true}}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := RankSequence(g, steps, o); err != nil {
			b.Fatal(err)
		}
	}
}
