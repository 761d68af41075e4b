package clock

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Button is one of the table's buttons. The zero value is no button.
type Button int8

const (
	// BlackClock is pressed by Black after a move (it starts White's clock).
	BlackClock Button = iota + 1
	// WhiteClock is pressed by White after a move (it starts Black's clock).
	WhiteClock
	// PassButton passes for the side to move; held long, it asks to stop and count.
	PassButton
	// DirectorButton pauses and resumes the clock; held long, it calls the director.
	DirectorButton
)

// Buttons lists every button, in order.
func Buttons() []Button { return []Button{BlackClock, WhiteClock, PassButton, DirectorButton} }

// String returns "black-clock", "white-clock", "pass" or "director".
func (b Button) String() string {
	switch b {
	case BlackClock:
		return "black-clock"
	case WhiteClock:
		return "white-clock"
	case PassButton:
		return "pass"
	case DirectorButton:
		return "director"
	}
	return fmt.Sprintf("button(%d)", int(b))
}

// MarshalText writes the button's name for journals.
func (b Button) MarshalText() ([]byte, error) {
	if b < BlackClock || b > DirectorButton {
		return nil, fmt.Errorf("clock: invalid button %d", int(b))
	}
	return []byte(b.String()), nil
}

// UnmarshalText reads a button name (see ParseButton).
func (b *Button) UnmarshalText(text []byte) error {
	v, err := ParseButton(string(text))
	if err != nil {
		return err
	}
	*b = v
	return nil
}

// ParseButton reads "black-clock" ("black"), "white-clock" ("white"), "pass"
// or "director", case-insensitive.
func ParseButton(name string) (Button, error) {
	switch strings.ToLower(name) {
	case "black-clock", "black":
		return BlackClock, nil
	case "white-clock", "white":
		return WhiteClock, nil
	case "pass":
		return PassButton, nil
	case "director":
		return DirectorButton, nil
	}
	return 0, fmt.Errorf("clock: unknown button %q (want black-clock, white-clock, pass or director)", name)
}

// ClockButton returns the clock button of a side.
func ClockButton(s Side) Button {
	if s == White {
		return WhiteClock
	}
	return BlackClock
}

// Press is one debounced button press. At is when the button went down (the
// moment the player acted, which the clock books), not when it was reported.
type Press struct {
	Button Button    `json:"button"`
	Long   bool      `json:"long,omitempty"`
	At     time.Time `json:"at"`
}

// NewPress is a short press of b at at (the keyboard and tests use it).
func NewPress(b Button, at time.Time) Press { return Press{Button: b, At: at} }

// NewLongPress is a long (held) press of b that went down at at.
func NewLongPress(b Button, at time.Time) Press { return Press{Button: b, Long: true, At: at} }

// String describes the press for logs, e.g. "pass (long) at 10:02:03.120".
func (p Press) String() string {
	long := ""
	if p.Long {
		long = " (long)"
	}
	return fmt.Sprintf("%v%s at %s", p.Button, long, p.At.Format("15:04:05.000"))
}

// PressChan is a source of presses fed by code (the keyboard, tests, a
// replay): the same Events() shape as the GPIO buttons.
type PressChan struct{ c chan Press }

// NewPressChan makes a source with a buffer of n presses.
func NewPressChan(n int) *PressChan { return &PressChan{c: make(chan Press, n)} }

// Events returns the presses in order.
func (p *PressChan) Events() <-chan Press { return p.c }

// Send queues a press, waiting for room until ctx is done.
func (p *PressChan) Send(ctx context.Context, pr Press) error {
	select {
	case p.c <- pr:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Action is what a press means in the clock's current state.
type Action int8

const (
	// Ignore: the press changes nothing; Decision.Reason says why.
	Ignore Action = iota
	// Move: Side finished a move; its clock stops and the opponent's starts.
	Move
	// Pass: Side passed; the clock switches like a move.
	Pass
	// Start: the first start of the clock (Side is the one whose clock starts).
	Start
	// Resume: a paused clock restarts (Side is the one whose clock starts).
	Resume
	// Pause: the director stops the clock.
	Pause
	// StopRequest: a long press of pass; Side (to move) asks to stop and count.
	StopRequest
	// DirectorCall: a long press of the director button.
	DirectorCall
)

// String returns the action's name ("ignore", "move", "pass", ...).
func (a Action) String() string {
	switch a {
	case Ignore:
		return "ignore"
	case Move:
		return "move"
	case Pass:
		return "pass"
	case Start:
		return "start"
	case Resume:
		return "resume"
	case Pause:
		return "pause"
	case StopRequest:
		return "stop-request"
	case DirectorCall:
		return "director-call"
	}
	return fmt.Sprintf("action(%d)", int(a))
}

// MarshalText writes the action's name for journals.
func (a Action) MarshalText() ([]byte, error) {
	if a < Ignore || a > DirectorCall {
		return nil, fmt.Errorf("clock: invalid action %d", int(a))
	}
	return []byte(a.String()), nil
}

// UnmarshalText reads an action's name back from a journal.
func (a *Action) UnmarshalText(b []byte) error {
	for v := Ignore; v <= DirectorCall; v++ {
		if v.String() == string(b) {
			*a = v
			return nil
		}
	}
	return fmt.Errorf("clock: unknown action %q", b)
}

// IgnoreReason says why a press was ignored.
type IgnoreReason int8

const (
	// NotIgnored is the zero value for presses that did something.
	NotIgnored IgnoreReason = iota
	// NotToMove: the clock of the player who is not to move was pressed.
	NotToMove
	// ClockPaused: a player pressed while the clock is paused.
	ClockPaused
	// NotStarted: the side to move pressed before the clock was started.
	NotStarted
	// FlagDown: a flag has fallen; only the director can act.
	FlagDown
	// UnknownButton: the press names no known button.
	UnknownButton
)

// String returns the reason in words, for the log and the banner.
func (r IgnoreReason) String() string {
	switch r {
	case NotIgnored:
		return ""
	case NotToMove:
		return "not this player's turn"
	case ClockPaused:
		return "the clock is paused"
	case NotStarted:
		return "the clock has not been started"
	case FlagDown:
		return "a flag has fallen"
	case UnknownButton:
		return "unknown button"
	}
	return fmt.Sprintf("reason(%d)", int(r))
}

// reasonCode is the stable journal name of a reason.
func reasonCode(r IgnoreReason) string {
	switch r {
	case NotIgnored:
		return ""
	case NotToMove:
		return "not-to-move"
	case ClockPaused:
		return "paused"
	case NotStarted:
		return "not-started"
	case FlagDown:
		return "flag-down"
	case UnknownButton:
		return "unknown-button"
	}
	return ""
}

// MarshalText writes the reason's stable code for journals ("not-to-move", ...).
func (r IgnoreReason) MarshalText() ([]byte, error) {
	if r < NotIgnored || r > UnknownButton {
		return nil, fmt.Errorf("clock: invalid ignore reason %d", int(r))
	}
	return []byte(reasonCode(r)), nil
}

// UnmarshalText reads a reason's code back from a journal.
func (r *IgnoreReason) UnmarshalText(b []byte) error {
	for v := NotIgnored; v <= UnknownButton; v++ {
		if reasonCode(v) == string(b) {
			*r = v
			return nil
		}
	}
	return fmt.Errorf("clock: unknown ignore reason %q", b)
}

// Decision is what a press means: an action for a side, or Ignore and why.
type Decision struct {
	Press  Press        `json:"press"`
	Action Action       `json:"action"`
	Side   Side         `json:"side,omitempty"`
	Reason IgnoreReason `json:"reason,omitempty"`
}

// String describes the decision for logs.
func (d Decision) String() string {
	if d.Action == Ignore {
		return fmt.Sprintf("%v: ignored: %v", d.Press, d.Reason)
	}
	return fmt.Sprintf("%v: %v %v", d.Press, d.Side, d.Action)
}

// Decide is the table's button logic, a pure function of the clock state:
//   - running: the side to move's clock button is a Move, the other one is
//     ignored (NotToMove); pass is a Pass (a long pass is a StopRequest);
//   - not started or paused: the button of the player NOT to move starts or
//     resumes the clock of the side to move (as White starts Black's clock);
//     the side to move's button is ignored;
//   - after a flag fell only the director button acts;
//   - director: a short press pauses or resumes (or starts), a long one is a
//     DirectorCall.
func Decide(s State, p Press) Decision {
	d := Decision{Press: p, Side: s.ToMove}
	ignore := func(r IgnoreReason) Decision {
		d.Action, d.Reason = Ignore, r
		return d
	}
	startOrResume := func() Decision {
		if s.Started {
			d.Action = Resume
		} else {
			d.Action = Start
		}
		return d
	}
	switch p.Button {
	case DirectorButton:
		switch {
		case p.Long:
			d.Action = DirectorCall
		case s.Running:
			d.Action = Pause
		case s.Flagged():
			return ignore(FlagDown)
		default:
			return startOrResume()
		}
		return d
	case BlackClock, WhiteClock, PassButton:
	default:
		return ignore(UnknownButton)
	}
	if s.Flagged() {
		return ignore(FlagDown)
	}
	if p.Button == PassButton {
		switch {
		case p.Long && s.Started:
			d.Action = StopRequest
			return d
		case !s.Started:
			return ignore(NotStarted)
		case !s.Running:
			return ignore(ClockPaused)
		}
		d.Action = Pass
		return d
	}
	own := p.Button == ClockButton(s.ToMove)
	switch {
	case s.Running && own:
		d.Action = Move
		return d
	case s.Running:
		return ignore(NotToMove)
	case !own:
		return startOrResume()
	case !s.Started:
		return ignore(NotStarted)
	}
	return ignore(ClockPaused)
}

// Handle decides what p means (Decide) and applies it to the clock: Move and
// Pass switch at p.At, Start/Resume/Pause act at p.At. StopRequest,
// DirectorCall and Ignore change nothing; the caller acts on them. A referee
// that must veto a move (no stone seen) calls Decide and the methods itself.
func (c *Clock) Handle(p Press) (Decision, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	at := c.clamp(p.At)
	// Decide on the clock as it stood when the button went down, so that a
	// press made just before a flag fell still counts.
	st, _ := c.st.at(at, nil)
	d := Decide(st, p)
	var err error
	switch d.Action {
	case Move, Pass:
		err = c.switchAt(at)
	case Start:
		err = c.startAt(at)
	case Resume:
		err = c.resumeAt(at)
	case Pause:
		err = c.pauseAt(at)
	}
	return d, err
}
