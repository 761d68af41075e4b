//go:build unix

package benchcpu

import (
	"fmt"
	"syscall"
	"time"
)

// Process is the process's user+system CPU time so far, from getrusage.
func Process() (time.Duration, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("benchcpu: getrusage: %w", err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}
