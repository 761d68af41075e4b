// Package gtp is Tengen's GTP v2 engine: the rules engine behind the Go Text Protocol, over an io.Reader
// and an io.Writer, so that other programs (GUIs, tournament managers, the differential rules oracle)
// can drive and check it. It is a referee, not a player: genmove plays a random legal move that does not
// fill one of its own single-point eyes, and passes when there is none.
//
// Commands: the GTP v2 required set (protocol_version, name, version, known_command, list_commands,
// quit, boardsize, clear_board, komi, play, genmove) and is_legal, all_legal, list_stones, captures,
// undo, fixed_handicap, set_free_handicap, loadsgf, printsgf, final_score, final_status_list, showboard.
// final_score takes an optional literal-dame (Japanese art. 8 read literally: open dame are not
// regarded as filled, so every live stone next to one is in seki).
//
// fixed_handicap follows the GTP specification's placement, which for 3 stones puts the third at the
// upper left (D4 Q16 D16) where AGA rule 4 (engine.FixedHandicapPoints) puts it at the lower right (Q4).
//
// play accepts either colour (like GNU Go): the named colour becomes the player to move. A play or
// genmove after the game stopped resumes it.
//
// Extension commands (prefix tengen-):
//
//	tengen-set_dead V...      declare the chains at the vertices dead for final_score and
//	                          final_status_list (every other stone counts as alive)
//	tengen-clear_dead         forget the declared dead stones
//	tengen-rules [NAME]       show the ruleset, or switch to a preset (clears the board)
//	tengen-explain C V        why C may not play V, as the rules' sentence ("legal" if it may)
//	tengen-score              the full count: both sides' territory, stones, prisoners, komi, result
//
// Malformed lines get "? ..." replies; nothing on the input can make the engine panic.
package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"

	"tengen/engine"
	"tengen/engine/sgf"
)

// Config is how the engine starts.
type Config struct {
	Rules   engine.Rules
	Size    int      // board size, 19 when 0
	Komi    *float64 // komi; the ruleset's when nil
	Seed    uint64   // seed of genmove's random choices
	Version string   // answer to version
}

// Engine is one GTP session: a game and the commands that act on it.
type Engine struct {
	cfg     Config
	game    *engine.Game
	komi    float64
	komiSet bool // the controller (or the configuration) set the komi; otherwise the game uses its rules' (handicap komi with handicap stones)
	dead    []engine.Point
	rng     *rand.Rand
	cmds    map[string]func(args []string) (string, error)
	// order lists the commands for list_commands.
	order []string
}

// errQuit ends Run after the reply to quit.
var errQuit = errors.New("quit")

// New returns an engine with an empty board.
func New(cfg Config) (*Engine, error) {
	if cfg.Size == 0 {
		cfg.Size = 19
	}
	if cfg.Rules.Name == "" {
		r, err := engine.Preset("aga")
		if err != nil {
			return nil, err
		}
		cfg.Rules = r
	}
	e := &Engine{cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x7465_6e67_656e))}
	e.komi = cfg.Rules.Komi
	if cfg.Komi != nil {
		e.komi, e.komiSet = *cfg.Komi, true
	}
	if err := e.newGame(cfg.Size); err != nil {
		return nil, err
	}
	e.register()
	return e, nil
}

func (e *Engine) newGame(size int) error {
	g, err := engine.NewGame(size, e.cfg.Rules)
	if err != nil {
		return err
	}
	if e.komiSet {
		g.SetKomi(e.komi)
	}
	e.game = g
	e.dead = nil
	return nil
}

// Game returns the current game (for tests and embedding).
func (e *Engine) Game() *engine.Game { return e.game }

func (e *Engine) register() {
	e.cmds = map[string]func([]string) (string, error){}
	add := func(name string, f func([]string) (string, error)) {
		e.cmds[name] = f
		e.order = append(e.order, name)
	}
	add("protocol_version", func([]string) (string, error) { return "2", nil })
	add("name", func([]string) (string, error) { return "Tengen referee", nil })
	add("version", func([]string) (string, error) {
		if e.cfg.Version == "" {
			return "dev (a rules referee, not a player)", nil
		}
		return e.cfg.Version + " (a rules referee, not a player)", nil
	})
	add("known_command", e.knownCommand)
	add("list_commands", func([]string) (string, error) { return strings.Join(e.order, "\n"), nil })
	add("quit", func([]string) (string, error) { return "", errQuit })
	add("boardsize", e.boardsize)
	add("clear_board", func([]string) (string, error) { return "", e.newGame(e.game.Size()) })
	add("komi", e.setKomi)
	add("play", e.play)
	add("genmove", e.genmove)
	add("is_legal", e.isLegal)
	add("all_legal", e.allLegal)
	add("list_stones", e.listStones)
	add("captures", e.captures)
	add("undo", e.undo)
	add("fixed_handicap", e.fixedHandicap)
	add("set_free_handicap", e.setFreeHandicap)
	add("loadsgf", e.loadSGF)
	add("printsgf", e.printSGF)
	add("final_score", e.finalScore)
	add("final_status_list", e.finalStatusList)
	add("showboard", e.showboard)
	add("tengen-set_dead", e.setDead)
	add("tengen-clear_dead", func([]string) (string, error) { e.dead = nil; return "", nil })
	add("tengen-rules", e.rules)
	add("tengen-explain", e.explain)
	add("tengen-score", e.scoreDetail)
}

// Run reads commands from r and writes replies to w until quit, the end of input or ctx is done. The
// reading happens in a goroutine so that a cancelled context ends Run even while input is pending.
func (e *Engine) Run(ctx context.Context, r io.Reader, w io.Writer) error {
	lines := make(chan inputLine)
	readErr := make(chan error, 1)
	done := make(chan struct{})
	defer close(done)
	go func() {
		br := bufio.NewReaderSize(r, 64*1024)
		for {
			l, err := readLine(br, MaxLine)
			if err != nil && l.text == "" && !l.tooLong {
				if errors.Is(err, io.EOF) {
					err = nil
				}
				readErr <- err
				close(lines)
				return
			}
			select {
			case lines <- l:
			case <-done:
				return
			}
		}
	}()
	bw := bufio.NewWriter(w)
	for {
		var l inputLine
		var ok bool
		select {
		case <-ctx.Done():
			return ctx.Err()
		case l, ok = <-lines:
		}
		if !ok {
			if err := <-readErr; err != nil {
				return fmt.Errorf("gtp: read: %w", err)
			}
			return nil
		}
		reply, quit, has := "", false, true
		if l.tooLong {
			reply = fmt.Sprintf("? line too long (over %d bytes): ignored\n\n", MaxLine)
		} else {
			reply, quit, has = e.Exec(l.text)
		}
		if !has {
			continue
		}
		if _, err := bw.WriteString(reply); err != nil {
			return fmt.Errorf("gtp: write: %w", err)
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("gtp: write: %w", err)
		}
		if quit {
			return nil
		}
	}
}

// MaxLine is the longest command line Run reads (1 MiB); a longer one is answered with an error
// and skipped, and reading goes on.
const MaxLine = 1 << 20

// inputLine is one line of input, or the news that a line was too long.
type inputLine struct {
	text    string
	tooLong bool
}

// readLine reads one line (without its end) of at most max bytes; a longer line is read to its end
// and dropped (tooLong). At the end of input a last line without a newline is returned with a
// nil error, then io.EOF.
func readLine(br *bufio.Reader, max int) (inputLine, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > max+1 { // +1: the newline
				tooLong, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case err == nil:
			if tooLong {
				return inputLine{tooLong: true}, nil
			}
			return inputLine{text: strings.TrimRight(string(buf), "\r\n")}, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			if tooLong {
				return inputLine{tooLong: true}, nil
			}
			if len(buf) > 0 {
				return inputLine{text: strings.TrimRight(string(buf), "\r\n")}, nil
			}
			return inputLine{}, err
		}
	}
}

// preprocess applies GTP's input rules: control characters other than HT and LF removed, HT turned to a
// space, everything after # dropped.
func preprocess(line string) string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\t':
			b.WriteByte(' ')
		case c < 32 || c == 127:
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// Exec runs one input line and returns the full reply ("=id result\n\n" or "?id message\n\n"), whether
// the session should end, and false when the line holds no command (empty or a comment).
func (e *Engine) Exec(line string) (reply string, quit, ok bool) {
	fields := strings.Fields(preprocess(line))
	if len(fields) == 0 {
		return "", false, false
	}
	id := ""
	if _, err := strconv.ParseUint(fields[0], 10, 31); err == nil {
		id, fields = fields[0], fields[1:]
	}
	if len(fields) == 0 {
		return "?" + id + " missing command\n\n", false, true
	}
	res, err := e.run(fields[0], fields[1:])
	if errors.Is(err, errQuit) {
		return "=" + id + "\n\n", true, true
	}
	if err != nil {
		return "?" + id + " " + oneLine(err.Error()) + "\n\n", false, true
	}
	if res != "" && res[0] != '\n' {
		res = " " + res
	}
	return "=" + id + res + "\n\n", false, true
}

// run dispatches one command, turning any panic into an error so that no input can end the session.
func (e *Engine) run(name string, args []string) (res string, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = "", fmt.Errorf("internal error in %s: %v", name, r)
		}
	}()
	f, ok := e.cmds[name]
	if !ok {
		return "", errors.New("unknown command")
	}
	return f(args)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func (e *Engine) knownCommand(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: known_command NAME")
	}
	_, ok := e.cmds[args[0]]
	return strconv.FormatBool(ok), nil
}

func (e *Engine) boardsize(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: boardsize N")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil {
		return "", errors.New("syntax error: boardsize N")
	}
	if n < engine.MinSize || n > engine.MaxSize {
		return "", errors.New("unacceptable size")
	}
	return "", e.newGame(n)
}

func (e *Engine) setKomi(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: komi FLOAT")
	}
	k, err := strconv.ParseFloat(args[0], 64)
	if err != nil || k != k || k > 1e6 || k < -1e6 {
		return "", errors.New("syntax error: komi FLOAT")
	}
	e.komi, e.komiSet = k, true
	e.game.SetKomi(k)
	return "", nil
}

// parseColor reads a GTP colour: b, black, w, white (any case).
func parseColor(s string) (engine.Color, error) {
	switch strings.ToLower(s) {
	case "b", "black":
		return engine.Black, nil
	case "w", "white":
		return engine.White, nil
	}
	return engine.Empty, fmt.Errorf("syntax error: bad colour %q", s)
}

// parseMove reads "COLOR VERTEX" where VERTEX may be pass.
func (e *Engine) parseMove(args []string) (engine.Move, error) {
	if len(args) != 2 {
		return engine.Move{}, errors.New("syntax error: expected COLOR VERTEX")
	}
	c, err := parseColor(args[0])
	if err != nil {
		return engine.Move{}, err
	}
	if strings.EqualFold(args[1], "pass") {
		return engine.Move{Color: c, Pass: true}, nil
	}
	p, err := engine.ParsePoint(args[1], e.game.Size())
	if err != nil {
		return engine.Move{}, fmt.Errorf("syntax error: %w", err)
	}
	return engine.Move{Color: c, Point: p}, nil
}

// prepareTurn makes c the player to move, resuming a stopped game first.
func (e *Engine) prepareTurn(c engine.Color) error {
	switch e.game.Phase() {
	case engine.Ended:
		return errors.New("the game has ended")
	case engine.Stopped:
		if !(c == engine.White && e.game.WhiteOwesPass()) {
			if err := e.game.Resume(c.Opponent()); err != nil {
				return err
			}
		}
	}
	return e.game.SetToMove(c)
}

func (e *Engine) play(args []string) (string, error) {
	m, err := e.parseMove(args)
	if err != nil {
		return "", err
	}
	if e.game.Phase() == engine.Stopped && m.Pass && m.Color == engine.White && e.game.WhiteOwesPass() {
		_, err := e.game.Play(m)
		return "", err
	}
	if err := e.game.CheckAs(m); err != nil {
		return "", errors.New("illegal move")
	}
	if err := e.prepareTurn(m.Color); err != nil {
		return "", err
	}
	if _, err := e.game.Play(m); err != nil {
		return "", errors.New("illegal move")
	}
	return "", nil
}

func (e *Engine) genmove(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: genmove COLOR")
	}
	c, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	if err := e.prepareTurn(c); err != nil {
		return "", err
	}
	g := e.game
	n := g.Size()
	cand := make([]engine.Point, 0, n*n)
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			p := engine.Point{X: x, Y: y}
			if g.At(p) == engine.Empty && !g.IsOwnEye(c, p) {
				cand = append(cand, p)
			}
		}
	}
	e.rng.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	for _, p := range cand {
		if _, err := g.Play(engine.Move{Color: c, Point: p}); err == nil {
			return p.GTP(n), nil
		}
	}
	if _, err := g.Play(engine.Move{Color: c, Pass: true}); err != nil {
		return "", err
	}
	return "pass", nil
}

func (e *Engine) isLegal(args []string) (string, error) {
	m, err := e.parseMove(args)
	if err != nil {
		return "", err
	}
	if m.Pass || e.game.CheckAs(m) == nil {
		return "1", nil
	}
	return "0", nil
}

func (e *Engine) explain(args []string) (string, error) {
	m, err := e.parseMove(args)
	if err != nil {
		return "", err
	}
	if err := e.game.CheckAs(m); err != nil {
		return err.Error(), nil
	}
	return "legal", nil
}

func (e *Engine) allLegal(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: all_legal COLOR")
	}
	c, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	n := e.game.Size()
	var out []string
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			p := engine.Point{X: x, Y: y}
			if e.game.At(p) == engine.Empty && e.game.CheckAs(engine.Move{Color: c, Point: p}) == nil {
				out = append(out, p.GTP(n))
			}
		}
	}
	return strings.Join(out, " "), nil
}

func (e *Engine) listStones(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: list_stones COLOR")
	}
	c, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	n := e.game.Size()
	var out []string
	for i, v := range e.game.Board() {
		if v == c {
			out = append(out, engine.Point{X: i % n, Y: i / n}.GTP(n))
		}
	}
	return strings.Join(out, " "), nil
}

func (e *Engine) captures(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: captures COLOR")
	}
	c, err := parseColor(args[0])
	if err != nil {
		return "", err
	}
	return strconv.Itoa(e.game.Prisoners(c)), nil
}

func (e *Engine) undo([]string) (string, error) {
	if err := e.game.Undo(); err != nil {
		return "", errors.New("cannot undo")
	}
	return "", nil
}

func (e *Engine) boardEmpty() bool {
	for _, c := range e.game.Board() {
		if c != engine.Empty {
			return false
		}
	}
	return e.game.MoveNumber() == 0
}

func (e *Engine) fixedHandicap(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: fixed_handicap N")
	}
	k, err := strconv.Atoi(args[0])
	if err != nil {
		return "", errors.New("syntax error: fixed_handicap N")
	}
	if !e.boardEmpty() {
		return "", errors.New("board not empty")
	}
	ps, err := engine.FixedHandicapPoints(e.game.Size(), k)
	if err != nil {
		return "", errors.New("invalid handicap")
	}
	if k == 3 {
		// GTP's placement (and GNU Go's) puts the third stone at the upper left, AGA rule 4 lower right.
		ps[2] = engine.Point{X: ps[1].X, Y: ps[0].Y}
	}
	if err := e.game.PlaceFreeHandicap(ps); err != nil {
		return "", errors.New("invalid handicap")
	}
	e.keepKomi()
	return e.vertices(ps), nil
}

// keepKomi applies the controller's komi after handicap stones are placed; without one the game
// keeps its rules' handicap komi (as kiosk score and the table do).
func (e *Engine) keepKomi() {
	if e.komiSet {
		e.game.SetKomi(e.komi)
	}
	e.komi = e.game.Komi()
}

func (e *Engine) setFreeHandicap(args []string) (string, error) {
	if len(args) < 2 {
		return "", errors.New("invalid handicap")
	}
	if !e.boardEmpty() {
		return "", errors.New("board not empty")
	}
	ps, err := e.parsePoints(args)
	if err != nil {
		return "", err
	}
	if err := e.game.PlaceFreeHandicap(ps); err != nil {
		return "", errors.New("bad vertex list")
	}
	e.keepKomi()
	return "", nil
}

func (e *Engine) parsePoints(args []string) ([]engine.Point, error) {
	ps := make([]engine.Point, 0, len(args))
	for _, a := range args {
		p, err := engine.ParsePoint(a, e.game.Size())
		if err != nil {
			return nil, fmt.Errorf("syntax error: %w", err)
		}
		ps = append(ps, p)
	}
	return ps, nil
}

func (e *Engine) vertices(ps []engine.Point) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.GTP(e.game.Size())
	}
	return strings.Join(out, " ")
}

func (e *Engine) setDead(args []string) (string, error) {
	ps, err := e.parsePoints(args)
	if err != nil {
		return "", err
	}
	if e.game.AllAlive() {
		return "", errors.New("AGA rule 10: after four passes in a row every stone on the board counts as alive")
	}
	for _, p := range ps {
		if e.game.At(p) == engine.Empty {
			return "", fmt.Errorf("no stone at %s", p.GTP(e.game.Size()))
		}
	}
	for _, p := range ps {
		for _, s := range e.game.Chain(p) {
			if !slices.Contains(e.dead, s) {
				e.dead = append(e.dead, s)
			}
		}
	}
	return "", nil
}

func (e *Engine) score() (engine.Score, error) {
	return e.scoreAs(e.cfg.Rules.LiteralDame)
}

// scoreAs counts with open dame read literally (art. 8) or, by default, regarded as filled where safe.
func (e *Engine) scoreAs(literal bool) (engine.Score, error) {
	defer e.game.SetLiteralDame(e.game.Rules().LiteralDame)
	e.game.SetLiteralDame(literal)
	var dead []engine.Point
	for _, p := range e.dead {
		if e.game.At(p) != engine.Empty {
			dead = append(dead, p)
		}
	}
	return e.game.Score(dead)
}

// finalScore answers final_score; "final_score literal-dame" (a Tengen extension) counts with art. 8
// read literally, every live stone next to an open dame in seki.
func (e *Engine) finalScore(args []string) (string, error) {
	literal := e.cfg.Rules.LiteralDame
	switch {
	case len(args) == 1 && strings.EqualFold(args[0], "literal-dame"):
		literal = true
	case len(args) > 0:
		return "", errors.New("syntax error: final_score [literal-dame]")
	}
	s, err := e.scoreAs(literal)
	if err != nil {
		return "", err
	}
	return s.Result, nil
}

func (e *Engine) scoreDetail([]string) (string, error) {
	s, err := e.score()
	if err != nil {
		return "", err
	}
	side := func(n string, x engine.SideScore) string {
		return fmt.Sprintf("%s: territory %d stones %d prisoners %d dead %d pass-stones %d komi %g bonus %g total %g",
			n, x.Territory, x.Stones, x.Prisoners, x.DeadCaptured, x.PassStones, x.Komi, x.Bonus, x.Total)
	}
	return fmt.Sprintf("%s (%s counting)\n%s\n%s", s.Result, e.cfg.Rules.Scoring, side("black", s.Black), side("white", s.White)), nil
}

func (e *Engine) finalStatusList(args []string) (string, error) {
	if len(args) != 1 {
		return "", errors.New("syntax error: final_status_list alive|dead|seki")
	}
	s, err := e.score()
	if err != nil {
		return "", err
	}
	seki := s.Seki
	if e.cfg.Rules.SekiEyesCount {
		// Seki changes no count under these rules (Score leaves it empty), but its stones are
		// still in seki, not alive, as GNU Go answers.
		if seki, err = e.game.Seki(s.Dead); err != nil {
			return "", err
		}
	}
	var ps []engine.Point
	switch strings.ToLower(args[0]) {
	case "dead":
		ps = s.Dead
	case "seki":
		ps = seki
	case "alive":
		n := e.game.Size()
		for i, c := range e.game.Board() {
			p := engine.Point{X: i % n, Y: i / n}
			if c != engine.Empty && !slices.Contains(s.Dead, p) && !slices.Contains(seki, p) {
				ps = append(ps, p)
			}
		}
	default:
		return "", errors.New("syntax error: final_status_list alive|dead|seki")
	}
	return e.vertices(ps), nil
}

func (e *Engine) rules(args []string) (string, error) {
	if len(args) == 0 {
		return e.cfg.Rules.String(), nil
	}
	r, err := engine.Preset(args[0])
	if err != nil {
		return "", err
	}
	e.cfg.Rules = r
	e.komi, e.komiSet = r.Komi, false
	return "", e.newGame(e.game.Size())
}

func (e *Engine) showboard([]string) (string, error) {
	g := e.game
	n := g.Size()
	var b strings.Builder
	letters := "ABCDEFGHJKLMNOPQRSTUVWXYZ"[:n]
	b.WriteString("\n   ")
	for _, l := range letters {
		b.WriteString(" " + string(l))
	}
	b.WriteByte('\n')
	board := g.Board()
	for y := 0; y < n; y++ {
		fmt.Fprintf(&b, "%2d ", n-y)
		for x := 0; x < n; x++ {
			ch := "."
			switch board[y*n+x] {
			case engine.Black:
				ch = "X"
			case engine.White:
				ch = "O"
			}
			b.WriteString(" " + ch)
		}
		fmt.Fprintf(&b, " %2d", n-y)
		switch y {
		case 0:
			fmt.Fprintf(&b, "    %s to move, move %d", g.ToMove(), g.MoveNumber())
		case 1:
			fmt.Fprintf(&b, "    captured by black %d, by white %d", g.Prisoners(engine.Black), g.Prisoners(engine.White))
		}
		b.WriteByte('\n')
	}
	b.WriteString("   ")
	for _, l := range letters {
		b.WriteString(" " + string(l))
	}
	return b.String(), nil
}

// loadSGF replays a record's main line ("loadsgf FILE [MOVE_NUMBER]": stop before that move) with the
// record's size, komi, handicap and setup stones. Moves are applied without legality checks (records
// may come from any rules); the colour after the last move is the player to move.
func (e *Engine) loadSGF(args []string) (string, error) {
	if len(args) < 1 || len(args) > 2 {
		return "", errors.New("syntax error: loadsgf FILE [MOVE_NUMBER]")
	}
	limit := -1
	if len(args) == 2 {
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 1 {
			return "", errors.New("syntax error: bad move number")
		}
		limit = n - 1
	}
	data, err := os.ReadFile(args[0])
	if err != nil {
		return "", errors.New("cannot open file")
	}
	rec, err := sgf.ReadRecord(data)
	if err != nil {
		return "", fmt.Errorf("cannot load file: %w", err)
	}
	if rec.Size < engine.MinSize || rec.Size > engine.MaxSize {
		return "", errors.New("cannot load file: unsupported board size")
	}
	g, err := engine.NewGame(rec.Size, e.cfg.Rules)
	if err != nil {
		return "", err
	}
	var black, white []engine.Point
	for _, s := range rec.Setup {
		switch s.Color {
		case engine.Black:
			black = append(black, s.Point)
		case engine.White:
			white = append(white, s.Point)
		}
	}
	toMove := engine.Black
	if rec.Handicap >= 2 && len(white) == 0 && len(black) == rec.Handicap {
		err = g.PlaceFreeHandicap(black)
		toMove = engine.White
	} else if len(black)+len(white) > 0 {
		err = g.Setup(black, white, engine.Black)
	}
	if err != nil {
		return "", fmt.Errorf("cannot load file: %w", err)
	}
	switch {
	case rec.HasKomi:
		g.SetKomi(rec.Komi)
	case e.komiSet:
		g.SetKomi(e.komi)
	}
	komi := g.Komi()
	played := 0
	for _, m := range rec.Moves {
		if !m.IsMove() {
			continue
		}
		if limit >= 0 && played >= limit {
			toMove = m.Color
			break
		}
		if _, err := g.Apply(m.Engine()); err != nil {
			return "", fmt.Errorf("cannot load file: move %d: %w", played+1, err)
		}
		played++
		toMove = m.Color.Opponent()
	}
	if err := g.SetToMove(toMove); err != nil {
		return "", err
	}
	e.game, e.komi, e.dead = g, komi, nil
	return toMove.String(), nil
}

// printSGF writes the game as SGF ("printsgf" to the reply, "printsgf FILE" to a file).
func (e *Engine) printSGF(args []string) (string, error) {
	g := e.game
	rec := sgf.FromGame(g)
	rec.Rules, rec.Application = e.cfg.Rules.Name, "Tengen:"+e.cfg.Version
	data := rec.MarshalSGF()
	switch len(args) {
	case 0:
		return strings.TrimRight(string(data), "\n"), nil
	case 1:
		if err := os.WriteFile(args[0], data, 0o644); err != nil {
			return "", errors.New("cannot write file")
		}
		return "", nil
	}
	return "", errors.New("syntax error: printsgf [FILE]")
}
