// Package benchcpu measures the test process's CPU time for benchmarks. On a shared, loaded
// machine wall time (ns/op) mostly measures waiting for a core; CPU time does not, so
// benchmarks report it alongside as cpu-ms/op or cpu-ms/s.
package benchcpu

import (
	"runtime"
	"testing"
	"time"
)

// Now is the process's user+system CPU time so far, or 0 when the platform cannot tell.
func Now() time.Duration {
	d, err := Process()
	if err != nil {
		return 0
	}
	return d
}

// ReportPerOp reports the CPU time used since start (a value of Now taken before the loop)
// divided by b.N, as the cpu-ms/op metric.
func ReportPerOp(b *testing.B, start time.Duration) {
	b.Helper()
	b.ReportMetric(float64(Now()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// Idle sleeps wall for each iteration and reports the process's CPU time per wall second as
// cpu-ms/s: what whatever else runs in the process (a clock waiting for its flag, buttons
// waiting for an edge) costs while nothing happens. It fails the benchmark when the CPU
// time cannot be read.
func Idle(b *testing.B, wall time.Duration) {
	b.Helper()
	cpu := func() time.Duration {
		d, err := Process()
		if err != nil {
			b.Fatal(err)
		}
		return d
	}
	runtime.GC()                      // no garbage from earlier benchmarks
	time.Sleep(50 * time.Millisecond) // let the waiters settle
	b.ResetTimer()
	c0, w0 := cpu(), time.Now()
	for i := 0; i < b.N; i++ {
		time.Sleep(wall)
	}
	used, elapsed := cpu()-c0, time.Since(w0)
	b.ReportMetric(float64(used)/float64(time.Millisecond)/elapsed.Seconds(), "cpu-ms/s")
}
