package mtrim

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"tengen/internal/testenv"
)

// anonRSS is the process's resident anonymous memory, in KiB (RssAnon in /proc/self/status). It
// covers every malloc arena: a cgo call may run on any OS thread, and a thread other than the
// first gets an arena of its own, mapped outside the [heap] region.
func anonRSS(t *testing.T) int {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		testenv.Missing(t, "no /proc/self/status to measure memory with: %v", err)
	}
	for _, l := range strings.Split(string(raw), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == "RssAnon:" {
			kb, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatalf("RssAnon line %q: %v", l, err)
			}
			return kb
		}
	}
	testenv.Missing(t, "/proc/self/status has no RssAnon line")
	return 0
}

// TestTrimReturnsFreedHeap frees 16 MB of small blocks below one that stays (so the heap cannot
// shrink from the top, as in the kiosk) and checks Trim gives most of it back.
func TestTrimReturnsFreedHeap(t *testing.T) {
	fragment(4096, 4096)
	before := anonRSS(t)
	if !Trim() {
		t.Fatal("Trim returned nothing after 16 MB were freed")
	}
	after := anonRSS(t)
	t.Logf("anonymous resident: %d KiB before Trim, %d KiB after", before, after)
	if before-after < 8*1024 {
		t.Errorf("Trim gave back %d KiB of 16 MB freed", before-after)
	}
}

// TestMmapAboveReturnsLargeBlocksAtOnce: after MmapAbove(64 KiB), freeing 100 blocks of 100 KiB
// below a live one gives their memory back without a Trim.
func TestMmapAboveReturnsLargeBlocksAtOnce(t *testing.T) {
	if !MmapAbove(64 << 10) {
		t.Fatal("glibc refused the threshold")
	}
	before := anonRSS(t)
	fragment(100, 100<<10)
	if grown := anonRSS(t) - before; grown > 1024 {
		t.Errorf("resident memory grew by %d KiB for blocks that should have been mapped on their own", grown)
	}
}
