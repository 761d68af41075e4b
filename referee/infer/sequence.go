package infer

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"tengen/engine"
	"tengen/vision/observe"
)

// Sequence is one explanation of a reading by several presses: the moves in press order.
type Sequence struct {
	Moves  []engine.Move
	LogLik float64
}

// SequenceRanking is the best explanation of a reading by a sequence of presses and how sure it is.
type SequenceRanking struct {
	// Best is the most likely sequence; RunnerUp the next one with other points (zero Moves when
	// there is none).
	Best, RunnerUp Sequence
	// Margin is the least of Best's lead over RunnerUp and, for each stone of Best, the evidence
	// that the stone is on the board at all (how much likelier its point holds it than nothing)
	// plus the press's prior (PressLogOdds), in nats.
	Margin float64
	// Misfits are the points that contradict Best's final board; Unseen the points not seen.
	Misfits []Misfit
	Unseen  []engine.Point
}

// Clear reports whether the sequence is decided (see Ranking.Clear).
func (r SequenceRanking) Clear() bool {
	return len(r.Best.Moves) > 0 && r.Margin >= DecisiveLogOdds && len(r.Misfits) == 0 && len(r.Unseen) == 0
}

// ErrTooMany is returned by RankSequence when the presses leave too many combinations to score.
var ErrTooMany = errors.New("infer: too many combinations")

// seqOptions is how many points are tried for each stone of a sequence: the empty points whose
// reading favours that colour most. The right point is among them whenever the reading shows it
// at all; the others are the competition the margin is measured against.
const seqOptions = 6

// maxSequences bounds the combinations RankSequence scores.
const maxSequences = 512

// RankSequence explains reading o by the presses steps, made in order from game g's position: a
// step with Pass set is a pass, any other a stone of steps[i].Color whose point is to be found.
// Each stone is tried on the seqOptions empty points whose reading favours its colour most; every
// combination is played by the rules (illegal ones dropped) and its final board scored. prevs
// are the readings the game's board was confirmed on, as for RankSince. g is left unchanged.
func RankSequence(g *engine.Game, steps []engine.Move, o observe.Observation, prevs ...observe.Observation) (SequenceRanking, error) {
	size := g.Size()
	sc, err := NewScorer(o, size)
	if err != nil {
		return SequenceRanking{}, err
	}
	board := g.Board()
	sc.ForgetPersistent(board, o, prevs...)
	var stoneSteps []int
	options := map[engine.Color][]int{}
	total := 1
	for i, s := range steps {
		if s.Pass {
			continue
		}
		if s.Color != engine.Black && s.Color != engine.White {
			return SequenceRanking{}, fmt.Errorf("infer: step %d: %w", i+1, engine.ErrBadColor)
		}
		stoneSteps = append(stoneSteps, i)
		if _, ok := options[s.Color]; !ok {
			options[s.Color] = topPoints(sc, board, s.Color, seqOptions)
		}
		total *= max(len(options[s.Color]), 1)
		if total > maxSequences {
			return SequenceRanking{}, fmt.Errorf("%w: %d presses", ErrTooMany, len(steps))
		}
	}
	r := SequenceRanking{Margin: math.Inf(-1)}
	if len(stoneSteps) == 0 {
		return r, nil
	}
	pick := make([]int, len(stoneSteps))
	moves := make([]engine.Move, len(steps))
	var all []Sequence
	for {
		copy(moves, steps)
		ok := true
		for k, si := range stoneSteps {
			opts := options[steps[si].Color]
			if len(opts) == 0 {
				ok = false
				break
			}
			j := opts[pick[k]]
			moves[si].Point = engine.Point{X: j % size, Y: j / size}
		}
		if ok {
			if ll, legal := playScore(g, sc, moves); legal {
				all = append(all, Sequence{Moves: slices.Clone(moves), LogLik: ll})
			}
		}
		// Next combination.
		k := 0
		for ; k < len(pick); k++ {
			pick[k]++
			if pick[k] < len(options[steps[stoneSteps[k]].Color]) {
				break
			}
			pick[k] = 0
		}
		if k == len(pick) {
			break
		}
	}
	if len(all) == 0 {
		return r, nil
	}
	slices.SortStableFunc(all, func(a, b Sequence) int { return cmp.Compare(b.LogLik, a.LogLik) }) // likeliest first
	r.Best, r.Margin = all[0], math.Inf(1)
	if len(all) > 1 {
		r.RunnerUp = all[1]
		r.Margin = all[0].LogLik - all[1].LogLik
	}
	for _, m := range r.Best.Moves {
		if m.Pass {
			continue
		}
		i := m.Point.Y*size + m.Point.X
		r.Margin = min(r.Margin, sc.ll[i][m.Color]-sc.ll[i][engine.Empty]+PressLogOdds)
	}
	// The final board of the best sequence, for its misfits.
	played := 0
	for _, m := range r.Best.Moves {
		if _, err := g.Play(m); err != nil {
			break
		}
		played++
	}
	r.Misfits = sc.Misfits(g.Board())
	for range played {
		_ = g.Undo()
	}
	r.Unseen = sc.Unseen()
	return r, nil
}

// playScore plays moves on g, scores the final board and takes them back. legal is false when a
// move is refused (the game then stands as before).
func playScore(g *engine.Game, sc *Scorer, moves []engine.Move) (float64, bool) {
	played := 0
	defer func() {
		for range played {
			_ = g.Undo()
		}
	}()
	for _, m := range moves {
		if _, err := g.Play(m); err != nil {
			return 0, false
		}
		played++
	}
	return sc.Score(g.Board()), true
}

// topPoints returns up to n empty points of board whose reading favours colour c over an empty
// point most, best first.
func topPoints(sc *Scorer, board []engine.Color, c engine.Color, n int) []int {
	var pts []int
	for i, col := range board {
		if col == engine.Empty {
			pts = append(pts, i)
		}
	}
	d := func(i int) float64 { return sc.ll[i][c] - sc.ll[i][engine.Empty] }
	slices.SortStableFunc(pts, func(a, b int) int {
		switch da, db := d(a), d(b); {
		case da > db:
			return -1
		case da < db:
			return 1
		}
		return 0
	})
	if len(pts) > n {
		pts = pts[:n]
	}
	return pts
}
