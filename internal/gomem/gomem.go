// Package gomem sets the Go runtime's soft memory limit from what the program is using, so that
// freed heap pages go back to the system soon instead of staying resident.
//
// The kiosk collects its heap at 10% growth, yet the heap's pages stayed resident after a burst of
// allocation (a ruling panel drawn in large type allocates about 15 MB in a second): the runtime
// returns free pages slowly unless a memory limit presses it. A fixed low limit does press it, but
// a limit under what the program needs makes the collector run without pause (a 16 MiB limit cost
// the demo game half its CPU again), and what a table needs grows with its game. So the limit
// follows the use: a little above it, re-read every few seconds.
package gomem

import (
	"math"
	"runtime/metrics"
)

// Sample is the runtime's account of its memory at one moment, in bytes.
type Sample struct {
	Total    uint64 // every byte the runtime has mapped
	Released uint64 // heap pages given back to the system (mapped, not resident)
	Free     uint64 // heap pages free and still resident: what a tighter limit gives back
	HeapGoal uint64 // the heap size at which the next collection is due
}

// InUse is the memory the runtime's objects, their spans' spare room, the stacks and its own
// structures take: what it would hold with every free page given back.
func (s Sample) InUse() uint64 {
	held := s.Total - min(s.Released, s.Total)
	return held - min(s.Free, held)
}

// names are the runtime/metrics the Sample is read from, in its field order.
var names = [...]string{"/memory/classes/total:bytes", "/memory/classes/heap/released:bytes",
	"/memory/classes/heap/free:bytes", "/gc/heap/goal:bytes"}

// Read returns the runtime's current Sample.
func Read() Sample {
	var ms [len(names)]metrics.Sample
	for i, n := range names {
		ms[i].Name = n
	}
	metrics.Read(ms[:])
	val := func(i int) uint64 {
		if ms[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return ms[i].Value.Uint64()
	}
	return Sample{Total: val(0), Released: val(1), Free: val(2), HeapGoal: val(3)}
}

// Limit returns the soft memory limit for a program whose runtime reports s: its use plus a
// headroom of a fifth of the heap goal and at least minHeadroom, between floor and ceiling. The
// headroom must cover the heap's growth between two collections (the goal's share of GOGC) and
// between two calls, or the collector runs without pause until the next call; a fifth of the goal
// covers it up to GOGC=20 as the heap grows.
func Limit(s Sample, minHeadroom, floor, ceiling uint64) int64 {
	l := s.InUse() + max(minHeadroom, s.HeapGoal/5)
	l = max(l, floor)
	l = min(l, ceiling, math.MaxInt64)
	return int64(l)
}
