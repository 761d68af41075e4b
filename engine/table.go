package engine

// posTable maps position keys to the move number after which that position first stood. It is an
// open-addressing table with linear probing and backward-shift deletion, so inserting on every move and
// deleting on every undo cost O(1) and allocate only when the table grows.
type posTable struct {
	keys []uint64
	vals []int32 // move number + 1; 0 marks an empty slot
	n    int
	mask uint64
}

func newPosTable(capacity int) posTable {
	sz := 64
	for sz < capacity*2 {
		sz <<= 1
	}
	return posTable{keys: make([]uint64, sz), vals: make([]int32, sz), mask: uint64(sz - 1)}
}

func (t *posTable) clone() posTable {
	return posTable{keys: append([]uint64(nil), t.keys...), vals: append([]int32(nil), t.vals...), n: t.n, mask: t.mask}
}

func (t *posTable) reset() {
	clear(t.keys)
	clear(t.vals)
	t.n = 0
}

// get returns the move number stored for k.
func (t *posTable) get(k uint64) (int, bool) {
	for i := k & t.mask; ; i = (i + 1) & t.mask {
		v := t.vals[i]
		if v == 0 {
			return 0, false
		}
		if t.keys[i] == k {
			return int(v - 1), true
		}
	}
}

// insert stores k -> move unless k is present; it returns the stored move number and whether k was new.
func (t *posTable) insert(k uint64, move int) (int, bool) {
	if (t.n+1)*2 > len(t.keys) {
		t.grow()
	}
	i := k & t.mask
	for ; t.vals[i] != 0; i = (i + 1) & t.mask {
		if t.keys[i] == k {
			return int(t.vals[i] - 1), false
		}
	}
	t.keys[i] = k
	t.vals[i] = int32(move + 1)
	t.n++
	return move, true
}

// remove deletes k, shifting later entries of its probe run back so lookups stay correct.
func (t *posTable) remove(k uint64) {
	i := k & t.mask
	for ; ; i = (i + 1) & t.mask {
		if t.vals[i] == 0 {
			return
		}
		if t.keys[i] == k {
			break
		}
	}
	j := i
	for {
		j = (j + 1) & t.mask
		if t.vals[j] == 0 {
			break
		}
		h := t.keys[j] & t.mask
		// keep entry j where it is if its home slot lies cyclically in (i, j]
		if (i <= j && i < h && h <= j) || (i > j && (i < h || h <= j)) {
			continue
		}
		t.keys[i], t.vals[i] = t.keys[j], t.vals[j]
		i = j
	}
	t.vals[i] = 0
	t.keys[i] = 0
	t.n--
}

func (t *posTable) grow() {
	old := *t
	sz := len(old.keys) * 2
	*t = posTable{keys: make([]uint64, sz), vals: make([]int32, sz), mask: uint64(sz - 1)}
	for i, v := range old.vals {
		if v != 0 {
			t.insert(old.keys[i], int(v-1))
		}
	}
}
