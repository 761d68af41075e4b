package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// LockName is the lock file beside the journal: it holds the PID of the process writing it.
const LockName = "journal.lock"

// ErrInUse is returned by Open when another process has the journal open: two writers would
// interleave their records and the next start would cut the journal back to where they met.
var ErrInUse = errors.New("journal in use")

// InUseError says which process holds the journal.
type InUseError struct {
	Dir string
	PID int // 0 when the lock file does not say
}

func (e *InUseError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("journal %s in use by PID %d: stop that kiosk, replay or tool first", e.Dir, e.PID)
	}
	return fmt.Sprintf("journal %s in use by another process: stop it first", e.Dir)
}

// Unwrap makes errors.Is(err, ErrInUse) true.
func (e *InUseError) Unwrap() error { return ErrInUse }

// lockDir takes the journal directory's lock (an OS file lock, released when the process ends
// however it ends) and writes this process's PID into it. It touches nothing else.
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, LockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("journal: lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			b := make([]byte, 32)
			n, _ := f.ReadAt(b, 0)
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b[:n])))
			return nil, &InUseError{Dir: dir, PID: pid}
		}
		return nil, fmt.Errorf("journal: lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}
