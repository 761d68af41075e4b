//go:build unix

package clock

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// measureIdle sleeps wall for each iteration and reports the process's CPU
// time (user + system, from getrusage) per wall second as cpu-ms/s.
func measureIdle(b *testing.B, wall time.Duration) {
	b.Helper()
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			b.Fatal(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	runtime.GC()                      // no garbage from earlier benchmarks
	time.Sleep(50 * time.Millisecond) // let the waiter settle
	b.ResetTimer()
	c0, w0 := cpu(), time.Now()
	for i := 0; i < b.N; i++ {
		time.Sleep(wall)
	}
	used, elapsed := cpu()-c0, time.Since(w0)
	b.ReportMetric(float64(used)/float64(time.Millisecond)/elapsed.Seconds(), "cpu-ms/s")
}
