// Package sdnotify tells systemd when the kiosk is up and feeds the unit's watchdog while the
// kiosk's main loop is alive, so a frozen kiosk is restarted instead of showing a stale clock.
//
// Outside systemd (no $NOTIFY_SOCKET) every call is a no-op.
package sdnotify

import (
	"context"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/coreos/go-systemd/v22/daemon"
)

// Start sends READY=1 and, when the unit sets WatchdogSec=, starts a goroutine that sends
// WATCHDOG=1 every half watchdog period for as long as alive() returns true. When alive() returns
// false the goroutine stops feeding (and logs once), so systemd kills and restarts the service; it
// resumes feeding if alive() recovers first. When ctx ends it sends STOPPING=1 and returns.
// alive is called from the goroutine and must be safe for concurrent use; it may be nil (always
// alive). Start returns the watchdog period (0 when there is none) and an error only if systemd's
// socket is set but cannot be written.
func Start(ctx context.Context, alive func() bool) (time.Duration, error) {
	sent, err := daemon.SdNotify(false, daemon.SdNotifyReady)
	if err != nil {
		return 0, fmt.Errorf("sdnotify: READY=1: %w", err)
	}
	if !sent {
		return 0, nil // not started by systemd
	}
	period, err := daemon.SdWatchdogEnabled(false)
	if err != nil {
		return 0, fmt.Errorf("sdnotify: watchdog: %w", err)
	}
	if alive == nil {
		alive = func() bool { return true }
	}
	go feed(ctx, period, alive)
	return period, nil
}

// feed pets the watchdog every period/2 while alive; it runs until ctx ends.
func feed(ctx context.Context, period time.Duration, alive func() bool) {
	defer daemon.SdNotify(false, daemon.SdNotifyStopping)
	if period <= 0 {
		<-ctx.Done()
		return
	}
	t := time.NewTicker(period / 2)
	defer t.Stop()
	stalled := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if !alive() {
			if !stalled {
				slog.Error("main loop not responding: no longer feeding the systemd watchdog", "watchdog", period)
				stalled = true
			}
			continue
		}
		if stalled {
			slog.Warn("main loop responding again: feeding the systemd watchdog")
			stalled = false
		}
		if _, err := daemon.SdNotify(false, daemon.SdNotifyWatchdog); err != nil {
			slog.Error("cannot feed the systemd watchdog", "err", err)
		}
	}
}

// Status sets the one-line status `systemctl status` shows (e.g. "game 3, move 112"). No-op outside systemd.
func Status(text string) error {
	if _, err := daemon.SdNotify(false, "STATUS="+text); err != nil {
		return fmt.Errorf("sdnotify: STATUS: %w", err)
	}
	return nil
}

// Heartbeat is the usual alive() for Start: the main loop calls Beat on every turn, and Alive
// reports whether the last beat is recent. The zero value has never beaten.
type Heartbeat struct {
	last atomic.Int64 // unix nanoseconds of the last Beat
}

// Beat records that the main loop is turning.
func (h *Heartbeat) Beat() { h.last.Store(time.Now().UnixNano()) }

// Alive returns a function reporting whether Beat was called within the last `within`.
func (h *Heartbeat) Alive(within time.Duration) func() bool {
	return func() bool {
		last := h.last.Load()
		return last != 0 && time.Since(time.Unix(0, last)) <= within
	}
}
