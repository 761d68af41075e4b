package engine

// maxStride is the widest flat board: 25 points plus a border cell each side.
const maxStride = MaxSize + 2

// zobristKeys holds one random 64-bit key per (colour, cell) and two side-to-move keys. It is computed once
// from a fixed seed and never written after package initialisation.
var zobristKeys = func() (k [2][maxStride * maxStride]uint64) {
	s := uint64(0x7467656e67656e31) // "tgengen1"
	next := func() uint64 {         // splitmix64
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	for c := range k {
		for i := range k[c] {
			k[c][i] = next()
		}
	}
	return k
}()

// sideKey is XORed into a position's hash when White is to move (situational positions).
const sideKey uint64 = 0x9b1d8e3c5a7f2461

// board is the fast core: a flat array of cells with a one-cell border, chains as circular lists with
// pseudo-liberty counts (the number of stone-to-empty adjacencies), and an incremental Zobrist hash.
// All slices are allocated once per board.
type board struct {
	size, stride int
	cells        []Color
	head         []int16 // chain head of each stone
	next         []int16 // next stone of the same chain (circular)
	libs         []int32 // pseudo-liberties, valid at heads
	stones       []int16 // stones in the chain, valid at heads
	hash         uint64  // board-only hash
	ko           int     // simple-ko forbidden cell for the next move, 0 if none
	dirs         [4]int
}

func newBoard(size int) *board {
	st := size + 2
	n := st * st
	b := &board{size: size, stride: st, cells: make([]Color, n), head: make([]int16, n), next: make([]int16, n),
		libs: make([]int32, n), stones: make([]int16, n)}
	b.dirs = [4]int{-1, 1, -st, st}
	for i := range b.cells {
		x, y := i%st, i/st
		if x == 0 || y == 0 || x == st-1 || y == st-1 {
			b.cells[i] = border
		}
	}
	return b
}

func (b *board) idx(p Point) int { return (p.Y+1)*b.stride + p.X + 1 }

func (b *board) point(i int) Point { return Point{X: i%b.stride - 1, Y: i/b.stride - 1} }

func key(i int, c Color) uint64 { return zobristKeys[c-1][i] }

// chainHash is the XOR of the keys of the chain's stones.
func (b *board) chainHash(h int) uint64 {
	c := b.cells[h]
	var x uint64
	s := h
	for {
		x ^= key(s, c)
		s = int(b.next[s])
		if s == h {
			return x
		}
	}
}

// outcome is what playing a stone would do, worked out without changing the board.
type outcome struct {
	captured int    // opponent stones removed
	suicide  bool   // the mover's own chain would be removed
	hash     uint64 // board hash after the move
}

// analyze works out the effect of c playing on the empty cell p.
func (b *board) analyze(p int, c Color) outcome {
	opp := c.Opponent()
	o := outcome{hash: b.hash ^ key(p, c)}
	var seen [4]int16
	ns := 0
	hasLib := false
	for _, d := range b.dirs {
		q := p + d
		switch b.cells[q] {
		case Empty:
			hasLib = true
		case opp:
			h := b.head[q]
			dup := false
			for k := 0; k < ns; k++ {
				if seen[k] == h {
					dup = true
				}
			}
			if dup {
				continue
			}
			seen[ns] = h
			ns++
			if b.libs[h] == b.edges(p, h, opp) {
				o.captured += int(b.stones[h])
				o.hash ^= b.chainHash(int(h))
				hasLib = true
			}
		}
	}
	if !hasLib {
		for _, d := range b.dirs {
			q := p + d
			if b.cells[q] == c {
				h := b.head[q]
				if b.libs[h] > b.edges(p, h, c) {
					hasLib = true
					break
				}
			}
		}
	}
	if !hasLib {
		o.suicide = true
		o.hash = b.hash
		ns = 0
		for _, d := range b.dirs {
			q := p + d
			if b.cells[q] == c {
				h := b.head[q]
				dup := false
				for k := 0; k < ns; k++ {
					if seen[k] == h {
						dup = true
					}
				}
				if !dup {
					seen[ns] = h
					ns++
					o.hash ^= b.chainHash(int(h))
				}
			}
		}
	}
	return o
}

// edges counts the neighbours of p that belong to chain h of colour c.
func (b *board) edges(p int, h int16, c Color) int32 {
	var n int32
	for _, d := range b.dirs {
		q := p + d
		if b.cells[q] == c && b.head[q] == h {
			n++
		}
	}
	return n
}

// play puts a stone of colour c on the empty cell p, removes captured chains (then the mover's own chain
// if it has no liberty) and appends every removed cell to log. It returns the number of opponent stones
// and own stones removed, and sets the simple-ko cell.
func (b *board) play(p int, c Color, log *[]int16) (captured, self int) {
	opp := c.Opponent()
	b.cells[p] = c
	b.head[p] = int16(p)
	b.next[p] = int16(p)
	b.stones[p] = 1
	b.hash ^= key(p, c)
	var libs int32
	for _, d := range b.dirs {
		q := p + d
		switch b.cells[q] {
		case Empty:
			libs++
		case Black, White:
			b.libs[b.head[q]]--
		}
	}
	b.libs[p] = libs
	for _, d := range b.dirs {
		q := p + d
		if b.cells[q] == c && b.head[q] != b.head[p] {
			b.merge(b.head[p], b.head[q])
		}
	}
	lastCap := 0
	for _, d := range b.dirs {
		q := p + d
		if b.cells[q] == opp && b.libs[b.head[q]] == 0 {
			lastCap = q
			captured += b.remove(int(b.head[q]), log)
		}
	}
	h := b.head[p]
	if b.libs[h] == 0 {
		self = b.remove(int(h), log)
	}
	b.ko = 0
	if captured == 1 && self == 0 && b.stones[b.head[p]] == 1 && b.libs[b.head[p]] == 1 {
		b.ko = lastCap
	}
	return captured, self
}

// merge joins chain y into chain x (the larger keeps its head).
func (b *board) merge(x, y int16) {
	if b.stones[x] < b.stones[y] {
		x, y = y, x
	}
	s := y
	for {
		b.head[s] = x
		s = b.next[s]
		if s == y {
			break
		}
	}
	b.next[x], b.next[y] = b.next[y], b.next[x]
	b.stones[x] += b.stones[y]
	b.libs[x] += b.libs[y]
}

// remove takes chain h off the board, giving liberties back to the neighbouring chains of the other colour.
func (b *board) remove(h int, log *[]int16) int {
	c := b.cells[h]
	other := c.Opponent()
	n := 0
	s := h
	for {
		nx := int(b.next[s])
		b.cells[s] = Empty
		b.hash ^= key(s, c)
		*log = append(*log, int16(s))
		n++
		for _, d := range b.dirs {
			q := s + d
			if b.cells[q] == other {
				b.libs[b.head[q]]++
			}
		}
		s = nx
		if s == h {
			return n
		}
	}
}

// rebuild recomputes chains, pseudo-liberties and the hash from the cells (after an undo or a setup).
func (b *board) rebuild() {
	b.hash = 0
	for i, c := range b.cells {
		if c == Black || c == White {
			b.head[i] = -1
			b.hash ^= key(i, c)
		}
	}
	var stack []int16
	for i, c := range b.cells {
		if (c != Black && c != White) || b.head[i] != -1 {
			continue
		}
		h := int16(i)
		b.head[i] = h
		b.next[i] = h
		b.stones[h] = 1
		b.libs[h] = 0
		stack = append(stack[:0], h)
		for len(stack) > 0 {
			s := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			for _, d := range b.dirs {
				q := s + d
				switch {
				case b.cells[q] == Empty:
					b.libs[h]++
				case b.cells[q] == c && b.head[q] == -1:
					b.head[q] = h
					b.next[q] = b.next[h]
					b.next[h] = int16(q)
					b.stones[h]++
					stack = append(stack, int16(q))
				}
			}
		}
	}
}

// isOwnEye reports whether the empty cell p is a single-point eye of colour c: every neighbour is c (or
// the edge) and enough diagonals are c that the opponent cannot break it by a false-eye shape.
func (b *board) isOwnEye(p int, c Color) bool {
	for _, d := range b.dirs {
		q := b.cells[p+d]
		if q != c && q != border {
			return false
		}
	}
	bad, edge := 0, false
	st := b.stride
	for _, d := range [4]int{-st - 1, -st + 1, st - 1, st + 1} {
		switch b.cells[p+d] {
		case border:
			edge = true
		case c.Opponent():
			bad++
		}
	}
	if edge {
		return bad == 0
	}
	return bad < 2
}
