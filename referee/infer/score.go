package infer

import (
	"fmt"
	"math"

	"tengen/engine"
	"tengen/vision/observe"
)

// Scorer holds, for every point of a reading, the log-likelihood of each stone the board could
// hold there (empty, black, white), so that any board can be scored against the reading, and a
// board that differs from another in a few points is scored from the other's score by those
// points alone.
type Scorer struct {
	size   int
	ll     [][3]float64 // per point, indexed by engine.Color (Empty, Black, White)
	unseen []engine.Point
}

// NewScorer builds the scorer of reading o for a size x size board. Each point's probabilities
// are o.PointProbs (the reader's own, or derived from its best guess and confidence).
func NewScorer(o observe.Observation, size int) (*Scorer, error) {
	if o.Size != size || len(o.Stones) != size*size || (o.Probs != nil && len(o.Probs) != len(o.Stones)) {
		return nil, fmt.Errorf("%w: a %dx%d reading (%d points) for a %dx%d board", ErrSize, o.Size, o.Size, len(o.Stones), size, size)
	}
	s := &Scorer{size: size, ll: make([][3]float64, len(o.Stones))}
	for i := range o.Stones {
		p := o.PointProbs(i)
		s.ll[i] = pointLogLik(p)
		if p[observe.Obscured] > p[observe.Empty] && p[observe.Obscured] > p[observe.Black] && p[observe.Obscured] > p[observe.White] {
			s.unseen = append(s.unseen, engine.Point{X: i % size, Y: i / size})
		}
	}
	return s, nil
}

// pointLogLik returns a point's log-likelihood of holding each stone (indexed by engine.Color):
// the reader's probability of that stone plus its probability that the point is obscured (a hand
// hides any stone), floored at ProbFloor.
func pointLogLik(p observe.Probs) [3]float64 {
	var ll [3]float64
	obsc := float64(p[observe.Obscured])
	for k := range ll {
		ll[k] = math.Log(max(float64(p[k])+obsc, ProbFloor))
	}
	return ll
}

// ForgetPersistent discounts, at each point the reading now misreads (a stone where board, the
// game's board, holds none, or none where it holds one), the odds the earlier readings prevs
// already gave that misreading: prevs are the readings the board was confirmed on, move after
// move, and a misreading they all made (glare, a reflection, a mark on the wood) stays while the
// scene stays and says nothing about what changed since. The point keeps what its odds gained
// since the weakest of them: a glare pool read white at 0.8 then and now counts for nothing, one
// read at 0.8 then and 0.999 now for the difference, and a point any earlier reading read as the
// board has it (a stone put down since, even on a point the reader was in doubt about) keeps all
// its evidence. It returns the points discounted, in row-major order; without prevs, or with one of
// another size, it discounts nothing.
func (s *Scorer) ForgetPersistent(board []engine.Color, o observe.Observation, prevs ...observe.Observation) []engine.Point {
	if len(prevs) == 0 || len(o.Stones) != len(s.ll) || len(board) != len(s.ll) {
		return nil
	}
	for _, p := range prevs {
		if p.Size != s.size || len(p.Stones) != len(s.ll) || (p.Probs != nil && len(p.Probs) != len(p.Stones)) {
			return nil
		}
	}
	var out []engine.Point
	for i, now := range o.Stones {
		if now == observe.Obscured || engine.Color(now) == board[i] {
			continue
		}
		seen, was := engine.Color(now), board[i]
		gain := s.ll[i][seen] - s.ll[i][was]
		then := math.Inf(1)
		for _, p := range prevs {
			ll := pointLogLik(p.PointProbs(i))
			then = min(then, ll[seen]-ll[was])
		}
		if then <= 0 || gain <= 0 {
			continue
		}
		s.ll[i][seen] -= min(then, gain)
		out = append(out, engine.Point{X: i % s.size, Y: i / s.size})
	}
	return out
}

// LogLik returns the log-likelihood of the reading at point i (row-major) if it holds c.
func (s *Scorer) LogLik(i int, c engine.Color) float64 { return s.ll[i][c] }

// Score returns the log-likelihood of the whole reading if the board is b (row-major).
func (s *Scorer) Score(b []engine.Color) float64 {
	t := 0.0
	for i, c := range b {
		t += s.ll[i][c]
	}
	return t
}

// best returns the most likely stone at point i and its log-likelihood.
func (s *Scorer) best(i int) (engine.Color, float64) {
	bc, bl := engine.Empty, s.ll[i][engine.Empty]
	for _, c := range []engine.Color{engine.Black, engine.White} {
		if s.ll[i][c] > bl {
			bc, bl = c, s.ll[i][c]
		}
	}
	return bc, bl
}

// Misfits returns the points of board b that the reading contradicts by MisfitLogOdds or more,
// in row-major order.
func (s *Scorer) Misfits(b []engine.Color) []Misfit {
	var out []Misfit
	for i, want := range b {
		seen, l := s.best(i)
		if d := l - s.ll[i][want]; seen != want && d >= MisfitLogOdds {
			out = append(out, Misfit{Point: engine.Point{X: i % s.size, Y: i / s.size}, Want: want, Seen: seen, LogOdds: d})
		}
	}
	return out
}

// Unseen returns the points whose most likely reading is Obscured, in row-major order.
func (s *Scorer) Unseen() []engine.Point { return s.unseen }

// Fits reports whether the reading shows board b: every point seen and none contradicting it.
func (s *Scorer) Fits(b []engine.Color) bool {
	if len(s.unseen) > 0 || len(b) != len(s.ll) {
		return false
	}
	for i, want := range b {
		if seen, l := s.best(i); seen != want && l-s.ll[i][want] >= MisfitLogOdds {
			return false
		}
	}
	return true
}

// chains labels the chains of a board, for captures: which chains are in atari, and on what point.
type chains struct {
	size  int
	id    []int32 // per point: chain number, -1 for empty
	color []engine.Color
	libs  []int32 // per chain: number of distinct liberties
	lib   []int32 // per chain: its liberty when it has exactly one
	start []int32 // per chain: the stones are stones[start[k]:start[k+1]]
	stone []int32
}

func findChains(size int, b []engine.Color) *chains {
	n := len(b)
	ch := &chains{size: size, id: make([]int32, n)}
	for i := range ch.id {
		ch.id[i] = -1
	}
	stamp := make([]int32, n) // liberty already counted for chain stamp-1
	stack := make([]int32, 0, 64)
	for i, c := range b {
		if c == engine.Empty || ch.id[i] >= 0 {
			continue
		}
		k := int32(len(ch.color))
		ch.color = append(ch.color, c)
		ch.start = append(ch.start, int32(len(ch.stone)))
		libs, lib := int32(0), int32(-1)
		ch.id[i] = k
		stack = append(stack[:0], int32(i))
		for len(stack) > 0 {
			j := int(stack[len(stack)-1])
			stack = stack[:len(stack)-1]
			ch.stone = append(ch.stone, int32(j))
			nb, nn := ch.neighbours(j)
			for _, q := range nb[:nn] {
				switch {
				case b[q] == engine.Empty:
					if stamp[q] != k+1 {
						stamp[q] = k + 1
						libs++
						lib = int32(q)
					}
				case b[q] == c && ch.id[q] < 0:
					ch.id[q] = k
					stack = append(stack, int32(q))
				}
			}
		}
		ch.libs = append(ch.libs, libs)
		ch.lib = append(ch.lib, lib)
	}
	ch.start = append(ch.start, int32(len(ch.stone)))
	return ch
}

// neighbours returns the on-board neighbours of point i: the first n of nb.
func (ch *chains) neighbours(i int) (nb [4]int, n int) {
	x, y := i%ch.size, i/ch.size
	if x > 0 {
		nb[n], n = i-1, n+1
	}
	if x < ch.size-1 {
		nb[n], n = i+1, n+1
	}
	if y > 0 {
		nb[n], n = i-ch.size, n+1
	}
	if y < ch.size-1 {
		nb[n], n = i+ch.size, n+1
	}
	return nb, n
}

// captures returns the stones a stone of colour c on the empty point i would capture (the
// opponent's chains next to it whose only liberty is i), sorted, and the change in score when
// they are taken off the board.
func (ch *chains) captures(i int, c engine.Color, s *Scorer) ([]engine.Point, float64) {
	var seen [4]int32
	ns := 0
	var out []engine.Point
	delta := 0.0
	nb, nn := ch.neighbours(i)
	for _, q := range nb[:nn] {
		k := ch.id[q]
		if k < 0 || ch.color[k] != c.Opponent() || ch.libs[k] != 1 || ch.lib[k] != int32(i) {
			continue
		}
		dup := false
		for _, x := range seen[:ns] {
			dup = dup || x == k
		}
		if dup {
			continue
		}
		seen[ns] = k
		ns++
		for _, j := range ch.stone[ch.start[k]:ch.start[k+1]] {
			out = append(out, engine.Point{X: int(j) % ch.size, Y: int(j) / ch.size})
			delta += s.ll[j][engine.Empty] - s.ll[j][ch.color[k]]
		}
	}
	if len(out) > 1 {
		out = SortPoints(out)
	}
	return out, delta
}
