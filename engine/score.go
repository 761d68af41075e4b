package engine

import (
	"fmt"
	"math"
	"strconv"
)

// SideScore is one player's side of the count. Total is what the ruleset's counting method adds up:
// area = Stones + Territory (+ Komi + Bonus for White); territory = Territory + Prisoners + DeadCaptured
// + PassStones (+ Komi for White). The other fields are filled in either way, for display.
type SideScore struct {
	Territory    int     // empty points (and dead stones' points) surrounded only by this side's live stones
	Stones       int     // this side's live stones on the board
	Prisoners    int     // stones this side captured during play
	DeadCaptured int     // opponent stones this side takes as dead at the count
	PassStones   int     // pass stones received (counted only with Rules.PassStones under territory scoring)
	Komi         float64 // White only
	Bonus        float64 // White only: handicap compensation (Rules.HandicapBonus)
	Total        float64
}

// Score is a counted position.
type Score struct {
	Black, White SideScore
	Margin       float64 // Black.Total - White.Total
	Result       string  // SGF form: "B+3.5", "W+0.5", "0" for jigo
	Territory    []Color // owner of each point, row-major (Y*Size+X); Empty for stones, neutral points and seki eyes
	Dead         []Point // the stones counted as dead (whole chains)
	Seki         []Point // stones judged to be in seki (only when Rules.SekiEyesCount is false)
}

// Score counts the position with the chains at dead taken off as dead (every other stone alive; after
// AGA 10's four passes every stone is alive and dead is ignored). Territory is topological: an empty
// region belongs to a player when it touches only that player's stones. With SekiEyesCount false
// (Japanese art. 8) live stones next to a neutral point are in seki and the regions they border are not
// territory; unless Rules.LiteralDame, every dame that can be filled safely is regarded as filled first
// (fillDame), so only a real seki loses its eye points. If White still owes the last pass (AGA 11) it is
// counted as given.
func (g *Game) Score(dead []Point) (Score, error) {
	b := g.b
	n := b.size
	cells := make([]Color, len(b.cells))
	copy(cells, b.cells)
	var sc Score
	var deadCap [3]int
	if !g.st.allAlive {
		for _, p := range dead {
			if !p.In(n) {
				return Score{}, fmt.Errorf("score: dead stone %w: %v", ErrBadPoint, p)
			}
			i := b.idx(p)
			c := cells[i]
			if c != Black && c != White {
				continue
			}
			for _, s := range g.Chain(p) {
				cells[b.idx(s)] = Empty
				sc.Dead = append(sc.Dead, s)
				deadCap[c.Opponent()]++
			}
		}
	}
	// view is the board the regions and seki are read from: the position itself, or (art. 8 as referees
	// apply it) the position with every dame that can be filled safely filled. Stones are counted from cells.
	view := cells
	if !g.rules.SekiEyesCount && !g.rules.LiteralDame {
		view = g.fillDame(cells)
	}
	region, regions := g.b.emptyRegions(view)
	if !g.rules.SekiEyesCount {
		for _, p := range g.markSeki(view, region, regions) {
			if cells[b.idx(p)] != Empty { // not a dame regarded as filled
				sc.Seki = append(sc.Seki, p)
			}
		}
	}
	sc.Territory = make([]Color, n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			i := (y+1)*b.stride + x + 1
			switch cells[i] {
			case Black:
				sc.Black.Stones++
			case White:
				sc.White.Stones++
			case Empty:
				if view[i] != Empty { // a dame regarded as filled: nobody's
					continue
				}
				ri := regions[region[i]-1]
				if ri.seki || ri.neutral() || (!ri.black && !ri.white) {
					continue
				}
				if ri.black {
					sc.Black.Territory++
					sc.Territory[y*n+x] = Black
				} else {
					sc.White.Territory++
					sc.Territory[y*n+x] = White
				}
			}
		}
	}
	passB, passW := int(g.st.passStones[Black]), int(g.st.passStones[White])
	if g.st.whiteOwes && g.rules.PassStones {
		passB++
	}
	sc.Black.Prisoners, sc.White.Prisoners = int(g.st.prisoners[Black]), int(g.st.prisoners[White])
	sc.Black.DeadCaptured, sc.White.DeadCaptured = deadCap[Black], deadCap[White]
	sc.Black.PassStones, sc.White.PassStones = passB, passW
	sc.White.Komi = g.Komi()
	h := len(g.handicap)
	switch g.rules.HandicapBonus {
	case BonusN:
		sc.White.Bonus = float64(h)
	case BonusNMinus1:
		if h > 1 {
			sc.White.Bonus = float64(h - 1)
		}
	}
	for _, s := range []*SideScore{&sc.Black, &sc.White} {
		if g.rules.Scoring == AreaScoring {
			s.Total = float64(s.Stones + s.Territory)
		} else {
			s.Total = float64(s.Territory + s.Prisoners + s.DeadCaptured)
			if g.rules.PassStones {
				s.Total += float64(s.PassStones)
			}
		}
		s.Total += s.Komi + s.Bonus
	}
	sc.Margin = sc.Black.Total - sc.White.Total
	sc.Result = ResultString(sc.Margin)
	return sc, nil
}

// ResultString writes a margin (Black minus White) in SGF form: "B+3.5", "W+0.5", "0" for jigo.
func ResultString(margin float64) string {
	switch {
	case margin > 0:
		return "B+" + strconv.FormatFloat(margin, 'f', -1, 64)
	case margin < 0:
		return "W+" + strconv.FormatFloat(math.Abs(margin), 'f', -1, 64)
	}
	return "0"
}

type regionInfo struct {
	size         int
	black, white bool
	seki         bool
}

func (r regionInfo) neutral() bool { return r.black && r.white }

// regionFlood floods one empty region at a time and says which colours' stones border it; its
// stamps let it be used again and again without clearing.
type regionFlood struct {
	seen  []int32 // len(cells): the stamp of the flood that last visited each point
	stamp int32
	stack []int
}

// colors floods the empty region of cells through start, never entering blocked (-1: no point is
// blocked), and says whether black and white stones border it.
func (f *regionFlood) colors(b *board, cells []Color, start, blocked int) (black, white bool) {
	f.stamp++
	f.seen[start] = f.stamp
	if blocked >= 0 {
		f.seen[blocked] = f.stamp
	}
	f.stack = append(f.stack[:0], start)
	for len(f.stack) > 0 {
		s := f.stack[len(f.stack)-1]
		f.stack = f.stack[:len(f.stack)-1]
		for _, d := range b.dirs {
			r := s + d
			switch cells[r] {
			case Empty:
				if f.seen[r] != f.stamp {
					f.seen[r] = f.stamp
					f.stack = append(f.stack, r)
				}
			case Black:
				black = true
			case White:
				white = true
			}
		}
	}
	return black, white
}

// emptyRegions labels the empty points of view by connected region (region[i] is the region's index
// in regions plus one, 0 for a stone) and tells each region's size and which colours border it.
func (b *board) emptyRegions(view []Color) (region []int32, regions []regionInfo) {
	region = make([]int32, len(view))
	stack := make([]int, 0, 64)
	for i, c := range view {
		if c != Empty || region[i] != 0 {
			continue
		}
		id := int32(len(regions) + 1)
		ri := regionInfo{}
		region[i] = id
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			ri.size++
			for _, d := range b.dirs {
				q := s + d
				switch view[q] {
				case Empty:
					if region[q] == 0 {
						region[q] = id
						stack = append(stack, q)
					}
				case Black:
					ri.black = true
				case White:
					ri.white = true
				}
			}
		}
		regions = append(regions, ri)
	}
	return region, regions
}

// markSeki applies Japanese art. 8: live stones next to a neutral point (dame) are in seki, and the eye
// points they surround are not territory. Chains that share an eye region form one group, so the whole
// group is in seki when any of its chains touches dame, and every region of that group is marked seki.
// It returns the stones in seki.
func (g *Game) markSeki(cells []Color, region []int32, regions []regionInfo) []Point {
	b := g.b
	chain := make([]int32, len(cells)) // chain id + 1
	nChains := int32(0)
	stack := make([]int, 0, 64)
	for i, c := range cells {
		if (c != Black && c != White) || chain[i] != 0 {
			continue
		}
		nChains++
		chain[i] = nChains
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, d := range b.dirs {
				if q := s + d; cells[q] == c && chain[q] == 0 {
					chain[q] = nChains
					stack = append(stack, q)
				}
			}
		}
	}
	// union-find nodes: chains 1..nChains, regions nChains+1..
	parent := make([]int32, int(nChains)+len(regions)+1)
	for i := range parent {
		parent[i] = int32(i)
	}
	var find func(x int32) int32
	find = func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for i, c := range cells {
		if c != Empty {
			continue
		}
		r := region[i] - 1
		if regions[r].neutral() {
			continue
		}
		for _, d := range b.dirs {
			if ch := chain[i+d]; ch != 0 {
				a, bb := find(ch), find(nChains+1+r)
				parent[a] = bb
			}
		}
	}
	seki := make([]bool, len(parent))
	for i, c := range cells {
		if c != Empty || !regions[region[i]-1].neutral() {
			continue
		}
		for _, d := range b.dirs {
			if ch := chain[i+d]; ch != 0 {
				seki[find(ch)] = true
			}
		}
	}
	for r := range regions {
		if seki[find(nChains+1+int32(r))] {
			regions[r].seki = true
		}
	}
	var out []Point
	for i, ch := range chain {
		if ch != 0 && seki[find(ch)] {
			out = append(out, b.point(i))
		}
	}
	return out
}

// fillDame returns a copy of cells in which every dame that can be filled safely is filled, the way a
// referee counts under Japanese art. 8 when the players left some dame open: a dame is an empty point
// next to stones of both colours, and it is filled, again and again until none is left that can be, by
// a colour whose stone there captures nothing and leaves its own chain at least two liberties (a stone
// left in atari could be taken, which is what makes the shared liberties of a seki unfillable). Of the
// two colours it prefers the one whose side the point's empty neighbours are on (closing a gap in a
// wall), else the one whose side the regions behind them are on (each with the point taken as filled
// touches only that colour: a gap in front of a territory however wide), then one that puts no opposing chain in atari, then Black. When no such dame is left, a gap two
// points wide is narrowed from one side (see below) and the filling goes on. What stays open is real seki.
func (g *Game) fillDame(cells []Color) []Color {
	b := g.b
	work := make([]Color, len(cells))
	copy(work, cells)
	seen := make([]int32, len(work)) // flood stamps
	libSeen := make([]int32, len(work))
	stamp := int32(0)
	stack := make([]int, 0, 64)
	// libs counts the liberties of the chain through i, stopping at limit.
	libs := func(i int, limit int) int {
		stamp++
		c := work[i]
		n := 0
		seen[i] = stamp
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			s := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, d := range b.dirs {
				q := s + d
				switch work[q] {
				case Empty:
					if libSeen[q] != stamp {
						libSeen[q] = stamp
						if n++; n >= limit {
							return n
						}
					}
				case c:
					if seen[q] != stamp {
						seen[q] = stamp
						stack = append(stack, q)
					}
				}
			}
		}
		return n
	}
	touches := func(i int, c Color, skip int) bool {
		for _, d := range b.dirs {
			if q := i + d; q != skip && work[q] == c {
				return true
			}
		}
		return false
	}
	// try says whether c may fill i, and whether that puts an opposing chain in atari.
	try := func(i int, c Color) (ok, atari bool) {
		work[i] = c
		defer func() { work[i] = Empty }()
		for _, d := range b.dirs {
			if q := i + d; work[q] == c.Opponent() {
				switch libs(q, 2) {
				case 0:
					return false, false // a capture, not a dame filled
				case 1:
					atari = true
				}
			}
		}
		return libs(i, 2) >= 2, atari
	}
	// regionSide says which colours' stones the empty region through q touches, with the point
	// blocked taken as filled (so that a dame's side is the territory behind it, however wide).
	flood := regionFlood{seen: make([]int32, len(work))}
	regionSide := func(q, blocked int) (black, white bool) { return flood.colors(b, work, q, blocked) }
	// nearOpp says whether an empty neighbour of i (i itself taken as empty) touches c's opponent.
	nearOpp := func(i int, c Color) bool {
		for _, d := range b.dirs {
			if q := i + d; work[q] == Empty && touches(q, c.Opponent(), i) {
				return true
			}
		}
		return false
	}
	for {
		changed := false
		for i, c := range work {
			if c != Empty || !touches(i, Black, -1) || !touches(i, White, -1) {
				continue
			}
			// side: empty neighbours next to only one colour's stones; rside: empty neighbours whose
			// region (without i) touches only one colour's stones, which decides when side does not.
			var side, rside [3]int
			for _, d := range b.dirs {
				if q := i + d; work[q] == Empty {
					nb, nw := touches(q, Black, i), touches(q, White, i)
					if nb && !nw {
						side[Black]++
					} else if nw && !nb {
						side[White]++
					}
					rb, rw := regionSide(q, i)
					if rb && !rw {
						rside[Black]++
					} else if rw && !rb {
						rside[White]++
					}
				}
			}
			best, bestKey := Empty, -1
			for _, col := range []Color{Black, White} {
				ok, atari := try(i, col)
				if !ok {
					continue
				}
				key := side[col]*32 + rside[col]*4
				if !atari {
					key += 2
				}
				if col == Black {
					key++
				}
				if key > bestKey {
					best, bestKey = col, key
				}
			}
			if best != Empty {
				work[i] = best
				changed = true
			}
		}
		if changed {
			continue
		}
		// No dame left that touches both colours: a gap two points wide has none. Its side next to
		// one colour's stones, with the other colour's stones one point further, is filled by that
		// colour (one point at a time, so that a real dame it opens is filled first).
		for i, c := range work {
			if c != Empty {
				continue
			}
			for _, col := range []Color{Black, White} {
				if touches(i, col, -1) && !touches(i, col.Opponent(), -1) && nearOpp(i, col) {
					// A stone of col that broke into the other colour's territory (a dame filled
					// from the wrong side) is closed off by that colour: the point's side is then
					// the territory behind it, and the other colour fills it when it can.
					var side [3]int
					for _, d := range b.dirs {
						if q := i + d; work[q] == Empty {
							if nb, nw := regionSide(q, i); nb != nw {
								if nb {
									side[Black]++
								} else {
									side[White]++
								}
							}
						}
					}
					fill := col
					if opp := col.Opponent(); side[opp] > side[col] {
						if ok, _ := try(i, opp); ok {
							fill = opp
						}
					}
					if ok, _ := try(i, fill); ok {
						work[i] = fill
						changed = true
						break
					}
				}
			}
			if changed {
				break
			}
		}
		if !changed {
			break
		}
	}
	return work
}
