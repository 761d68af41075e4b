package demo

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/engine/sgf"
)

// gameSGF is the built-in demo game: a 9x9 game under AGA rules with a capture, a ko, passes and two
// dead stones.
//
//go:embed game.sgf
var gameSGF []byte

// GameSGF returns the built-in demo game record.
func GameSGF() []byte { return append([]byte(nil), gameSGF...) }

// Button is a table button the demo presses: the clock's own (clock.BlackClock, WhiteClock,
// PassButton).
type Button = clock.Button

// The buttons the demo presses.
const (
	BlackClock = clock.BlackClock
	WhiteClock = clock.WhiteClock
	PassButton = clock.PassButton
)

// ActionKind says what an Action does.
type ActionKind int8

// What the demo does besides what the camera sees.
const (
	// PressButton: a player presses Action.Button.
	PressButton ActionKind = iota + 1
	// ToggleDead: a player taps the counting screen on Action.Point to mark its group dead (or alive).
	ToggleDead
)

// Action is a scripted button press or screen tap at a moment of the demo.
type Action struct {
	At     time.Duration // from the start of the demo
	Kind   ActionKind
	Button Button       // for PressButton
	Point  engine.Point // for ToggleDead
	Note   string       // what is happening, for the log
}

// Pace sets how fast the demo's players move.
type Pace struct {
	Reach  time.Duration // moving the hand in over the board (and out again)
	Dwell  time.Duration // the hand resting on the point while the stone is set down
	Settle time.Duration // the board still and clear before the clock is pressed
	After  time.Duration // after the press, before the next player reaches in
	Slow   time.Duration // how long a forgotten capture or an illegal stone stays on the board
}

// DefaultPace is a calm, realistic pace: about four seconds a move.
func DefaultPace() Pace {
	return Pace{Reach: 900 * time.Millisecond, Dwell: 600 * time.Millisecond, Settle: 1800 * time.Millisecond,
		After: 1500 * time.Millisecond, Slow: 4 * time.Second}
}

// Choreography is what the demo's players do besides playing the record's moves.
type Choreography struct {
	// ForgetCaptureAt is the move number whose captured stones the player forgets to remove: the clock
	// is pressed with them still on the board, and they come off after Pace.Slow; 0 for none.
	ForgetCaptureAt int
	// IllegalKoAt is the move number of a pass in the record that is the penalty for an illegal ko
	// retake (AGA rule 8: the stone is taken back and the offender passes). The player puts the stone
	// on the point the opponent just captured, takes the capturing stone off and presses the clock;
	// after Pace.Slow both stones are put back as they were. The move before it must have captured
	// exactly one stone. 0 for none.
	IllegalKoAt int
	// Dead are points of the stones the players tap as dead on the counting screen, one tap per group.
	Dead []engine.Point
}

// DefaultChoreography is what the built-in game is played with.
func DefaultChoreography() Choreography {
	return Choreography{ForgetCaptureAt: 19, IllegalKoAt: 22, Dead: []engine.Point{{X: 2, Y: 2}}}
}

// Script is the demo's timeline: what the camera sees at every moment (the physical board and the
// hands over it) and the button presses and taps at their times. It is plain data, built once.
type Script struct {
	Record   *sgf.Record
	Size     int
	segments []segment
	actions  []Action
	end      time.Duration
}

// segment is a span of time during which the board does not change and the hand (if any) moves
// linearly from one pose to another.
type segment struct {
	start, end time.Duration
	stones     []Stone
	hand       *handMove
}

type handMove struct {
	player                  Stone
	fromCol, fromRow, fromR float64
	toCol, toRow, toR       float64
	holding                 bool
}

// Default returns the built-in demo: the embedded game at the default pace and choreography.
func Default() (*Script, error) {
	return New(gameSGF, DefaultPace(), DefaultChoreography())
}

// New builds a script from an SGF game record. The record must start from an empty board (no setup
// stones), and its moves must be legal; captured stones are taken off as players do.
func New(sgfData []byte, p Pace, ch Choreography) (*Script, error) {
	rec, err := sgf.ReadRecord(sgfData)
	if err != nil {
		return nil, fmt.Errorf("demo: reading the game: %w", err)
	}
	if len(rec.Setup) > 0 || rec.Handicap > 0 {
		return nil, errors.New("demo: the game must start from an empty board (no setup or handicap stones)")
	}
	if rec.Size < 2 || rec.Size > 25 {
		return nil, fmt.Errorf("demo: board size %d out of range 2..25", rec.Size)
	}
	b := &builder{size: rec.Size, pace: p, board: make([]Stone, rec.Size*rec.Size)}
	b.idle(1500*time.Millisecond, "")
	b.press(WhiteClock, "White starts Black's clock")
	b.idle(p.After, "")
	number := 0
	var lastCaptured []engine.Point
	for _, m := range rec.Moves {
		if !m.IsMove() {
			continue
		}
		number++
		player := Black
		if m.Color == engine.White {
			player = White
		}
		clockButton := BlackClock
		if player == White {
			clockButton = WhiteClock
		}
		if number == ch.IllegalKoAt {
			if !m.Pass {
				return nil, fmt.Errorf("demo: move %d is not the pass an illegal ko retake turns into", number)
			}
			if len(lastCaptured) != 1 {
				return nil, fmt.Errorf("demo: move %d captured %d stones, not a ko", number-1, len(lastCaptured))
			}
			b.illegalKo(player, lastCaptured[0], clockButton)
			lastCaptured = nil
			continue
		}
		if m.Pass {
			// A pass comes after a moment's thought: the referee has settled the previous press.
			b.idle(p.Settle, "")
			b.press(PassButton, fmt.Sprintf("%v passes (move %d)", m.Color, number))
			b.idle(p.After, "")
			lastCaptured = nil
			continue
		}
		note := fmt.Sprintf("%v plays %s (move %d)", m.Color, m.Point.GTP(rec.Size), number)
		captured, err := b.play(player, m.Point, number == ch.ForgetCaptureAt, clockButton, note)
		if err != nil {
			return nil, fmt.Errorf("demo: move %d: %w", number, err)
		}
		lastCaptured = captured
	}
	// Counting: the players mark the dead groups, then both confirm with their clock buttons.
	b.idle(3*time.Second, "")
	for _, d := range ch.Dead {
		if !d.In(rec.Size) {
			return nil, fmt.Errorf("demo: dead point %v is off the board", d)
		}
		b.actions = append(b.actions, Action{At: b.t, Kind: ToggleDead, Point: d,
			Note: fmt.Sprintf("the group at %s is marked dead", d.GTP(rec.Size))})
		b.idle(2*time.Second, "")
	}
	b.press(BlackClock, "Black agrees to the count")
	b.idle(1500*time.Millisecond, "")
	b.press(WhiteClock, "White agrees to the count")
	b.idle(5*time.Second, "")
	return &Script{Record: rec, Size: rec.Size, segments: b.segs, actions: b.actions, end: b.t}, nil
}

// Until returns the script cut at d: the actions up to d, and the picture at d kept from then on.
// The kiosk uses it to show a game standing still (for measurements).
func (s *Script) Until(d time.Duration) *Script {
	out := &Script{Record: s.Record, Size: s.Size, end: min(d, s.end)}
	for _, seg := range s.segments {
		if seg.start >= d {
			break
		}
		if seg.end > d {
			seg.end = d
		}
		out.segments = append(out.segments, seg)
	}
	if len(out.segments) == 0 && len(s.segments) > 0 {
		first := s.segments[0]
		first.end = first.start
		out.segments = append(out.segments, first)
	}
	// After the cut the picture stays: a still board, no hand.
	if n := len(out.segments); n > 0 && out.segments[n-1].hand != nil {
		last := out.segments[n-1]
		last.start, last.hand = last.end, nil
		out.segments = append(out.segments, last)
	}
	for _, a := range s.actions {
		if a.At <= d {
			out.actions = append(out.actions, a)
		}
	}
	return out
}

// Duration is the length of the demo; after it the last picture stays.
func (s *Script) Duration() time.Duration { return s.end }

// Actions returns the presses and taps in time order.
func (s *Script) Actions() []Action { return append([]Action(nil), s.actions...) }

// SceneAt returns what the camera sees d after the start (Frame left zero).
func (s *Script) SceneAt(d time.Duration) Scene {
	return s.sceneAt(d, new(Hand))
}

// sceneAt is SceneAt writing the hand, when there is one, into hand: the camera reuses one Hand
// between frames rather than allocating one per frame.
func (s *Script) sceneAt(d time.Duration, hand *Hand) Scene {
	i := sort.Search(len(s.segments), func(i int) bool { return s.segments[i].end > d })
	if i == len(s.segments) {
		last := s.segments[len(s.segments)-1]
		return Scene{Size: s.Size, Stones: last.stones}
	}
	seg := s.segments[i]
	sc := Scene{Size: s.Size, Stones: seg.stones}
	if hm := seg.hand; hm != nil {
		f := 1.0
		if seg.end > seg.start {
			f = float64(d-seg.start) / float64(seg.end-seg.start)
		}
		f = clamp01(f)
		f = f * f * (3 - 2*f) // ease in and out
		*hand = Hand{Player: hm.player, Holding: hm.holding,
			Col:   hm.fromCol + (hm.toCol-hm.fromCol)*f,
			Row:   hm.fromRow + (hm.toRow-hm.fromRow)*f,
			Reach: hm.fromR + (hm.toR-hm.fromR)*f}
		sc.Hand = hand
	}
	return sc
}

// Positions returns every distinct board the camera sees during the demo, in order (boards seen with
// a hand over them included).
func (s *Script) Positions() [][]Stone {
	var out [][]Stone
	for _, seg := range s.segments {
		if len(out) > 0 && equalStones(out[len(out)-1], seg.stones) {
			continue
		}
		out = append(out, seg.stones)
	}
	return out
}

// StillPositions returns the boards the camera sees with no hand over them for at least d: those a
// stable reading must report.
func (s *Script) StillPositions(d time.Duration) [][]Stone {
	var out [][]Stone
	var run time.Duration
	for i, seg := range s.segments {
		if seg.hand != nil {
			run = 0
			continue
		}
		if i > 0 && s.segments[i-1].hand == nil && equalStones(s.segments[i-1].stones, seg.stones) {
			run += seg.end - seg.start
		} else {
			run = seg.end - seg.start
		}
		if run >= d && (len(out) == 0 || !equalStones(out[len(out)-1], seg.stones)) {
			out = append(out, seg.stones)
		}
	}
	return out
}

func equalStones(a, b []Stone) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// builder lays the timeline down segment by segment.
type builder struct {
	size    int
	pace    Pace
	board   []Stone // the physical board now; copied into each segment
	t       time.Duration
	segs    []segment
	actions []Action
	// where the current hand is, when one is over the board
	handCol, handRow float64
}

func (b *builder) snapshot() []Stone { return append([]Stone(nil), b.board...) }

func (b *builder) add(d time.Duration, hm *handMove) {
	if d <= 0 {
		return
	}
	// Share the board slice with the previous segment when nothing changed.
	st := b.board
	if n := len(b.segs); n > 0 && equalStones(b.segs[n-1].stones, b.board) {
		st = b.segs[n-1].stones
	} else {
		st = b.snapshot()
	}
	b.segs = append(b.segs, segment{start: b.t, end: b.t + d, stones: st, hand: hm})
	b.t += d
}

func (b *builder) idle(d time.Duration, _ string) { b.add(d, nil) }

func (b *builder) press(btn Button, note string) {
	b.actions = append(b.actions, Action{At: b.t, Kind: PressButton, Button: btn, Note: note})
}

// reachIn moves the player's hand from outside the picture onto (col,row).
func (b *builder) reachIn(player Stone, p engine.Point, holding bool) {
	c, r := float64(p.X), float64(p.Y)
	b.add(b.pace.Reach, &handMove{player: player, fromCol: c, fromRow: r, toCol: c, toRow: r, fromR: 0, toR: 1, holding: holding})
	b.handCol, b.handRow = c, r
}

// moveTo slides the hand over the board to another point.
func (b *builder) moveTo(player Stone, p engine.Point, holding bool) {
	c, r := float64(p.X), float64(p.Y)
	b.add(b.pace.Reach/2, &handMove{player: player, fromCol: b.handCol, fromRow: b.handRow, toCol: c, toRow: r, fromR: 1, toR: 1, holding: holding})
	b.handCol, b.handRow = c, r
}

// rest keeps the hand still on its point.
func (b *builder) rest(player Stone, d time.Duration, holding bool) {
	b.add(d, &handMove{player: player, fromCol: b.handCol, fromRow: b.handRow, toCol: b.handCol, toRow: b.handRow, fromR: 1, toR: 1, holding: holding})
}

// withdraw takes the hand back out of the picture.
func (b *builder) withdraw(player Stone) {
	b.add(b.pace.Reach, &handMove{player: player, fromCol: b.handCol, fromRow: b.handRow, toCol: b.handCol, toRow: b.handRow, fromR: 1, toR: 0})
}

// place sets a stone down with the hand: reach in holding it, rest, let go.
func (b *builder) place(player Stone, p engine.Point) {
	b.reachIn(player, p, true)
	b.rest(player, b.pace.Dwell/2, true)
	b.board[p.Y*b.size+p.X] = player
	b.rest(player, b.pace.Dwell/2, false)
}

// takeOff picks the stones up one by one with the hand already over the board.
func (b *builder) takeOff(player Stone, pts []engine.Point) {
	for _, q := range pts {
		b.moveTo(player, q, false)
		b.rest(player, b.pace.Dwell/2, false)
		b.board[q.Y*b.size+q.X] = Empty
		b.rest(player, b.pace.Dwell/4, false)
	}
}

// play puts a stone down, takes the stones it captures off and presses the clock. A player who
// forgets presses the clock with the captured stones still on the board and takes them off Pace.Slow
// later. It returns the captured points.
func (b *builder) play(player Stone, p engine.Point, forget bool, btn Button, note string) ([]engine.Point, error) {
	if !p.In(b.size) {
		return nil, fmt.Errorf("%v is off the board", p)
	}
	if b.board[p.Y*b.size+p.X] != Empty {
		return nil, fmt.Errorf("%s is occupied", p.GTP(b.size))
	}
	b.place(player, p)
	pl := placedAt(b.board, b.size, p)
	captured := pl.Captured
	if len(pl.Suicide) > 0 {
		return nil, fmt.Errorf("%s is suicide", p.GTP(b.size))
	}
	if len(captured) > 0 && !forget {
		b.takeOff(player, captured)
	}
	b.withdraw(player)
	b.idle(b.pace.Settle, "")
	b.press(btn, note)
	if len(captured) > 0 && forget {
		b.idle(b.pace.Slow, "")
		b.reachIn(player, captured[0], false)
		b.takeOff(player, captured)
		b.withdraw(player)
		b.idle(b.pace.Settle, "")
	}
	b.idle(b.pace.After, "")
	return captured, nil
}

// illegalKo has the player retake the ko at once: the stone goes down on the point the opponent just
// captured, the opponent's capturing stone comes off, and the clock is pressed. After Pace.Slow the
// player takes the stone back and returns the opponent's stone.
func (b *builder) illegalKo(player Stone, at engine.Point, btn Button) {
	b.place(player, at)
	captured := capturedBy(b.board, b.size, at)
	b.takeOff(player, captured)
	b.withdraw(player)
	b.idle(b.pace.Settle, "")
	b.press(btn, fmt.Sprintf("%v retakes the ko at %s at once (illegal)", player, at.GTP(b.size)))
	b.idle(b.pace.Slow, "")
	b.reachIn(player, at, false)
	b.rest(player, b.pace.Dwell/2, false)
	b.board[at.Y*b.size+at.X] = Empty
	b.rest(player, b.pace.Dwell/4, true)
	for _, q := range captured {
		b.moveTo(player, q, true)
		b.rest(player, b.pace.Dwell/2, true)
		b.board[q.Y*b.size+q.X] = player.Opponent()
		b.rest(player, b.pace.Dwell/4, false)
	}
	b.withdraw(player)
	b.idle(b.pace.Settle+b.pace.After, "")
}

// capturedBy returns the opponent stones left without liberties by the stone just placed at p
// (the rules engine's capture rule).
func capturedBy(board []Stone, size int, p engine.Point) []engine.Point {
	return placedAt(board, size, p).Captured
}

// placedAt is what the stone just placed at p did, by the rules engine's capture rule.
func placedAt(board []Stone, size int, p engine.Point) engine.Placement {
	b := slices.Clone(board)
	c := b[p.Y*size+p.X]
	b[p.Y*size+p.X] = Empty
	pl, err := engine.Place(b, size, p, c)
	if err != nil {
		return engine.Placement{}
	}
	return pl
}
