package referee

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/vision/observe"
)

// title returns "Black" or "White".
func title(c engine.Color) string {
	switch c {
	case engine.Black:
		return "Black"
	case engine.White:
		return "White"
	}
	return "Nobody"
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// prepare checks a set-up and builds its game and clock without changing the table.
func (t *Table) prepare(s Setup, at time.Time) (Setup, engine.Rules, *engine.Game, *clock.Clock, error) {
	if s.Rules == "" {
		s.Rules = "aga"
	}
	if s.Size == 0 {
		s.Size = 19
	}
	if s.Policy == "" {
		s.Policy = PolicyRetractPass
	}
	if s.Date == "" {
		s.Date = at.UTC().Format("2006-01-02")
	}
	bad := func(err error) (Setup, engine.Rules, *engine.Game, *clock.Clock, error) {
		return s, engine.Rules{}, nil, nil, fmt.Errorf("%w: %w", ErrBadSetup, err)
	}
	if s.Policy != PolicyRetractPass && s.Policy != PolicyDirector {
		return bad(fmt.Errorf("unknown illegal-move policy %q (want %q or %q)", s.Policy, PolicyRetractPass, PolicyDirector))
	}
	rules, err := engine.Preset(s.Rules)
	if err != nil {
		return bad(err)
	}
	g, err := engine.NewGame(s.Size, rules)
	if err != nil {
		return bad(err)
	}
	if s.Komi != nil {
		g.SetKomi(*s.Komi)
	}
	switch {
	case s.Handicap == 1 || s.Handicap < 0 || s.Handicap > s.Size*s.Size/2:
		return bad(fmt.Errorf("handicap %d: use 0 (even game) or 2 or more stones", s.Handicap))
	case s.Handicap >= 2 && !s.FreeHandicap:
		if _, err := g.PlaceFixedHandicap(s.Handicap); err != nil {
			return bad(err)
		}
	}
	var clk *clock.Clock
	if strings.TrimSpace(s.TimeControl) != "" {
		c, err := clock.ParseControlOrPreset(s.TimeControl)
		if err != nil {
			return bad(err)
		}
		clk, err = clock.New(c, eventTime{t})
		if err != nil {
			return bad(err)
		}
	}
	return s, rules, g, clk, nil
}

// Setup configures the game. It is possible only once per journal (PhaseSetup).
func (t *Table) Setup(s Setup, at time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.phase != PhaseSetup {
		return fmt.Errorf("%w: the game is already set up (one game per journal directory)", ErrPhase)
	}
	if at.IsZero() {
		at = t.live.Now()
	}
	s, _, _, _, err := t.prepare(s, at)
	if err != nil {
		return err
	}
	return t.runEvent(&event{Kind: kindSetup, At: at, Setup: &s})
}

func (t *Table) applySetup(s Setup, at time.Time) error {
	if t.phase != PhaseSetup {
		return fmt.Errorf("%w: second set-up", ErrPhase)
	}
	s, rules, g, clk, err := t.prepare(s, at)
	if err != nil {
		return err
	}
	t.setup, t.rules, t.game, t.clk = s, rules, g, clk
	t.phase = PhaseReady
	size := g.Size()
	var msg string
	switch {
	case s.Handicap >= 2 && s.FreeHandicap:
		msg = fmt.Sprintf("Game set up. Black places %d handicap stones anywhere; then press a clock to start White's clock.", s.Handicap)
	case s.Handicap >= 2:
		msg = fmt.Sprintf("Game set up. Black places %d handicap stones on %s; then press a clock to start White's clock.",
			s.Handicap, vertices(size, g.Handicap()))
	default:
		msg = "Game set up. The board must be empty; press a clock to start Black's clock."
	}
	t.setBanner(Verdict{Kind: VerdictInfo, Message: msg, At: at, Points: g.Handicap()})
	if !t.replaying {
		t.saveSGF()
	}
	return nil
}

// Observe feeds one frame's reading of the board (from the vision pipeline). Readings are
// filtered for stability. Whenever the board has been still for the hold time and either the
// reading or the game changed since it was last looked at, the settled board is checked; if it
// matters (a waiting press, captured stones removed, a board fixed, dead stones taken off) it is
// journaled and acted on. Frames older than the last journaled event are only used to learn the
// board, never acted on: a restarted kiosk that sees recent frames again decides the same way.
func (t *Table) Observe(o observe.Observation) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.game == nil || o.Valid() != nil || o.Size != t.game.Size() {
		return
	}
	t.raw, t.hasRaw = o.Clone(), true
	hold := t.stab.Hold()
	st, ok := t.stab.Add(o)
	switch {
	case ok:
		t.seen, t.hasSeen = st, true
		t.rawSince = o.Time.Add(-hold)
		t.evaluated = false
		t.bump()
	case t.hasSeen && o.SameStones(t.seen) && !o.AnyObscured():
		if t.rawSince.IsZero() {
			t.rawSince = o.Time
		}
	default:
		t.rawSince = time.Time{}
		return
	}
	if t.evaluated || o.Time.Sub(t.rawSince) < hold || t.stale(o.Time) {
		return
	}
	t.evaluated = true
	s := t.seen.Clone()
	s.Time, s.Seq = o.Time, o.Seq
	t.onSettled(s, t.rawSince.Add(hold))
}

// staleWindow is how far before the last journaled event a frame counts as already accounted
// for (a restarted replay sees up to a few seconds of frames again). A frame older than that
// means the system clock went back; it is used, or the table would stop seeing the board.
const staleWindow = 5 * time.Second

// stale reports whether a frame at ft precedes the last journaled event (and so was, or could
// have been, considered before it).
func (t *Table) stale(ft time.Time) bool {
	d := t.lastAt.Sub(ft)
	return d > 0 && d <= staleWindow
}

// usableSeen reports whether the last stable reading still describes the board: the latest raw
// reading shows the same stones, nothing covers the board, and it has been still for the hold.
func (t *Table) usableSeen() bool {
	return t.hasSeen && t.hasRaw && t.raw.SameStones(t.seen) && !t.raw.AnyObscured() &&
		!t.rawSince.IsZero() && t.raw.Time.Sub(t.rawSince) >= t.stab.Hold()
}

// onSettled journals and applies a settled reading if it matters. from is when the board became
// still: a waiting press is settled as of its own time when the board was already still then.
func (t *Table) onSettled(o observe.Observation, from time.Time) {
	if !t.obsMatters(o) {
		return
	}
	at := o.Time
	if t.pending != nil {
		at = later(t.pending.At, from)
	}
	_ = t.runEvent(&event{Kind: kindObs, At: at, Board: boardText(o), Frame: o.Seq})
}

// obsMatters reports whether a stable reading would change anything (then it is journaled).
func (t *Table) obsMatters(o observe.Observation) bool {
	if t.game == nil {
		return false
	}
	switch t.phase {
	case PhaseReady:
		return t.pending != nil
	case PhasePlaying:
		if t.pending != nil {
			return true
		}
		if c := t.capture; c != nil {
			return sameBoard(c.After, o) || sameBoard(c.Before, o)
		}
		return len(t.differs) > 0 && sameBoard(t.game.Board(), o)
	case PhaseMarking:
		return len(t.removedChains(o)) > 0
	}
	return false
}

func (t *Table) applyObs(o observe.Observation) error {
	switch t.phase {
	case PhaseReady, PhasePlaying:
		if t.pending != nil {
			t.resolve(o)
			return nil
		}
		if c := t.capture; c != nil {
			switch {
			case sameBoard(c.After, o):
				t.capture = nil
				played, err := t.game.Play(c.Move)
				if err != nil {
					return err
				}
				t.accept(played, later(c.At, o.Time), "")
			case sameBoard(c.Before, o):
				t.capture = nil
				t.setBanner(Verdict{Kind: VerdictInfo, Color: c.Move.Color, At: o.Time,
					Message: fmt.Sprintf("%s took the stone at %s back: still %s to play.", title(c.Move.Color),
						c.Move.Point.GTP(t.game.Size()), title(c.Move.Color))})
			}
			return nil
		}
		if len(t.differs) > 0 && sameBoard(t.game.Board(), o) {
			t.differs = nil
			t.setBanner(Verdict{Kind: VerdictInfo, At: o.Time,
				Message: fmt.Sprintf("The board matches the game again: %s to play.", title(t.game.ToMove()))})
		}
	case PhaseMarking:
		chains := t.removedChains(o)
		if len(chains) == 0 {
			return nil
		}
		var all []engine.Point
		for _, ch := range chains {
			for _, p := range ch {
				t.dead[p] = true
			}
			all = append(all, ch...)
		}
		t.markingChanged()
		t.setBanner(Verdict{Kind: VerdictMarking, At: o.Time, Points: sortedPoints(all),
			Message: fmt.Sprintf("Stones taken off the board count as dead: %s. Both players press their clock to confirm.",
				vertices(t.game.Size(), sortedPoints(all)))})
	}
	return nil
}

// removedChains returns the chains not yet marked dead whose every stone is gone from the board seen.
func (t *Table) removedChains(o observe.Observation) [][]engine.Point {
	g := t.game
	size := g.Size()
	board := g.Board()
	done := map[engine.Point]bool{}
	var out [][]engine.Point
	for i, c := range board {
		p := engine.Point{X: i % size, Y: i / size}
		if c == engine.Empty || done[p] || t.dead[p] {
			continue
		}
		chain := g.Chain(p)
		gone := true
		for _, q := range chain {
			done[q] = true
			if o.Stones[q.Y*size+q.X] != observe.Empty {
				gone = false
			}
		}
		if gone {
			out = append(out, chain)
		}
	}
	return out
}

// Press handles a debounced button press.
func (t *Table) Press(p clock.Press) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if p.At.IsZero() {
		p.At = t.live.Now()
	}
	if err := t.runEvent(&event{Kind: kindPress, At: p.At, Press: p}); err != nil {
		return err
	}
	if t.pending != nil && t.usableSeen() {
		s := t.seen.Clone()
		s.Time, s.Seq = t.raw.Time, t.raw.Seq
		t.evaluated = true
		t.onSettled(s, t.rawSince.Add(t.stab.Hold()))
	}
	if t.pending != nil {
		t.waitingBanner()
		t.bump()
	}
	return nil
}

// waitingBanner says that a press waits for a clear view of the board. It is not journaled: the
// press is, and the verdict that settles it.
func (t *Table) waitingBanner() {
	p := t.pending
	msg := "Checking the move… keep hands off the board."
	if p.Start {
		msg = "Checking the starting position… keep hands off the board."
	}
	t.setBanner(Verdict{Kind: VerdictWaiting, Color: p.Color, At: p.At, Message: msg})
}

func (t *Table) applyPress(p clock.Press, at time.Time) error {
	t.presses++
	if p.Button == clock.DirectorButton {
		t.setBanner(Verdict{Kind: VerdictDirector, At: at, Message: "The director is called."})
		return nil
	}
	var c engine.Color
	switch p.Button {
	case clock.BlackClock:
		c = engine.Black
	case clock.WhiteClock:
		c = engine.White
	case clock.PassButton:
	default:
		return fmt.Errorf("referee: unknown button %v", p.Button)
	}
	switch t.phase {
	case PhaseSetup:
		t.setBanner(Verdict{Kind: VerdictInfo, At: at, Message: "Set up the game first."})
	case PhaseReady:
		if c == engine.Empty {
			return nil
		}
		t.pending = &pendingPress{Start: true, Color: c, At: at, Deadline: at.Add(t.opts.PressWait)}
	case PhasePlaying:
		g := t.game
		if t.pending != nil {
			return nil // already checking
		}
		if t.capture != nil && c == t.capture.Move.Color {
			// The mover presses again: look at the board afresh (the captured stones may be off,
			// or something else may have changed).
			t.capture = nil
		}
		if t.capture != nil {
			t.setBanner(Verdict{Kind: VerdictRemoveCaptures, Color: t.capture.Move.Color, At: at,
				Points: t.capture.Captured, Message: fmt.Sprintf("First remove the captured stones at %s.",
					vertices(g.Size(), t.capture.Captured))})
			return nil
		}
		if c == engine.Empty {
			return t.pass(at)
		}
		if c != g.ToMove() {
			if t.paused && t.halted == nil {
				return t.applyResumeClocks(at)
			}
			t.setBanner(Verdict{Kind: VerdictNotYourTurn, Color: c, At: at,
				Message: fmt.Sprintf("It is %s's turn: %s's clock press changes nothing.", title(g.ToMove()), title(c))})
			return nil
		}
		t.pending = &pendingPress{Color: c, At: at, Deadline: at.Add(t.opts.PressWait)}
	case PhaseHalted:
		t.setBanner(Verdict{Kind: VerdictInfo, At: at, Message: "Play is halted: the director must rule before play continues."})
	case PhaseMarking:
		if c != engine.Empty {
			return t.applyConfirm(c, at)
		}
	}
	return nil
}

// resolve settles a waiting press with a stable reading.
func (t *Table) resolve(o observe.Observation) {
	p := t.pending
	t.pending = nil
	// The press ends the move: the clock switches at the press, however long the board took to
	// settle (the player is not charged for the camera's stability wait).
	at := p.At
	if p.Start {
		t.startGame(o, at)
		return
	}
	t.evaluate(p.Color, o, at)
}

func (t *Table) boardDiffers(c engine.Color, why string, ms []mismatch, at time.Time) {
	t.differs = pointsOf(ms)
	t.setBanner(Verdict{Kind: VerdictBoardDiffers, Color: c, At: at, Points: pointsOf(ms),
		Message: differsMessage(t.game.Size(), why, ms)})
}

func (t *Table) startGame(o observe.Observation, at time.Time) {
	g := t.game
	size := g.Size()
	if t.setup.FreeHandicap && t.setup.Handicap >= 2 && len(g.Handicap()) == 0 {
		var blacks []engine.Point
		var whites []mismatch
		for i, s := range o.Stones {
			p := engine.Point{X: i % size, Y: i / size}
			switch s {
			case observe.Black:
				blacks = append(blacks, p)
			case observe.White:
				whites = append(whites, mismatch{P: p, Want: engine.Empty, Seen: engine.White})
			}
		}
		if len(whites) > 0 || len(blacks) != t.setup.Handicap {
			ms := whites
			msg := fmt.Sprintf("Black places exactly %d handicap stones and no white stone is on the board (seen %d black, %d white)",
				t.setup.Handicap, len(blacks), len(whites))
			if len(ms) == 0 {
				t.differs = nil
				t.setBanner(Verdict{Kind: VerdictBoardDiffers, At: at, Points: blacks, Message: msg + "."})
				return
			}
			t.boardDiffers(engine.Empty, msg, ms, at)
			return
		}
		if err := g.PlaceFreeHandicap(blacks); err != nil {
			t.setBanner(Verdict{Kind: VerdictBoardDiffers, At: at, Points: blacks, Message: "The handicap stones cannot be placed: " + err.Error()})
			return
		}
	} else if ms := diff(size, g.Board(), o); len(ms) > 0 {
		why := "the game starts from an empty board"
		if h := g.Handicap(); len(h) > 0 {
			why = fmt.Sprintf("the game starts with exactly the %d handicap stones on %s (AGA rule 4)", len(h), vertices(size, h))
		}
		t.boardDiffers(engine.Empty, why, ms, at)
		return
	}
	t.differs = nil
	if t.clk != nil {
		if err := t.clk.SetToMove(sideOf(g.ToMove())); err != nil {
			return
		}
		if err := t.clk.Start(at); err != nil {
			t.log.Error("starting the clock", "err", err)
		}
	}
	t.phase = PhasePlaying
	if h := g.Handicap(); len(h) > 0 && t.setup.FreeHandicap {
		t.comment(fmt.Sprintf("Free handicap stones: %s", vertices(size, h)))
	}
	t.setBanner(Verdict{Kind: VerdictInfo, At: at, Message: fmt.Sprintf("The game has started: %s to play.", title(g.ToMove()))})
	if !t.replaying {
		t.saveSGF()
	}
}

// evaluate compares the board seen when c pressed the clock with the game and decides.
func (t *Table) evaluate(c engine.Color, o observe.Observation, at time.Time) {
	g := t.game
	size := g.Size()
	before := g.Board()
	ms := diff(size, before, o)
	ad := added(ms)
	switch {
	case len(ms) == 0:
		t.setBanner(Verdict{Kind: VerdictNoChange, Color: c, At: at,
			Message: fmt.Sprintf("No new stone on the board: %s, place your stone and press your clock again, or press pass.", title(c))})
		return
	case len(ad) == 0:
		t.boardDiffers(c, "no new stone was placed, but stones changed", ms, at)
		return
	case len(ad) > 1:
		t.boardDiffers(c, fmt.Sprintf("%d new stones at once; a move is one stone", len(ad)), ms, at)
		return
	case ad[0].Seen != c:
		t.boardDiffers(c, fmt.Sprintf("a %s stone was placed but it is %s's move", ad[0].Seen, title(c)), ms, at)
		return
	}
	m := engine.Move{Color: c, Point: ad[0].P}
	if err := g.Check(m); err != nil {
		var ime *engine.IllegalMoveError
		if errors.As(err, &ime) && ime.Reason != engine.Occupied {
			t.illegal(m, ime, at)
			return
		}
		t.boardDiffers(c, err.Error(), ms, at)
		return
	}
	played, err := g.Play(m)
	if err != nil {
		t.boardDiffers(c, err.Error(), ms, at)
		return
	}
	after := g.Board()
	ms2 := diff(size, after, o)
	if len(ms2) == 0 {
		t.accept(played, at, "")
		return
	}
	captured := map[engine.Point]bool{}
	for _, p := range played.Captured {
		captured[p] = true
	}
	onlyCaptures := true
	for _, d := range ms2 {
		if !captured[d.P] || d.Seen != c.Opponent() {
			onlyCaptures = false
		}
	}
	if err := g.Undo(); err != nil {
		t.log.Error("undo of a tentative move", "err", err)
	}
	if onlyCaptures {
		t.capture = &pendingCapture{Move: m, At: at, Before: before, After: after, Captured: pointsOf(ms2)}
		t.differs = nil
		t.setBanner(Verdict{Kind: VerdictRemoveCaptures, Color: c, At: at, Points: pointsOf(ms2),
			Message: fmt.Sprintf("%s %s captures %d: remove the captured stones at %s. The move counts once they are off the board.",
				title(c), m.Point.GTP(size), len(played.Captured), vertices(size, pointsOf(ms2)))})
		return
	}
	t.boardDiffers(c, fmt.Sprintf("%s's new stone on %s is seen, but the rest of the board does not match", title(c), m.Point.GTP(size)), ms2, at)
}

// illegal applies the policy to an illegal move (suicide, ko, superko).
func (t *Table) illegal(m engine.Move, ime *engine.IllegalMoveError, at time.Time) {
	g := t.game
	size := g.Size()
	pts := []engine.Point{m.Point}
	if (ime.Reason == engine.Ko || ime.Reason == engine.KoConfirmation) && ime.KoPoint != m.Point {
		pts = append(pts, ime.KoPoint)
	}
	sentence := ime.Error()
	if t.setup.Policy == PolicyDirector {
		t.halted = &halt{Move: &m, Message: sentence}
		t.phase = PhaseHalted
		t.pauseClock(at)
		t.comment(fmt.Sprintf("Illegal move %s: %s. Play halted for the director.", m.GTP(size), sentence))
		t.setBanner(Verdict{Kind: VerdictIllegal, Color: m.Color, At: at, Points: pts,
			Message: fmt.Sprintf("Illegal move: %s. Play is halted and the clocks are stopped: call the director.", sentence)})
		return
	}
	played, err := g.RetractAndPass(m)
	if err != nil {
		t.boardDiffers(m.Color, err.Error(), []mismatch{{P: m.Point, Want: engine.Empty, Seen: m.Color}}, at)
		return
	}
	t.accept(played, at, fmt.Sprintf("Illegal move %s retracted (rule 8 policy): %s", m.GTP(size), sentence))
	if t.phase == PhaseEnded {
		return
	}
	msg := fmt.Sprintf("Illegal move: %s. %s takes the stone on %s back and passes instead (AGA rule 8)", sentence, title(m.Color), m.Point.GTP(size))
	if t.rules.PassStones {
		msg += fmt.Sprintf(", handing one pass stone to %s", title(m.Color.Opponent()))
	}
	msg += "."
	if t.phase == PhasePlaying {
		t.differs = []engine.Point{m.Point}
	} else {
		msg += " " + t.banner.Message // the retraction's pass stopped the game
	}
	t.setBanner(Verdict{Kind: VerdictIllegal, Color: m.Color, At: at, Points: pts, Message: msg})
}

func (t *Table) pass(at time.Time) error {
	g := t.game
	c := g.ToMove()
	played, err := g.Play(engine.Move{Color: c, Pass: true})
	if err != nil {
		t.setBanner(Verdict{Kind: VerdictInfo, Color: c, At: at, Message: err.Error()})
		return nil
	}
	t.accept(played, at, "")
	return nil
}

// accept records a played move: clock, SGF note, verdict, and the stop after two passes.
func (t *Table) accept(played engine.Played, at time.Time, comment string) {
	g := t.game
	size := g.Size()
	c := played.Move.Color
	if t.clk != nil {
		if t.paused {
			_ = t.clk.Resume(at)
			t.paused = false
		}
		if err := t.clk.Switch(at); errors.Is(err, clock.ErrFlagged) {
			_ = g.Undo()
			t.timeLoss(c, at)
			return
		}
	}
	t.pending, t.capture, t.differs = nil, nil, nil
	note := &moveNote{}
	if comment != "" {
		note.Comments = append(note.Comments, comment)
	}
	if t.clk != nil {
		st := t.clk.State()
		note.Time = &st
	}
	t.notes[played.Number] = note
	if !t.replaying {
		t.out().Moves = append(t.out().Moves, played.Move.GTP(size))
	}
	v := Verdict{Color: c, At: at, MoveNumber: played.Number}
	if played.Move.Pass {
		v.Kind = VerdictPass
		v.Message = fmt.Sprintf("%d: %s passes", played.Number, title(c))
		if t.rules.PassStones {
			v.Message += fmt.Sprintf(" and hands one pass stone to %s", title(c.Opponent()))
		}
		v.Message += "."
	} else {
		v.Kind = VerdictMove
		v.Points = []engine.Point{played.Move.Point}
		v.Message = fmt.Sprintf("%d: %s %s", played.Number, title(c), played.Move.Point.GTP(size))
		if n := len(played.Captured); n > 0 {
			v.Message += fmt.Sprintf(", capturing %d (%s)", n, vertices(size, sortedPoints(played.Captured)))
		}
		v.Message += "."
	}
	t.setBanner(v)
	if g.Phase() == engine.Stopped {
		t.enterStop(at)
	}
	if !t.replaying {
		t.saveSGF()
	}
}

func (t *Table) pauseClock(at time.Time) {
	if t.clk != nil && t.clk.State().Running {
		_ = t.clk.Pause(at)
		t.paused = true
	}
}

// syncClock makes the clock's side to move the game's (after an undo or a resumption) without
// charging anyone: the clock is rebuilt from its state with the other side to move.
func (t *Table) syncClock(at time.Time) {
	if t.clk == nil || t.game == nil {
		return
	}
	st := t.clk.State()
	want := sideOf(t.game.ToMove())
	if st.ToMove == want {
		return
	}
	running := st.Running
	st.ToMove = want
	nc, err := clock.Restore(st, eventTime{t})
	if err != nil {
		t.log.Error("re-seating the clock", "err", err)
		return
	}
	t.clk = nc
	if running {
		_ = nc.Resume(at)
	}
}

func (t *Table) applyTimeout(at time.Time) error {
	p := t.pending
	if p == nil {
		return nil
	}
	t.pending = nil
	t.setBanner(Verdict{Kind: VerdictNotSeen, Color: p.Color, At: at,
		Message: fmt.Sprintf("The board could not be seen clearly for %v (hands over it?): keep hands off the board and press the clock again.",
			t.opts.PressWait.Round(time.Second))})
	return nil
}

// Tick lets the table notice what happens with time alone: a waiting press that found no clear
// view of the board in time, and a flag that fell. The kiosk calls it a few times a second.
func (t *Table) Tick(now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.game == nil {
		return
	}
	if t.pending != nil && now.After(t.pending.Deadline) {
		_ = t.runEvent(&event{Kind: kindTimeout, At: now})
	}
	if t.clk == nil || (t.phase != PhasePlaying && t.phase != PhaseReady) {
		return
	}
	t.evNow.Store(now.UnixNano())
	st := t.clk.State()
	t.evNow.Store(0)
	for _, s := range []clock.Side{clock.Black, clock.White} {
		if ss := st.Side(s); ss.Flagged && now.Sub(ss.FlaggedAt) >= t.opts.FlagGrace {
			_ = t.runEvent(&event{Kind: kindFlag, At: now, Color: colorOf(s)})
			return
		}
	}
}

func (t *Table) applyFlag(c engine.Color, at time.Time) error {
	if t.phase != PhasePlaying && t.phase != PhaseHalted && t.phase != PhaseReady {
		return nil
	}
	t.timeLoss(c, at)
	return nil
}

func (t *Table) timeLoss(c engine.Color, at time.Time) {
	res := "B+T"
	if c == engine.Black {
		res = "W+T"
	}
	t.comment(fmt.Sprintf("%s's time ran out.", title(c)))
	t.end(res, at, fmt.Sprintf("%s's time ran out: %s wins on time (%s).", title(c), title(c.Opponent()), res))
}

// end finishes the game with a result.
func (t *Table) end(result string, at time.Time, msg string) {
	g := t.game
	var err error
	if result == "Void" {
		err = g.EndVoid()
	} else {
		err = g.End(result)
	}
	if err != nil && !errors.Is(err, engine.ErrGameEnded) {
		t.log.Error("ending the game", "err", err)
	}
	if t.clk != nil && t.clk.State().Running {
		_ = t.clk.Pause(at)
	}
	t.paused = false
	t.pending, t.capture, t.differs, t.halted = nil, nil, nil, nil
	t.propBusy = false
	t.phase = PhaseEnded
	t.result = result
	t.setBanner(Verdict{Kind: VerdictResult, At: at, Message: msg})
	if !t.replaying {
		t.saveSGF()
		t.fileGame()
	}
}

// ResumeClocks restarts the clocks after a restart of the kiosk (the journal pauses them).
func (t *Table) ResumeClocks(at time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.phase != PhasePlaying || !t.paused || t.halted != nil {
		return fmt.Errorf("%w: the clocks are not paused", ErrPhase)
	}
	return t.runEvent(&event{Kind: kindResumeClocks, At: at})
}

func (t *Table) applyResumeClocks(at time.Time) error {
	if !t.paused {
		return nil
	}
	if t.clk != nil {
		if err := t.clk.Resume(at); err != nil && !errors.Is(err, clock.ErrNotPaused) {
			return err
		}
	}
	t.paused = false
	t.setBanner(Verdict{Kind: VerdictInfo, At: at, Message: fmt.Sprintf("Clocks running: %s to play.", title(t.game.ToMove()))})
	return nil
}

func (t *Table) applyRecovered(at time.Time) error {
	if t.clk == nil || !t.clk.State().Running {
		return nil
	}
	_ = t.clk.Pause(at)
	t.paused = true
	c := t.game.ToMove()
	t.setBanner(Verdict{Kind: VerdictInfo, At: at,
		Message: fmt.Sprintf("The kiosk restarted and the clocks are paused. %s to play: make your move and press your clock (or %s presses to restart %s's clock).",
			title(c), title(c.Opponent()), title(c))})
	return nil
}
