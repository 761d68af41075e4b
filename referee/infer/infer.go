// Package infer reads a move, not a picture: given the game as it stood before a clock press, the
// colour that pressed and the camera's reading of the board (per point, the probability of each
// reading), it scores every explanation of the board a referee would consider and ranks them by
// log-likelihood, so that one misread point elsewhere on the board does not spoil a clear move.
//
// The explanations (Kind) are: no change; each legal move of the pressed colour with the stones
// the rules capture taken off; the same move with the captured stones still on the board; a stone
// of the pressed colour on a point the rules forbid (suicide, ko, superko), so the referee can
// apply the illegal-move rule; a stone of the wrong colour; and a legal move with the opponent's
// next stone already on the board (the next move being made). Every explanation differs from the
// game's board in a few points, so each is scored from the board's score by those points alone.
//
// The score of an explanation is the sum over the points of log L(point | stone the explanation
// puts there), L being the reader's probability of that stone plus its probability that the point
// is obscured (a hand hides any stone, so obscurity is no evidence either way), floored at
// ProbFloor. Log-odds thresholds turn the ranking into a decision (Ranking.Clear): the best
// explanation must beat every explanation that would make the referee do something else by
// DecisiveLogOdds, the press itself counting as evidence that a stone was placed (PressLogOdds),
// and no point may contradict it by MisfitLogOdds or more; a point whose most likely reading is
// "obscured" is unseen and also stops a decision. Given the readings the board was seen on at the
// last moves (RankSince), a point misread now counts only for what its misreading gained since the
// weakest of them (Scorer.ForgetPersistent): glare seen alike then and now counts for nothing.
//
// RankSequence does the same for several presses seen together (the referee's catch-up after a
// hand hid the board).
//
// The package is pure: it imports only the rules engine and the observation type, does no I/O,
// and leaves the game as it found it.
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

// The thresholds, in nats (natural-log odds).
//
// DecisiveLogOdds = ln 19: the best explanation must be at least 19 times as likely as any
// explanation that would make the referee do something else (a 95% decision between two
// candidates with a calibrated reader; a wrong record needs a second candidate and the reader
// confidently wrong about both). The referee has no preference among the legal moves (it does not
// play Go): between two moves the odds are the reading's alone. A single point read with the
// fallback confidence (0.995, see observe.PointProbs) carries ln(0.9967/0.0033) = 5.7 nats, so
// one clearly seen stone tells two moves apart on its own, even beside a point read 80/20 the
// other way (1.9 nats). The stricter ln 99 was measured too (referee/replay
// TestVisionReadingsMoves): it refuses moves the reader sees at 93% beside the points it marks
// unsure (0.5) on every frame of a set, and re-pressing cannot clear such a refusal.
//
// PressLogOdds = ln 99: the prior odds that a clock press follows a legal stone of the pressing
// colour rather than a slip (no stone, a stone of the wrong colour, an illegal stone): players
// press after they play, and slips are about one press in a hundred. The press is evidence like
// the reading. A move needs only to be the likeliest explanation to beat every slip
// (DecisiveLogOdds - PressLogOdds is below 0), so a stone seen at 80% counts when nothing else
// changed. A slip that would apply a rule (an illegal stone) must beat each move by
// DecisiveLogOdds + PressLogOdds. A slip that records nothing (no stone, the wrong colour) is said
// as the likeliest explanation, decisive or not: it only asks the players to look again.
//
// MisfitLogOdds = ln 99: a point contradicts an explanation when the reader finds another
// stone (or no stone) there at least 99 times as likely as what the explanation puts there. Such
// a point is explained by nothing the referee would record (a stone moved, a capture not taken
// off, a stone removed), so the board differs and the players must fix it. Below it, the point is
// taken for a misread: the reader is right about 99% of the time per point on unseen photos, so a
// board of 361 points holds a few unsure readings every move, and they must not stop play.
//
// ProbFloor = 1e-3: no reading is trusted beyond one in a thousand (the reader errs about once in
// a hundred points), which bounds one point's weight at ln(1000) = 6.9 nats: one point can decide
// or block alone, but cannot outweigh two others that agree.
const (
	DecisiveLogOdds = 2.944438979166440 // ln 19
	PressLogOdds    = 4.59511985013459  // ln 99
	MisfitLogOdds   = 4.59511985013459  // ln 99
	ProbFloor       = 1e-3
)

// Kind is what an explanation says happened on the board.
type Kind int

// The explanations.
const (
	// NoChange: the board is the game's board; no stone was added.
	NoChange Kind = iota + 1
	// Move: a legal move of the pressed colour, the stones it captures off the board.
	Move
	// CapturesOnBoard: a legal move that captures, the captured stones still on the board.
	CapturesOnBoard
	// Illegal: a stone of the pressed colour on a point where the rules forbid it (suicide, ko,
	// superko); for a ko, with or without the stones it would capture taken off.
	Illegal
	// WrongColor: a stone of the other colour on an empty point.
	WrongColor
	// MoveThenNext: a legal move of the pressed colour (captures off) and one stone of the
	// opponent on an empty point: the opponent's next move, made before the press was checked.
	// It records the same move as Move.
	MoveThenNext
)

var kindNames = [...]string{"", "no-change", "move", "captures-on-board", "illegal", "wrong-color", "move-then-next"}

// String names the kind ("move", "captures-on-board", ...).
func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Candidate is one explanation of the board and its score.
type Candidate struct {
	Kind Kind
	// Move is the stone placed (colour and point); zero for NoChange.
	Move engine.Move
	// Captured lists the stones the move captures (or, for an illegal ko, would capture), sorted.
	Captured []engine.Point
	// Removed reports whether the explanation has Captured off the board.
	Removed bool
	// Next is the opponent's stone already on the board (MoveThenNext only).
	Next engine.Point
	// Err is the rule the stone breaks (Illegal only).
	Err *engine.IllegalMoveError
	// LogLik is the log-likelihood of the reading under this explanation: the sum over every point.
	LogLik float64
}

// Slip reports whether the kind is a player's slip (no stone, the wrong colour, an illegal stone)
// rather than a legal move of the pressing colour.
func (k Kind) Slip() bool { return k == NoChange || k == WrongColor || k == Illegal }

// logPrior is the kind's prior log-odds against a legal move (see PressLogOdds).
func (k Kind) logPrior() float64 {
	if k.Slip() {
		return -PressLogOdds
	}
	return 0
}

// Decision is what the referee would do on a candidate: candidates with the same decision record
// the same thing (a move whether or not its captured stones are off yet or the opponent's next
// stone is down, an illegal ko with or without its captures taken off).
type Decision struct {
	Kind  Kind
	Point engine.Point
}

// Decision returns the candidate's decision.
func (c Candidate) Decision() Decision {
	switch c.Kind {
	case NoChange:
		return Decision{Kind: NoChange}
	case MoveThenNext, CapturesOnBoard:
		return Decision{Kind: Move, Point: c.Move.Point}
	}
	return Decision{Kind: c.Kind, Point: c.Move.Point}
}

// Changes returns the points where the candidate's board differs from the game's, sorted.
func (c Candidate) Changes() []engine.Point {
	var ps []engine.Point
	if c.Kind != NoChange {
		ps = append(ps, c.Move.Point)
	}
	if c.Removed {
		ps = append(ps, c.Captured...)
	}
	if c.Kind == MoveThenNext {
		ps = append(ps, c.Next)
	}
	return SortPoints(ps)
}

// Board returns the board the candidate explains the reading with, given the game's board
// (row-major, Size*Size).
func (c Candidate) Board(size int, before []engine.Color) []engine.Color {
	b := slices.Clone(before)
	if c.Kind == NoChange {
		return b
	}
	b[c.Move.Point.Y*size+c.Move.Point.X] = c.Move.Color
	if c.Removed {
		for _, q := range c.Captured {
			b[q.Y*size+q.X] = engine.Empty
		}
	}
	if c.Kind == MoveThenNext {
		b[c.Next.Y*size+c.Next.X] = c.Move.Color.Opponent()
	}
	return b
}

// Misfit is a point whose reading contradicts an explanation.
type Misfit struct {
	Point engine.Point
	Want  engine.Color // what the explanation puts there
	Seen  engine.Color // the most likely reading
	// LogOdds is how much likelier Seen is than Want, in nats.
	LogOdds float64
}

// Ranking is every explanation scored, and what it means for the referee.
type Ranking struct {
	// Candidates holds every explanation, best first.
	Candidates []Candidate
	// Best is Candidates[0], the likeliest explanation of the reading.
	Best Candidate
	// RunnerUp is the candidate with another Decision that comes closest to Best once the
	// press's prior (PressLogOdds) is counted; Margin is by how much, in nats: Best.LogLik -
	// RunnerUp.LogLik, plus PressLogOdds when only RunnerUp is a slip, minus it when only Best
	// is (+Inf without a runner-up).
	RunnerUp Candidate
	Margin   float64
	// Misfits are the points that contradict Best by MisfitLogOdds or more, in row-major order:
	// what no explanation accounts for.
	Misfits []Misfit
	// Unseen are the points whose most likely reading is Obscured, in row-major order.
	Unseen []engine.Point
	// Persistent are the points whose misreading the previous readings made too, discounted by
	// their odds (RankSince, Scorer.ForgetPersistent), in row-major order.
	Persistent []engine.Point
}

// Decisive reports whether the best explanation beats every other decision by DecisiveLogOdds
// (the press's prior counted) and every point is seen. Its misfits may still say that the board
// differs from it.
func (r Ranking) Decisive() bool {
	return r.Best.Kind != 0 && r.Margin >= DecisiveLogOdds && len(r.Unseen) == 0
}

// Clear reports whether the ranking decides: Decisive, and no point contradicts the best
// explanation.
func (r Ranking) Clear() bool { return r.Decisive() && len(r.Misfits) == 0 }

// Errors of Rank.
var (
	// ErrNotToMove is returned when the pressed colour is not the game's player to move, or the
	// game is not being played.
	ErrNotToMove = errors.New("infer: not that colour's move")
	// ErrSize is returned when the reading does not fit the game's board.
	ErrSize = errors.New("infer: the reading does not fit the board")
)

// maxNext bounds the opponent stones considered for MoveThenNext: the empty points whose reading
// favours the opponent's colour most. Only points where the opponent's stone is seen decisively
// (DecisiveLogOdds over an empty point) are considered: a weaker reading is a misread, not a move
// being made, and is not worth a word to the players.
const maxNext = 4

// Rank scores the explanations of reading o for a press by c on game g (the position before the
// press; c must be the player to move). g is used for legality and is left unchanged.
func Rank(g *engine.Game, c engine.Color, o observe.Observation) (Ranking, error) {
	return RankSince(g, c, o)
}

// RankSince is Rank knowing prevs, the readings on which the game's board was confirmed at the
// last moves. A point misread now counts only for what its misreading gained since them
// (Scorer.ForgetPersistent): a human referee who saw the glare on a point move after move does
// not take it for this move's stone, but does see a stone put down on it.
func RankSince(g *engine.Game, c engine.Color, o observe.Observation, prevs ...observe.Observation) (Ranking, error) {
	size := g.Size()
	if g.Phase() != engine.Playing || c != g.ToMove() {
		return Ranking{}, fmt.Errorf("%w: %v to play, %v pressed", ErrNotToMove, g.ToMove(), c)
	}
	sc, err := NewScorer(o, size)
	if err != nil {
		return Ranking{}, err
	}
	board := g.Board()
	persistent := sc.ForgetPersistent(board, o, prevs...)
	ch := findChains(size, board)
	base := sc.Score(board)
	opp := c.Opponent()
	cands := make([]Candidate, 0, 2*len(board)+8)
	cands = append(cands, Candidate{Kind: NoChange, LogLik: base})

	var moves []int // legal moves, captures off (indices in cands): the base of MoveThenNext
	var next []int  // empty points where the opponent's stone is seen decisively
	for i, col := range board {
		if col != engine.Empty {
			continue
		}
		p := engine.Point{X: i % size, Y: i / size}
		d := sc.ll[i][c] - sc.ll[i][engine.Empty]
		dOpp := sc.ll[i][opp] - sc.ll[i][engine.Empty]
		cands = append(cands, Candidate{Kind: WrongColor, Move: engine.Move{Color: opp, Point: p}, LogLik: base + dOpp})
		if dOpp >= DecisiveLogOdds {
			next = append(next, i)
		}
		m := engine.Move{Color: c, Point: p}
		capt, capDelta := ch.captures(i, c, sc)
		err := g.Check(m)
		if err != nil {
			var ime *engine.IllegalMoveError
			if !errors.As(err, &ime) {
				return Ranking{}, fmt.Errorf("infer: checking %s: %w", p.GTP(size), err)
			}
			switch ime.Reason {
			case engine.Suicide, engine.Ko, engine.KoConfirmation, engine.ReasonPositionalSuperko, engine.ReasonSituationalSuperko:
			default:
				return Ranking{}, fmt.Errorf("infer: checking %s: %w", p.GTP(size), err)
			}
			cands = append(cands, Candidate{Kind: Illegal, Move: m, Captured: capt, Err: ime, LogLik: base + d})
			if len(capt) > 0 {
				cands = append(cands, Candidate{Kind: Illegal, Move: m, Captured: capt, Removed: true, Err: ime, LogLik: base + d + capDelta})
			}
			continue
		}
		moves = append(moves, len(cands))
		cands = append(cands, Candidate{Kind: Move, Move: m, Captured: capt, Removed: true, LogLik: base + d + capDelta})
		if len(capt) > 0 {
			cands = append(cands, Candidate{Kind: CapturesOnBoard, Move: m, Captured: capt, LogLik: base + d})
		}
	}
	// The opponent's next stone, on the points whose reading favours it most.
	if len(next) > maxNext {
		slices.SortFunc(next, func(a, b int) int {
			da := sc.ll[a][opp] - sc.ll[a][engine.Empty]
			db := sc.ll[b][opp] - sc.ll[b][engine.Empty]
			if da != db {
				if da > db {
					return -1
				}
				return 1
			}
			return a - b
		})
		next = next[:maxNext]
	}
	for _, j := range next {
		q := engine.Point{X: j % size, Y: j / size}
		dq := sc.ll[j][opp] - sc.ll[j][engine.Empty]
		for _, k := range moves {
			mv := cands[k]
			if mv.Move.Point == q {
				continue
			}
			mv.Kind, mv.Next, mv.LogLik = MoveThenNext, q, mv.LogLik+dq
			cands = append(cands, mv)
		}
	}
	r := finish(sc, size, board, cands)
	r.Persistent = persistent
	return r, nil
}

// finish sorts the candidates and works out the runner-up, the margin, the misfits and the unseen
// points.
func finish(sc *Scorer, size int, board []engine.Color, cands []Candidate) Ranking {
	slices.SortStableFunc(cands, func(a, b Candidate) int { return cmp.Compare(b.LogLik, a.LogLik) }) // likeliest first
	r := Ranking{Candidates: cands, Margin: math.Inf(1)}
	if len(cands) == 0 {
		return r
	}
	r.Best = cands[0]
	d := r.Best.Decision()
	best := r.Best.LogLik + r.Best.Kind.logPrior()
	for _, k := range cands[1:] {
		if m := best - (k.LogLik + k.Kind.logPrior()); m < r.Margin && k.Decision() != d {
			r.RunnerUp, r.Margin = k, m
		}
	}
	r.Misfits = sc.Misfits(r.Best.Board(size, board))
	r.Unseen = sc.Unseen()
	return r
}

// SortPoints sorts ps in row-major order (top row first) and drops duplicates, in place.
func SortPoints(ps []engine.Point) []engine.Point {
	slices.SortFunc(ps, func(a, b engine.Point) int {
		if a.Y != b.Y {
			return a.Y - b.Y
		}
		return a.X - b.X
	})
	return slices.Compact(ps)
}
