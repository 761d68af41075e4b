package mtrim

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"tengen/internal/testenv"
)

// heapRSS is the resident size of the process's brk heap, in KiB.
func heapRSS(t *testing.T) int {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		testenv.Missing(t, "no /proc/self/smaps to measure the heap with: %v", err)
	}
	inHeap, kb := false, 0
	for _, l := range strings.Split(string(raw), "\n") {
		f := strings.Fields(l)
		if len(f) >= 5 && strings.Contains(f[0], "-") {
			inHeap = len(f) == 6 && f[5] == "[heap]"
			continue
		}
		if inHeap && len(f) >= 2 && f[0] == "Rss:" {
			n, _ := strconv.Atoi(f[1])
			kb += n
		}
	}
	return kb
}

// TestTrimReturnsFreedHeap frees 16 MB of small blocks below one that stays (so the heap cannot
// shrink from the top, as in the kiosk) and checks Trim gives most of it back.
func TestTrimReturnsFreedHeap(t *testing.T) {
	fragment(4096, 4096)
	before := heapRSS(t)
	if !Trim() {
		t.Fatal("Trim returned nothing after 16 MB were freed")
	}
	after := heapRSS(t)
	t.Logf("heap resident: %d KiB before Trim, %d KiB after", before, after)
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
	before := heapRSS(t)
	fragment(100, 100<<10)
	if grown := heapRSS(t) - before; grown > 1024 {
		t.Errorf("the heap grew by %d KiB for blocks that should have been mapped on their own", grown)
	}
}
