package clock

import (
	"sync"
	"time"
)

// TimeSource is where the clock gets the time and its timers from: the system
// clock in the kiosk, a ManualTime in tests (no sleeping).
type TimeSource interface {
	Now() time.Time
	// NewTimer returns a timer that fires once, d from now (at once if d <= 0).
	NewTimer(d time.Duration) Timer
}

// Timer is a one-shot timer from a TimeSource.
type Timer interface {
	// C delivers the time the timer fired.
	C() <-chan time.Time
	// Stop prevents the timer from firing; it reports whether it was pending.
	Stop() bool
}

// SystemTime is the real clock (time.Now and time.NewTimer).
type SystemTime struct{}

// Now returns time.Now().
func (SystemTime) Now() time.Time { return time.Now() }

// NewTimer wraps time.NewTimer.
func (SystemTime) NewTimer(d time.Duration) Timer { return systemTimer{time.NewTimer(d)} }

type systemTimer struct{ t *time.Timer }

func (s systemTimer) C() <-chan time.Time { return s.t.C }
func (s systemTimer) Stop() bool          { return s.t.Stop() }

// ManualTime is a TimeSource that only moves when told to (Advance, Set); its
// timers fire during those calls. Tests, the referee's replay and the UI's
// previews drive clocks with it. It is safe for concurrent use.
type ManualTime struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*manualTimer
	changed chan struct{} // closed and replaced when the set of timers changes
}

// NewManualTime starts a manual clock at start.
func NewManualTime(start time.Time) *ManualTime {
	return &ManualTime{now: start, changed: make(chan struct{})}
}

// Now returns the manual time.
func (m *ManualTime) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now
}

// NewTimer registers a timer that fires when the manual time reaches now+d.
func (m *ManualTime) NewTimer(d time.Duration) Timer {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := &manualTimer{m: m, at: m.now.Add(d), c: make(chan time.Time, 1)}
	if d <= 0 {
		t.c <- m.now
		return t
	}
	m.timers = append(m.timers, t)
	m.signal()
	return t
}

// Advance moves the time forward by d, firing every timer that comes due.
func (m *ManualTime) Advance(d time.Duration) { m.Set(m.Now().Add(d)) }

// Set moves the time to t (never backwards), firing every timer that comes due.
func (m *ManualTime) Set(t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if t.Before(m.now) {
		return
	}
	m.now = t
	kept := m.timers[:0]
	for _, tm := range m.timers {
		if !tm.at.After(t) {
			tm.c <- tm.at // buffered, fires at most once
			continue
		}
		kept = append(kept, tm)
	}
	for i := len(kept); i < len(m.timers); i++ {
		m.timers[i] = nil
	}
	m.timers = kept
	m.signal()
}

// Pending returns the number of timers that have not fired nor been stopped:
// a test uses it to know that a goroutine is now waiting.
func (m *ManualTime) Pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.timers)
}

// WaitPending blocks until at least n timers are pending or done is closed;
// it reports whether the count was reached. It does not spin.
func (m *ManualTime) WaitPending(n int, done <-chan struct{}) bool {
	for {
		m.mu.Lock()
		if len(m.timers) >= n {
			m.mu.Unlock()
			return true
		}
		ch := m.changed
		m.mu.Unlock()
		select {
		case <-ch:
		case <-done:
			return false
		}
	}
}

func (m *ManualTime) signal() {
	close(m.changed)
	m.changed = make(chan struct{})
}

type manualTimer struct {
	m  *ManualTime
	at time.Time
	c  chan time.Time
}

func (t *manualTimer) C() <-chan time.Time { return t.c }

func (t *manualTimer) Stop() bool {
	m := t.m
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, tm := range m.timers {
		if tm == t {
			m.timers = append(m.timers[:i], m.timers[i+1:]...)
			m.signal()
			return true
		}
	}
	return false
}
