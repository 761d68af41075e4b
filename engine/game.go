package engine

import (
	"errors"
	"fmt"
	"slices"
)

// Phase is where a game stands.
type Phase int8

// The phases of a game.
const (
	Playing Phase = iota // moves are being played
	Stopped              // consecutive passes stopped the game (AGA 9, Japanese 9): agree on dead stones or resume
	Ended                // the game has a result (count agreed, resignation, no result)
)

// String names the phase.
func (p Phase) String() string {
	switch p {
	case Playing:
		return "playing"
	case Stopped:
		return "stopped"
	case Ended:
		return "ended"
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// Errors returned by Game methods other than move legality (those are *IllegalMoveError).
var (
	ErrBadSize        = errors.New("board size out of range")
	ErrNothingToUndo  = errors.New("no move to undo")
	ErrNotStopped     = errors.New("the game is not stopped")
	ErrHandicapLate   = errors.New("handicap stones go on an empty board before the first move")
	ErrBadHandicap    = errors.New("bad handicap")
	ErrMoveIsLegal    = errors.New("the move is legal: nothing to retract")
	ErrBadColor       = errors.New("colour must be black or white")
	ErrGameEnded      = errors.New("the game has ended")
	ErrNoConfirmation = errors.New("confirmation play needs a stopped game")
)

// Played is one move of the record: the move, its number (1 = first move after any handicap) and the
// opponent stones it captured. Retracted is set when AGA rule 8 turned an illegal move into this pass.
type Played struct {
	Move      Move
	Number    int
	Captured  []Point
	Retracted *Move
}

// koBan forbids colour from retaking the ko at cell until it passes (Japanese 7.2 confirmation).
type koBan struct {
	cell  int16
	color Color
}

// status is the small game state saved with every move, so Undo restores it exactly.
type status struct {
	phase      Phase
	toMove     Color
	stopPasses int32 // consecutive passes since the last stone or resumption
	passRun    int32 // consecutive passes at the end of the record
	resumed    bool
	allAlive   bool // AGA 10: four passes in a row after a resumption
	whiteOwes  bool // AGA 11: Black passed last, White owes the final pass
	prisoners  [3]int32
	passStones [3]int32
	bans       [4]koBan // Japanese 7.2 bans in force (confirmation play only), oldest first
	nbans      int8
}

// record is one move in the history, with what Undo needs.
// It holds no pointers and is kept small: the history is appended on every move.
type record struct {
	hashBefore uint64
	key        uint64 // position key after the move
	capFrom    int32  // start in Game.log of the cells this move removed
	capOpp     int32  // opponent stones removed
	capSelf    int32  // own stones removed (suicide)
	repeats    int32  // when not inserted: the move number whose position this one repeats
	cell       int16  // the stone's cell (0 for a pass)
	koBefore   int16
	color      Color
	pass       bool
	inserted   bool // key was new and is in the table
	isRetract  bool // AGA rule 8: an illegal move (in Game.retracted) became this pass
	before     status
}

// Game is one game under one ruleset: the board, the record, the superko table and the end-of-game state.
// A Game is not safe for concurrent use.
type Game struct {
	rules        Rules
	b            *board
	st           status
	hist         []record
	log          []int16
	table        posTable
	handicap     []Point
	komi         float64
	komiSet      bool
	confirmation bool
	result       string       // set when the game Ended
	retracted    map[int]Move // AGA rule 8: move number -> the illegal move retracted there
	fills        []Move       // dame filled after the stop (FillDame): stones on the board that are not moves
	passKo       int          // the ko cell the pass being executed is for (PassForKo); 0: the mover's oldest ban
}

// NewGame starts an empty game on a size x size board (2..25) with Black to move.
func NewGame(size int, r Rules) (*Game, error) {
	if size < MinSize || size > MaxSize {
		return nil, fmt.Errorf("%w: %d (supported %d..%d)", ErrBadSize, size, MinSize, MaxSize)
	}
	g := &Game{rules: r, b: newBoard(size), table: newPosTable(512)}
	g.st.toMove = Black
	// Room for a typical game's moves (about three quarters of the points) up front: growing the
	// history mid-game copies it, which costs a record replay more than the larger first allocation.
	g.hist = make([]record, 0, max(64, size*size*3/4))
	g.log = make([]int16, 0, 256)
	g.table.insert(g.posKey(), 0)
	return g, nil
}

// Reset starts a new game on the same board size and rules, reusing the game's memory (a referee or
// GTP session plays many games; NewGame allocates afresh).
func (g *Game) Reset() {
	b := g.b
	for i, c := range b.cells {
		if c == Black || c == White {
			b.cells[i] = Empty
		}
	}
	b.hash, b.ko = 0, 0
	g.st = status{toMove: Black}
	g.hist = g.hist[:0]
	g.log = g.log[:0]
	g.table.reset()
	g.table.insert(g.posKey(), 0)
	g.handicap = nil
	g.komi, g.komiSet = 0, false
	g.confirmation = false
	g.result = ""
	g.retracted = nil
	g.fills = nil
}

// Size returns the board size.
func (g *Game) Size() int { return g.b.size }

// Rules returns the ruleset.
func (g *Game) Rules() Rules { return g.rules }

// ToMove returns the player to move.
func (g *Game) ToMove() Color { return g.st.toMove }

// SetToMove sets the player to move without a move (for setup positions and GTP, whose play command
// does not enforce alternation). Positions already recorded keep the player they were recorded with.
// Handing the turn to the other player lifts the simple-ko ban: the ban forbids only the opponent's
// immediate recapture, and the player who just took the ko may fill it.
func (g *Game) SetToMove(c Color) error {
	if c != Black && c != White {
		return ErrBadColor
	}
	if c != g.st.toMove {
		g.b.ko = 0
	}
	g.st.toMove = c
	return nil
}

// At returns the colour at p (Empty when p is off the board).
func (g *Game) At(p Point) Color {
	if !p.In(g.b.size) {
		return Empty
	}
	return g.b.cells[g.b.idx(p)]
}

// MoveNumber returns the number of moves played (passes included, handicap placement excluded).
func (g *Game) MoveNumber() int { return len(g.hist) }

// Board returns a copy of the board, row-major (index Y*Size+X).
func (g *Game) Board() []Color {
	n := g.b.size
	out := make([]Color, n*n)
	for y := 0; y < n; y++ {
		row := (y+1)*g.b.stride + 1
		copy(out[y*n:(y+1)*n], g.b.cells[row:row+n])
	}
	return out
}

// Phase returns the phase of the game.
func (g *Game) Phase() Phase { return g.st.phase }

// Result returns the result once the game has Ended ("B+R", "Void", or what End was given), else "".
func (g *Game) Result() string { return g.result }

// Prisoners returns the stones c has captured by play (not pass stones, not dead stones at the count).
func (g *Game) Prisoners(c Color) int {
	if c != Black && c != White {
		return 0
	}
	return int(g.st.prisoners[c])
}

// PassStones returns the pass stones c has received from the opponent (AGA rule 7); 0 unless Rules.PassStones.
func (g *Game) PassStones(c Color) int {
	if c != Black && c != White {
		return 0
	}
	return int(g.st.passStones[c])
}

// WhiteOwesPass reports whether the game stopped with Black's pass and White still owes the last pass
// (AGA rule 11). The only legal move then is White's pass.
func (g *Game) WhiteOwesPass() bool { return g.st.whiteOwes }

// AllAlive reports whether four passes in a row after a resumption made every stone alive (AGA rule 10).
// Score then ignores the dead stones it is given.
func (g *Game) AllAlive() bool { return g.st.allAlive }

// Handicap returns the handicap stones placed (nil for an even game).
func (g *Game) Handicap() []Point { return slices.Clone(g.handicap) }

// Komi returns the komi in force: the one set by SetKomi, else HandicapKomi after a handicap, else Rules.Komi.
func (g *Game) Komi() float64 {
	switch {
	case g.komiSet:
		return g.komi
	case len(g.handicap) > 0:
		return g.rules.HandicapKomi
	}
	return g.rules.Komi
}

// SetKomi overrides the komi (for example a tournament's own value, or GTP's komi command).
func (g *Game) SetKomi(k float64) { g.komi, g.komiSet = k, true }

// SetLiteralDame sets Rules.LiteralDame, which only changes how Score reads open dame under art. 8
// (literally, or as filled where that is safe); it changes nothing in play.
func (g *Game) SetLiteralDame(on bool) { g.rules.LiteralDame = on }

// KoPoint returns the point the player to move may not play because of the simple ko rule, if any.
// (Under superko rules the same point is refused as a superko violation.)
func (g *Game) KoPoint() (Point, bool) {
	if g.b.ko == 0 {
		return Point{}, false
	}
	return g.b.point(g.b.ko), true
}

// posKey is the key of the current position in the superko table: the board alone under positional
// superko, the board and the player to move otherwise.
func (g *Game) posKey() uint64 { return g.keyFor(g.b.hash, g.st.toMove) }

func (g *Game) keyFor(hash uint64, toMove Color) uint64 {
	if g.rules.Ko == PositionalSuperko || toMove != White {
		return hash
	}
	return hash ^ sideKey
}

func (g *Game) illegal(r Reason, m Move) *IllegalMoveError {
	return &IllegalMoveError{Reason: r, Move: m, Rules: g.rules.Name, Size: g.b.size, ToMove: g.st.toMove}
}

// Check reports whether m is legal now: nil, or an *IllegalMoveError naming the rule. It does not play.
func (g *Game) Check(m Move) error {
	_, _, err := g.check(m)
	if err != nil {
		return err
	}
	return nil
}

// check is Check returning the cell and the worked-out effect for Play.
func (g *Game) check(m Move) (int, outcome, *IllegalMoveError) {
	switch g.st.phase {
	case Ended:
		return 0, outcome{}, g.illegal(GameEnded, m)
	case Stopped:
		if !(m.Pass && g.st.whiteOwes && m.Color == White) {
			e := g.illegal(GameStopped, m)
			e.Owed = g.st.whiteOwes
			return 0, outcome{}, e
		}
		return 0, outcome{}, nil
	}
	if m.Color != g.st.toMove {
		return 0, outcome{}, g.illegal(WrongPlayer, m)
	}
	if m.Pass {
		return 0, outcome{}, nil
	}
	if !m.Point.In(g.b.size) {
		return 0, outcome{}, g.illegal(OffBoard, m)
	}
	b := g.b
	p := b.idx(m.Point)
	if b.cells[p] != Empty {
		return p, outcome{}, g.illegal(Occupied, m)
	}
	o := b.analyze(p, m.Color)
	if o.suicide && !g.rules.SuicideLegal {
		return p, o, g.illegal(Suicide, m)
	}
	if g.rules.Ko == SimpleKo && p == b.ko {
		e := g.illegal(Ko, m)
		e.KoPoint = m.Point
		return p, o, e
	}
	if g.confirmation && o.captured == 1 {
		for _, ban := range g.st.bans[:g.st.nbans] {
			if int(ban.cell) == p && ban.color == m.Color {
				e := g.illegal(KoConfirmation, m)
				e.KoPoint = m.Point
				return p, o, e
			}
		}
	}
	switch g.rules.Ko {
	case PositionalSuperko:
		if n, ok := g.table.get(o.hash); ok {
			e := g.illegal(ReasonPositionalSuperko, m)
			e.Repeats = n
			return p, o, e
		}
	case SituationalSuperko:
		if n, ok := g.table.get(g.keyFor(o.hash, m.Color.Opponent())); ok {
			e := g.illegal(ReasonSituationalSuperko, m)
			e.Repeats = n
			return p, o, e
		}
	}
	return p, o, nil
}

// Play plays m (a stone, or a pass with Move{Color: c, Pass: true}) if it is legal, and returns the record
// entry; an illegal move returns an *IllegalMoveError and changes nothing.
func (g *Game) Play(m Move) (Played, error) {
	p, _, err := g.check(m)
	if err != nil {
		return Played{}, err
	}
	g.execute(m, p, Move{}, false)
	return g.played(len(g.hist) - 1), nil
}

// Step plays m like Play but builds no record entry (no Played, no captured list), for callers that
// replay many moves and only need to know whether each was legal (an SGF audit). An illegal move
// returns an *IllegalMoveError and changes nothing.
func (g *Game) Step(m Move) error {
	p, _, err := g.check(m)
	if err != nil {
		return err
	}
	g.execute(m, p, Move{}, false)
	return nil
}

// Apply plays m with no legality checks (for records and test positions that need it): colours need not
// alternate, ko and superko are ignored, and a suicide is executed (the mover's chain is removed). Only an
// occupied or off-board point, or a bad colour, is refused. The player to move becomes m's opponent.
func (g *Game) Apply(m Move) (Played, error) {
	if m.Color != Black && m.Color != White {
		return Played{}, ErrBadColor
	}
	p := 0
	if !m.Pass {
		if !m.Point.In(g.b.size) {
			return Played{}, g.illegal(OffBoard, m)
		}
		p = g.b.idx(m.Point)
		if g.b.cells[p] != Empty {
			return Played{}, g.illegal(Occupied, m)
		}
	}
	g.st.toMove = m.Color
	if g.st.phase == Stopped {
		g.clearFills()
		g.st.phase = Playing
	}
	g.execute(m, p, Move{}, false)
	return g.played(len(g.hist) - 1), nil
}

// RetractAndPass applies AGA rule 8: m, an illegal move by the player to move, is retracted and that
// player passes instead (handing over a pass stone when Rules.PassStones). It fails if m is legal, or if m
// is refused for being out of turn or after the stop (then there is no move to retract).
func (g *Game) RetractAndPass(m Move) (Played, error) {
	_, _, err := g.check(m)
	if err == nil {
		return Played{}, ErrMoveIsLegal
	}
	switch err.Reason {
	case WrongPlayer, GameStopped, GameEnded:
		return Played{}, err
	}
	g.execute(Move{Color: m.Color, Pass: true}, 0, m, true)
	return g.played(len(g.hist) - 1), nil
}

// execute plays a checked (or lenient) move and updates the state, the history and the superko table.
func (g *Game) execute(m Move, p int, retracted Move, isRetract bool) {
	b := g.b
	n := len(g.hist)
	if n == cap(g.hist) {
		g.hist = append(g.hist, record{})
	}
	g.hist = g.hist[:n+1]
	// every field is written: the slot may hold an undone record
	rec := &g.hist[n]
	rec.hashBefore, rec.key = b.hash, 0
	rec.capFrom, rec.capOpp, rec.capSelf, rec.repeats = int32(len(g.log)), 0, 0, -1
	rec.cell, rec.koBefore = int16(p), int16(b.ko)
	rec.color, rec.pass, rec.inserted, rec.isRetract = m.Color, m.Pass, false, isRetract
	rec.before = g.st
	if isRetract {
		if g.retracted == nil {
			g.retracted = map[int]Move{}
		}
		g.retracted[len(g.hist)] = retracted
	}
	c, opp := m.Color, m.Color.Opponent()
	st := &g.st
	if m.Pass {
		b.ko = 0
		st.passRun++
		if g.rules.PassStones {
			st.passStones[opp]++
		}
		if st.whiteOwes {
			st.whiteOwes = false
		} else {
			st.stopPasses++
			if st.stopPasses >= 2 && !g.confirmation {
				st.phase = Stopped
				st.whiteOwes = g.rules.WhiteMovesLast && c == Black
			}
		}
		if st.resumed && st.passRun >= 4 {
			st.allAlive = true
		}
		if g.confirmation && st.nbans > 0 {
			// Art. 7.2: a pass lifts the ban of one ko, the one it is for (PassForKo), else the
			// mover's oldest; the mover's other kos stay banned until a pass for each.
			var kept [4]koBan
			k, lifted := int8(0), false
			for _, ban := range st.bans[:st.nbans] {
				if !lifted && ban.color == c && (g.passKo == 0 || int(ban.cell) == g.passKo) {
					lifted = true
					continue
				}
				kept[k] = ban
				k++
			}
			st.bans, st.nbans = kept, k
		}
	} else {
		capO, capS := b.play(p, c, &g.log)
		rec.capOpp, rec.capSelf = int32(capO), int32(capS)
		st.prisoners[c] += int32(capO)
		st.prisoners[opp] += int32(capS)
		st.stopPasses, st.passRun = 0, 0
		if g.confirmation && capO == 1 && b.ko != 0 {
			if int(st.nbans) == len(st.bans) {
				copy(st.bans[:], st.bans[1:])
				st.nbans--
			}
			st.bans[st.nbans] = koBan{cell: int16(b.ko), color: opp}
			st.nbans++
		}
	}
	st.toMove = opp
	if st.whiteOwes {
		st.toMove = White
	}
	rec.key = g.keyFor(b.hash, opp)
	rep, ins := g.table.insert(rec.key, len(g.hist))
	rec.inserted = ins
	rec.repeats = int32(rep)
	if ins {
		rec.repeats = -1
	}
}

// played converts history entry i to a Played.
func (g *Game) played(i int) Played {
	r := &g.hist[i]
	pl := Played{Move: g.recMove(r), Number: i + 1}
	if r.isRetract {
		m := g.retracted[i+1]
		pl.Retracted = &m
	}
	if r.capOpp > 0 {
		pl.Captured = make([]Point, r.capOpp)
		for k := range pl.Captured {
			pl.Captured[k] = g.b.point(int(g.log[int(r.capFrom)+k]))
		}
	}
	return pl
}

// Moves returns the record so far.
func (g *Game) Moves() []Played {
	out := make([]Played, len(g.hist))
	for i := range g.hist {
		out[i] = g.played(i)
	}
	return out
}

// Repetition reports whether the last move, a stone, recreated an earlier whole-board position with the
// same player to move (under positional superko: the same board), and after which move it first stood.
// Under simple ko such cycles are legal; Japanese art. 12 lets the players end the game with no result
// (EndVoid) when they agree.
func (g *Game) Repetition() (earlier int, ok bool) {
	if len(g.hist) == 0 {
		return 0, false
	}
	r := &g.hist[len(g.hist)-1]
	if r.pass || r.inserted {
		return 0, false
	}
	return int(r.repeats), true
}

// Undo takes back the last move and restores everything it changed (dame stones placed after the
// stop, FillDame, are taken off first).
func (g *Game) Undo() error {
	if len(g.hist) == 0 {
		return ErrNothingToUndo
	}
	g.clearFills()
	r := g.hist[len(g.hist)-1]
	g.hist = g.hist[:len(g.hist)-1]
	if r.inserted {
		g.table.remove(r.key)
	}
	b := g.b
	if r.isRetract {
		delete(g.retracted, len(g.hist)+1)
	}
	if !r.pass {
		c := r.color
		cell := int(r.cell)
		b.cells[cell] = Empty
		caps := g.log[r.capFrom:]
		for k := 0; k < int(r.capOpp); k++ {
			b.cells[caps[k]] = c.Opponent()
		}
		for k := int(r.capOpp); k < int(r.capOpp+r.capSelf); k++ {
			if int(caps[k]) != cell {
				b.cells[caps[k]] = c
			}
		}
		b.rebuild()
	}
	g.log = g.log[:r.capFrom]
	b.hash = r.hashBefore
	b.ko = int(r.koBefore)
	g.st = r.before
	if g.st.phase != Ended {
		g.result = ""
	}
	return nil
}

// Setup puts stones on the board before the first move (a problem position or a record's AB/AW), with
// no captures, and sets the player to move. The position becomes move 0's position for superko.
func (g *Game) Setup(black, white []Point, toMove Color) error {
	if len(g.hist) > 0 {
		return fmt.Errorf("setup: %w", ErrHandicapLate)
	}
	if toMove != Black && toMove != White {
		return ErrBadColor
	}
	for _, set := range [2][]Point{black, white} {
		for _, p := range set {
			if !p.In(g.b.size) {
				return fmt.Errorf("setup: %w: %v", ErrBadPoint, p)
			}
		}
	}
	for _, p := range black {
		g.b.cells[g.b.idx(p)] = Black
	}
	for _, p := range white {
		g.b.cells[g.b.idx(p)] = White
	}
	g.b.rebuild()
	g.b.ko = 0
	g.st.toMove = toMove
	g.table.reset()
	g.table.insert(g.posKey(), 0)
	return nil
}

// FixedHandicapPoints returns where n fixed handicap stones go on a size x size board, in placing order:
// AGA rule 4's order on 19x19 (Q16, D4, Q4, D16, Q10, D10, K16, K4, K10; 5 and 7 stones add K10 to the
// first 4 and 6) and the same pattern on the star points of other boards (4th line from 13x13 up, 3rd
// line below). 7x7 and even sizes take at most 4 stones; boards under 7x7 none.
func FixedHandicapPoints(size, n int) ([]Point, error) { return handicapPoints(size, n) }

// handicapPoints returns the fixed handicap points for n stones: AGA rule 4's order on 19x19 (Q16, D4, Q4,
// D16, Q10, D10, K16, K4, K10) and the same pattern on the star points of other boards.
func handicapPoints(size, n int) ([]Point, error) {
	maxN := 9
	if size < 7 {
		return nil, fmt.Errorf("%w: no fixed handicap on %dx%d", ErrBadHandicap, size, size)
	}
	if size%2 == 0 || size == 7 {
		maxN = 4
	}
	if n < 2 || n > maxN {
		return nil, fmt.Errorf("%w: %d stones (%d..%d on %dx%d)", ErrBadHandicap, n, 2, maxN, size, size)
	}
	e := 3
	if size < 13 {
		e = 2
	}
	lo, hi, mid := e, size-1-e, size/2
	star := [9]Point{{hi, lo}, {lo, hi}, {hi, hi}, {lo, lo}, {hi, mid}, {lo, mid}, {mid, lo}, {mid, hi}, {mid, mid}}
	var idx []int
	switch n {
	case 5:
		idx = []int{0, 1, 2, 3, 8}
	case 7:
		idx = []int{0, 1, 2, 3, 4, 5, 8}
	default:
		for i := 0; i < n; i++ {
			idx = append(idx, i)
		}
	}
	out := make([]Point, len(idx))
	for i, k := range idx {
		out[i] = star[k]
	}
	return out, nil
}

// PlaceFixedHandicap puts n handicap stones (2..9) on the fixed points and gives White the move.
func (g *Game) PlaceFixedHandicap(n int) ([]Point, error) {
	ps, err := handicapPoints(g.b.size, n)
	if err != nil {
		return nil, err
	}
	if err := g.PlaceFreeHandicap(ps); err != nil {
		return nil, err
	}
	return ps, nil
}

// PlaceFreeHandicap puts Black's handicap stones on the given points (at least 2, distinct) on an empty
// board before the first move, and gives White the move.
func (g *Game) PlaceFreeHandicap(ps []Point) error {
	if len(g.hist) > 0 || len(g.handicap) > 0 {
		return ErrHandicapLate
	}
	for _, c := range g.Board() {
		if c != Empty {
			return ErrHandicapLate
		}
	}
	if len(ps) < 2 || len(ps) >= g.b.size*g.b.size {
		return fmt.Errorf("%w: %d stones", ErrBadHandicap, len(ps))
	}
	seen := map[Point]bool{}
	for _, p := range ps {
		if !p.In(g.b.size) {
			return fmt.Errorf("%w: %w: %v", ErrBadHandicap, ErrBadPoint, p)
		}
		if seen[p] {
			return fmt.Errorf("%w: %s twice", ErrBadHandicap, p.GTP(g.b.size))
		}
		seen[p] = true
	}
	if err := g.Setup(ps, nil, White); err != nil {
		return err
	}
	g.handicap = slices.Clone(ps)
	return nil
}

// Resume restarts a stopped game after a disagreement about the dead stones. Under
// ResumeOpponentOfLastPasser (AGA rule 10) the opponent of the player who passed last moves first; under
// ResumeOtherThanRequester (Japanese art. 9.3) the requester's opponent moves first. Prisoners taken
// afterwards count as usual; see AllAlive for the four-pass rule. Dame stones placed after the stop
// (FillDame) are taken off: they were not moves.
func (g *Game) Resume(requester Color) error {
	if requester != Black && requester != White {
		return ErrBadColor
	}
	if g.st.phase != Stopped {
		return ErrNotStopped
	}
	first := requester.Opponent()
	if g.rules.Resumption == ResumeOpponentOfLastPasser {
		first = Black
		for i := len(g.hist) - 1; i >= 0; i-- {
			if g.hist[i].pass {
				first = g.hist[i].color.Opponent()
				break
			}
		}
	}
	g.clearFills()
	g.st.phase = Playing
	g.st.stopPasses = 0
	g.st.whiteOwes = false
	g.st.resumed = true
	g.st.toMove = first
	return nil
}

// Resign ends the game: the other player wins ("W+R" or "B+R").
func (g *Game) Resign(c Color) error {
	if c != Black && c != White {
		return ErrBadColor
	}
	if g.st.phase == Ended {
		return ErrGameEnded
	}
	g.st.phase = Ended
	g.result = "B+R"
	if c == Black {
		g.result = "W+R"
	}
	return nil
}

// EndVoid ends the game with no result ("Void"), as Japanese art. 12 allows when a whole-board position
// repeats (triple ko, eternal life) and both players agree; see Repetition.
func (g *Game) EndVoid() error {
	if g.st.phase == Ended {
		return ErrGameEnded
	}
	g.st.phase = Ended
	g.result = "Void"
	return nil
}

// End ends the game with a result in SGF form (for example Score(dead).Result once both agree).
func (g *Game) End(result string) error {
	if g.st.phase == Ended {
		return ErrGameEnded
	}
	g.st.phase = Ended
	g.result = result
	return nil
}

// Confirmation returns a copy of a stopped game in which the players may play out disputed life and death
// (Japanese art. 7.2) starting with first: a ko captured there may be retaken only after the player passed
// for it. The copy is a sandbox; the real game is not changed.
func (g *Game) Confirmation(first Color) (*Game, error) {
	if g.st.phase != Stopped {
		return nil, ErrNoConfirmation
	}
	if first != Black && first != White {
		return nil, ErrBadColor
	}
	c := g.clone()
	c.confirmation = c.rules.ConfirmationKo
	c.st.phase = Playing
	c.st.stopPasses = 0
	c.st.whiteOwes = false
	c.st.toMove = first
	return c, nil
}

// clone deep-copies the game.
func (g *Game) clone() *Game {
	c := *g
	nb := *g.b
	nb.cells = slices.Clone(g.b.cells)
	nb.head = slices.Clone(g.b.head)
	nb.next = slices.Clone(g.b.next)
	nb.libs = slices.Clone(g.b.libs)
	nb.stones = slices.Clone(g.b.stones)
	c.b = &nb
	c.hist = slices.Clone(g.hist)
	c.log = slices.Clone(g.log)
	c.table = g.table.clone()
	c.handicap = slices.Clone(g.handicap)
	c.fills = slices.Clone(g.fills)
	if g.retracted != nil {
		c.retracted = make(map[int]Move, len(g.retracted))
		for k, v := range g.retracted {
			c.retracted[k] = v
		}
	}
	return &c
}

// Chain returns every stone of the chain at p (nil if p is empty or off the board), for marking dead groups.
func (g *Game) Chain(p Point) []Point {
	if !p.In(g.b.size) {
		return nil
	}
	i := g.b.idx(p)
	if c := g.b.cells[i]; c != Black && c != White {
		return nil
	}
	h := int(g.b.head[i])
	var out []Point
	s := h
	for {
		out = append(out, g.b.point(s))
		s = int(g.b.next[s])
		if s == h {
			return out
		}
	}
}

// IsLegal reports whether c may play at p now (a convenience over Check).
func (g *Game) IsLegal(c Color, p Point) bool { return g.Check(Move{Color: c, Point: p}) == nil }

// IsOwnEye reports whether the empty point p is a single-point eye of c (used by the GTP referee's random
// player to avoid filling its own eyes).
func (g *Game) IsOwnEye(c Color, p Point) bool {
	if !p.In(g.b.size) || g.b.cells[g.b.idx(p)] != Empty {
		return false
	}
	return g.b.isOwnEye(g.b.idx(p), c)
}

// CheckAs checks m as if it were m.Color's turn in a game still being played: only the board rules
// (occupied, suicide, ko, superko) apply. GTP's is_legal and a referee's "what if" use it.
func (g *Game) CheckAs(m Move) error {
	if m.Color != Black && m.Color != White {
		return ErrBadColor
	}
	saved := g.st
	defer func() { g.st = saved }()
	g.st.toMove = m.Color
	g.st.phase = Playing
	_, _, err := g.check(m)
	if err != nil {
		return err
	}
	return nil
}

// recMove rebuilds the Move of a history record.
func (g *Game) recMove(r *record) Move {
	if r.pass {
		return Move{Color: r.color, Pass: true}
	}
	return Move{Color: r.color, Point: g.b.point(int(r.cell))}
}
