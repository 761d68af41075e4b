// Package clock is Tengen's game clock: time controls (absolute, Japanese
// byo-yomi, Canadian overtime, Fischer increment), the clock state as plain
// data the referee journals, the display rules, and the table's buttons
// (press events, debouncing and the "who may press now" decision). It is pure
// Go: the GPIO driver lives in clock/gpio and feeds this package.
package clock

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Kind names the overtime system that follows the main time.
type Kind int8

const (
	// Absolute is sudden death: when the main time is gone the flag falls.
	Absolute Kind = iota
	// ByoYomi is Japanese byo-yomi: Periods periods of Period each; a period is
	// kept when the move is made within it and used up only when exceeded.
	ByoYomi
	// Canadian overtime: Stones stones must be played within Period; a fresh
	// period starts when they were all played in time.
	Canadian
	// Fischer adds Increment after every move, optionally capped at Cap.
	Fischer
)

// String returns the lower-case name of the kind ("absolute", "byo-yomi", ...).
func (k Kind) String() string {
	switch k {
	case Absolute:
		return "absolute"
	case ByoYomi:
		return "byo-yomi"
	case Canadian:
		return "canadian"
	case Fischer:
		return "fischer"
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// Limits on parsed values, so that no arithmetic on a Control can overflow.
const (
	// MaxDuration is the longest main time, period, increment or cap accepted.
	MaxDuration = 100 * time.Hour
	// MaxCount is the largest number of byo-yomi periods or Canadian stones.
	MaxCount = 1000
)

// Control is a time control: a main time followed by one overtime system.
// It is plain comparable data; the zero value is invalid (no time at all).
//
// The compact text form (ParseControl, String) is:
//
//	control  = main [ "+" overtime ]
//	main     = duration                      main time; "0" allowed before byo-yomi/Canadian
//	overtime = byoyomi | canadian | fischer
//	byoyomi  = count "x" duration            N periods of T:   "5x30s"
//	canadian = count "/" duration            M stones in T:    "25/5m"
//	fischer  = duration [ "<=" duration ]    increment [cap]:  "20s", "20s<=40m"
//	duration = "0" | 1*( digits ( "h" | "m" | "s" ) )   units in decreasing order: "1h30m", "90s"
//	count    = digits                        1..1000
//
// Examples: "90m" (absolute), "60m+5x30s" (byo-yomi), "60m+25/5m" (Canadian),
// "30m+20s" (Fischer), "30m+20s<=40m" (Fischer with a 40 minute cap).
// Spaces are not allowed; letters are case-insensitive.
type Control struct {
	Kind      Kind          `json:"kind"`
	Main      time.Duration `json:"main"`                // main time
	Periods   int           `json:"periods,omitempty"`   // byo-yomi: number of periods
	Stones    int           `json:"stones,omitempty"`    // Canadian: stones per period
	Period    time.Duration `json:"period,omitempty"`    // byo-yomi or Canadian period length
	Increment time.Duration `json:"increment,omitempty"` // Fischer: added after each move
	Cap       time.Duration `json:"cap,omitempty"`       // Fischer: the clock never exceeds this (0 = no cap)
}

// Validate reports whether c is a usable time control.
func (c Control) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrInvalidControl}, a...)...)
	}
	if c.Main < 0 || c.Main > MaxDuration {
		return bad("main time %v out of range 0..%v", c.Main, MaxDuration)
	}
	if c.Main%time.Second != 0 || c.Period%time.Second != 0 || c.Increment%time.Second != 0 || c.Cap%time.Second != 0 {
		return bad("times must be whole seconds")
	}
	switch c.Kind {
	case Absolute:
		if c.Main == 0 {
			return bad("absolute time needs a main time")
		}
		if c.Periods != 0 || c.Stones != 0 || c.Period != 0 || c.Increment != 0 || c.Cap != 0 {
			return bad("absolute time has no overtime fields")
		}
	case ByoYomi:
		if c.Periods < 1 || c.Periods > MaxCount {
			return bad("byo-yomi periods %d out of range 1..%d", c.Periods, MaxCount)
		}
		if c.Period <= 0 || c.Period > MaxDuration {
			return bad("byo-yomi period %v out of range 1s..%v", c.Period, MaxDuration)
		}
		if c.Stones != 0 || c.Increment != 0 || c.Cap != 0 {
			return bad("byo-yomi has no stones, increment or cap")
		}
	case Canadian:
		if c.Stones < 1 || c.Stones > MaxCount {
			return bad("Canadian stones %d out of range 1..%d", c.Stones, MaxCount)
		}
		if c.Period <= 0 || c.Period > MaxDuration {
			return bad("Canadian period %v out of range 1s..%v", c.Period, MaxDuration)
		}
		if c.Periods != 0 || c.Increment != 0 || c.Cap != 0 {
			return bad("Canadian overtime has no periods count, increment or cap")
		}
	case Fischer:
		if c.Main == 0 {
			return bad("Fischer time needs a main time")
		}
		if c.Increment <= 0 || c.Increment > MaxDuration {
			return bad("Fischer increment %v out of range 1s..%v", c.Increment, MaxDuration)
		}
		if c.Cap != 0 && (c.Cap < c.Main || c.Cap > MaxDuration) {
			return bad("Fischer cap %v must be between the main time %v and %v", c.Cap, c.Main, MaxDuration)
		}
		if c.Periods != 0 || c.Stones != 0 || c.Period != 0 {
			return bad("Fischer has no periods or stones")
		}
	default:
		return bad("unknown kind %d", int(c.Kind))
	}
	return nil
}

// String returns the canonical compact form, which ParseControl reads back to
// the same Control. Durations are written in minutes and seconds ("90m",
// "1m30s", "30s"); hours are accepted on input but never written.
func (c Control) String() string {
	var b strings.Builder
	b.WriteString(formatDuration(c.Main))
	switch c.Kind {
	case ByoYomi:
		fmt.Fprintf(&b, "+%dx%s", c.Periods, formatDuration(c.Period))
	case Canadian:
		fmt.Fprintf(&b, "+%d/%s", c.Stones, formatDuration(c.Period))
	case Fischer:
		b.WriteString("+" + formatDuration(c.Increment))
		if c.Cap > 0 {
			b.WriteString("<=" + formatDuration(c.Cap))
		}
	}
	return b.String()
}

// MarshalText writes the canonical compact form, so a Control is a plain
// string in JSON and TOML.
func (c Control) MarshalText() ([]byte, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads the compact form or a preset name (see Preset).
func (c *Control) UnmarshalText(text []byte) error {
	v, err := ParseControlOrPreset(string(text))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// formatDuration writes d (whole seconds) as "0", "30s", "5m", "1m30s" or "90m".
func formatDuration(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	s := int64(d / time.Second)
	m, s := s/60, s%60
	switch {
	case m == 0:
		return strconv.FormatInt(s, 10) + "s"
	case s == 0:
		return strconv.FormatInt(m, 10) + "m"
	}
	return strconv.FormatInt(m, 10) + "m" + strconv.FormatInt(s, 10) + "s"
}

// ErrInvalidControl is wrapped by every error about a malformed or impossible
// time control.
var ErrInvalidControl = errors.New("invalid time control")

// SyntaxError is a parse error in the compact text form: the byte offset where
// it went wrong and what was expected there.
type SyntaxError struct {
	Input    string
	Offset   int
	Expected string
}

// Error names the position and what was expected, e.g.
// `time control "60m+5x": at offset 6: expected a duration such as 30s`.
func (e *SyntaxError) Error() string {
	found := "end of input"
	if e.Offset < len(e.Input) {
		found = strconv.Quote(e.Input[e.Offset : e.Offset+1])
	}
	return fmt.Sprintf("time control %q: at offset %d: expected %s, found %s", e.Input, e.Offset, e.Expected, found)
}

// Unwrap lets errors.Is(err, ErrInvalidControl) match syntax errors too.
func (e *SyntaxError) Unwrap() error { return ErrInvalidControl }

// controlParser is a one-shot cursor over the input.
type controlParser struct {
	in  string
	pos int
}

func (p *controlParser) fail(expected string) error {
	return &SyntaxError{Input: p.in, Offset: p.pos, Expected: expected}
}

func (p *controlParser) peek() byte {
	if p.pos < len(p.in) {
		return p.in[p.pos]
	}
	return 0
}

// number reads a run of decimal digits (at most 9, so no overflow).
func (p *controlParser) number(what string) (int64, error) {
	start := p.pos
	for p.pos < len(p.in) && p.in[p.pos] >= '0' && p.in[p.pos] <= '9' {
		p.pos++
	}
	if p.pos == start {
		return 0, p.fail(what)
	}
	if p.pos-start > 9 {
		p.pos = start
		return 0, p.fail(what + " of at most 9 digits")
	}
	n, _ := strconv.ParseInt(p.in[start:p.pos], 10, 64)
	return n, nil
}

// duration reads "0" or components like "1h30m15s" with units in decreasing order.
func (p *controlParser) duration() (time.Duration, error) {
	const what = "a duration such as 30s, 5m or 1h30m"
	start := p.pos
	var total time.Duration
	last := 4 // rank of the previous unit; h=3, m=2, s=1
	for {
		if c := p.peek(); c < '0' || c > '9' {
			if p.pos == start {
				return 0, p.fail(what)
			}
			return total, nil
		}
		numAt := p.pos
		n, err := p.number(what)
		if err != nil {
			return 0, err
		}
		var unit time.Duration
		var rank int
		switch p.peek() | 0x20 { // lower-case
		case 'h':
			unit, rank = time.Hour, 3
		case 'm':
			unit, rank = time.Minute, 2
		case 's':
			unit, rank = time.Second, 1
		default:
			if n == 0 && numAt == start && p.pos-numAt == 1 {
				return 0, nil // a bare "0"
			}
			return 0, p.fail("a unit h, m or s")
		}
		if rank >= last {
			return 0, p.fail("units in decreasing order (h, then m, then s)")
		}
		p.pos++
		last = rank
		if n > int64(MaxDuration/unit) {
			p.pos = numAt
			return 0, p.fail(fmt.Sprintf("a duration of at most %v", MaxDuration))
		}
		total += time.Duration(n) * unit
		if total > MaxDuration {
			p.pos = numAt
			return 0, p.fail(fmt.Sprintf("a duration of at most %v", MaxDuration))
		}
	}
}

// ParseControl reads the compact text form documented on Control. Errors are
// *SyntaxError (position and what was expected) or wrap ErrInvalidControl.
func ParseControl(s string) (Control, error) {
	p := &controlParser{in: s}
	var c Control
	main, err := p.duration()
	if err != nil {
		return Control{}, err
	}
	c.Main = main
	if p.pos == len(s) {
		c.Kind = Absolute
		return c, wrapSemantic(s, c.Validate())
	}
	if p.peek() != '+' {
		return Control{}, p.fail(`"+" and an overtime, or end of input`)
	}
	p.pos++
	// A count followed by 'x' or '/' is byo-yomi or Canadian; otherwise a
	// duration (Fischer increment).
	save := p.pos
	digits := 0
	for p.pos < len(s) && s[p.pos] >= '0' && s[p.pos] <= '9' {
		p.pos++
		digits++
	}
	var sep byte
	if p.pos < len(s) {
		sep = s[p.pos] | 0x20
	}
	p.pos = save
	switch {
	case digits > 0 && (sep == 'x' || sep == '/'):
		n, err := p.number("a count")
		if err != nil {
			return Control{}, err
		}
		if n < 1 || n > MaxCount {
			p.pos = save
			return Control{}, p.fail(fmt.Sprintf("a count from 1 to %d", MaxCount))
		}
		if p.peek()|0x20 == 'x' {
			c.Kind, c.Periods = ByoYomi, int(n)
		} else {
			c.Kind, c.Stones = Canadian, int(n)
		}
		p.pos++
		at := p.pos
		if c.Period, err = p.duration(); err != nil {
			return Control{}, err
		}
		if c.Period == 0 {
			p.pos = at
			return Control{}, p.fail("a period longer than zero")
		}
	default:
		c.Kind = Fischer
		at := p.pos
		if c.Increment, err = p.duration(); err != nil {
			return Control{}, err
		}
		if c.Increment == 0 {
			p.pos = at
			return Control{}, p.fail("an increment longer than zero")
		}
		if strings.HasPrefix(s[p.pos:], "<=") {
			p.pos += 2
			if c.Cap, err = p.duration(); err != nil {
				return Control{}, err
			}
		}
	}
	if p.pos != len(s) {
		return Control{}, p.fail("end of input")
	}
	return c, wrapSemantic(s, c.Validate())
}

func wrapSemantic(s string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("time control %q: %w", s, err)
}

// MustParseControl is ParseControl for constants in code and tests; it panics
// on a malformed literal, never on user input.
func MustParseControl(s string) Control {
	c, err := ParseControl(s)
	if err != nil {
		panic(err)
	}
	return c
}
