package config

import (
	"log/slog"
	"sync"
	"time"
)

// Lockout of the director PIN: after PINFailsBeforeLock wrong PINs in a row the PIN is refused
// without being checked for PINLockout, and each further lock (the wrong PIN just after a lock
// ends) lasts twice as long, up to PINMaxLockout. A right PIN ends the series. With four digits
// and these figures, trying every PIN takes more than a year.
const (
	PINFailsBeforeLock = 5
	PINLockout         = time.Minute
	PINMaxLockout      = time.Hour
)

// PINGuard checks director PINs with a lockout after repeated wrong ones, and logs every attempt
// (never the PIN). The key derivation of a check (tens of milliseconds on a Pi) runs outside any
// lock the caller holds, and one check runs at a time: a second attempt during a check is refused.
type PINGuard struct {
	check func(string) bool
	now   func() time.Time
	log   *slog.Logger

	busy chan struct{} // holds a token while a check runs

	mu          sync.Mutex
	fails       int       // wrong PINs since the last right one or the last lock
	wrong       int       // wrong PINs since the last right one (the series)
	locks       int       // locks in the current series (each doubles the next)
	lockedUntil time.Time // refused without a check until then
	onLock      func(PINLock)
}

// PINLock is one lock of the guard, as OnLock reports it.
type PINLock struct {
	At    time.Time     // when the wrong PIN that locked it was typed
	For   time.Duration // how long every PIN is refused from At
	Wrong int           // wrong PINs in the series so far (checked ones, since the last right PIN)
	Lock  int           // the lock's number in the series: 1 for the first
}

// OnLock has f called at each lock, the moment it locks (not at the PINs refused while locked),
// in the goroutine of the Check that locked it and with none of the guard's locks held. The
// kiosk journals it, so that the hall's dashboard shows it. Set it before the first Check.
func (g *PINGuard) OnLock(f func(PINLock)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.onLock = f
}

// NewPINGuard guards check (CheckPIN with the stored hash, say). now is the clock (time.Now
// outside tests); log receives one line per attempt.
func NewPINGuard(check func(string) bool, now func() time.Time, log *slog.Logger) *PINGuard {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &PINGuard{check: check, now: now, log: log, busy: make(chan struct{}, 1)}
}

// Check reports whether pin is the director PIN. While the guard is locked, or another check is
// running, it is false without a check.
func (g *PINGuard) Check(pin string) bool {
	if wait := g.LockedFor(); wait > 0 {
		g.log.Warn("director PIN refused: locked after repeated wrong PINs", "for", wait.Round(time.Second))
		return false
	}
	select {
	case g.busy <- struct{}{}:
	default:
		g.log.Warn("director PIN refused: another PIN is being checked")
		return false
	}
	ok := g.check(pin)
	<-g.busy

	lock, locked := g.count(ok)
	if locked && lock.onLock != nil {
		lock.onLock(lock.PINLock) // outside g.mu: the callee may take its own locks
	}
	return ok
}

// lockReport is a lock and whom to tell.
type lockReport struct {
	PINLock
	onLock func(PINLock)
}

// count counts a checked PIN, and reports the lock it made, if it made one.
func (g *PINGuard) count(ok bool) (lockReport, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if ok {
		g.fails, g.wrong, g.locks = 0, 0, 0
		g.log.Info("director PIN accepted")
		return lockReport{}, false
	}
	g.fails++
	g.wrong++
	if g.fails < PINFailsBeforeLock && g.locks == 0 {
		g.log.Warn("director PIN wrong", "wrong in a row", g.fails)
		return lockReport{}, false
	}
	// The lock: at the fifth wrong PIN, then at every wrong PIN after a lock has ended.
	d := PINLockout << g.locks
	if d > PINMaxLockout || d <= 0 {
		d = PINMaxLockout
	}
	g.locks++
	g.fails = 0
	at := g.now()
	g.lockedUntil = at.Add(d)
	g.log.Warn("director PIN wrong: locked", "for", d, "lock", g.locks)
	return lockReport{PINLock: PINLock{At: at, For: d, Wrong: g.wrong, Lock: g.locks}, onLock: g.onLock}, true
}

// LockedFor returns how long the guard still refuses every PIN (0 when it does not).
func (g *PINGuard) LockedFor() time.Duration {
	g.mu.Lock()
	defer g.mu.Unlock()
	return max(g.lockedUntil.Sub(g.now()), 0)
}
