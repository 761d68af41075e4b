package sdnotify

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// listen makes a datagram socket like systemd's notify socket and points $NOTIFY_SOCKET at it.
func listen(t *testing.T) *net.UnixConn {
	t.Helper()
	path := filepath.Join(t.TempDir(), "notify")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	t.Setenv("NOTIFY_SOCKET", path)
	return c
}

// messages collects what arrives on c until ctx ends.
func messages(ctx context.Context, c *net.UnixConn) <-chan string {
	ch := make(chan string, 100)
	go func() {
		defer close(ch)
		buf := make([]byte, 4096)
		for ctx.Err() == nil {
			c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
			n, err := c.Read(buf)
			if err != nil {
				continue
			}
			ch <- string(buf[:n])
		}
	}()
	return ch
}

func TestOutsideSystemdIsNoOp(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", "")
	period, err := Start(context.Background(), func() bool { t.Error("alive called"); return true })
	if err != nil || period != 0 {
		t.Errorf("Start = %v, %v; want 0, nil", period, err)
	}
	if err := Status("x"); err != nil {
		t.Error(err)
	}
}

func TestReadyWithoutWatchdog(t *testing.T) {
	c := listen(t)
	t.Setenv("WATCHDOG_USEC", "")
	ctx, cancel := context.WithCancel(context.Background())
	period, err := Start(ctx, nil)
	if err != nil || period != 0 {
		t.Fatalf("Start = %v, %v", period, err)
	}
	cancel()
	rctx, rcancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer rcancel()
	var got []string
	for m := range messages(rctx, c) {
		got = append(got, m)
	}
	if len(got) < 2 || got[0] != "READY=1" || got[len(got)-1] != "STOPPING=1" {
		t.Errorf("messages %q, want READY=1 ... STOPPING=1", got)
	}
	for _, m := range got {
		if m == "WATCHDOG=1" {
			t.Error("fed a watchdog the unit does not have")
		}
	}
}

// TestWatchdogFollowsAlive: the watchdog is fed while alive() is true, not while it is false, and
// again when it recovers.
func TestWatchdogFollowsAlive(t *testing.T) {
	c := listen(t)
	t.Setenv("WATCHDOG_USEC", strconv.Itoa(int((80 * time.Millisecond).Microseconds())))
	t.Setenv("WATCHDOG_PID", strconv.Itoa(os.Getpid()))
	var alive atomic.Bool
	alive.Store(true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rctx, rcancel := context.WithCancel(context.Background())
	defer rcancel()
	msgs := messages(rctx, c)

	period, err := Start(ctx, alive.Load)
	if err != nil || period != 80*time.Millisecond {
		t.Fatalf("Start = %v, %v", period, err)
	}
	if m := <-msgs; m != "READY=1" {
		t.Fatalf("first message %q, want READY=1", m)
	}
	count := func(d time.Duration) int {
		n := 0
		deadline := time.After(d)
		for {
			select {
			case m := <-msgs:
				if m == "WATCHDOG=1" {
					n++
				}
			case <-deadline:
				return n
			}
		}
	}
	if n := count(400 * time.Millisecond); n < 3 {
		t.Errorf("alive: %d WATCHDOG=1 in 400ms with an 80ms watchdog, want at least 3", n)
	}
	alive.Store(false)
	count(60 * time.Millisecond) // a pet already decided may still arrive
	if n := count(400 * time.Millisecond); n != 0 {
		t.Errorf("stalled: %d WATCHDOG=1, want none", n)
	}
	alive.Store(true)
	if n := count(400 * time.Millisecond); n < 3 {
		t.Errorf("recovered: %d WATCHDOG=1, want at least 3", n)
	}
	cancel()
	for {
		select {
		case m := <-msgs:
			if m == "STOPPING=1" {
				return
			}
		case <-time.After(2 * time.Second):
			t.Fatal("no STOPPING=1 after the context ended")
		}
	}
}

func TestStatus(t *testing.T) {
	c := listen(t)
	if err := Status("game 3, move 112"); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100)
	c.SetReadDeadline(time.Now().Add(time.Second))
	n, err := c.Read(buf)
	if err != nil || !strings.HasPrefix(string(buf[:n]), "STATUS=game 3") {
		t.Errorf("got %q, %v", buf[:n], err)
	}
}

func TestHeartbeat(t *testing.T) {
	var h Heartbeat
	alive := h.Alive(50 * time.Millisecond)
	if alive() {
		t.Error("alive before the first beat")
	}
	h.Beat()
	if !alive() {
		t.Error("not alive right after a beat")
	}
	time.Sleep(80 * time.Millisecond)
	if alive() {
		t.Error("still alive 80ms after the last beat with a 50ms limit")
	}
}
