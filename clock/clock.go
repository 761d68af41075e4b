package clock

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// State is the whole clock as plain, JSON-serialisable data: the referee
// journals it and Restore rebuilds a (paused) clock from it after a power cut.
// The side values are as of AsOf; while Running, ToMove's clock has been
// running since AsOf.
type State struct {
	Control Control   `json:"control"`
	Black   SideState `json:"black"`
	White   SideState `json:"white"`
	// ToMove is the side whose clock runs (or will run on Start/Resume).
	ToMove Side `json:"to_move"`
	// Started is set once the clock was first started.
	Started bool `json:"started"`
	// Running is set while ToMove's clock runs (not paused, no flag).
	Running bool `json:"running"`
	// AsOf is the instant the side values refer to.
	AsOf time.Time `json:"as_of"`
}

// Side returns a copy of one side's clock.
func (s State) Side(side Side) SideState {
	if side == White {
		return s.White
	}
	return s.Black
}

func (s *State) side(side Side) *SideState {
	if side == White {
		return &s.White
	}
	return &s.Black
}

// Paused reports whether the clock was started and is stopped without a flag
// (a director call, or restored after a power cut).
func (s State) Paused() bool {
	return s.Started && !s.Running && !s.Flagged()
}

// Flagged reports whether either side's flag has fallen.
func (s State) Flagged() bool { return s.Black.Flagged || s.White.Flagged }

// Validate checks a state read from a journal.
func (s State) Validate() error {
	if err := s.Control.Validate(); err != nil {
		return err
	}
	if !s.ToMove.Valid() {
		return fmt.Errorf("clock state: side to move %v is not black or white", s.ToMove)
	}
	for _, side := range []Side{Black, White} {
		if err := s.Side(side).validate(s.Control); err != nil {
			return fmt.Errorf("clock state: %v: %w", side, err)
		}
	}
	return nil
}

// at returns the state as it stands at now (now >= AsOf) without changing s:
// the running side is charged the time since AsOf, and events are appended.
func (s State) at(now time.Time, evs []Event) (State, []Event) {
	if !s.Running || !now.After(s.AsOf) {
		return s, evs
	}
	ss := s.side(s.ToMove)
	*ss, evs = ss.run(s.Control, s.ToMove, s.AsOf, now.Sub(s.AsOf), evs)
	s.AsOf = now
	if ss.Flagged {
		s.Running = false
	}
	return s, evs
}

// Errors from clock operations, checked with errors.Is.
var (
	// ErrNotRunning: the operation needs a running clock (not paused, started, no flag).
	ErrNotRunning = errors.New("clock is not running")
	// ErrAlreadyStarted: Start on a clock that was started before.
	ErrAlreadyStarted = errors.New("clock already started")
	// ErrFlagged: the side's flag has fallen; a director adjustment is needed first.
	ErrFlagged = errors.New("flag has fallen")
	// ErrNotPaused: Resume on a clock that is not paused.
	ErrNotPaused = errors.New("clock is not paused")
	// ErrBadAdjustment: a director adjustment that would leave no time, or on no side.
	ErrBadAdjustment = errors.New("bad clock adjustment")
)

// Clock is the game clock. It keeps its State and charges time lazily from
// the TimeSource, so it never ticks; NextDeadline and Wait tell when
// something will happen. Safe for concurrent use (the referee drives it, the
// UI reads Display).
type Clock struct {
	ts        TimeSource
	allowance time.Duration

	mu      sync.Mutex
	st      State
	pending []Event
	changed chan struct{}
}

// New returns a clock for c that has not started yet, Black to move.
func New(c Control, ts TimeSource) (*Clock, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if ts == nil {
		ts = SystemTime{}
	}
	st := State{Control: c, Black: freshSide(c), White: freshSide(c), ToMove: Black, AsOf: ts.Now()}
	return &Clock{ts: ts, st: st, changed: make(chan struct{})}, nil
}

// Restore rebuilds a clock from a journaled State. The clock comes back
// paused with the values exactly as they were at st.AsOf (a running clock's
// time up to AsOf is charged), until Resume or a player restarts it.
func Restore(st State, ts TimeSource) (*Clock, error) {
	if err := st.Validate(); err != nil {
		return nil, fmt.Errorf("restore clock: %w", err)
	}
	if ts == nil {
		ts = SystemTime{}
	}
	st.Running = false
	return &Clock{ts: ts, st: st, changed: make(chan struct{})}, nil
}

// SetReportDelay makes Poll and Wait report an event only d after it
// happened, so that a button press made just before a flag fell (still in the
// debouncer when the deadline passes) is booked as in time. Use the button
// latency (the debounce settle time plus a margin). Events keep their exact At.
func (c *Clock) SetReportDelay(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.allowance = max(d, 0)
	c.signal()
}

// Control returns the time control.
func (c *Clock) Control() Control {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.st.Control
}

// Now returns the clock's time source's time.
func (c *Clock) Now() time.Time { return c.ts.Now() }

// State returns the clock as it stands now (AsOf = now): the value to journal.
// It does not change the clock.
func (c *Clock) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, _ := c.st.at(c.ts.Now(), nil)
	return s
}

// SetToMove chooses who moves first (White in handicap games) before Start.
func (c *Clock) SetToMove(side Side) error {
	if !side.Valid() {
		return fmt.Errorf("clock: set to move: %v is not black or white", side)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.st.Started {
		return fmt.Errorf("clock: set to move: %w", ErrAlreadyStarted)
	}
	c.st.ToMove = side
	c.signal()
	return nil
}

// clamp keeps a press time within [AsOf, now]: a press cannot be booked
// before what is already settled, nor in the future.
func (c *Clock) clamp(at time.Time) time.Time {
	now := c.ts.Now()
	if at.IsZero() || at.After(now) {
		at = now
	}
	if at.Before(c.st.AsOf) {
		at = c.st.AsOf
	}
	return at
}

// settle commits the running side's time up to at, queueing events.
func (c *Clock) settle(at time.Time) {
	c.st, c.pending = c.st.at(at, c.pending)
	if !c.st.Running && at.After(c.st.AsOf) {
		c.st.AsOf = at
	}
}

// Start starts the clock of the side to move at at (zero = now).
func (c *Clock) Start(at time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.startAt(at)
}

func (c *Clock) startAt(at time.Time) error {
	if c.st.Started {
		return fmt.Errorf("clock: start: %w", ErrAlreadyStarted)
	}
	at = c.clamp(at)
	c.st.Started, c.st.Running, c.st.AsOf = true, true, at
	c.signal()
	return nil
}

// Switch ends the move (or pass) of the side to move at at, the time of the
// press (zero = now), and starts the opponent's clock. If the mover's time
// ran out before at, the flag stands and Switch returns ErrFlagged.
func (c *Clock) Switch(at time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.switchAt(at)
}

func (c *Clock) switchAt(at time.Time) error {
	if !c.st.Running {
		return fmt.Errorf("clock: switch: %w", c.whyNotRunning())
	}
	at = c.clamp(at)
	c.settle(at)
	mover := c.st.side(c.st.ToMove)
	if mover.Flagged {
		c.signal()
		return fmt.Errorf("clock: switch: %v %w at %s", c.st.ToMove, ErrFlagged, mover.FlaggedAt.Format(time.RFC3339Nano))
	}
	*mover = mover.completeMove(c.st.Control)
	c.st.ToMove = c.st.ToMove.Opponent()
	c.signal()
	return nil
}

func (c *Clock) whyNotRunning() error {
	switch {
	case c.st.Flagged():
		return ErrFlagged
	case !c.st.Started:
		return fmt.Errorf("%w: not started", ErrNotRunning)
	}
	return fmt.Errorf("%w: paused", ErrNotRunning)
}

// Pause stops the running clock at at (zero = now), for a director call.
func (c *Clock) Pause(at time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.pauseAt(at)
}

func (c *Clock) pauseAt(at time.Time) error {
	if !c.st.Running {
		return fmt.Errorf("clock: pause: %w", c.whyNotRunning())
	}
	at = c.clamp(at)
	c.settle(at)
	c.st.Running = false
	c.signal()
	if ss := c.st.Side(c.st.ToMove); ss.Flagged {
		return fmt.Errorf("clock: pause: %v %w at %s", c.st.ToMove, ErrFlagged, ss.FlaggedAt.Format(time.RFC3339Nano))
	}
	return nil
}

// Resume restarts a paused clock (the side to move) at at (zero = now).
func (c *Clock) Resume(at time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.resumeAt(at)
}

func (c *Clock) resumeAt(at time.Time) error {
	switch {
	case c.st.Running:
		return fmt.Errorf("clock: resume: %w", ErrNotPaused)
	case c.st.Side(c.st.ToMove).Flagged:
		return fmt.Errorf("clock: resume: %v %w; adjust its time first", c.st.ToMove, ErrFlagged)
	case !c.st.Started:
		return fmt.Errorf("clock: resume: %w: not started", ErrNotPaused)
	}
	at = c.clamp(at)
	c.st.Running, c.st.AsOf = true, at
	c.signal()
	return nil
}

// Adjust is a director's correction: it adds (delta > 0) or removes time from
// side's clock — the main time, or the current period once in overtime. It
// refuses to leave no time (ErrBadAdjustment). Adding time to a flagged side
// lifts the flag (a byo-yomi side gets one period back); the clock stays
// stopped until Resume.
func (c *Clock) Adjust(side Side, delta time.Duration) error {
	if !side.Valid() {
		return fmt.Errorf("clock: adjust: %w: side %v", ErrBadAdjustment, side)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.settle(c.ts.Now())
	ss := c.st.side(side)
	n := *ss
	if n.Flagged {
		if delta <= 0 {
			return fmt.Errorf("clock: adjust: %w: %v has no time left to remove", ErrBadAdjustment, side)
		}
		n.Flagged, n.FlaggedAt = false, time.Time{}
		if n.InOvertime {
			if c.st.Control.Kind == ByoYomi && n.Periods == 0 {
				n.Periods = 1
			}
			n.PeriodLeft = 0
		} else {
			n.Main = 0
		}
	}
	if n.InOvertime {
		n.PeriodLeft += delta
		if n.PeriodLeft <= 0 {
			return fmt.Errorf("clock: adjust %v by %v: %w: only %v left in the period", side, delta, ErrBadAdjustment, ss.PeriodLeft)
		}
		n.PeriodLeft = min(n.PeriodLeft, MaxDuration)
	} else {
		n.Main += delta
		if n.Main <= 0 {
			return fmt.Errorf("clock: adjust %v by %v: %w: only %v left", side, delta, ErrBadAdjustment, ss.Main)
		}
		n.Main = min(n.Main, 2*MaxDuration)
	}
	*ss = n
	c.signal()
	return nil
}

// SetOvertime is a director's correction of the overtime count: the byo-yomi
// periods left, or the stones still to play in the Canadian period.
func (c *Clock) SetOvertime(side Side, count int) error {
	if !side.Valid() || count < 1 || count > MaxCount {
		return fmt.Errorf("clock: set overtime: %w: side %v, count %d", ErrBadAdjustment, side, count)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.settle(c.ts.Now())
	ss := c.st.side(side)
	switch c.st.Control.Kind {
	case ByoYomi:
		ss.Periods = count
	case Canadian:
		ss.Stones = count
	default:
		return fmt.Errorf("clock: set overtime: %w: %v has no overtime", ErrBadAdjustment, c.st.Control.Kind)
	}
	if ss.Flagged && ss.PeriodLeft > 0 {
		ss.Flagged, ss.FlaggedAt = false, time.Time{}
	}
	c.signal()
	return nil
}

// NextEvent returns when the running side's clock next does something
// (overtime starts, a period is used, the flag falls); false when no clock
// runs.
func (c *Clock) NextEvent() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nextEvent()
}

func (c *Clock) nextEvent() (time.Time, bool) {
	if !c.st.Running {
		return time.Time{}, false
	}
	return c.st.AsOf.Add(c.st.Side(c.st.ToMove).untilEvent(c.st.Control)), true
}

// NextDeadline returns when Wait will next return on its own: the next event
// plus the report delay, or now when events are waiting to be collected.
func (c *Clock) NextDeadline() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.pending) > 0 {
		return c.ts.Now(), true
	}
	t, ok := c.nextEvent()
	return t.Add(c.allowance), ok
}

// Poll returns the events that happened on the clock up to now (less the
// report delay) and were not reported before. It never blocks.
func (c *Clock) Poll() []Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.poll()
}

func (c *Clock) poll() []Event {
	due := c.ts.Now().Add(-c.allowance)
	if t, ok := c.nextEvent(); ok && !t.After(due) {
		c.settle(due)
	}
	evs := c.pending
	c.pending = nil
	return evs
}

// Wait blocks until the clock has events to report (a flag fell, a period was
// used, overtime started) and returns them, or until ctx is done. It sleeps
// on a TimeSource timer for the next deadline and wakes early when the clock
// is changed (a switch, a pause); it never spins.
func (c *Clock) Wait(ctx context.Context) ([]Event, error) {
	for {
		c.mu.Lock()
		if evs := c.poll(); len(evs) > 0 {
			c.mu.Unlock()
			return evs, nil
		}
		changed := c.changed
		var timer Timer
		var fire <-chan time.Time
		if t, ok := c.nextEvent(); ok {
			timer = c.ts.NewTimer(t.Add(c.allowance).Sub(c.ts.Now()))
			fire = timer.C()
		}
		c.mu.Unlock()
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return nil, ctx.Err()
		case <-fire:
		case <-changed:
			if timer != nil {
				timer.Stop()
			}
		}
	}
}

// Changed returns a channel closed at the next change of the clock (a switch,
// pause, resume, adjustment, or events becoming available): a UI can wait on
// it instead of polling.
func (c *Clock) Changed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}

func (c *Clock) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}
