package doctor

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// SystemProbes returns the probes that need only the operating system: environment, display socket,
// GPU devices, disk space and clock. The caller adds camera, calibration, GPIO, rules and time control.
func SystemProbes() Probes {
	return Probes{
		Getenv:      os.Getenv,
		DialDisplay: DialDisplay,
		DRMDevices:  func() ([]string, error) { return filepath.Glob("/dev/dri/card*") },
		DiskFree:    DiskFree,
		ClockSynced: ClockSynced,
		Now:         time.Now,
	}
}

// DialDisplay connects to an X display (":0", ":0.0") through its Linux abstract or file socket, or
// to a Wayland socket given as an absolute path, and hangs up: the server is there and listening.
func DialDisplay(ctx context.Context, display string) error {
	var d net.Dialer
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if filepath.IsAbs(display) {
		c, err := d.DialContext(ctx, "unix", display)
		if err != nil {
			return err
		}
		return c.Close()
	}
	host, rest, ok := strings.Cut(display, ":")
	if !ok {
		return fmt.Errorf("%q is not an X display name such as \":0\"", display)
	}
	num, _, _ := strings.Cut(rest, ".")
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not an X display name such as \":0\"", display)
	}
	if host != "" && host != "unix" {
		c, err := d.DialContext(ctx, "tcp", net.JoinHostPort(host, strconv.Itoa(6000+n)))
		if err != nil {
			return err
		}
		return c.Close()
	}
	path := fmt.Sprintf("/tmp/.X11-unix/X%d", n)
	var errs []error
	for _, addr := range []string{"@" + path, path} {
		c, err := d.DialContext(ctx, "unix", addr)
		if err == nil {
			return c.Close()
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// DiskFree returns the bytes available to unprivileged users and the size of the file system
// holding path.
func DiskFree(path string) (free, total uint64, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return 0, 0, err
	}
	if !st.IsDir() {
		return 0, 0, fmt.Errorf("%s is not a directory", path)
	}
	var fs syscall.Statfs_t
	if err := syscall.Statfs(path, &fs); err != nil {
		return 0, 0, fmt.Errorf("statfs %s: %w", path, err)
	}
	return fs.Bavail * uint64(fs.Bsize), fs.Blocks * uint64(fs.Bsize), nil
}

// Kernel NTP status (adjtimex(2)).
const (
	timeError = 5      // TIME_ERROR: the clock is not synchronised
	staUnsync = 0x0040 // STA_UNSYNC
)

// ClockSynced asks the kernel (adjtimex, read-only) whether NTP keeps the clock synchronised, and
// falls back to `timedatectl show -p NTPSynchronized` where adjtimex is not allowed.
func ClockSynced(ctx context.Context) (bool, string, error) {
	var tx syscall.Timex
	state, err := syscall.Adjtimex(&tx)
	if err == nil {
		synced := state != timeError && tx.Status&staUnsync == 0
		return synced, fmt.Sprintf("kernel NTP state %d, max error %d µs", state, tx.Maxerror), nil
	}
	out, terr := exec.CommandContext(ctx, "timedatectl", "show", "-p", "NTPSynchronized", "--value").Output()
	if terr != nil {
		return false, "", fmt.Errorf("adjtimex: %v; timedatectl: %w", err, terr)
	}
	v := strings.TrimSpace(string(out))
	return v == "yes", "timedatectl NTPSynchronized=" + v, nil
}
