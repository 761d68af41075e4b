package gomem

import "testing"

func TestLimit(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name string
		s    Sample
		want int64
	}{
		{"use plus headroom", Sample{Total: 30 * mib, Released: 10 * mib, Free: 5 * mib}, 17 * mib},
		{"nothing free", Sample{Total: 20 * mib}, 22 * mib},
		{"at the floor", Sample{Total: 4 * mib, Free: 1 * mib}, 12 * mib},
		{"at the ceiling", Sample{Total: 90 * mib}, 48 * mib},
		{"inconsistent figures", Sample{Total: 1 * mib, Released: 2 * mib, Free: 3 * mib}, 12 * mib},
		{"a small heap's goal", Sample{Total: 20 * mib, HeapGoal: 8 * mib}, 22 * mib},
		{"a large heap's goal", Sample{Total: 30 * mib, HeapGoal: 25 * mib}, 35 * mib},
	}
	for _, tc := range tests {
		if got := Limit(tc.s, 2*mib, 12*mib, 48*mib); got != tc.want {
			t.Errorf("%s: Limit = %d MiB, want %d MiB", tc.name, got/mib, tc.want/mib)
		}
	}
}

// Read reports this test process's runtime: something mapped, and figures that add up.
func TestRead(t *testing.T) {
	keep := make([]byte, 4<<20)
	s := Read()
	if s.Total < uint64(len(keep)) {
		t.Errorf("Total %d under the %d bytes this test holds", s.Total, len(keep))
	}
	if s.Released+s.Free > s.Total {
		t.Errorf("released %d and free %d exceed the total %d", s.Released, s.Free, s.Total)
	}
	if s.InUse() < uint64(len(keep)) {
		t.Errorf("InUse %d under the %d bytes this test holds", s.InUse(), len(keep))
	}
	keep[0] = 1
}
