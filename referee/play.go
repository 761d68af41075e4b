package referee

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee/infer"
	"tengen/vision/observe"
)

// title returns "Black" or "White".
func title(c engine.Color) string {
	switch c {
	case engine.Black:
		return word("Black")
	case engine.White:
		return word("White")
	}
	return word("Nobody")
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// prepare checks a set-up and builds its game and clock without changing the table.
func (t *core) prepare(s Setup, at time.Time) (Setup, engine.Rules, *engine.Game, *clock.Clock, error) {
	if s.Rules == "" {
		s.Rules = "aga"
	}
	if s.Size == 0 {
		s.Size = 19
	}
	if s.Policy == "" {
		s.Policy = DefaultPolicy(s.Rules)
	}
	if s.Date == "" {
		s.Date = at.UTC().Format("2006-01-02")
	}
	bad := func(err error) (Setup, engine.Rules, *engine.Game, *clock.Clock, error) {
		return s, engine.Rules{}, nil, nil, fmt.Errorf("%w: %w", ErrBadSetup, err)
	}
	if !slices.Contains(Policies(), s.Policy) {
		return bad(fmt.Errorf("unknown illegal-move policy %q (want one of %v)", s.Policy, Policies()))
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
		clk, err = clock.New(c, coreTime{t})
		if err != nil {
			return bad(err)
		}
		clk.SetReportDelay(t.cfg.FlagGrace)
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

func (t *core) applySetup(s Setup, at time.Time) error {
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
	var says Phrase
	switch {
	case s.Handicap >= 2 && s.FreeHandicap:
		says = phrase("Game set up. Black places {{.N}} handicap stones anywhere; then press a clock to start White's clock.",
			"N", fmt.Sprint(s.Handicap))
	case s.Handicap >= 2:
		says = phrase("Game set up. Black places {{.N}} handicap stones on {{.Points}}; then press a clock to start White's clock.",
			"N", fmt.Sprint(s.Handicap), "Points", vertices(size, g.Handicap()))
	default:
		says = phrase("Game set up. The board must be empty; press a clock to start Black's clock.")
	}
	t.setBanner(Verdict{Kind: VerdictInfo, Says: []Phrase{says}, At: at, Points: g.Handicap()})
	t.comment("Illegal moves: " + policyNote(s.Policy) + ".")
	t.emit(RecordChanged{})
	return nil
}

// policyNote says a policy in English for the game record.
func policyNote(p Policy) string {
	switch p {
	case PolicyLoss:
		return "a violation loses the game (Japanese rules art. 14)"
	case PolicyWarning:
		return "the stone is taken back with a warning and the offender plays again (tournament rule)"
	case PolicyDirector:
		return "play halts for the director"
	}
	return "the stone is taken back and the offender passes (AGA rule 8)"
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
	if t.closed || t.game == nil || o.Valid() != nil || o.Size != t.game.Size() || t.sightHeld() {
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
		// The same stones read again: a press is judged on the newest frame's probabilities, so
		// that a stone put down where glare was already read as one is seen as sure as it is.
		t.seen.TakeReadings(o)
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
func (t *core) stale(ft time.Time) bool {
	d := t.lastAt.Sub(ft)
	return d > 0 && d <= staleWindow
}

// usableSeen reports whether the last stable reading still describes the board: the latest raw
// reading shows the same stones, nothing covers the board, and it has been still for the hold.
func (t *core) usableSeen() bool {
	return t.hasSeen && t.hasRaw && t.raw.SameStones(t.seen) && !t.raw.AnyObscured() &&
		!t.rawSince.IsZero() && t.raw.Time.Sub(t.rawSince) >= t.stab.Hold()
}

// onSettled journals and applies a settled reading if it matters. from is when the board became
// still: a waiting press is settled as of its own time when the board was already still then.
func (t *Table) onSettled(o observe.Observation, from time.Time) {
	o = journalForm(o) // decide on what the journal keeps, as a replay will
	if !t.obsMatters(o) {
		return
	}
	at := o.Time
	if t.pending != nil {
		at = later(t.pending.At, from)
	}
	_ = t.runEvent(&event{Kind: kindObs, At: at, Board: boardText(o), Probs: probsText(o), Frame: o.Seq})
}

// obsMatters reports whether a stable reading would change anything (then it is journaled).
func (t *core) obsMatters(o observe.Observation) bool {
	if t.game == nil {
		return false
	}
	switch t.phase {
	case PhaseReady:
		return t.pending != nil
	case PhasePlaying:
		if t.pending != nil || t.recheck {
			return true
		}
		if c := t.capture; c != nil {
			return fits(o.Size, c.After, o) || fits(o.Size, c.Before, o)
		}
		return len(t.differs) > 0 && fits(o.Size, t.game.Board(), o)
	case PhaseMarking:
		if t.conf != nil {
			return t.pending != nil
		}
		// Every change of the board after the stop is journaled: the count board's check
		// (countboard.go) is made again on the last one whenever the marking changes.
		if t.endSeen == nil {
			return len(changes(o.Size, t.game.Board(), o)) > 0
		}
		return !o.SameStones(*t.endSeen)
	}
	return false
}

func (t *core) applyObs(o observe.Observation) error {
	switch t.phase {
	case PhaseReady, PhasePlaying:
		if t.pending != nil {
			t.recheck = false // the waiting press compares the board with the game
			t.resolve(o)
			return nil
		}
		if c := t.capture; c != nil {
			switch {
			case fits(o.Size, c.After, o):
				t.capture = nil
				played, err := t.game.Play(c.Move)
				if err != nil {
					t.refuseQueue(o.Time, word("since the move could not be played"))
					return err
				}
				before := t.game.MoveNumber()
				t.accept(played, later(c.At, o.Time), "")
				t.seenOn(o)
				t.afterCheck(t.game.MoveNumber() >= before, o.Time)
			case fits(o.Size, c.Before, o):
				t.capture = nil
				t.setBanner(Verdict{Kind: VerdictInfo, Color: c.Move.Color, At: o.Time,
					Says: []Phrase{phrase("{{.Color}} took the stone at {{.Point}} back: still {{.Color}} to play.",
						"Color", title(c.Move.Color), "Point", c.Move.Point.GTP(t.game.Size()))}})
				t.refuseQueue(o.Time, word("since the capturing stone was taken back"))
			}
			return nil
		}
		if t.capture == nil && t.recheckBoard(o) {
			return nil
		}
		if len(t.differs) > 0 && fits(o.Size, t.game.Board(), o) {
			t.differs = nil
			t.seenOn(o)
			t.setBanner(Verdict{Kind: VerdictInfo, At: o.Time,
				Says: []Phrase{phrase("The board matches the game again: {{.Color}} to play.", "Color", title(t.game.ToMove()))}})
		}
	case PhaseMarking:
		if t.conf != nil {
			if t.pending != nil {
				t.resolveConf(o)
			}
			return nil
		}
		t.applyCountBoardObs(o)
	}
	return nil
}

// removedChains returns the chains not yet marked dead whose every stone is gone from the board seen.
func (t *core) removedChains(o observe.Observation) [][]engine.Point {
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
		gone, real := true, false
		for _, q := range chain {
			done[q] = true
			if o.Stones[q.Y*size+q.X] != observe.Empty {
				gone = false
			}
			if !t.isFill(q) {
				real = true
			}
		}
		if gone && real { // a dame stone taken back is not a dead stone (see applyDame)
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
	prev := t.pending
	ev := &event{Kind: kindPress, At: p.At, Press: p}
	switch {
	case p.Button != clock.PassButton || t.game == nil:
	case t.usableSeen():
		// The board the pass was pressed on goes into the journal with it: a pass with a new
		// stone on the board is refused, here and in every replay.
		o := journalForm(t.seen)
		ev.Board, ev.Probs = boardText(o), probsText(o)
	case t.phase == PhasePlaying && t.hasRaw && !t.sightHeld():
		// The camera sees the board, but it is not still (a hand over it, a stone just put
		// down): the pass waits for the still board, which must show no new stone.
		ev.Moving = true
	}
	if err := t.runEvent(ev); err != nil {
		return err
	}
	if t.pending != nil && t.usableSeen() {
		s := t.seen.Clone()
		s.Time, s.Seq = t.raw.Time, t.raw.Seq
		t.evaluated = true
		t.onSettled(s, t.rawSince.Add(t.stab.Hold()))
	}
	if t.pending != nil && t.pending != prev { // this press waits (a queued one said so already)
		t.waitingBanner()
		t.heldBanner()
		t.bump()
	}
	return nil
}

// waitingBanner says that a press waits for a clear view of the board. It is not journaled: the
// press is, and the verdict that settles it.
func (t *core) waitingBanner() {
	p := t.pending
	says := phrase("Checking the move… keep hands off the board.")
	switch {
	case p.Start:
		says = phrase("Checking the starting position… keep hands off the board.")
	case p.Pass:
		says = phrase("Checking the board before the pass… keep hands off the board.")
	}
	t.setBanner(Verdict{Kind: VerdictWaiting, Color: p.Color, At: p.At, Says: []Phrase{says}})
}

// Presses made while an earlier press is still being checked (the board not yet still, or a
// capture waiting for the captured stones to be taken off) are never dropped. They wait in order,
// as a tournament director would expect of a chess clock: each counts, at its own time, once the
// press before it has counted. If the earlier press did not count (no new stone, the board
// differs, no clear view, the capturing stone taken back, play halted), the queued presses are
// refused with the earlier press's verdict, saying so: their meaning depended on it (the pass
// button passes for the side to move), so guessing would record a move for the wrong colour. At
// most maxQueued presses wait; one more is refused with a verdict. The queue is rebuilt from the
// journal's press records like every other state.

func (t *core) applyPress(p clock.Press, at time.Time) error {
	t.presses++
	if p.Button == clock.DirectorButton {
		t.callDirector(at)
		return nil
	}
	switch p.Button {
	case clock.BlackClock, clock.WhiteClock, clock.PassButton:
	default:
		return fmt.Errorf("referee: unknown button %v", p.Button)
	}
	if t.phase == PhaseReady || t.phase == PhasePlaying {
		if t.busyFor(p) {
			t.enqueue(p, at)
			return nil
		}
		if t.capture != nil {
			// The mover presses again: look at the board afresh (the captured stones may be off,
			// or something else may have changed).
			t.capture = nil
		}
	}
	return t.pressNow(p, at, at)
}

// pressName names a press for verdicts: "Black's clock press", "the pass".
func pressName(b clock.Button) string {
	switch b {
	case clock.BlackClock:
		return word("Black's clock press")
	case clock.WhiteClock:
		return word("White's clock press")
	}
	return word("the pass")
}

// pressTitle is pressName at the start of a sentence: "Black's clock press", "The pass".
func pressTitle(b clock.Button) string {
	if b == clock.PassButton {
		return word("The pass")
	}
	return pressName(b)
}

// busyFor reports whether p must wait behind an earlier press: one is being checked or already
// waiting, or a capture waits for its stones to come off (only the mover's own button, which
// asks for a fresh look, does not wait for that).
func (t *core) busyFor(p clock.Press) bool {
	switch {
	case t.pending != nil:
		return true
	case t.capture != nil:
		return p.Button != clock.ClockButton(sideOf(t.capture.Move.Color))
	}
	return len(t.queue) > 0
}

// enqueue queues p behind the press being checked, or refuses it when the queue is full.
func (t *core) enqueue(p clock.Press, at time.Time) {
	if len(t.queue) >= maxQueued {
		t.setBanner(Verdict{Kind: VerdictInfo, At: at,
			Says: []Phrase{phrase("{{.Press}} was not counted: {{.N}} presses are waiting already for the board to be checked. Keep hands off the board.",
				"Press", pressTitle(p.Button), "N", fmt.Sprint(len(t.queue)))}})
		return
	}
	t.queue = append(t.queue, p)
	if c := t.capture; c != nil && t.pending == nil {
		who := pressTitle(p.Button)
		if p.Button == clock.PassButton {
			who = word("White's pass")
			if c.Move.Color == engine.White {
				who = word("Black's pass")
			}
		}
		t.setBanner(Verdict{Kind: VerdictRemoveCaptures, Color: c.Move.Color, At: at, Points: c.Captured,
			Says: []Phrase{phrase("First remove the captured stones at {{.Points}}. {{.Press}} waits until then.",
				"Points", vertices(t.game.Size(), c.Captured), "Press", who)}})
		return
	}
	says := phrase("{{.Press}} waits until the move is checked… keep hands off the board.", "Press", pressTitle(p.Button))
	if t.pending != nil && t.pending.Start {
		says = phrase("{{.Press}} waits until the starting position is checked… keep hands off the board.", "Press", pressTitle(p.Button))
	}
	t.setBanner(Verdict{Kind: VerdictWaiting, At: at, Says: []Phrase{says}})
}

// afterCheck is called when a press or capture being checked is settled. If it counted (the game
// moved on) the queued presses are applied in order, each at its own time, until one has to wait
// again; otherwise they are refused, and the verdict says so.
func (t *core) afterCheck(counted bool, now time.Time) {
	for len(t.queue) > 0 && t.pending == nil && t.capture == nil {
		if !counted || t.phase != PhasePlaying {
			why := word("since the press before did not count")
			if counted {
				why = word("since the game is no longer in play")
			}
			t.refuseQueue(now, why)
			return
		}
		p := t.queue[0]
		t.queue = t.queue[1:]
		if len(t.queue) == 0 {
			t.queue = nil
		}
		before := t.game.MoveNumber()
		_ = t.pressNow(p, p.At, now)
		counted = t.game.MoveNumber() != before || t.pending != nil || t.capture != nil
	}
}

// refuseQueue drops the queued presses and repeats the current verdict saying so, and why.
func (t *core) refuseQueue(at time.Time, why string) {
	if len(t.queue) == 0 {
		return
	}
	names := make([]string, len(t.queue))
	for i, p := range t.queue {
		names[i] = pressName(p.Button)
		if i == 0 {
			names[i] = pressTitle(p.Button)
		}
	}
	t.queue = nil
	v := t.banner
	if v.Kind == VerdictNone {
		v.Kind = VerdictInfo
	}
	v.At = later(v.At, at)
	v.Says = append(slices.Clone(v.Says), phrase("({{.Presses}} made while the board was being checked: not counted, {{.Why}}. Press again if needed.)",
		"Presses", strings.Join(names, ", "), "Why", why))
	t.setBanner(v)
}

// decide is what p means at the table by the clock's own button rules (clock.Decide), taken on
// the referee's view of the clock: the game's player to move, running unless paused. A flag is
// the referee's to call (after the report delay, or when the mover's switch finds it), so the
// decision is made as if none had fallen.
func (t *core) decide(p clock.Press) clock.Decision {
	return clock.Decide(clock.State{ToMove: sideOf(t.game.ToMove()), Started: true, Running: !t.paused}, p)
}

// pressNow applies a press that waits for nothing: at is the press's time, now the time it is
// applied (later than at for a press that waited in the queue).
func (t *core) pressNow(p clock.Press, at, now time.Time) error {
	var c engine.Color
	switch p.Button {
	case clock.BlackClock:
		c = engine.Black
	case clock.WhiteClock:
		c = engine.White
	}
	deadline := later(at, now).Add(t.cfg.PressWait)
	switch t.phase {
	case PhaseSetup:
		t.setBanner(Verdict{Kind: VerdictInfo, At: at, Says: []Phrase{phrase("Set up the game first.")}})
	case PhaseReady:
		if c == engine.Empty {
			return nil // the set-up banner already says a clock press starts the game
		}
		t.pending = &pendingPress{Start: true, Color: c, At: at, Deadline: deadline}
	case PhasePlaying:
		g := t.game
		if t.capture != nil {
			t.setBanner(Verdict{Kind: VerdictRemoveCaptures, Color: t.capture.Move.Color, At: at,
				Points: t.capture.Captured, Says: []Phrase{phrase("First remove the captured stones at {{.Points}}.",
					"Points", vertices(g.Size(), t.capture.Captured))}})
			return nil
		}
		d := t.decide(p)
		if p.Button == clock.PassButton && t.passMoving && t.passBoard == nil {
			t.pending = &pendingPress{Pass: true, Color: g.ToMove(), At: at, Deadline: deadline}
			return nil
		}
		if p.Button == clock.PassButton && t.passWithStone(at) {
			return nil
		}
		switch {
		case d.Action == clock.Pass || d.Action == clock.StopRequest:
			return t.pass(at)
		case d.Action == clock.Resume:
			return t.applyResumeClocks(at)
		case d.Action == clock.Ignore && d.Reason == clock.NotToMove:
			t.strayPress = c
			t.setBanner(Verdict{Kind: VerdictNotYourTurn, Color: c, At: at,
				Says: []Phrase{phrase("It is {{.ToMove}}'s turn: {{.Color}}'s clock press changes nothing.", "ToMove", title(g.ToMove()), "Color", title(c))}})
			return nil
		case d.Action == clock.Ignore && p.Button == clock.PassButton:
			// The clocks are paused (after a restart): a pass still counts and restarts them.
			return t.pass(at)
		}
		// A Move, or the mover's press while the clocks are paused after a restart: the move
		// counts and restarts them.
		t.pending = &pendingPress{Color: c, At: at, Deadline: deadline}
	case PhaseHalted:
		if t.halted != nil && t.halted.Called {
			t.setBanner(Verdict{Kind: VerdictDirector, At: at, Says: []Phrase{phrase("The game is paused: the director was called. The clocks stay stopped until the director resumes play, or the director button is pressed again to withdraw the call.")}})
			return nil
		}
		if t.halted == nil || t.halted.Move == nil {
			// The director paused the game (no illegal move to rule on).
			t.setBanner(Verdict{Kind: VerdictDirector, At: at, Says: []Phrase{phrase("The game is paused by the director: the clocks stay stopped until the director resumes play.")}})
			return nil
		}
		t.setBanner(Verdict{Kind: VerdictInfo, At: at, Says: []Phrase{phrase("Play is halted: the director must rule before play continues.")}})
	case PhaseMarking:
		if t.conf != nil {
			if t.pending != nil {
				return nil // the press before is still being checked
			}
			return t.confPress(c, at, deadline)
		}
		if c != engine.Empty {
			return t.applyConfirm(c, at)
		}
	}
	return nil
}

// resolve settles a waiting press with a stable reading.
func (t *core) resolve(o observe.Observation) {
	p := t.pending
	t.pending = nil
	// The press ends the move: the clock switches at the press, however long the board took to
	// settle (the player is not charged for the camera's stability wait).
	at := p.At
	before, ready := t.game.MoveNumber(), t.phase == PhaseReady
	switch {
	case p.Start:
		t.startGame(o, at)
	case p.Pass:
		t.passBoard = &o
		if !t.passWithStone(at) {
			_ = t.pass(at)
		}
		t.passBoard = nil
	case t.catchUp(p, o):
	default:
		t.evaluate(p.Color, o, at)
	}
	t.afterCheck(t.game.MoveNumber() != before || (ready && t.phase == PhasePlaying), o.Time)
}

// seenOn records that the game's board, as it stands, was seen on reading o.
func (t *core) seenOn(o observe.Observation) {
	if len(t.seenReads) == 2 {
		t.seenReads = t.seenReads[1:]
	}
	t.seenReads = append(t.seenReads, o)
	t.seenBoard = t.game.Board()
}

// previous returns the readings the game's board was seen on at the last two confirmations, or
// none while fewer than two were made or when the board has changed since the latest (a
// director's correction, a retraction).
func (t *core) previous() []observe.Observation {
	if len(t.seenReads) < 2 || !slices.Equal(t.seenBoard, t.game.Board()) {
		return nil
	}
	return t.seenReads
}

func (t *core) boardDiffers(c engine.Color, why []Phrase, ms []mismatch, at time.Time) {
	t.differs = pointsOf(ms)
	t.setBanner(Verdict{Kind: VerdictBoardDiffers, Color: c, At: at, Points: pointsOf(ms),
		Says: differsSays(t.game.Size(), why, ms)})
}

func (t *core) startGame(o observe.Observation, at time.Time) {
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
			why := []Phrase{phrase("Black places exactly {{.N}} handicap stones and no white stone is on the board (seen {{.Black}} black, {{.White}} white).",
				"N", fmt.Sprint(t.setup.Handicap), "Black", fmt.Sprint(len(blacks)), "White", fmt.Sprint(len(whites)))}
			if len(ms) == 0 {
				t.differs = nil
				t.setBanner(Verdict{Kind: VerdictBoardDiffers, At: at, Points: blacks, Says: why})
				return
			}
			t.boardDiffers(engine.Empty, why, ms, at)
			return
		}
		if err := g.PlaceFreeHandicap(blacks); err != nil {
			t.setBanner(Verdict{Kind: VerdictBoardDiffers, At: at, Points: blacks,
				Says: []Phrase{phrase("The handicap stones cannot be placed: {{.Err}}.", "Err", strings.TrimSuffix(err.Error(), "."))}})
			return
		}
	} else if ms := changes(size, g.Board(), o); len(ms) > 0 {
		why := phrase("the game starts from an empty board.")
		if h := g.Handicap(); len(h) > 0 {
			why = phrase("the game starts with exactly the {{.N}} handicap stones on {{.Points}} (AGA rule 4).",
				"N", fmt.Sprint(len(h)), "Points", vertices(size, h))
		}
		t.boardDiffers(engine.Empty, []Phrase{why}, ms, at)
		return
	}
	t.differs = nil
	t.seenOn(o)
	if t.clk != nil {
		if err := t.clk.SetToMove(sideOf(g.ToMove())); err != nil {
			return
		}
		if err := t.clk.Start(at); err != nil {
			t.diag(slog.LevelError, "starting the clock", "err", err)
		}
	}
	t.phase = PhasePlaying
	if h := g.Handicap(); len(h) > 0 && t.setup.FreeHandicap {
		t.comment(fmt.Sprintf("Free handicap stones: %s", vertices(size, h)))
	}
	t.setBanner(Verdict{Kind: VerdictInfo, At: at, Says: []Phrase{phrase("The game has started: {{.Color}} to play.", "Color", title(g.ToMove()))}})
	t.emit(RecordChanged{})
}

// evaluate decides what the board seen when c pressed the clock means. It does not trust each
// point's best guess: it ranks the explanations a referee would consider (no change, each legal
// move with its captures off or still on the board, an illegal stone, a stone of the wrong
// colour, the opponent's next stone already down) by how likely they make the reading
// (referee/infer), and acts only on a clear best explanation. When two explanations are close, or
// the board differs from every one, it says so and records nothing.
func (t *core) evaluate(c engine.Color, o observe.Observation, at time.Time) {
	g := t.game
	size := g.Size()
	r, err := infer.RankSince(g, c, o, t.previous()...)
	if err != nil {
		t.boardDiffers(c, []Phrase{errPhrase(err)}, diff(size, g.Board(), o), at)
		return
	}
	b := r.Best
	switch {
	case len(r.Unseen) > 0 || (len(r.Misfits) > 0 && b.Kind.Slip()):
		t.unclear(c, o, r, at)
	case b.Kind == infer.NoChange && len(persistentOf(c, o, r)) > 0:
		// The move may be on a point the camera misreads as the mover's stone move after move.
		t.unclearAt(c, persistentOf(c, o, r), at)
	case b.Kind == infer.NoChange:
		// A slip that records nothing is said as the likeliest explanation, decisive or not.
		t.setBanner(Verdict{Kind: VerdictNoChange, Color: c, At: at,
			Says: []Phrase{phrase("No new stone on the board: {{.Color}}, place your stone and press your clock again, or press pass.", "Color", title(c))}})
	case b.Kind == infer.WrongColor:
		t.boardDiffers(c, wrongColour(b.Move.Color, c),
			[]mismatch{{P: b.Move.Point, Want: engine.Empty, Seen: b.Move.Color}}, at)
	case !r.Decisive():
		t.unclear(c, o, r, at)
	case b.Kind == infer.MoveThenNext && t.strayPress == c.Opponent():
		// The opponent pressed for that stone already, out of turn: a move was missed.
		t.differsFromAll(c, o, r, at)
	case b.Kind == infer.Illegal:
		t.illegal(b.Move, b.Err, at)
	default: // Move, CapturesOnBoard, MoveThenNext: the same move
		t.playSeen(r, o, at)
	}
}

// playSeen plays the move of r.Best, the decisive explanation of reading o. The captured
// stones still seen on the board wait to be taken off (VerdictRemoveCaptures); any other point
// that contradicts the move means the board differs.
func (t *core) playSeen(r infer.Ranking, o observe.Observation, at time.Time) {
	g := t.game
	b := r.Best
	size := g.Size()
	c, m := b.Move.Color, b.Move
	before := g.Board()
	after := slices.Clone(before)
	after[m.Point.Y*size+m.Point.X] = c
	captured := map[engine.Point]bool{}
	for _, q := range b.Captured {
		after[q.Y*size+q.X] = engine.Empty
		captured[q] = true
	}
	seen := after
	if b.Kind == infer.MoveThenNext {
		seen = slices.Clone(after)
		seen[b.Next.Y*size+b.Next.X] = c.Opponent()
	}
	ms := changes(size, seen, o)
	var left []engine.Point // captured stones still on the board
	for _, d := range ms {
		if captured[d.P] && d.Seen == c.Opponent() && !d.Obscured {
			left = append(left, d.P)
		}
	}
	if b.Kind == infer.MoveThenNext && len(ms) > 0 {
		// Not a move being made after all: describe the board as seen against the game.
		t.differsFromAll(c, o, r, at)
		return
	}
	if len(left) < len(ms) {
		t.boardDiffers(c, restDiffers(c, m.Point.GTP(size)), ms, at)
		return
	}
	if len(left) > 0 {
		t.capture = &pendingCapture{Move: m, At: at, Before: before, After: after, Captured: left}
		t.differs = nil
		t.setBanner(Verdict{Kind: VerdictRemoveCaptures, Color: c, At: at, Points: left,
			Says: []Phrase{phrase("{{.Color}} {{.Point}} captures {{.N}}: remove the captured stones at {{.Points}}. The move counts once they are off the board.",
				"Color", title(c), "Point", m.Point.GTP(size), "N", fmt.Sprint(len(b.Captured)), "Points", vertices(size, left))}})
		return
	}
	played, err := g.Play(m)
	if err != nil {
		t.boardDiffers(c, []Phrase{errPhrase(err)}, ms, at)
		return
	}
	t.accept(played, at, "")
	t.seenOn(o)
	if b.Kind == infer.MoveThenNext && t.phase == PhasePlaying && t.banner.Kind == VerdictMove {
		v := t.banner
		v.Says = append(slices.Clone(v.Says), phrase("{{.Color}}'s stone on {{.Point}} is seen already: {{.Color}}, press your clock.",
			"Color", title(c.Opponent()), "Point", b.Next.GTP(size)))
		t.setBanner(v)
	}
}

// unclear refuses a press whose board has no clear explanation, saying why, and records nothing:
// part of the board is not seen; the board differs from every explanation (described from the
// points read surely, as before: no new stone, several new stones, a stone of the wrong colour,
// or the rest of the board); or two explanations are too close to choose.
func (t *core) unclear(c engine.Color, o observe.Observation, r infer.Ranking, at time.Time) {
	g := t.game
	size := g.Size()
	before := g.Board()
	if len(r.Unseen) > 0 {
		ms := changes(size, before, o)
		says := []Phrase{phrase("Part of the board cannot be seen ({{.Points}}): keep hands off the board and press your clock again.",
			"Points", vertices(size, r.Unseen))}
		t.differs = pointsOf(ms)
		t.setBanner(Verdict{Kind: VerdictBoardDiffers, Color: c, At: at, Points: pointsOf(ms), Says: says})
		return
	}
	if len(r.Misfits) > 0 {
		t.differsFromAll(c, o, r, at)
		return
	}
	// Two explanations are close: name the points they disagree on.
	pts := infer.SortPoints(append(r.Best.Changes(), r.RunnerUp.Changes()...))
	if len(pts) == 0 {
		pts = pointsOf(changes(size, before, o))
	}
	t.unclearAt(c, pts, at)
}

// unclearAt says that the board does not show which move c made, naming the points to check.
func (t *core) unclearAt(c engine.Color, pts []engine.Point, at time.Time) {
	says := []Phrase{phrase("The board does not show clearly which move was played. {{.Color}}, check the stones at {{.Points}} and press your clock again.",
		"Color", title(c), "Points", vertices(t.game.Size(), pts))}
	t.differs = pts
	t.setBanner(Verdict{Kind: VerdictBoardDiffers, Color: c, At: at, Points: pts, Says: says})
}

// persistentOf returns the points of r.Persistent that read as a stone of c: a move there could
// not be seen.
func persistentOf(c engine.Color, o observe.Observation, r infer.Ranking) []engine.Point {
	var out []engine.Point
	for _, p := range r.Persistent {
		if stoneColor(o.Stones[p.Y*o.Size+p.X]) == c {
			out = append(out, p)
		}
	}
	return out
}

// differsFromAll says how the board differs when no explanation fits it, described from the
// points read surely as before: no new stone, several new stones, a stone of the wrong colour,
// or the rest of the board around the mover's new stone.
func (t *core) differsFromAll(c engine.Color, o observe.Observation, r infer.Ranking, at time.Time) {
	g := t.game
	size := g.Size()
	before := g.Board()
	ms := changes(size, before, o)
	ad := added(ms)
	switch {
	case len(ms) == 0:
		t.boardDiffers(c, nil, misfitsOf(size, nil, r.Misfits, r.Best.Board(size, before)), at)
	case len(ad) == 0:
		t.boardDiffers(c, []Phrase{phrase("no new stone was placed, but stones changed.")}, ms, at)
	case len(ad) > 1:
		t.boardDiffers(c, []Phrase{phrase("{{.N}} new stones at once; a move is one stone.", "N", fmt.Sprint(len(ad)))}, ms, at)
	case ad[0].Seen != c:
		t.boardDiffers(c, wrongColour(ad[0].Seen, c), ms, at)
	default:
		m := engine.Move{Color: c, Point: ad[0].P}
		if _, err := g.Play(m); err != nil {
			t.boardDiffers(c, []Phrase{errPhrase(err)}, ms, at)
			return
		}
		rest := changes(size, g.Board(), o)
		if err := g.Undo(); err != nil {
			t.diag(slog.LevelError, "undo of a tentative move", "err", err)
		}
		t.boardDiffers(c, restDiffers(c, m.Point.GTP(size)), rest, at)
	}
}

// illegal applies the policy to an illegal move (suicide, ko, superko).
func (t *core) illegal(m engine.Move, ime *engine.IllegalMoveError, at time.Time) {
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
		says := []Phrase{illegalPhrase(ime), phrase("Play is halted and the clocks are stopped: call the director.")}
		t.setBanner(Verdict{Kind: VerdictIllegal, Color: m.Color, At: at, Points: pts, Says: says})
		return
	}
	switch t.setup.Policy {
	case PolicyLoss:
		res := "B+F"
		if m.Color == engine.Black {
			res = "W+F"
		}
		t.comment(fmt.Sprintf("Illegal move %s: %s. The violation loses the game (Japanese rules art. 14).", m.GTP(size), sentence))
		t.endWith(Verdict{Kind: VerdictIllegal, Color: m.Color, At: at, Points: pts, Says: []Phrase{illegalPhrase(ime),
			phrase("A violation loses the game at once (Japanese rules art. 14): {{.Opponent}} wins ({{.Result}}).",
				"Opponent", title(m.Color.Opponent()), "Result", res)}}, res)
		return
	case PolicyWarning:
		t.comment(fmt.Sprintf("Illegal move %s: %s. Warning; the stone is taken back.", m.GTP(size), sentence))
		t.differs = []engine.Point{m.Point}
		t.setBanner(Verdict{Kind: VerdictIllegal, Color: m.Color, At: at, Points: pts, Says: []Phrase{illegalPhrase(ime),
			phrase("Warning (tournament rule): {{.Color}} takes the stone on {{.Point}} back and plays again; {{.Color}}'s clock runs on.",
				"Color", title(m.Color), "Point", m.Point.GTP(size))}})
		return
	}
	played, err := g.RetractAndPass(m)
	if err != nil {
		t.boardDiffers(m.Color, []Phrase{errPhrase(err)}, []mismatch{{P: m.Point, Want: engine.Empty, Seen: m.Color}}, at)
		return
	}
	t.accept(played, at, fmt.Sprintf("Illegal move %s retracted (rule 8 policy): %s", m.GTP(size), sentence))
	if t.phase == PhaseEnded {
		return
	}
	retract := phrase("{{.Color}} takes the stone on {{.Point}} back and passes instead (AGA rule 8).",
		"Color", title(m.Color), "Point", m.Point.GTP(size))
	if t.rules.PassStones {
		retract = phrase("{{.Color}} takes the stone on {{.Point}} back and passes instead (AGA rule 8), handing one pass stone to {{.Opponent}}.",
			"Color", title(m.Color), "Point", m.Point.GTP(size), "Opponent", title(m.Color.Opponent()))
	}
	says := []Phrase{illegalPhrase(ime), retract}
	if t.phase == PhasePlaying {
		t.differs = []engine.Point{m.Point}
	} else {
		// The retraction's pass stopped the game: say that too.
		says = append(says, t.banner.Says...)
	}
	t.setBanner(Verdict{Kind: VerdictIllegal, Color: m.Color, At: at, Points: pts, Says: says})
}

// passStoneSure is how sure the reading must be of a new stone for it to refuse a pass.
const passStoneSure = 0.95

// passWithStone refuses a pass pressed while a new stone stands on the board (the board journaled
// with the press): the player meant a move, or forgot the stone. It reports whether it refused.
func (t *core) passWithStone(at time.Time) bool {
	o := t.passBoard
	if o == nil {
		return false
	}
	var added []engine.Point
	size := t.game.Size()
	for i, c := range t.game.Board() {
		s := o.Stones[i]
		// Only a stone seen for sure counts: a point misread now and then (glare) must not block a pass.
		if c == engine.Empty && (s == observe.Black || s == observe.White) && o.PointProbs(i)[s] >= passStoneSure {
			added = append(added, engine.Point{X: i % size, Y: i / size})
		}
	}
	if len(added) == 0 {
		return false
	}
	c := t.game.ToMove()
	t.setBanner(Verdict{Kind: VerdictBoardDiffers, Color: c, At: at, Points: added, Says: []Phrase{
		phrase("A pass was pressed with a new stone on the board at {{.Points}}: the pass does not count. Take the stone off and press pass again, or press your clock to play it.",
			"Points", vertices(size, added))}})
	return true
}

func (t *core) pass(at time.Time) error {
	g := t.game
	c := g.ToMove()
	played, err := g.Play(engine.Move{Color: c, Pass: true})
	if err != nil {
		t.setBanner(Verdict{Kind: VerdictInfo, Color: c, At: at, Says: []Phrase{errPhrase(err)}})
		return nil
	}
	t.accept(played, at, "")
	return nil
}

// accept records a played move: clock, SGF note, verdict, and the stop after two passes.
func (t *core) accept(played engine.Played, at time.Time, comment string) {
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
			// The time ran out before the press: the loss is recorded at the instant it did.
			flagAt := at
			if ss := t.clk.State().Side(sideOf(c)); ss.Flagged && !ss.FlaggedAt.IsZero() {
				flagAt = ss.FlaggedAt
			}
			t.timeLoss(c, flagAt)
			return
		}
	}
	t.pending, t.capture, t.differs, t.strayPress = nil, nil, nil, engine.Empty
	note := &moveNote{}
	if comment != "" {
		note.Comments = append(note.Comments, comment)
	}
	if t.clk != nil {
		st := t.clk.State()
		note.Time = &st
	}
	t.notes[played.Number] = note
	t.emit(Recorded{Move: played.Move.GTP(size)})
	v := Verdict{Color: c, At: at, MoveNumber: played.Number}
	if played.Move.Pass {
		v.Kind = VerdictPass
		says := phrase("{{.N}}: {{.Color}} passes.", "N", fmt.Sprint(played.Number), "Color", title(c))
		if t.rules.PassStones {
			says = phrase("{{.N}}: {{.Color}} passes and hands one pass stone to {{.Opponent}}.",
				"N", fmt.Sprint(played.Number), "Color", title(c), "Opponent", title(c.Opponent()))
		}
		v.Says = []Phrase{says}
	} else {
		v.Kind = VerdictMove
		v.Points = []engine.Point{played.Move.Point}
		says := phrase("{{.N}}: {{.Color}} {{.Point}}.", "N", fmt.Sprint(played.Number), "Color", title(c), "Point", played.Move.Point.GTP(size))
		if n := len(played.Captured); n > 0 {
			says = phrase("{{.N}}: {{.Color}} {{.Point}}, capturing {{.Count}} ({{.Points}}).", "N", fmt.Sprint(played.Number),
				"Color", title(c), "Point", played.Move.Point.GTP(size), "Count", fmt.Sprint(n), "Points", vertices(size, sortedPoints(played.Captured)))
		}
		v.Says = []Phrase{says}
	}
	t.setBanner(v)
	if t.noteRepetition(played, at) {
		return
	}
	if g.Phase() == engine.Stopped {
		t.enterStop(at)
	}
	t.emit(RecordChanged{})
}

func (t *core) pauseClock(at time.Time) {
	if t.clk != nil && t.clk.State().Running {
		_ = t.clk.Pause(at)
		t.paused = true
	}
}

// syncClock makes the clock's side to move the game's (after an undo or a resumption) without
// charging anyone: the clock is rebuilt from its state with the other side to move.
func (t *core) syncClock(at time.Time) {
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
	nc, err := clock.Restore(st, coreTime{t})
	if err != nil {
		t.diag(slog.LevelError, "re-seating the clock", "err", err)
		return
	}
	nc.SetReportDelay(t.cfg.FlagGrace)
	t.clk = nc
	if running {
		_ = nc.Resume(at)
	}
}

func (t *core) applyTimeout(at time.Time) error {
	p := t.pending
	if p == nil {
		return nil
	}
	t.pending = nil
	says := phrase("The board could not be seen clearly for {{.Time}} (hands over it?): keep hands off the board and press the clock again.",
		"Time", t.cfg.PressWait.Round(time.Second).String())
	if p.Pass {
		says = phrase("The board could not be seen clearly for {{.Time}} (hands over it?): the pass does not count. Keep hands off the board and press pass again.",
			"Time", t.cfg.PressWait.Round(time.Second).String())
	}
	t.setBanner(Verdict{Kind: VerdictNotSeen, Color: p.Color, At: at, Says: []Phrase{says}})
	t.refuseQueue(at, word("since the press before did not count"))
	return nil
}

// Tick lets the table notice what happens with time alone: a waiting press that found no clear
// view of the board in time, and a flag that fell (called once the clock's report delay,
// Options.FlagGrace, has passed, so that a press made just before it still counts). Both are
// journaled at the instant they happened, not when Tick noticed, so a late Tick decides exactly
// as a punctual one: Watch calls it at the right moments, and calling it more often changes
// nothing. Tick reads the clock without changing it (clock.Poll would settle the clock's time,
// and a press still being checked would then be booked later live than in the journal's replay).
func (t *Table) Tick(now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed || t.game == nil {
		return
	}
	if t.pending != nil && !t.sightHeld() && !now.Before(t.pending.Deadline) {
		_ = t.runEvent(&event{Kind: kindTimeout, At: t.pending.Deadline})
	}
	if at, c, ok := t.fallenFlag(now); ok && !now.Before(at.Add(t.cfg.FlagGrace)) {
		_ = t.runEvent(&event{Kind: kindFlag, At: at, Color: c})
	}
}

// fallenFlag returns the instant and the side of a flag that has fallen by now and is the
// referee's to call.
func (t *core) fallenFlag(now time.Time) (time.Time, engine.Color, bool) {
	if t.clk == nil || (t.phase != PhasePlaying && t.phase != PhaseReady) {
		return time.Time{}, engine.Empty, false
	}
	st := t.clockAt(now)
	for _, s := range []clock.Side{clock.Black, clock.White} {
		if ss := st.Side(s); ss.Flagged {
			return ss.FlaggedAt, colorOf(s), true
		}
	}
	return time.Time{}, engine.Empty, false
}

// clockAt returns the clock's state as of now, without changing the clock.
func (t *core) clockAt(now time.Time) clock.State {
	t.now = now
	defer func() { t.now = time.Time{} }()
	return t.clk.State()
}

// NextDeadline returns when the table next needs a Tick: a waiting press's deadline, or the
// clock's next event (overtime, a period used, a flag) plus the report delay. false: nothing is
// due until an input arrives.
func (t *Table) NextDeadline() (time.Time, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return time.Time{}, false
	}
	return t.nextDeadline(t.live.Now())
}

func (t *core) nextDeadline(now time.Time) (time.Time, bool) {
	var next time.Time
	ok := false
	take := func(d time.Time) {
		if !ok || d.Before(next) {
			next, ok = d, true
		}
	}
	if t.game == nil {
		return next, false
	}
	if t.pending != nil && !t.sightHeld() {
		take(t.pending.Deadline)
	}
	if at, _, fell := t.fallenFlag(now); fell {
		take(at.Add(t.cfg.FlagGrace))
	} else if t.clk != nil && (t.phase == PhasePlaying || t.phase == PhaseReady) {
		// The clock's own next event, computed on a copy settled at now (the table's clock is
		// only ever moved by journaled events).
		if st := t.clockAt(now); st.Running {
			if c, err := clock.Restore(st, clock.NewManualTime(now)); err == nil && c.Resume(now) == nil {
				c.SetReportDelay(t.cfg.FlagGrace)
				if d, has := c.NextDeadline(); has {
					take(d)
				}
			}
		}
	}
	return next, ok
}

// Watch calls Tick whenever something is due (NextDeadline) until ctx ends, sleeping on a timer
// of the table's time source in between and waking early when the table changes. With Watch
// running, nothing needs to tick the table. It returns ctx's error.
func (t *Table) Watch(ctx context.Context) error {
	var fired time.Time // the deadline last acted on
	for {
		changed := t.Changed()
		var fire <-chan time.Time
		var timer clock.Timer
		d, ok := t.NextDeadline()
		if ok {
			wait := d.Sub(t.live.Now())
			if d.Equal(fired) {
				wait = time.Second // Tick could not settle it (the journal cannot be written): retry calmly
			}
			timer = t.live.NewTimer(wait)
			fire = timer.C()
		}
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return ctx.Err()
		case <-changed:
			if timer != nil {
				timer.Stop()
			}
		case <-fire:
			fired = d
			t.Tick(t.live.Now())
		}
	}
}

func (t *core) applyFlag(c engine.Color, at time.Time) error {
	if t.phase != PhasePlaying && t.phase != PhaseHalted && t.phase != PhaseReady {
		return nil
	}
	t.timeLoss(c, at)
	return nil
}

func (t *core) timeLoss(c engine.Color, at time.Time) {
	res := "B+T"
	if c == engine.Black {
		res = "W+T"
	}
	t.comment(fmt.Sprintf("%s's time ran out.", title(c)))
	t.end(res, at, []Phrase{phrase("{{.Color}}'s time ran out: {{.Opponent}} wins on time ({{.Result}}).",
		"Color", title(c), "Opponent", title(c.Opponent()), "Result", res)})
}

// end finishes the game with a result.
func (t *core) end(result string, at time.Time, says []Phrase) {
	t.endWith(Verdict{Kind: VerdictResult, At: at, Says: says}, result)
}

// endWith finishes the game with a result, saying v (a result, or the illegal move that lost).
func (t *core) endWith(v Verdict, result string) {
	at := v.At
	g := t.game
	var err error
	if result == "Void" {
		err = g.EndVoid()
	} else {
		err = g.End(result)
	}
	if err != nil && !errors.Is(err, engine.ErrGameEnded) {
		t.diag(slog.LevelError, "ending the game", "err", err)
	}
	if t.clk != nil && t.clk.State().Running {
		_ = t.clk.Pause(at)
	}
	t.paused = false
	t.pending, t.capture, t.differs, t.halted, t.queue = nil, nil, nil, nil, nil
	t.propBusy = false
	t.phase = PhaseEnded
	t.result = result
	t.setBanner(v)
	t.emit(RecordChanged{})
	t.emit(GameFinished{})
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

func (t *core) applyResumeClocks(at time.Time) error {
	if !t.paused {
		return nil
	}
	if t.clk != nil {
		if err := t.clk.Resume(at); err != nil && !errors.Is(err, clock.ErrNotPaused) {
			return err
		}
	}
	t.paused = false
	t.setBanner(Verdict{Kind: VerdictInfo, At: at, Says: []Phrase{phrase("Clocks running: {{.Color}} to play.", "Color", title(t.game.ToMove()))}})
	return nil
}

func (t *core) applyRecovered(at time.Time) error {
	if t.clk == nil || !t.clk.State().Running {
		return nil
	}
	_ = t.clk.Pause(at)
	t.paused = true
	c := t.game.ToMove()
	t.setBanner(Verdict{Kind: VerdictInfo, At: at,
		Says: []Phrase{phrase("The kiosk restarted and the clocks are paused. {{.Color}} to play: make your move and press your clock (or {{.Opponent}} presses to restart {{.Color}}'s clock).",
			"Color", title(c), "Opponent", title(c.Opponent()))}})
	return nil
}
