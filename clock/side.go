package clock

import (
	"fmt"
	"strings"
	"time"
)

// Side is a player as the clock knows it (the referee maps engine colours).
// The zero value NoSide means "nobody".
type Side int8

const (
	// NoSide is the zero value: no side.
	NoSide Side = iota
	// Black is the player with the black stones.
	Black
	// White is the player with the white stones.
	White
)

// Opponent returns the other side (NoSide stays NoSide).
func (s Side) Opponent() Side {
	switch s {
	case Black:
		return White
	case White:
		return Black
	}
	return NoSide
}

// String returns "black", "white" or "none".
func (s Side) String() string {
	switch s {
	case Black:
		return "black"
	case White:
		return "white"
	case NoSide:
		return "none"
	}
	return fmt.Sprintf("side(%d)", int(s))
}

// Valid reports whether s is Black or White.
func (s Side) Valid() bool { return s == Black || s == White }

// MarshalText writes the side's name, so journals read "black"/"white".
func (s Side) MarshalText() ([]byte, error) {
	if s != NoSide && !s.Valid() {
		return nil, fmt.Errorf("clock: invalid side %d", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText reads "black", "white" or "none" (also "b", "w").
func (s *Side) UnmarshalText(b []byte) error {
	v, err := ParseSide(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseSide reads "black"/"b", "white"/"w" or "none"/"" (case-insensitive).
func ParseSide(name string) (Side, error) {
	switch strings.ToLower(name) {
	case "black", "b":
		return Black, nil
	case "white", "w":
		return White, nil
	case "none", "":
		return NoSide, nil
	}
	return NoSide, fmt.Errorf("clock: unknown side %q (want black or white)", name)
}

// SideState is one player's clock as plain data.
type SideState struct {
	// Main is the main time left (Fischer: the whole clock).
	Main time.Duration `json:"main"`
	// InOvertime is set once the main time is used up (byo-yomi, Canadian).
	InOvertime bool `json:"in_overtime,omitempty"`
	// Periods is the number of byo-yomi periods left, the current one included.
	Periods int `json:"periods,omitempty"`
	// Stones is the number of stones still to play in the current Canadian period.
	Stones int `json:"stones,omitempty"`
	// PeriodLeft is the time left in the current overtime period.
	PeriodLeft time.Duration `json:"period_left,omitempty"`
	// Moves counts the moves and passes this side completed on the clock.
	Moves int `json:"moves"`
	// Flagged is set when this side ran out of time, at FlaggedAt exactly.
	Flagged   bool      `json:"flagged,omitempty"`
	FlaggedAt time.Time `json:"flagged_at,omitzero"`
}

// freshSide is a side's clock at the start of a game.
func freshSide(c Control) SideState {
	s := SideState{Main: c.Main}
	switch c.Kind {
	case ByoYomi:
		s.Periods, s.PeriodLeft = c.Periods, c.Period
		s.InOvertime = c.Main == 0
	case Canadian:
		s.Stones, s.PeriodLeft = c.Stones, c.Period
		s.InOvertime = c.Main == 0
	}
	return s
}

// validate checks a side state read from a journal.
func (s SideState) validate(c Control) error {
	if s.Main < 0 || s.PeriodLeft < 0 || s.Periods < 0 || s.Stones < 0 || s.Moves < 0 {
		return fmt.Errorf("negative value in side state %+v", s)
	}
	if s.Main > 2*MaxDuration || s.PeriodLeft > MaxDuration || s.Periods > MaxCount || s.Stones > MaxCount {
		return fmt.Errorf("value out of range in side state %+v", s)
	}
	if s.InOvertime && c.Kind != ByoYomi && c.Kind != Canadian {
		return fmt.Errorf("side in overtime under a %v time control", c.Kind)
	}
	if s.Flagged && s.FlaggedAt.IsZero() {
		return fmt.Errorf("flagged side without the time of the flag")
	}
	return nil
}

// EventKind names something the passing of time did to a clock.
type EventKind int8

const (
	// OvertimeStarted: the main time ran out and overtime began.
	OvertimeStarted EventKind = iota + 1
	// PeriodUsed: a byo-yomi period was exceeded; Periods is how many remain.
	PeriodUsed
	// FlagFell: the side ran out of time (At is the exact moment).
	FlagFell
)

// String returns "overtime-started", "period-used" or "flag-fell".
func (k EventKind) String() string {
	switch k {
	case OvertimeStarted:
		return "overtime-started"
	case PeriodUsed:
		return "period-used"
	case FlagFell:
		return "flag-fell"
	}
	return fmt.Sprintf("event(%d)", int(k))
}

// MarshalText writes the kind's name for journals.
func (k EventKind) MarshalText() ([]byte, error) {
	if k < OvertimeStarted || k > FlagFell {
		return nil, fmt.Errorf("clock: invalid event kind %d", int(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads a kind's name back from a journal.
func (k *EventKind) UnmarshalText(b []byte) error {
	for _, v := range []EventKind{OvertimeStarted, PeriodUsed, FlagFell} {
		if v.String() == string(b) {
			*k = v
			return nil
		}
	}
	return fmt.Errorf("clock: unknown event kind %q", b)
}

// Event is a moment on the clock: At is when it happened on the clock, not
// when anyone noticed.
type Event struct {
	Kind    EventKind `json:"kind"`
	Side    Side      `json:"side"`
	At      time.Time `json:"at"`
	Periods int       `json:"periods,omitempty"` // byo-yomi periods left after the event
	Stones  int       `json:"stones,omitempty"`  // Canadian stones to play in the period
}

// String describes the event for logs, e.g. "black flag-fell at 10:02:03.000".
func (e Event) String() string {
	return fmt.Sprintf("%v %v at %s", e.Side, e.Kind, e.At.Format("15:04:05.000"))
}

// run charges d of thinking time, starting at from, to a side's clock and
// appends what happened (with exact times) to evs. A clock reaching zero is a
// flag at that instant: a move made at that same instant is too late.
func (s SideState) run(c Control, side Side, from time.Time, d time.Duration, evs []Event) (SideState, []Event) {
	if s.Flagged || d <= 0 {
		return s, evs
	}
	t := from
	flag := func() {
		s.Flagged, s.FlaggedAt = true, t
		evs = append(evs, Event{Kind: FlagFell, Side: side, At: t, Periods: s.Periods, Stones: s.Stones})
	}
	if !s.InOvertime {
		if d < s.Main {
			s.Main -= d
			return s, evs
		}
		d -= s.Main
		t = t.Add(s.Main)
		s.Main = 0
		if c.Kind != ByoYomi && c.Kind != Canadian {
			flag()
			return s, evs
		}
		s.InOvertime = true
		evs = append(evs, Event{Kind: OvertimeStarted, Side: side, At: t, Periods: s.Periods, Stones: s.Stones})
	}
	switch c.Kind {
	case ByoYomi:
		for d >= s.PeriodLeft {
			d -= s.PeriodLeft
			t = t.Add(s.PeriodLeft)
			s.Periods--
			if s.Periods <= 0 {
				s.Periods, s.PeriodLeft = 0, 0
				flag()
				return s, evs
			}
			s.PeriodLeft = c.Period
			evs = append(evs, Event{Kind: PeriodUsed, Side: side, At: t, Periods: s.Periods})
		}
		s.PeriodLeft -= d
	case Canadian:
		if d >= s.PeriodLeft {
			t = t.Add(s.PeriodLeft)
			s.PeriodLeft = 0
			flag()
			return s, evs
		}
		s.PeriodLeft -= d
	}
	return s, evs
}

// untilEvent is how long the side can think before the next event (overtime
// starts, a period is used, or the flag falls).
func (s SideState) untilEvent(c Control) time.Duration {
	if !s.InOvertime {
		return s.Main
	}
	return s.PeriodLeft
}

// completeMove books a move made in time: a byo-yomi period is kept and
// refilled, a Canadian stone is counted (a fresh period after the last one),
// a Fischer increment is added up to the cap.
func (s SideState) completeMove(c Control) SideState {
	if s.Flagged {
		return s
	}
	s.Moves++
	switch c.Kind {
	case ByoYomi:
		if s.InOvertime {
			s.PeriodLeft = c.Period
		}
	case Canadian:
		if s.InOvertime {
			s.Stones--
			if s.Stones <= 0 {
				s.Stones, s.PeriodLeft = c.Stones, c.Period
			}
		}
	case Fischer:
		s.Main += c.Increment
		if c.Cap > 0 && s.Main > c.Cap {
			s.Main = c.Cap
		}
		if s.Main > 2*MaxDuration {
			s.Main = 2 * MaxDuration
		}
	}
	return s
}
