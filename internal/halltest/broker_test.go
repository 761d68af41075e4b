package halltest

import (
	"errors"
	"syscall"
	"testing"

	"tengen/hall/brokerconf"
)

// TestStartOnATakenPort: a broker whose port was taken after FreePort found it free (here by a
// socket bound to it, not listening, so that nothing answers there) exits at start, and start
// says so with errPortTaken, which StartWith and StartTLS answer by trying another port.
func TestStartOnATakenPort(t *testing.T) {
	b, err := generate(t, Program(t), brokerconf.Options{Tables: 1})
	if err != nil {
		t.Fatal(err)
	}
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Port: b.Port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	defer b.Kill()
	if err := b.start(); !errors.Is(err, errPortTaken) {
		t.Fatalf("a broker on a taken port: %v, want errPortTaken", err)
	}
}
