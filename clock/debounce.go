package clock

import (
	"fmt"
	"time"
)

// Debounce defaults: contact chatter of mechanical arcade buttons lasts a few
// milliseconds, rarely 10; a press must be held 20 ms to count.
const (
	DefaultSettle    = 20 * time.Millisecond
	DefaultLongPress = 1500 * time.Millisecond
)

// DebounceConfig tunes one button's debouncer.
type DebounceConfig struct {
	// Settle is how long a level must hold, undisturbed, to count; edges that
	// flip back sooner (chatter, glitches) are ignored. 0 means DefaultSettle;
	// negative means no debouncing at all (a keyboard).
	Settle time.Duration
	// LongPress, when positive, makes the button report on release (a short
	// press) or as soon as it has been held this long (a long press). When 0
	// the button reports as soon as the press has settled (lowest latency:
	// the clock buttons).
	LongPress time.Duration
}

func (c DebounceConfig) settle() time.Duration {
	switch {
	case c.Settle == 0:
		return DefaultSettle
	case c.Settle < 0:
		return 0
	}
	return c.Settle
}

// Validate rejects nonsense settings (a long press shorter than the settle time).
func (c DebounceConfig) Validate() error {
	if c.LongPress < 0 {
		return fmt.Errorf("clock: debounce: negative long press %v", c.LongPress)
	}
	if c.LongPress > 0 && c.LongPress <= c.settle() {
		return fmt.Errorf("clock: debounce: long press %v must exceed the settle time %v", c.LongPress, c.settle())
	}
	return nil
}

// Debouncer turns a button's raw level changes, each with its timestamp, into
// Press events. It is a pure state machine driven by the timestamps it is
// given (Edge) and the time it is told (Advance): it never reads a clock nor
// sleeps, so tests replay chatter patterns exactly. Not safe for concurrent
// use; the GPIO driver owns one per button.
//
// A press is reported with At = the first edge of the burst that settled
// down, i.e. the moment the player hit the button.
type Debouncer struct {
	button Button
	settle time.Duration
	long   time.Duration

	stable     bool      // debounced level (true = pressed)
	raw        bool      // last level seen
	lastEdge   time.Time // time of the last raw change
	burstStart time.Time // first raw change away from stable in the current burst; zero if none
	pressedAt  time.Time // when the current debounced press went down
	longSent   bool      // the current press was already reported as long
}

// NewDebouncer makes a debouncer for button b, released at first.
func NewDebouncer(b Button, cfg DebounceConfig) (*Debouncer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Debouncer{button: b, settle: cfg.settle(), long: cfg.LongPress}, nil
}

// Reset sets the level without reporting anything (the level read when the
// driver starts: a button held at start-up must be released first).
func (d *Debouncer) Reset(pressed bool, at time.Time) {
	d.stable, d.raw, d.lastEdge = pressed, pressed, at
	d.burstStart, d.pressedAt, d.longSent = time.Time{}, at, pressed
}

// Pressed reports the debounced level.
func (d *Debouncer) Pressed() bool { return d.stable }

// Edge feeds the raw level seen at at and appends any presses that became
// due up to at to out. Repeated levels are harmless; timestamps earlier than
// the previous edge are taken as equal to it.
func (d *Debouncer) Edge(pressed bool, at time.Time, out []Press) []Press {
	if at.Before(d.lastEdge) {
		at = d.lastEdge
	}
	out = d.Advance(at, out)
	if pressed == d.raw {
		return out
	}
	d.raw, d.lastEdge = pressed, at
	if d.burstStart.IsZero() && d.raw != d.stable {
		d.burstStart = at
	}
	if d.settle == 0 {
		out = d.Advance(at, out)
	}
	return out
}

// NextDeadline is when the debouncer must next be Advanced (a level settles
// or a held press becomes long); false when nothing is pending.
func (d *Debouncer) NextDeadline() (time.Time, bool) {
	if !d.burstStart.IsZero() {
		return d.lastEdge.Add(d.settle), true
	}
	if d.stable && d.long > 0 && !d.longSent {
		return d.pressedAt.Add(d.long), true
	}
	return time.Time{}, false
}

// Advance processes everything due up to now and appends the presses.
func (d *Debouncer) Advance(now time.Time, out []Press) []Press {
	for {
		t, ok := d.NextDeadline()
		if !ok || t.After(now) {
			return out
		}
		if d.burstStart.IsZero() { // a held press became long
			d.longSent = true
			out = append(out, Press{Button: d.button, Long: true, At: d.pressedAt})
			continue
		}
		// The burst has settled at t.
		start := d.burstStart
		d.burstStart = time.Time{}
		if d.raw == d.stable { // a glitch: back where it was
			if d.stable && d.long > 0 && !d.longSent && !t.Before(d.pressedAt.Add(d.long)) {
				d.longSent = true
				out = append(out, Press{Button: d.button, Long: true, At: d.pressedAt})
			}
			continue
		}
		d.stable = d.raw
		if d.stable { // pressed
			d.pressedAt, d.longSent = start, false
			if d.long == 0 {
				out = append(out, Press{Button: d.button, At: start})
			}
			continue
		}
		// released: a long-press button reports now, long if held that long
		// before the release began.
		if d.long > 0 && !d.longSent {
			out = append(out, Press{Button: d.button, Long: start.Sub(d.pressedAt) >= d.long, At: d.pressedAt})
		}
		d.longSent = true
	}
}
