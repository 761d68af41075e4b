package gpio

import (
	"context"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"tengen/clock"
	"tengen/internal/benchcpu"
)

// BenchmarkPressToEvent measures, in real time, from the moment a gpiotest
// pin delivers a press edge to the moment the clock.Press comes out of
// Events(): reader goroutine, debouncer, loop and channel. With the default
// 20 ms settle the latency is the settle time plus overhead-µs; with no
// debounce it is the bare path.
func BenchmarkPressToEvent(b *testing.B) {
	for _, bc := range []struct {
		name   string
		settle time.Duration
	}{{"settle=20ms", 20 * time.Millisecond}, {"settle=none", -1}} {
		b.Run(bc.name, func(b *testing.B) {
			pins := []*gpiotest.Pin{testPin("B", 1), testPin("W", 2), testPin("P", 3)}
			bt, err := New(Pins{Black: pins[0], White: pins[1], Pass: pins[2]}, Config{Settle: bc.settle}, clock.SystemTime{}, quiet())
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() { _ = bt.Run(ctx) }()
			settle := max(bc.settle, 0)
			var total, worst time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				pins[0].EdgesChan <- gpio.Low // pressed
				p := <-bt.Events()
				lat := time.Since(start)
				total += lat
				worst = max(worst, lat)
				if p.Button != clock.BlackClock {
					b.Fatal(p)
				}
				pins[0].EdgesChan <- gpio.High // released
				time.Sleep(settle + time.Millisecond)
			}
			b.StopTimer()
			mean := total / time.Duration(b.N)
			b.ReportMetric(float64(mean)/float64(time.Microsecond), "latency-µs")
			b.ReportMetric(float64(worst)/float64(time.Microsecond), "worst-µs")
			b.ReportMetric(float64(mean-settle)/float64(time.Microsecond), "overhead-µs")
		})
	}
}

// BenchmarkIdleCPU measures the process CPU time while Run waits on four idle
// buttons (gpiotest pins, the default 250 ms wait bound), in cpu-ms/s.
func BenchmarkIdleCPU(b *testing.B) {
	bt, err := New(Pins{Black: testPin("B", 1), White: testPin("W", 2), Pass: testPin("P", 3), Director: testPin("D", 4)}, Config{}, clock.SystemTime{}, quiet())
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = bt.Run(ctx)
	}()
	benchcpu.Idle(b, 250*time.Millisecond)
	cancel()
	<-done
}
