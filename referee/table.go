package referee

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee/journal"
)

// DeadProposer proposes the dead stones of a stopped game (a GTP engine such as GNU Go). The
// referee declares it; GTPProposer is the real one, tests use fakes.
type DeadProposer interface {
	ProposeDead(ctx context.Context, pos Position) ([]engine.Point, error)
}

// Position is a game as a dead-stone proposer needs it.
type Position struct {
	Size     int
	Komi     float64
	Handicap []engine.Point // Black's handicap stones, placed before the moves
	Moves    []engine.Move  // the record (passes included)
}

// Options configures a Table. Only JournalDir is required.
type Options struct {
	JournalDir     string            // where the journal (and by default the SGF) lives; one game per directory
	SGFPath        string            // the SGF rewritten after every move; "" = JournalDir/game.sgf
	GamesDir       string            // where finished games are filed under a findable name; "" = not filed
	Time           clock.TimeSource  // the live time, for clock displays; nil = the system clock
	Hold           time.Duration     // how long a reading must stay unchanged to be stable; 0 = 600ms
	PressWait      time.Duration     // how long a press waits for a clear view of the board; 0 = 5s
	Proposer       DeadProposer      // proposes dead stones at the stop; nil = marking starts empty
	ProposeTimeout time.Duration     // limit for one proposal; 0 = 30s
	ButtonSettle   time.Duration     // the buttons' debounce settle time; 0 = clock.DefaultSettle
	FlagGrace      time.Duration     // a flag is called only this long after it fell, so a press made just before (still being debounced) counts; 0 = ButtonSettle + FlagMargin
	CheckPIN       func(string) bool // checks a director PIN (hashed compare); nil = no director actions
	// PINLockedFor, when set, says how long CheckPIN refuses every PIN after repeated wrong ones
	// (config.PINGuard); a refusal meanwhile says so on the banner, with the minutes left.
	PINLockedFor  func() time.Duration
	Logger        *slog.Logger // nil = slog.Default()
	NoSync        bool         // tests only: skip fsync
	Application   string       // the SGF AP value; "" = "Tengen"
	MinConfidence float32      // readings with a point below this are treated like a hand; 0 = off
	// OnVerdict, when set, is called with every new verdict as it is said (not during the replay
	// of the journal at start). It runs with the table locked: it must not call the Table.
	OnVerdict      func(Verdict)
	journalOptions []journal.Option
}

// FlagMargin is added to the buttons' settle time to give the clock's report delay (Options.FlagGrace):
// the time a press made just before a flag fell may take to reach the table (debounce, the GPIO
// poll, the channel) and still count.
const FlagMargin = 480 * time.Millisecond

// maxQueued bounds the presses waiting behind a press being checked; a press beyond it is refused
// with a verdict (a player hammering a button, not a game).
const maxQueued = 4

// Errors of the intents, checked with errors.Is.
var (
	// ErrNoDirector is returned for a director action when no PIN is configured.
	ErrNoDirector = errors.New("referee: no director PIN is configured")
	// ErrBadPIN is returned for a director action with a wrong PIN.
	ErrBadPIN = errors.New("referee: wrong director PIN")
	// ErrPhase is wrapped when an intent does not apply in the current phase.
	ErrPhase = errors.New("referee: not possible now")
	// ErrBadSetup is wrapped for a set-up that cannot start a game.
	ErrBadSetup = errors.New("referee: bad set-up")
	// ErrJournal is wrapped when an event could not be made durable; the event had no effect.
	ErrJournal = errors.New("referee: journal write failed")
)

// pendingPress is a clock press waiting for a clear view of the board.
type pendingPress struct {
	Start    bool // a press in PhaseReady: check the starting position and start the clock
	Pass     bool // the pass button pressed while the board was not still: it counts once the board, still, shows no new stone
	Color    engine.Color
	At       time.Time
	Deadline time.Time
}

// pendingCapture is a move seen with captured stones still on the board.
type pendingCapture struct {
	Move     engine.Move
	At       time.Time      // the press
	Before   []engine.Color // the game's board before the move
	After    []engine.Color // the board once the captured stones are gone
	Captured []engine.Point
}

// halt is an illegal move waiting for the director under PolicyDirector, or a director pause.
type halt struct {
	Move    *engine.Move
	Message string
	Called  bool // a player called the director with the director button (the clocks stopped)
}

// moveNote is what the SGF keeps with one move besides the move.
type moveNote struct {
	Comments []string
	Time     *clock.State // the clock right after the move
}

// Table is one table's referee. All methods are safe for concurrent use; each intent is journaled
// and fsynced before it takes effect and before State shows it.
type Table struct {
	opts Options
	log  *slog.Logger
	live clock.TimeSource

	mu        sync.Mutex
	jr        *journal.Journal
	seq       uint64
	replaying bool
	closed    bool
	changed   chan struct{}
	stateSeq  uint64
	*core

	recovery string
	gamePath string
	// journalFault is the error of the last failed journal write ("" once a write succeeds): a
	// failing disk is said once, not at every try.
	journalFault string
	cancel       context.CancelFunc
	ctx          context.Context
	wg           sync.WaitGroup
	outbox       *event // outputs of the event being applied (journaled after it)
}

// Open opens (or creates) the table's journal in opts.JournalDir, replays it and returns the
// table exactly as it was: board, prisoners, pass stones, clocks (paused), phase. A torn or
// corrupt journal tail is cut and reported in State().Recovery.
func Open(opts Options) (*Table, error) {
	if opts.JournalDir == "" {
		return nil, fmt.Errorf("%w: no journal directory", ErrBadSetup)
	}
	if opts.SGFPath == "" {
		opts.SGFPath = filepath.Join(opts.JournalDir, "game.sgf")
	}
	if opts.Time == nil {
		opts.Time = clock.SystemTime{}
	}
	if opts.Hold <= 0 {
		opts.Hold = 600 * time.Millisecond
	}
	if opts.PressWait <= 0 {
		opts.PressWait = 5 * time.Second
	}
	if opts.ButtonSettle <= 0 {
		opts.ButtonSettle = clock.DefaultSettle
	}
	if opts.FlagGrace <= 0 {
		opts.FlagGrace = opts.ButtonSettle + FlagMargin
	}
	if opts.ProposeTimeout <= 0 {
		opts.ProposeTimeout = 30 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Application == "" {
		opts.Application = "Tengen"
	}
	if opts.NoSync {
		opts.journalOptions = append(opts.journalOptions, journal.WithoutSync())
	}
	t := &Table{opts: opts, log: opts.Logger, live: opts.Time, changed: make(chan struct{}),
		core: newCore(coreConfig{PressWait: opts.PressWait, FlagGrace: opts.FlagGrace, HasProposer: opts.Proposer != nil,
			Application: opts.Application}, opts.Time, opts.Hold)}
	t.ctx, t.cancel = context.WithCancel(context.Background())
	if opts.MinConfidence > 0 {
		t.stab.SetMinConfidence(opts.MinConfidence)
	}
	jr, records, rec, err := journal.Open(opts.JournalDir, opts.journalOptions...)
	if err != nil {
		return nil, err
	}
	t.jr = jr
	if !rec.Clean() {
		t.recovery = rec.String()
		t.log.Warn("journal tail cut", "report", rec.String())
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.replaying = true
	for i, raw := range records {
		var ev event
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.noteRecovery(fmt.Sprintf("record %d is unreadable (%v); replay stopped there", i+1, err))
			break
		}
		if ev.Seq > t.seq+1 && t.seq > 0 {
			t.noteRecovery(fmt.Sprintf("records %d to %d were damaged and skipped: check the board against the game from move %d on",
				t.seq+1, ev.Seq-1, t.moveNumber()+1))
		}
		t.seq = ev.Seq
		if ev.isOutput() {
			continue
		}
		// A refusal (ErrPhase) was a refusal live too: it is in the journal for the audit only.
		if err := t.apply(&ev); err != nil && !errors.Is(err, ErrPhase) {
			t.noteRecovery(fmt.Sprintf("record %d (%s) could not be replayed: %v", i+1, ev.Kind, err))
		}
	}
	t.replaying = false
	t.effects = nil // what the journal's events asked for was done when they were live
	if len(records) > 0 {
		t.afterReplay()
	}
	return t, nil
}

func (t *Table) noteRecovery(s string) {
	if t.recovery != "" {
		t.recovery += "; "
	}
	t.recovery += s
	t.log.Warn("journal replay", "problem", s)
}

// afterReplay pauses the clocks where the journal ended and restarts what was in flight.
func (t *Table) afterReplay() {
	at := t.lastAt
	if t.clk != nil && t.clk.State().Running {
		// The time between the last record and now is nobody's: pause at the last event.
		t.runEvent(&event{Kind: kindRecovered, At: at})
	}
	if t.recovery == "" {
		t.recovery = fmt.Sprintf("resumed from the journal after move %d", t.moveNumber())
	} else {
		t.recovery = fmt.Sprintf("resumed after move %d; %s", t.moveNumber(), t.recovery)
	}
	if t.pending != nil {
		t.waitingBanner()
	}
	if t.phase == PhaseMarking && t.propBusy {
		t.startProposal()
	}
	if t.game != nil {
		if err := t.writeSGF(); err != nil {
			t.log.Error("rewriting SGF after recovery", "err", err)
		}
	}
	t.bump()
}

func (t *core) moveNumber() int {
	if t.game == nil {
		return 0
	}
	return t.game.MoveNumber()
}

// Close stops background work (a running proposal) and closes the journal.
func (t *Table) Close() error {
	t.cancel()
	t.wg.Wait()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	t.closed = true
	return t.jr.Close()
}

// Changed returns a channel closed at the next change of State.
func (t *Table) Changed() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.changed
}

func (t *Table) bump() {
	t.perform(false)
	t.stateSeq++
	close(t.changed)
	t.changed = make(chan struct{})
}

// runEvent journals ev (an input) unless replaying, applies it, journals its outputs, and
// signals the change. It returns the error of apply, or ErrJournal if ev could not be made
// durable (then it had no effect).
func (t *Table) runEvent(ev *event) error {
	if ev.At.IsZero() {
		ev.At = t.live.Now()
	}
	if !t.replaying {
		if t.closed {
			return journal.ErrClosed
		}
		t.seq++
		ev.Seq = t.seq
		if err := t.append(ev); err != nil {
			t.seq--
			return err
		}
	}
	err := t.apply(ev)
	t.evaluated = false
	if t.replaying {
		t.effects = nil // done when the event was live
		return err
	}
	t.perform(true)
	t.flushOutbox(ev)
	t.bump()
	return err
}

// perform carries out what the core asked for since the last call: verdicts logged and handed to
// OnVerdict (and, with journal, kept for the event's output record), moves kept for it, the SGF
// rewritten, the finished game filed, a dead-stone proposal started, diagnostics logged.
func (t *Table) perform(journal bool) {
	for _, e := range t.takeEffects() {
		switch e := e.(type) {
		case Said:
			v := e.Verdict
			if journal {
				o := t.out()
				o.Verdicts = append(o.Verdicts, v)
			}
			t.log.Info("verdict", "kind", v.Kind.String(), "message", v.Message)
			if t.opts.OnVerdict != nil {
				t.opts.OnVerdict(v)
			}
		case Recorded:
			if journal {
				o := t.out()
				o.Moves = append(o.Moves, e.Move)
			}
		case RecordChanged:
			t.saveSGF()
		case GameFinished:
			t.fileGame()
		case GameReopened:
			t.gamePath = ""
		case ProposeDead:
			if e.Gen == t.propGen {
				t.startProposal()
			}
		case Diagnostic:
			t.log.Log(context.Background(), e.Level, e.Msg, e.Args...)
		}
	}
}

func (t *Table) append(ev *event) error {
	b, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrJournal, err)
	}
	if err := t.jr.Append(b); err != nil {
		// Said once, and logged once, however often the table tries again (every frame, every
		// tick): the table stays playable and recovers by itself when the disk does.
		if t.journalFault == "" {
			t.journalFault = err.Error()
			t.log.Error("the journal cannot be written; the table goes on and tries again", "err", err)
			t.setBanner(Verdict{Kind: VerdictDirector, At: ev.At,
				Says: []Phrase{phrase("The journal cannot be written ({{.Err}}): call the director.", "Err", err.Error())}})
			t.bump()
		}
		return fmt.Errorf("%w: %w", ErrJournal, err)
	}
	if t.journalFault != "" {
		t.journalFault = ""
		t.log.Info("the journal can be written again")
		t.setBanner(Verdict{Kind: VerdictInfo, At: ev.At, Says: []Phrase{phrase("The journal can be written again: play on.")}})
	}
	return nil
}

// flushOutbox journals the verdicts, moves and clock state that ev produced, for the audit.
func (t *Table) flushOutbox(in *event) {
	out := t.outbox
	t.outbox = nil
	if out == nil {
		return
	}
	out.Kind = kindOutput
	out.At = in.At
	out.Of = in.Seq
	if t.clk != nil {
		st := t.clk.State()
		out.Clock = &st
	}
	t.seq++
	out.Seq = t.seq
	if err := t.append(out); err != nil {
		t.seq--
		t.log.Error("journaling outputs", "err", err)
	}
}

func (t *Table) out() *event {
	if t.outbox == nil {
		t.outbox = &event{}
	}
	return t.outbox
}

func (t *core) parsePoint(s string) (engine.Point, error) {
	if t.game == nil {
		return engine.Point{}, fmt.Errorf("%w: no game", ErrPhase)
	}
	return engine.ParsePoint(s, t.game.Size())
}

// setBanner makes v the current message and adds it to the history and the outputs.
func (t *core) setBanner(v Verdict) {
	// Message is the English of what the verdict says: one source for each sentence.
	if len(v.Says) > 0 {
		v.Message = sentences(v.Says)
		if v.Kind == VerdictIllegal {
			v.Message = "Illegal move: " + v.Message
		}
	}
	if t.game != nil && v.MoveNumber == 0 {
		v.MoveNumber = t.game.MoveNumber()
	}
	t.banner = v
	t.history = append(t.history, v)
	if len(t.history) > HistoryLen {
		t.history = slices.Clone(t.history[len(t.history)-HistoryLen:])
	}
	t.noteRuling(v)
	t.emit(Said{Verdict: v})
}

// comment adds a referee event to the SGF node of the current last move (the root before move 1).
func (t *core) comment(s string) {
	n := t.game.MoveNumber()
	note := t.notes[n]
	if note == nil {
		note = &moveNote{}
		t.notes[n] = note
	}
	note.Comments = append(note.Comments, s)
}

// State returns a snapshot of the table for the UI.
func (t *Table) State() State {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := State{
		Seq:             t.stateSeq,
		Phase:           t.phase,
		Setup:           t.setup,
		ClocksPaused:    t.paused,
		Waiting:         t.pending != nil,
		QueuedPresses:   len(t.queue),
		Banner:          t.banner,
		History:         slices.Clone(t.history),
		Rulings:         slices.Clone(t.rulings),
		ProposalPending: t.propBusy,
		FromProposal:    t.fromProp,
		Result:          t.result,
		SGFPath:         t.opts.SGFPath,
		GamePath:        t.gamePath,
		Recovery:        t.recovery,
		DirectorPIN:     t.opts.CheckPIN != nil,
	}
	s.Black.Player, s.White.Player = t.setup.Black, t.setup.White
	if t.hasSeen {
		s.Seen = slices.Clone(t.seen.Stones)
	}
	if t.game == nil {
		return s
	}
	g := t.game
	s.Size = g.Size()
	s.Board = g.Board()
	s.MoveNumber = g.MoveNumber()
	if t.phase == PhasePlaying || t.phase == PhaseReady {
		s.ToMove = g.ToMove()
	}
	if n := g.MoveNumber(); n > 0 {
		m := g.Moves()[n-1].Move
		s.LastMove = &m
	}
	s.Black.Prisoners, s.White.Prisoners = g.Prisoners(engine.Black), g.Prisoners(engine.White)
	s.Black.PassStones, s.White.PassStones = g.PassStones(engine.Black), g.PassStones(engine.White)
	s.Black.Confirmed, s.White.Confirmed = t.confirm[engine.Black], t.confirm[engine.White]
	if t.clk != nil {
		s.Black.Clock = display(t.clk.Display(clock.Black))
		s.White.Clock = display(t.clk.Display(clock.White))
		if st := t.clk.State(); st.Running {
			s.ClockRunning = colorOf(st.ToMove)
		}
	}
	switch {
	case t.capture != nil:
		s.Expected = slices.Clone(t.capture.Captured)
	case len(t.differs) > 0:
		s.Expected = slices.Clone(t.differs)
	}
	s.Dead = t.deadList()
	s.Dame = t.dameState()
	if t.phase == PhaseMarking && t.conf == nil {
		s.CountBoard = CountBoard{Lifted: slices.Clone(t.countBoard.Lifted), Placed: slices.Clone(t.countBoard.Placed), Says: t.countBoardSays()}
		if len(s.Expected) == 0 {
			s.Expected = s.CountBoard.Points()
		}
	}
	s.Repetition = t.repetitionState()
	s.Confirmation = t.confirmationState()
	if t.score != nil {
		sc := *t.score
		s.Score = &sc
	}
	return s
}

func display(d clock.Display) ClockDisplay {
	return ClockDisplay{Remaining: d.Remaining, Overtime: d.InOvertime, Periods: d.Periods, Stones: d.Stones,
		Running: d.Running, Flagged: d.Flagged, Text: d.Text}
}

func colorOf(s clock.Side) engine.Color {
	switch s {
	case clock.Black:
		return engine.Black
	case clock.White:
		return engine.White
	}
	return engine.Empty
}

func sideOf(c engine.Color) clock.Side {
	if c == engine.White {
		return clock.White
	}
	return clock.Black
}

func (t *core) deadList() []engine.Point {
	if len(t.dead) == 0 {
		return nil
	}
	ps := make([]engine.Point, 0, len(t.dead))
	for p := range t.dead {
		ps = append(ps, p)
	}
	return sortedPoints(ps)
}

// Moves returns the moves recorded so far (a copy), for tests and tools.
func (t *Table) Moves() []engine.Played {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.game == nil {
		return nil
	}
	return t.game.Moves()
}

// PressCount returns how many clock presses the journal holds, so a replay driver restarted on the
// same journal knows which of its scripted presses were already made.
func (t *Table) PressCount() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.presses
}

// LastEventTime returns the time of the last journaled event (zero for a fresh journal).
func (t *Table) LastEventTime() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lastAt
}

// NewGame readies the table for the next game once this one has ended: the finished game's
// journal (and any cut-off tail saved beside it) and its SGF are moved to
// JournalDir/done/<time>_<game name>/ (the SGF was also filed in GamesDir), a fresh journal is
// started and the table returns to PhaseSetup. Each step is a rename, so a crash in the middle
// leaves either the finished game or an empty table, never a mix.
func (t *Table) NewGame(at time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.phase != PhaseEnded {
		return fmt.Errorf("%w: a new game can start once this one has ended", ErrPhase)
	}
	if at.IsZero() {
		at = t.live.Now()
	}
	dir := t.opts.JournalDir
	name := at.UTC().Format("20060102T150405Z") + "_" + strings.TrimSuffix(GameFileName(t.setup), ".sgf")
	archive := filepath.Join(dir, "done", name)
	for i := 2; ; i++ { // never into an earlier game's folder (two games filed within a second)
		if _, err := os.Stat(archive); errors.Is(err, os.ErrNotExist) {
			break
		}
		archive = filepath.Join(dir, "done", fmt.Sprintf("%s-%d", name, i))
	}
	if err := os.MkdirAll(archive, 0o755); err != nil {
		return fmt.Errorf("referee: new game: %w", err)
	}
	if err := t.jr.Close(); err != nil {
		return fmt.Errorf("referee: new game: %w", err)
	}
	t.closed = true
	moves := []string{filepath.Join(dir, journal.FileName)}
	if cuts, _ := filepath.Glob(filepath.Join(dir, journal.FileName+".cut-*")); len(cuts) > 0 {
		moves = append(moves, cuts...)
	}
	if filepath.Dir(t.opts.SGFPath) == filepath.Clean(dir) {
		moves = append(moves, t.opts.SGFPath)
	}
	for _, p := range moves {
		if err := os.Rename(p, filepath.Join(archive, filepath.Base(p))); err != nil && !errors.Is(err, os.ErrNotExist) {
			return t.reopenJournal(fmt.Errorf("referee: new game: archiving %s: %w", p, err))
		}
	}
	if !t.opts.NoSync {
		for _, d := range []string{archive, dir} {
			if f, err := os.Open(d); err == nil {
				_ = f.Sync()
				f.Close()
			}
		}
	}
	if err := t.reopenJournal(nil); err != nil {
		return err
	}
	// Back to a blank table: a fresh core, so that no state of the last game (a field added later
	// included) outlives it; only what describes the table and its camera carries over.
	view := t.view
	*t.core = *newCore(t.cfg, t.live, t.opts.Hold)
	t.view = view
	if t.opts.MinConfidence > 0 {
		t.stab.SetMinConfidence(t.opts.MinConfidence)
	}
	t.seq = 0
	t.gamePath, t.recovery = "", ""
	says := []Phrase{phrase("The last game is filed. Set up the next game.")}
	t.banner = Verdict{Kind: VerdictInfo, At: at, Says: says, Message: sentences(says)}
	t.bump()
	return nil
}

// reopenJournal opens a journal in JournalDir again after NewGame closed it; err is returned
// (wrapped with any reopening failure).
func (t *Table) reopenJournal(err error) error {
	jr, _, _, oerr := journal.Open(t.opts.JournalDir, t.opts.journalOptions...)
	if oerr != nil {
		return errors.Join(err, fmt.Errorf("%w: %w", ErrJournal, oerr))
	}
	t.jr, t.closed = jr, false
	return err
}
