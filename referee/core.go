package referee

import (
	"fmt"
	"log/slog"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/vision/observe"
)

// The referee's core. Everything the table decides is decided here, from its state and one
// journaled event at a time (core.apply): the rules, the clocks, the presses, the camera's view,
// the marking and the result. The core does no I/O, starts no goroutine and reads no clock of its
// own: an event's time is the event's, and what the decision asks the world to do comes out as
// effects (a verdict said, a move recorded, the game record to rewrite, the finished game to
// file, dead stones to propose, a diagnostic), which Table carries out (journal, SGF files,
// proposer, log) and drops while it replays the journal. Replaying the journal through apply
// rebuilds the core exactly.

// coreConfig is what the core needs of the table's options.
type coreConfig struct {
	PressWait   time.Duration // how long a press waits for a clear view of the board
	FlagGrace   time.Duration // a flag is called only this long after it fell
	HasProposer bool          // a dead-stone proposer is configured (marking waits for its answer)
	Application string        // the SGF AP value
}

// Effect is something a decision of the core asks the application to do.
type Effect interface{ isEffect() }

// Said is a verdict the referee said: shown, logged and journaled with the event's outputs.
type Said struct{ Verdict Verdict }

// Recorded is a move added to the game's record (GTP form), journaled with the event's outputs.
type Recorded struct{ Move string }

// RecordChanged asks for the game's SGF to be rewritten.
type RecordChanged struct{}

// GameFinished asks for the finished game to be filed in the games directory.
type GameFinished struct{}

// GameReopened says a finished game is played on (the director reopened it): it is no longer filed.
type GameReopened struct{}

// ProposeDead asks the dead-stone proposer for a proposal of generation Gen (answered with a
// proposal event; an answer for an older generation is ignored).
type ProposeDead struct{ Gen int }

// Diagnostic is something worth a line in the log (an internal inconsistency, never a verdict).
type Diagnostic struct {
	Level slog.Level
	Msg   string
	Args  []any
}

func (Said) isEffect()          {}
func (Recorded) isEffect()      {}
func (RecordChanged) isEffect() {}
func (GameFinished) isEffect()  {}
func (ProposeDead) isEffect()   {}
func (GameReopened) isEffect()  {}
func (Diagnostic) isEffect()    {}

// core is the referee's state: the game, the clocks, the presses and readings being settled, the
// marking and what was said.
type core struct {
	cfg     coreConfig
	now     time.Time        // the time of the event being applied; zero between events
	live    clock.TimeSource // the time between events, for displays (never read by apply)
	effects []Effect         // what the event being applied asked for
	lastAt  time.Time        // the time of the last event applied
	presses int              // clock presses applied
	// passBoard is the still board journaled with the pass press being applied (nil: none seen),
	// and passMoving whether the board was not still at that press (the pass then waits for it).
	passBoard  *observe.Observation
	passMoving bool

	setup     Setup
	rules     engine.Rules
	game      *engine.Game
	clk       *clock.Clock
	phase     Phase
	paused    bool // clocks paused (recovery or director) while the game is on
	stab      *observe.Stabilizer
	raw       observe.Observation
	hasRaw    bool
	rawSince  time.Time // the raw readings have equalled the last stable one since then
	evaluated bool      // the settled reading was checked against the current state
	seen      observe.Observation
	hasSeen   bool

	pending *pendingPress
	queue   []clock.Press // presses made while an earlier press was being checked, in order
	capture *pendingCapture
	differs []engine.Point // the board differs from the game here; cleared when it matches
	// strayPress is the player who pressed their clock out of turn since the last move counted
	// (Empty: nobody). Their stone on the board is then not a move being made (infer.MoveThenNext):
	// they pressed for it already, so the table has lost a move, and the board differs.
	strayPress engine.Color
	// seenReads holds the readings the game's board was seen on at the last two confirmations (a
	// move counted, the start, the board matching again), the latest last, and seenBoard the
	// game's board at the latest: misreads they share with a new reading are discounted
	// (infer.RankSince). They count only while the game's board is still seenBoard.
	seenReads []observe.Observation
	seenBoard []engine.Color
	halted    *halt
	// view is the camera side's condition (journaled on change, see See): play is held, and a
	// waiting press keeps waiting, while it is not observe.ViewBoard. recheck: the view came back,
	// and the next settled board is compared with the game even with no press waiting.
	view     observe.View
	recheck  bool
	notes    map[int]*moveNote // by move number; 0 = the root node
	dead     map[engine.Point]bool
	fromProp bool
	propGen  int // bumps on every entry into marking, so stale proposals are dropped
	propBusy bool
	confirm  [3]bool
	// dameAsked: both players confirmed with dame still open (Japanese art. 8) and were asked to
	// fill them or confirm again (see dameBeforeCount).
	dameAsked bool
	// endSeen is the last reading of the board after the stop (nil: none differed from the
	// game's board yet), countBoard where it disagrees with the marking, and liftDead the stones
	// marked dead because their whole group was taken off the board (countboard.go).
	endSeen    *observe.Observation
	countBoard CountBoard
	liftDead   map[engine.Point]bool
	// repeat is the whole-board repetition standing under Japanese art. 12 (nil: none), and
	// repeatSeen how often each repeated position (by the move after which it first stood) came
	// back since the last stone that did not repeat (see noteRepetition).
	repeat     *Repetition
	repeatSeen map[int]int
	// conf is the confirmation of life and death by play in progress (Japanese art. 7.2), nil if none.
	conf    *confirmation
	score   *engine.Score
	result  string
	banner  Verdict
	history []Verdict
	rulings []Verdict // the game's rulings, oldest first (rulings.go)
}

// newCore returns an empty core (no game set up).
func newCore(cfg coreConfig, live clock.TimeSource, hold time.Duration) *core {
	return &core{cfg: cfg, live: live, notes: map[int]*moveNote{}, dead: map[engine.Point]bool{},
		liftDead: map[engine.Point]bool{}, stab: observe.NewStabilizer(hold)}
}

// emit records an effect of the event being applied.
func (t *core) emit(e Effect) { t.effects = append(t.effects, e) }

// takeEffects returns the effects emitted since the last call, and forgets them.
func (t *core) takeEffects() []Effect {
	e := t.effects
	t.effects = nil
	return e
}

// diag emits a diagnostic.
func (t *core) diag(level slog.Level, msg string, args ...any) {
	t.emit(Diagnostic{Level: level, Msg: msg, Args: args})
}

// coreTime is the time source of the core's clock: the event's own time while an event is
// applied, so that replaying the journal drives the clock exactly as live play did, and the live
// time between events (for displays).
type coreTime struct{ c *core }

// Now returns the event's time, or the live time between events.
func (ct coreTime) Now() time.Time {
	if !ct.c.now.IsZero() {
		return ct.c.now
	}
	return ct.c.live.Now()
}

// NewTimer returns a live timer (the core never waits on the clock's timers).
func (ct coreTime) NewTimer(d time.Duration) clock.Timer { return ct.c.live.NewTimer(d) }

// apply performs one input event: state + event -> state + effects (takeEffects). It depends
// only on the core's state and the event, so that replaying the journal reproduces the table
// exactly; it does no I/O.
func (t *core) apply(ev *event) error {
	if y := ev.At.Year(); ev.At.IsZero() || y < 1900 || y > 2200 {
		return fmt.Errorf("referee: journal record %d (%s) has an implausible time %v", ev.Seq, ev.Kind, ev.At)
	}
	t.now = ev.At
	defer func() { t.now = time.Time{} }()
	if ev.At.After(t.lastAt) {
		t.lastAt = ev.At
	}
	switch ev.Kind {
	case kindSetup:
		if ev.Setup == nil {
			return fmt.Errorf("%w: setup record without a set-up", ErrBadSetup)
		}
		return t.applySetup(*ev.Setup, ev.At)
	case kindPress:
		t.passBoard = nil
		if ev.Board != "" && t.game != nil && ev.Press.Button == clock.PassButton {
			o, err := parseBoardText(t.game.Size(), ev.Board)
			if err != nil {
				return err
			}
			if err := parseProbsText(&o, ev.Probs); err != nil {
				return err
			}
			t.passBoard = &o
		}
		t.passMoving = ev.Moving && ev.Press.Button == clock.PassButton
		defer func() { t.passBoard, t.passMoving = nil, false }()
		return t.applyPress(ev.Press, ev.At)
	case kindObs:
		if t.game == nil {
			return fmt.Errorf("%w: observation before set-up", ErrPhase)
		}
		o, err := parseBoardText(t.game.Size(), ev.Board)
		if err != nil {
			return err
		}
		if err := parseProbsText(&o, ev.Probs); err != nil {
			return err
		}
		o.Time, o.Seq = ev.At, ev.Frame
		return t.applyObs(o)
	case kindTimeout:
		return t.applyTimeout(ev.At)
	case kindToggle:
		p, err := t.parsePoint(ev.Point)
		if err != nil {
			return err
		}
		return t.applyToggle(p, ev.At)
	case kindConfirm:
		return t.applyConfirm(ev.Color, ev.At)
	case kindResume:
		return t.applyResume(ev.Color, ev.At)
	case kindResign:
		return t.applyResign(ev.Color, ev.At)
	case kindVoid:
		return t.applyVoid(ev.Color, ev.At)
	case kindConfStart:
		return t.applyConfStart(ev.Color, ev.At)
	case kindConfPass:
		return t.applyConfPass(ev)
	case kindConfEnd:
		return t.applyConfEnd(ev.At)
	case kindResumeClocks:
		return t.applyResumeClocks(ev.At)
	case kindFlag:
		return t.applyFlag(ev.Color, ev.At)
	case kindProposal:
		return t.applyProposal(ev, ev.At)
	case kindDirector:
		if ev.Director == nil {
			return fmt.Errorf("%w: director record without an action", ErrPhase)
		}
		return t.applyDirector(*ev.Director, ev.At)
	case kindRecovered:
		return t.applyRecovered(ev.At)
	case kindSight:
		v, err := observe.ParseView(ev.View)
		if err != nil {
			return err
		}
		return t.applySight(v, ev.Error, ev.At)
	}
	return fmt.Errorf("referee: unknown journal record kind %q", ev.Kind)
}
