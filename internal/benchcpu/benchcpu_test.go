package benchcpu

import (
	"testing"
	"time"
)

// TestProcessGrowsWithWork checks the CPU clock moves when the process burns CPU, so the
// benchmarks' cpu-ms metrics measure something.
func TestProcessGrowsWithWork(t *testing.T) {
	c0, err := Process()
	if err != nil {
		t.Fatal(err)
	}
	x := 0
	for deadline := time.Now().Add(50 * time.Millisecond); time.Now().Before(deadline); {
		for i := 0; i < 1000; i++ {
			x += i * i
		}
	}
	c1, err := Process()
	if err != nil {
		t.Fatal(err)
	}
	if c1 <= c0 {
		t.Fatalf("CPU time did not grow after 50 ms of work: %v -> %v (x=%d)", c0, c1, x)
	}
	if Now() < c1 {
		t.Fatalf("Now %v is behind Process %v", Now(), c1)
	}
}
