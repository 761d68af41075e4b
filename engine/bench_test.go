package engine

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the process's user+system CPU time. Benchmarks report moves per CPU-second beside
// moves per wall-second, because on a shared, loaded machine the wall clock also counts time the
// process spent waiting for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// randomGame plays a random game: each side plays a random legal move that does not fill its own
// single-point eye, else passes; two passes or maxMoves end it. It returns the moves played.
func randomGame(tb testing.TB, size int, r Rules, rng *rand.Rand, maxMoves int) []Move {
	tb.Helper()
	g, err := NewGame(size, r)
	if err != nil {
		tb.Fatal(err)
	}
	var moves []Move
	cand := make([]Point, 0, size*size)
	for len(moves) < maxMoves && g.Phase() == Playing {
		c := g.ToMove()
		cand = cand[:0]
		for y := 0; y < size; y++ {
			for x := 0; x < size; x++ {
				p := Point{x, y}
				if g.At(p) == Empty && !g.IsOwnEye(c, p) {
					cand = append(cand, p)
				}
			}
		}
		m := Move{Color: c, Pass: true}
		for len(cand) > 0 {
			k := rng.IntN(len(cand))
			try := Move{Color: c, Point: cand[k]}
			if g.Check(try) == nil {
				m = try
				break
			}
			cand[k] = cand[len(cand)-1]
			cand = cand[:len(cand)-1]
		}
		if _, err := g.Play(m); err != nil {
			tb.Fatalf("random game: %v", err)
		}
		moves = append(moves, m)
	}
	return moves
}

// BenchmarkPlay19 measures Play with full legality checking (situational superko, suicide, occupied,
// turn) replaying random 19x19 games, one game after another (Reset between games); one op is one
// move. The moves/s metric is the figure to quote.
func BenchmarkPlay19(b *testing.B) {
	r, _ := Preset("aga")
	rng := rand.New(rand.NewPCG(1, 2))
	var games [][]Move
	total := 0
	for len(games) < 20 {
		m := randomGame(b, 19, r, rng, 600)
		games = append(games, m)
		total += len(m)
	}
	b.ReportAllocs()
	g, _ := NewGame(19, r)
	b.ResetTimer()
	cpu0 := cpuTime()
	gi, mi := 0, 0
	for i := 0; i < b.N; i++ {
		if mi == len(games[gi]) {
			gi = (gi + 1) % len(games)
			mi = 0
			g.Reset()
		}
		if _, err := g.Play(games[gi][mi]); err != nil {
			b.Fatal(err)
		}
		mi++
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
	if cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "moves/cpu-s")
	}
	b.ReportMetric(float64(total)/float64(len(games)), "moves/game")
}

// BenchmarkRandomGame19 measures whole random 19x19 games under AGA rules including the move choice
// (Check on random candidates until one is legal); one op is one game.
func BenchmarkRandomGame19(b *testing.B) {
	r, _ := Preset("aga")
	rng := rand.New(rand.NewPCG(3, 4))
	b.ReportAllocs()
	moves := 0
	for i := 0; i < b.N; i++ {
		moves += len(randomGame(b, 19, r, rng, 600))
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkNewGame19 measures starting a fresh 19x19 game (allocation included).
func BenchmarkNewGame19(b *testing.B) {
	r, _ := Preset("aga")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := NewGame(19, r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck19 measures Check alone on every empty point of mid-game 19x19 positions.
func BenchmarkCheck19(b *testing.B) {
	r, _ := Preset("aga")
	rng := rand.New(rand.NewPCG(5, 6))
	moves := randomGame(b, 19, r, rng, 600)
	g, _ := NewGame(19, r)
	for _, m := range moves[:len(moves)/2] {
		g.Play(m)
	}
	var pts []Point
	for y := 0; y < 19; y++ {
		for x := 0; x < 19; x++ {
			if g.At(Point{x, y}) == Empty {
				pts = append(pts, Point{x, y})
			}
		}
	}
	c := g.ToMove()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = g.Check(Move{Color: c, Point: pts[i%len(pts)]})
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "checks/s")
}

// BenchmarkScore19 measures counting a finished random 19x19 game under Japanese rules (seki analysis).
func BenchmarkScore19(b *testing.B) {
	r, _ := Preset("japanese")
	rng := rand.New(rand.NewPCG(7, 8))
	moves := randomGame(b, 19, r, rng, 600)
	g, _ := NewGame(19, r)
	for _, m := range moves {
		g.Play(m)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := g.Score(nil); err != nil {
			b.Fatal(err)
		}
	}
}
