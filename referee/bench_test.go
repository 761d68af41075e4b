package referee

import (
	"log/slog"
	"testing"
	"time"

	"tengen/clock"
	"tengen/engine"
)

// benchGame is a table in play on 19x19 with real fsync, and the points still to play (spread so
// that no move captures).
type benchGame struct {
	h     *harness
	order []engine.Point
	next  int
}

func newBenchGame(b *testing.B) *benchGame {
	h := newHarness(b, 19, func(o *Options) {
		o.NoSync = false // the figure must include the fsyncs
		o.Logger = slog.New(slog.DiscardHandler)
	})
	start(h, func(s *Setup) { s.TimeControl = "90m" })
	g := &benchGame{h: h}
	// Every other point of every other line: no stone ever touches another, so nothing is captured.
	for y := 0; y < 19; y += 2 {
		for x := 0; x < 19; x += 2 {
			g.order = append(g.order, engine.Point{X: x, Y: y})
		}
	}
	return g
}

// place puts the next stone for the player to move on the fake board and lets it settle.
func (g *benchGame) place() (engine.Color, bool) {
	if g.next >= len(g.order) {
		return 0, false
	}
	p := g.order[g.next]
	g.next++
	c := g.h.tab.State().ToMove
	ch := byte('X')
	if c == engine.White {
		ch = 'O'
	}
	g.h.board[p.Y*19+p.X] = ch
	return c, true
}

func buttonOf(c engine.Color) clock.Button {
	if c == engine.White {
		return clock.WhiteClock
	}
	return clock.BlackClock
}

// placeOrRestart places the next stone, starting a fresh game when this one has no move left.
func (g *benchGame) placeOrRestart(b *testing.B) (*benchGame, engine.Color) {
	if c, ok := g.place(); ok {
		return g, c
	}
	g.h.tab.Close()
	g = newBenchGame(b)
	c, _ := g.place()
	return g, c
}

// BenchmarkPressToVerdict measures a clock press with the board already seen still: the press,
// the observation used and the verdict are journaled and fsynced, and the SGF rewritten
// atomically, before Press returns (what the kiosk does before it shows the verdict).
func BenchmarkPressToVerdict(b *testing.B) {
	g := newBenchGame(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		var c engine.Color
		g, c = g.placeOrRestart(b)
		g.h.look()
		at := g.h.now()
		b.StartTimer()
		if err := g.h.tab.Press(clock.Press{Button: buttonOf(c), At: at}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if k := g.h.tab.State().Banner.Kind; k != VerdictMove {
			b.Fatalf("verdict %v", k)
		}
		g.h.advance(100 * time.Millisecond)
		b.StartTimer()
	}
}

// BenchmarkObservationToVerdict measures the other order: the press came first (hands still over
// the board) and the frame that makes the board stable settles it.
func BenchmarkObservationToVerdict(b *testing.B) {
	g := newBenchGame(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		var c engine.Color
		g, c = g.placeOrRestart(b)
		g.h.tab.Observe(g.h.observation(g.h.board))
		if err := g.h.tab.Press(clock.Press{Button: buttonOf(c), At: g.h.now()}); err != nil {
			b.Fatal(err)
		}
		g.h.advance(600 * time.Millisecond)
		o := g.h.observation(g.h.board)
		b.StartTimer()
		g.h.tab.Observe(o)
		b.StopTimer()
		if k := g.h.tab.State().Banner.Kind; k != VerdictMove {
			b.Fatalf("verdict %v", k)
		}
		g.h.advance(100 * time.Millisecond)
		b.StartTimer()
	}
}
