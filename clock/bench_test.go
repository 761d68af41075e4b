package clock

import (
	"context"
	"testing"
	"time"

	"tengen/internal/benchcpu"
)

// BenchmarkDebouncePressPath is the pure debounce path of one press: a press
// with six bounces, a release with four, and the deadline that reports it.
func BenchmarkDebouncePressPath(b *testing.B) {
	d, _ := NewDebouncer(BlackClock, DebounceConfig{Settle: 20 * time.Millisecond})
	gaps := []time.Duration{1, 3, 2, 10, 4, 7}
	out := make([]Press, 0, 4)
	at := t0
	presses := 0
	b.ReportAllocs()
	for b.Loop() {
		out = out[:0]
		l := true
		for _, g := range gaps {
			out = d.Edge(l, at, out)
			l = !l
			at = at.Add(g * time.Millisecond)
		}
		out = d.Edge(true, at, out)
		dl, _ := d.NextDeadline()
		out = d.Advance(dl, out)
		at = dl.Add(100 * time.Millisecond)
		for i := 0; i < 4; i++ {
			out = d.Edge(i%2 == 1, at, out)
			at = at.Add(2 * time.Millisecond)
		}
		out = d.Edge(false, at, out)
		at = at.Add(time.Second)
		out = d.Advance(at, out)
		presses += len(out)
	}
	if presses != b.N {
		b.Fatalf("%d presses for %d iterations", presses, b.N)
	}
}

// BenchmarkHandlePress is a clock press end to end: decide and switch.
func BenchmarkHandlePress(b *testing.B) {
	mt := NewManualTime(t0)
	c, _ := New(MustParseControl("60m+5x30s"), mt)
	_ = c.Start(time.Time{})
	side := Black
	b.ReportAllocs()
	for b.Loop() {
		mt.Advance(time.Millisecond)
		if d, err := c.Handle(NewPress(ClockButton(side), mt.Now())); err != nil || d.Action != Move {
			b.Fatal(d, err)
		}
		side = side.Opponent()
	}
}

// BenchmarkDisplay is one clock face, as a UI refreshes it.
func BenchmarkDisplay(b *testing.B) {
	mt := NewManualTime(t0)
	c, _ := New(MustParseControl("60m+5x30s"), mt)
	_ = c.Start(time.Time{})
	b.ReportAllocs()
	for b.Loop() {
		mt.Advance(time.Millisecond)
		_ = c.Display(Black)
	}
}

// BenchmarkIdleCPU measures the process CPU time while a real clock runs with
// its flag an hour away and a goroutine waits for it in Wait: the clock must
// sleep, not spin. Each iteration is 250 ms of wall time; the figure is
// cpu-ms/s (CPU milliseconds per wall second).
func BenchmarkIdleCPU(b *testing.B) {
	c, _ := New(MustParseControl("60m+5x30s"), SystemTime{})
	_ = c.Start(time.Time{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = c.Wait(ctx)
	}()
	benchcpu.Idle(b, 250*time.Millisecond)
	cancel()
	<-done
}

func parseBench(b *testing.B, s string) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseControl(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseControl parses a Fischer control with a cap.
func BenchmarkParseControl(b *testing.B) { parseBench(b, "30m+20s<=40m") }

// BenchmarkIdleCPUBaseline is the same measurement with no clock at all: the
// noise floor of the test process for BenchmarkIdleCPU.
func BenchmarkIdleCPUBaseline(b *testing.B) { benchcpu.Idle(b, 250*time.Millisecond) }
