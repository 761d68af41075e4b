package config

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestPINGuardLocksOut: five wrong PINs lock the guard for a minute, during which even the right
// PIN is refused without being checked; a wrong PIN after the lock locks it again for twice as
// long; the right PIN ends the series. Every attempt is logged, never the PIN.
func TestPINGuardLocksOut(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	checks := 0
	var logs bytes.Buffer
	g := NewPINGuard(func(p string) bool { checks++; return p == "2468" }, func() time.Time { return now },
		slog.New(slog.NewTextHandler(&logs, nil)))
	try := func(pin string, want bool) {
		t.Helper()
		if got := g.Check(pin); got != want {
			t.Fatalf("Check(%s) at +%v = %v, want %v", pin, now.Sub(time.Unix(1_000_000, 0)), got, want)
		}
	}
	for i := 0; i < PINFailsBeforeLock-1; i++ {
		try("1111", false)
	}
	if g.LockedFor() != 0 {
		t.Fatal("locked before the fifth wrong PIN")
	}
	try("1111", false)
	if g.LockedFor() != time.Minute {
		t.Fatalf("locked for %v after five wrong PINs, want 1m", g.LockedFor())
	}
	before := checks
	try("2468", false) // the right PIN, refused while locked
	if checks != before {
		t.Error("a PIN was checked while locked")
	}
	now = now.Add(61 * time.Second)
	try("1111", false) // one more wrong PIN after the lock: locked again, twice as long
	if g.LockedFor() != 2*time.Minute {
		t.Fatalf("second lock %v, want 2m", g.LockedFor())
	}
	now = now.Add(2*time.Minute + time.Second)
	try("2468", true)
	for i := 0; i < PINFailsBeforeLock-1; i++ {
		try("1111", false) // the series starts again from nothing
	}
	if g.LockedFor() != 0 {
		t.Error("a right PIN did not end the series")
	}
	for _, want := range []string{"director PIN wrong", "locked", "director PIN accepted", "refused: locked"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log does not say %q", want)
		}
	}
	if strings.Contains(logs.String(), "2468") || strings.Contains(logs.String(), "1111") {
		t.Error("a PIN is in the log")
	}
}

// TestPINGuardLockGrowsToItsCap: each further lock doubles, up to PINMaxLockout.
func TestPINGuardLockGrowsToItsCap(t *testing.T) {
	now := time.Unix(0, 0)
	g := NewPINGuard(func(string) bool { return false }, func() time.Time { return now }, slog.New(slog.DiscardHandler))
	var locks []time.Duration
	for len(locks) < 9 {
		g.Check("0000")
		if d := g.LockedFor(); d > 0 {
			locks = append(locks, d)
			now = now.Add(d)
		}
	}
	want := []time.Duration{1, 2, 4, 8, 16, 32, 60, 60, 60}
	for i, d := range locks {
		if d != want[i]*time.Minute {
			t.Fatalf("locks %v, want %v minutes", locks, want)
		}
	}
}

// TestPINGuardOneCheckAtATime: an attempt made while another PIN is being checked is refused
// without a check of its own.
func TestPINGuardOneCheckAtATime(t *testing.T) {
	inside, release := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	checks := 0
	g := NewPINGuard(func(p string) bool {
		mu.Lock()
		checks++
		mu.Unlock()
		if p == "slow" {
			close(inside)
			<-release
		}
		return true
	}, nil, slog.New(slog.DiscardHandler))
	done := make(chan bool)
	go func() { done <- g.Check("slow") }()
	<-inside
	if g.Check("1234") {
		t.Error("a PIN was accepted while another was being checked")
	}
	close(release)
	if !<-done {
		t.Error("the slow check failed")
	}
	if checks != 1 {
		t.Errorf("%d checks, want 1", checks)
	}
}

// TestPINGuardReportsEachLock: OnLock hears each lock once, the moment it locks (the fifth wrong
// PIN, then the wrong PIN after a lock), not the PINs refused while locked, with how long it
// lasts and how many wrong PINs made it; the callback may use the guard (no lock is held).
func TestPINGuardReportsEachLock(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	g := NewPINGuard(func(p string) bool { return p == "2468" }, func() time.Time { return now }, slog.New(slog.DiscardHandler))
	var got []PINLock
	g.OnLock(func(l PINLock) {
		if g.LockedFor() != l.For {
			t.Errorf("the guard says %v locked while reporting a lock of %v", g.LockedFor(), l.For)
		}
		got = append(got, l)
	})
	for i := 0; i < PINFailsBeforeLock; i++ {
		g.Check("1111")
	}
	g.Check("1111") // refused while locked: no report
	now = now.Add(time.Minute)
	g.Check("1111")
	now = now.Add(2 * time.Minute)
	g.Check("2468")
	for i := 0; i < PINFailsBeforeLock; i++ {
		g.Check("1111")
	}
	start := time.Unix(1_000_000, 0)
	want := []PINLock{
		{At: start, For: time.Minute, Wrong: 5, Lock: 1},
		{At: start.Add(time.Minute), For: 2 * time.Minute, Wrong: 6, Lock: 2},
		{At: start.Add(3 * time.Minute), For: time.Minute, Wrong: 5, Lock: 1},
	}
	if len(got) != len(want) {
		t.Fatalf("locks reported %+v, want %+v", got, want)
	}
	for i := range want {
		if !got[i].At.Equal(want[i].At) || got[i].For != want[i].For || got[i].Wrong != want[i].Wrong || got[i].Lock != want[i].Lock {
			t.Errorf("lock %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
}
