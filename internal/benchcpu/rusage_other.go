//go:build !unix

package benchcpu

import (
	"errors"
	"time"
)

// Process is the process's user+system CPU time so far; this platform cannot tell.
func Process() (time.Duration, error) {
	return 0, errors.New("benchcpu: process CPU time not available on this platform")
}
