package sgf

import (
	"testing"
)

// FuzzReadRecord: ReadRecord never panics, and a record it reads is written and read back to the
// same moves.
func FuzzReadRecord(f *testing.F) {
	addSeeds(f)
	f.Add([]byte("(;GM[1]FF[4]SZ[9]KM[6.5]HA[2]AB[cc][gg];W[ee];B[];W[tt])"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		r, err := ReadRecord(data)
		if err != nil {
			return
		}
		if len(r.Moves) > MaxMoves {
			t.Fatalf("%d moves read, more than MaxMoves", len(r.Moves))
		}
		again, err := ReadRecord(r.MarshalSGF())
		if err != nil {
			t.Fatalf("a record read could not be read back: %v\n%s", err, r.MarshalSGF())
		}
		if again.Size != r.Size || again.MoveCount() != r.MoveCount() {
			t.Fatalf("read back size %d, %d moves; want %d, %d", again.Size, again.MoveCount(), r.Size, r.MoveCount())
		}
	})
}

// FuzzParseMove: a B or W value is a pass or a point on the board, and a point is written back as
// the same value.
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"", "tt", "aa", "ss", "zz", "AA", " dd ", "a", "abc", "\xff\xfe"} {
		f.Add(s, 19)
		f.Add(s, 52)
	}
	f.Fuzz(func(t *testing.T, v string, size int) {
		p, pass, err := ParseMove(v, size)
		if err != nil || pass {
			return
		}
		if !p.In(size) {
			t.Fatalf("ParseMove(%q, %d) = %v: off the board", v, size, p)
		}
		q, err := ParsePoint(FormatPoint(p), size)
		if err != nil || q != p {
			t.Fatalf("%v written as %q reads back as %v, %v", p, FormatPoint(p), q, err)
		}
	})
}
