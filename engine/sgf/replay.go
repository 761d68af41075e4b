package sgf

import (
	"errors"
	"fmt"

	"tengen/engine"
)

// Replay is a game record played through the engine under one ruleset: the final position, and
// everything an audit reports about the record on the way.
type Replay struct {
	Game        *engine.Game // the position after the last move of the main line
	Moves       int          // moves in the main line (stones and passes)
	Illegal     []Illegal    // moves the ruleset forbids, in order
	Notes       []Note       // irregularities that are not rule violations (see ReplayGame)
	Repetitions []Repetition // stones that recreated an earlier whole-board position (legal under simple ko)
}

// Illegal is one move of a record that the rules forbid.
type Illegal struct {
	Number int                      // move number in the record (1 = first move, passes count)
	Move   engine.Move              // the move as recorded
	Err    *engine.IllegalMoveError // the engine's reason; Err.Error() cites the rule
	Offset int                      // byte offset of the move's node in the file
}

// Note is an irregularity of a record that the replay worked around.
type Note struct {
	Number int // move number it concerns (0 = before the first move)
	Text   string
}

// Repetition is a move after which the whole board (with the same player to move) repeats the
// position that stood after move Earlier (0 = the starting position).
type Repetition struct {
	Number  int
	Move    engine.Move
	Earlier int
}

// ReplayGame replays the main line of the game rooted at root under rules and reports its illegal
// moves. The record's moves are taken as what happened: an illegal move is reported and then played
// anyway (without checks) so that the rest of the game replays as recorded; one on an occupied point
// cannot be played and is skipped. Irregular records are replayed as follows and noted:
//   - setup stones in nodes after the root and before the first move (handicap placed in node 1) join
//     the starting position;
//   - setup stones after the first move start a fresh position from the current board (the superko
//     history and prisoner counts restart there);
//   - the same colour moving twice in a row: the turn is handed over without inventing a pass;
//   - a stone after the game stopped with two passes: play resumes with that stone.
//
// Black setup stones only, at least two, with HA absent or equal to their number, are placed as free
// handicap (so that the ruleset's handicap komi and bonus apply). When the record has KM, that komi
// is used; otherwise the ruleset's.
//
// The error is a *SyntaxError for an unreadable record, or the engine's error when the board size
// or the setup cannot be played.
func ReplayGame(root *Node, rules engine.Rules) (*Replay, *Record, error) {
	r, err := GameInfo(root)
	if err != nil {
		return nil, nil, err
	}
	rp := &replayer{rec: r, rules: rules}
	rp.addPending(r.Setup)
	for m, err := range r.MainLine(root) {
		if err != nil {
			return nil, r, err
		}
		if err := rp.step(m); err != nil {
			return nil, r, err
		}
	}
	if err := rp.start(engine.Black); err != nil {
		return nil, r, err
	}
	return &rp.out, r, nil
}

// ReplayAll replays every game of the SGF collection in data as ReplayGame does, but streaming: the
// text is read once, node by node, and no tree is built, so memory stays small however many games a
// file holds. For each complete game it calls fn with the game's number (1 = first), its replay (nil
// when err is set), its game information (Moves left empty; only GameName when the root cannot be
// read) and the game's own error. rulesFor picks each game's ruleset from its game information (its RU, say).
// When the text stops parsing, ReplayAll returns the *SyntaxError; the games before that point have
// been reported, the one it interrupts has not. The Replay (and its Game) handed to fn is valid only
// until fn returns: ReplayAll resets and reuses the Game for the next game of the collection.
func ReplayAll(data []byte, rulesFor func(*Record) engine.Rules, fn func(game int, rp *Replay, rec *Record, err error)) error {
	var c Checker
	return c.ReplayAll(data, rulesFor, fn)
}

// Checker replays SGF collections one after another as ReplayAll does, keeping the engine.Game and the
// parser's buffers between calls: auditing thousands of one-game files then allocates a game once
// rather than once a file. The zero Checker is ready to use. A Checker is not safe for concurrent use.
type Checker struct {
	// MaxGames, when above zero, bounds the games of a collection: ReplayAll stops with a
	// *SyntaxError at the game after the last one allowed (a file of tiny game trees would otherwise
	// take as long as it is large).
	MaxGames int

	spare *engine.Game // the last game's Game, reset for the next one once fn has returned
	props []Property
	vals  []string
}

// ReplayAll is the package's ReplayAll, reusing the Checker's game and buffers. The Replay (and its
// Game) handed to fn is valid only until fn returns.
func (c *Checker) ReplayAll(data []byte, rulesFor func(*Record) engine.Rules, fn func(game int, rp *Replay, rec *Record, err error)) error {
	if c.props == nil {
		c.props, c.vals = make([]Property, 0, 64), make([]string, 0, 64)
	}
	p := parser{src: string(data), props: c.props[:0], vals: c.vals[:0]}
	var (
		game  int
		rec   *Record
		rp    *replayer
		gerr  error
		count lineCount
		spare = c.spare
	)
	c.spare = nil
	p.visit = func(n *Node, root bool) error {
		if root {
			game++
			if c.MaxGames > 0 && game > c.MaxGames {
				return syntaxErr(n.Offset, "more than %d games in one collection", c.MaxGames)
			}
			rp, count = nil, lineCount{}
			if rec, gerr = GameInfo(n); gerr != nil {
				gn, _ := n.Get("GN")
				rec = &Record{GameName: gn}
				return nil
			}
			rp = &replayer{rec: rec, rules: rulesFor(rec), spare: spare}
			spare = nil
			rp.addPending(rec.Setup)
			count.setup = len(rec.Setup)
		}
		if gerr != nil {
			return nil
		}
		m, ok, err := rec.mainLineNode(n, root, &count)
		switch {
		case err != nil:
			gerr = err
		case ok:
			gerr = rp.step(m)
		}
		return nil
	}
	p.endGame = func() {
		if gerr == nil {
			gerr = rp.start(engine.Black)
		}
		if gerr != nil {
			fn(game, nil, rec, gerr)
		} else {
			fn(game, &rp.out, rec, nil)
		}
		if rp != nil {
			spare = rp.g
			if spare == nil {
				spare = rp.spare
			}
		}
		rec, rp, gerr = nil, nil, nil
	}
	_, err := p.parse()
	c.spare = spare
	// keep the buffers (grown, if a file needed it) but not the strings of this file
	clear(p.props[:cap(p.props)])
	clear(p.vals[:cap(p.vals)])
	c.props, c.vals = p.props[:0], p.vals[:0]
	return err
}

// ReplayRecord replays a record built in code or read earlier, as ReplayGame does. A record whose
// points are off its board is refused with an error.
func ReplayRecord(r *Record, rules engine.Rules) (*Replay, error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	rp := &replayer{rec: r, rules: rules}
	rp.addPending(r.Setup)
	for _, m := range r.Moves {
		if err := rp.step(m); err != nil {
			return nil, err
		}
	}
	if err := rp.start(engine.Black); err != nil {
		return nil, err
	}
	return &rp.out, nil
}

type replayer struct {
	rec     *Record
	rules   engine.Rules
	g       *engine.Game
	spare   *engine.Game   // a finished game start may Reset and reuse (nil: none)
	pending []engine.Color // the starting position's setup stones so far (nil: none)
	onlyAB  bool           // the setup so far is black stones only (AB)
	out     Replay
}

// start creates the game from the pending setup stones, with toMove to play, unless it exists.
func (rp *replayer) start(toMove engine.Color) error {
	if rp.g != nil {
		return nil
	}
	g, err := rp.newGame()
	if err != nil {
		return err
	}
	rp.g = g
	rp.out.Game = g
	if rp.rec.HasKomi {
		g.SetKomi(rp.rec.Komi)
	}
	if rp.pending == nil {
		return g.SetToMove(toMove)
	}
	black, white, _ := collectSetup(rp.pending, rp.rec.Size, nil)
	onlyBlack := rp.onlyAB
	rp.pending = nil
	if onlyBlack && len(black) >= 2 && (rp.rec.Handicap == 0 || rp.rec.Handicap == len(black)) {
		if err := g.PlaceFreeHandicap(black); err == nil {
			return g.SetToMove(toMove)
		}
	}
	if err := g.Setup(black, white, toMove); err != nil {
		return fmt.Errorf("setup stones: %w", err)
	}
	return nil
}

// newGame returns an empty game for the record's size and rules: the spare game of an earlier replay
// reset when it fits (ReplayAll reuses one game across a collection), else a new one.
func (rp *replayer) newGame() (*engine.Game, error) {
	if g := rp.spare; g != nil && g.Size() == rp.rec.Size && g.Rules() == rp.rules {
		rp.spare = nil
		g.Reset()
		return g, nil
	}
	return engine.NewGame(rp.rec.Size, rp.rules)
}

// collectSetup applies stones to board (nil = empty board) and returns the black and white points,
// and whether no white stone and no AE was involved.
func collectSetup(board []engine.Color, size int, stones []Stone) (black, white []engine.Point, onlyBlack bool) {
	if board == nil {
		board = make([]engine.Color, size*size)
	}
	onlyBlack = true
	for _, s := range stones {
		board[s.Point.Y*size+s.Point.X] = s.Color
		if s.Color != engine.Black {
			onlyBlack = false
		}
	}
	for i, c := range board {
		p := engine.Point{X: i % size, Y: i / size}
		switch c {
		case engine.Black:
			black = append(black, p)
		case engine.White:
			white = append(white, p)
		}
	}
	return black, white, onlyBlack
}

// addPending puts setup stones on the starting position, before the game exists.
func (rp *replayer) addPending(stones []Stone) {
	if len(stones) == 0 {
		return
	}
	if rp.pending == nil {
		rp.pending = make([]engine.Color, rp.rec.Size*rp.rec.Size)
		rp.onlyAB = true
	}
	for _, s := range stones {
		rp.pending[s.Point.Y*rp.rec.Size+s.Point.X] = s.Color
		if s.Color != engine.Black {
			rp.onlyAB = false
		}
	}
}

func (rp *replayer) note(n int, format string, args ...any) {
	rp.out.Notes = append(rp.out.Notes, Note{Number: n, Text: fmt.Sprintf(format, args...)})
}

// step replays one main-line node.
func (rp *replayer) step(m Move) error {
	if len(m.Setup) > 0 {
		if rp.g == nil {
			rp.addPending(m.Setup)
		} else if err := rp.restart(m); err != nil {
			return err
		}
	}
	if !m.IsMove() {
		return nil
	}
	if err := rp.start(m.Color); err != nil {
		return err
	}
	g := rp.g
	rp.out.Moves++
	n := rp.out.Moves
	if g.Phase() == engine.Stopped && !m.Pass {
		rp.note(n, "%s plays after two passes stopped the game: play resumed", colorName(m.Color))
		if err := g.Resume(m.Color.Opponent()); err != nil {
			return err
		}
	}
	if g.Phase() == engine.Playing && g.ToMove() != m.Color {
		rp.note(n, "%s moves twice in a row (no %s move recorded in between)", colorName(m.Color), colorName(m.Color.Opponent()))
		// SetToMove lifts a simple-ko ban: the same player may fill the ko it just took.
		if err := g.SetToMove(m.Color); err != nil {
			return err
		}
	}
	em := m.Engine()
	if err := g.Step(em); err != nil {
		var ill *engine.IllegalMoveError
		if !errors.As(err, &ill) {
			return err
		}
		if ill.Reason == engine.GameStopped || ill.Reason == engine.GameEnded {
			// A pass after the stop, or the like: not a rule of play; keep the record's order.
			if _, err := g.Apply(em); err != nil {
				rp.note(n, "%s could not be replayed: %v", moveText(em, rp.rec.Size), err)
			}
			return nil
		}
		rp.out.Illegal = append(rp.out.Illegal, Illegal{Number: n, Move: em, Err: ill, Offset: m.Offset})
		if _, err := g.Apply(em); err != nil {
			// The move cannot stand on the board: skip it but hand the turn over, as the record does.
			rp.note(n, "the illegal move %s could not be replayed and was skipped", moveText(em, rp.rec.Size))
			return g.SetToMove(m.Color.Opponent())
		}
		return nil
	}
	if !m.Pass {
		if earlier, ok := g.Repetition(); ok {
			rp.out.Repetitions = append(rp.out.Repetitions, Repetition{Number: n, Move: em, Earlier: earlier})
		}
	}
	return nil
}

// restart handles setup stones after the first move: a new game from the current board.
func (rp *replayer) restart(m Move) error {
	n := rp.out.Moves
	next := rp.g.ToMove()
	if m.IsMove() {
		next = m.Color
	}
	black, white, _ := collectSetup(rp.g.Board(), rp.rec.Size, m.Setup)
	g, err := engine.NewGame(rp.rec.Size, rp.rules)
	if err != nil {
		return err
	}
	if rp.rec.HasKomi {
		g.SetKomi(rp.rec.Komi)
	}
	if err := g.Setup(black, white, next); err != nil {
		return fmt.Errorf("setup stones after move %d: %w", n, err)
	}
	rp.note(n, "setup stones after move %d: the position restarts there (superko history and prisoners are not carried over)", n)
	rp.g = g
	rp.out.Game = g
	return nil
}

// moveText names a move for messages: "Black D4", "White pass".
func moveText(m engine.Move, size int) string {
	c := colorName(m.Color)
	if m.Pass {
		return c + " pass"
	}
	return c + " " + m.Point.GTP(size)
}

// colorName is "Black" or "White".
func colorName(c engine.Color) string {
	if c == engine.White {
		return "White"
	}
	return "Black"
}

// PresetForRU names the engine preset matching an SGF RU value ("Japanese", "Chinese", "AGA",
// "Tromp/Taylor", "NZ", ...), or "" when RU names no preset the engine knows.
func PresetForRU(ru string) string {
	var b []byte
	for i := 0; i < len(ru); i++ {
		switch c := ru[i]; {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 'a' && c <= 'z':
			b = append(b, c)
		}
	}
	switch string(b) {
	case "japanese", "jp", "japan", "korean":
		return "japanese"
	case "chinese", "cn", "china":
		return "chinese"
	case "aga", "american":
		return "aga"
	case "agaterritory":
		return "aga-territory"
	case "tromptaylor", "tt", "tromp":
		return "tromp-taylor"
	case "nz", "newzealand":
		return "new-zealand"
	case "basic":
		return "basic"
	}
	return ""
}

// validate checks what a record built in code could get wrong: the size, colours and points.
func (r *Record) validate() error {
	if r.Size < 1 || r.Size > MaxSize {
		return fmt.Errorf("record: board size %d is not 1..%d", r.Size, MaxSize)
	}
	stoneOK := func(s Stone) error {
		if s.Color != engine.Black && s.Color != engine.White && s.Color != engine.Empty {
			return fmt.Errorf("record: setup stone of colour %d", s.Color)
		}
		if !s.Point.In(r.Size) {
			return fmt.Errorf("record: setup stone %v is off the %dx%d board", s.Point, r.Size, r.Size)
		}
		return nil
	}
	for _, s := range r.Setup {
		if err := stoneOK(s); err != nil {
			return err
		}
	}
	for i, m := range r.Moves {
		for _, s := range m.Setup {
			if err := stoneOK(s); err != nil {
				return err
			}
		}
		if m.Color != engine.Empty && !m.IsMove() {
			return fmt.Errorf("record: node %d: move of colour %d", i+1, m.Color)
		}
		if m.IsMove() && !m.Pass && !m.Point.In(r.Size) {
			return fmt.Errorf("record: node %d: move %v is off the %dx%d board", i+1, m.Point, r.Size, r.Size)
		}
	}
	return nil
}
