// Package mtrim keeps the C heap of a long-running process close to what it holds.
//
// The kiosk's C allocations come from Mesa (a texture for every distinct text Fyne draws, freed a
// minute after it is last shown) and OpenCV (frames). glibc keeps freed memory inside its heap
// for reuse, so a game's worth of banners and move numbers leaves the heap megabytes larger than
// what it holds: large blocks are better mapped on their own (MmapAbove), and the free pages of
// the rest returned now and then (Trim).
package mtrim

// #include <malloc.h>
// #include <stdlib.h>
//
// // fragment mallocs n blocks of size bytes and frees all but the last, which pins the heap's top
// // above the freed ones (the kiosk's situation): test support for Trim.
// static void fragment(int n, int size) {
//   void **p = malloc(n * sizeof(void *));
//   if (p == NULL) return;
//   for (int i = 0; i < n; i++) p[i] = malloc(size);
//   for (int i = 0; i < n - 1; i++) free(p[i]);
//   free(p);
// }
import "C"

// Trim returns the free pages of every malloc arena to the system and reports whether any were
// returned. It takes glibc's arena locks for a few milliseconds: call it now and then (the kiosk
// does every 20 s), not per frame.
func Trim() bool {
	return C.malloc_trim(0) == 1
}

// MmapAbove makes every allocation of at least bytes a memory mapping of its own, returned to the
// system when it is freed, and reports whether glibc accepted it. By default glibc raises this
// threshold each time such a block is freed, so texture-sized blocks soon come from the heap and
// leave holes in it. Call it once at start-up.
func MmapAbove(bytes int) bool {
	return C.mallopt(C.M_MMAP_THRESHOLD, C.int(bytes)) == 1
}

// fragment leaves n*size bytes free inside the C heap under one live block (see the C function).
func fragment(n, size int) { C.fragment(C.int(n), C.int(size)) }
