// Package halltest holds what the hall's tests share: a real Mosquitto started with the
// configuration `hall init` writes, on a free port, in a temporary directory (killed with SIGKILL
// and started again on the same port and persistence when a test asks), and the kiosk's demo game
// played into a real journal.
package halltest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tengen/hall/brokerconf"
	"tengen/internal/testenv"
)

// Hall is the hall name the tests use.
const Hall = "test"

// Program returns Mosquitto's path (Debian installs it in /usr/sbin, not on a user's PATH), or
// calls testenv.Missing.
func Program(tb testing.TB) string {
	tb.Helper()
	if p, err := exec.LookPath("mosquitto"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/mosquitto"); err == nil {
		return "/usr/sbin/mosquitto"
	}
	testenv.Missing(tb, "mosquitto is not installed (Debian package mosquitto)")
	return ""
}

// FreePort returns a TCP port nobody listens on now.
func FreePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Broker is a running Mosquitto with a generated hall configuration.
type Broker struct {
	tb    testing.TB
	prog  string
	Dir   string                 // the configuration directory
	Port  int                    //
	Creds brokerconf.Credentials // every user's password
	mu    sync.Mutex
	cmd   *exec.Cmd
	log   *lockedBuffer
	done  chan struct{}
}

// Start generates a hall of tables tables on a free port and starts Mosquitto with it.
func Start(tb testing.TB, tables int) *Broker {
	tb.Helper()
	return StartWith(tb, brokerconf.Options{Tables: tables})
}

// startAttempts is how many free ports a new broker is tried on: a port FreePort found free can
// be taken again (by another test's broker or connection) before the broker binds it.
const startAttempts = 3

// errPortTaken is a broker's exit at start on a port taken since FreePort found it free.
var errPortTaken = errors.New("halltest: a port was taken before the broker bound it")

// StartWith generates the set-up o describes (the hall, port, address and user are the test's)
// and starts Mosquitto with it, on another free port if the first was taken meanwhile.
func StartWith(tb testing.TB, o brokerconf.Options) *Broker {
	tb.Helper()
	prog := Program(tb)
	for attempt := 1; ; attempt++ {
		b, err := generate(tb, prog, o)
		if err != nil {
			tb.Fatal(err)
		}
		err = b.start()
		if err == nil {
			tb.Cleanup(b.Kill)
			return b
		}
		if !errors.Is(err, errPortTaken) || attempt == startAttempts {
			tb.Fatal(err)
		}
	}
}

// generate writes the set-up o describes (the hall, port, address and user are the test's) into a
// temporary directory, without starting the broker.
func generate(tb testing.TB, prog string, o brokerconf.Options) (*Broker, error) {
	dir := tb.TempDir()
	port := FreePort(tb)
	runAs := ""
	if os.Geteuid() == 0 {
		runAs = "root"
	} else if u, err := user.Current(); err == nil {
		runAs = u.Username
	}
	o.Hall, o.Port, o.Bind, o.RunAs = Hall, port, "127.0.0.1", runAs
	creds, err := brokerconf.Generate(dir, o)
	if err != nil {
		return nil, err
	}
	return &Broker{tb: tb, prog: prog, Dir: dir, Port: port, Creds: creds}, nil
}

// URL is the broker's mqtt:// address.
func (b *Broker) URL() string { return fmt.Sprintf("mqtt://127.0.0.1:%d", b.Port) }

// Restart starts the broker (again) on the same port, configuration and persistence, and waits
// until it accepts connections.
func (b *Broker) Restart() {
	b.tb.Helper()
	if err := b.start(); err != nil {
		b.tb.Fatal(err)
	}
}

// start is Restart, returning what went wrong: errPortTaken when the broker exited at start
// because its port is in use.
func (b *Broker) start() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cmd != nil {
		return errors.New("halltest: Restart while the broker runs")
	}
	cmd := exec.Command(b.prog, "-c", filepath.Join(b.Dir, brokerconf.ConfFile))
	b.log = &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = b.log, b.log
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("halltest: start mosquitto: %w", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	b.cmd, b.done = cmd, done
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", b.Port), 200*time.Millisecond)
		if err == nil {
			c.Close()
			return nil
		}
		select {
		case <-done:
			b.cmd = nil
			if log := b.log.String(); strings.Contains(log, "Address already in use") {
				return fmt.Errorf("%w: mosquitto exited at start: %s", errPortTaken, log)
			}
			return fmt.Errorf("mosquitto exited at start: %s", b.log.String())
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("mosquitto does not listen on %d after 10s: %s", b.Port, b.log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Kill ends the broker with SIGKILL (a power cut, for the broker) and waits for it to be gone.
func (b *Broker) Kill() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cmd == nil {
		return
	}
	_ = b.cmd.Process.Kill()
	<-b.done
	b.cmd = nil
}

// exited reports whether the broker process started last has ended (on its own or killed).
func (b *Broker) exited() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done == nil {
		return true
	}
	select {
	case <-b.done:
		return true
	default:
		return false
	}
}

// PID is the running broker's process id (0 when it is not running).
func (b *Broker) PID() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cmd == nil {
		return 0
	}
	return b.cmd.Process.Pid
}

// Log is what the broker printed so far.
func (b *Broker) Log() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.log == nil {
		return ""
	}
	return b.log.String()
}

// Context is a test context that ends after d or at the test's end.
func Context(tb testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	tb.Cleanup(cancel)
	return ctx
}

// lockedBuffer is the broker's output, written by exec's copying goroutine and read by Log.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
