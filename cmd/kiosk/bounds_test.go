package main

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Bounds every input is held to: a hostile file up to 10 MB gets a clear error within
// hostileTime, and the process that reads it stays under hostileRSS at its peak.
const (
	hostileTime = 5 * time.Second
	hostileRSS  = 200 << 20
)

// writeFile writes a test file into dir and returns its path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// write16BitPNG writes a whole w x h PNG of 16-bit RGB samples (all zero), compressed.
func write16BitPNG(t *testing.T, path string, w, h int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := bufio.NewWriter(f)
	chunk := func(kind string, data []byte) {
		_ = binary.Write(out, binary.BigEndian, uint32(len(data)))
		c := append([]byte(kind), data...)
		out.Write(c)
		_ = binary.Write(out, binary.BigEndian, crc32.ChecksumIEEE(c))
	}
	out.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 16, 2
	chunk("IHDR", ihdr)
	var idat strings.Builder
	z, _ := zlib.NewWriterLevel(&idat, zlib.BestSpeed)
	row := make([]byte, 1+6*w)
	for y := 0; y < h; y++ {
		z.Write(row)
	}
	z.Close()
	chunk("IDAT", []byte(idat.String()))
	chunk("IEND", nil)
	if err := out.Flush(); err != nil {
		t.Fatal(err)
	}
}

// kioskChildCmd is a command running this test binary as `kiosk ARGS` (see TestMain).
func kioskChildCmd(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), runKioskEnv+"="+strings.Join(args, "\t"))
	return cmd
}

// TestHostileInputsBounded runs each command on a hostile file in a process of its own and checks
// that it answers with a clear error, in time and within the memory bound (the child's own peak
// resident memory, from its rusage). Before the bounds: kiosk.toml of 100,000 nested inline tables
// grew doctor to 12.7 GB; a million passes took score 730 MB and 18 s; a 16-bit PNG at the
// megapixel cap took detect 1 GB.
func TestHostileInputsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: writes and reads files of megabytes in child processes")
	}
	dir := t.TempDir()
	png16 := filepath.Join(dir, "16bit.png")
	write16BitPNG(t, png16, 8000, 6000) // 48 MP, within the pixel cap
	for _, tc := range []struct {
		name string
		args []string
		says string
	}{
		{"100,000 nested inline tables", []string{"doctor", "-config", writeFile(t, dir, "nest.toml",
			[]byte("table = 1\n[game]\nx = "+strings.Repeat("{a = ", 100_000)+"1"+strings.Repeat("}", 100_000)+"\n"))},
			"nested more than 16 deep"},
		{"10,000 inline tables 14 deep", []string{"doctor", "-config", writeFile(t, dir, "wide.toml",
			[]byte("[game]\nx = ["+strings.Repeat(strings.Repeat("{a = ", 14)+"1"+strings.Repeat("}", 14)+",", 10_000)+"]\n"))},
			"more than 1000 arrays"},
		{"a million passes", []string{"score", writeFile(t, dir, "passes.sgf",
			[]byte("(;GM[1]FF[4]SZ[19]"+strings.Repeat(";B[];W[]", 500_000)+")"))},
			"more than 10000 moves"},
		{"ten million empty nodes", []string{"score", writeFile(t, dir, "nodes.sgf",
			[]byte("(;"+strings.Repeat(";", 10_000_000)+")"))},
			"more than 100000 nodes on the main line"},
		{"3.3 million comments in one node", []string{"score", writeFile(t, dir, "comments.sgf",
			[]byte("(;GM[1];"+strings.Repeat("C[]", 3_300_000)+")"))},
			"more than 10000 property values in one node"},
		{"3.3 million game trees", []string{"score", writeFile(t, dir, "trees.sgf",
			[]byte(strings.Repeat("(;)", 3_300_000)))},
			"more than 100000 games"},
		{"a million passes, audited", []string{"check", filepath.Join(dir, "passes.sgf")}, "more than 10000 moves"},
		{"a 16-bit PNG at the megapixel cap", []string{"detect", png16}, "too many megapixels"},
		{"a 16-bit PNG to calibrate from", []string{"calibrate", "--out", filepath.Join(dir, "cal.json"), png16}, "too many megapixels"},
		{"a truncated PNG", []string{"detect", writeFile(t, dir, "cut.png", func() []byte {
			b, err := os.ReadFile(png16)
			if err != nil {
				t.Fatal(err)
			}
			return b[:len(b)/2]
		}())}, "too many megapixels"}, // the header is read first
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := kioskChildCmd(tc.args...)
			start := time.Now()
			out, _ := cmd.CombinedOutput()
			took := time.Since(start)
			ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
			if !ok {
				t.Fatal("no rusage for the child")
			}
			rss := ru.Maxrss << 10 // Linux reports kilobytes
			t.Logf("kiosk %s: %v, peak RSS %d MB", tc.args[0], took.Round(time.Millisecond), rss>>20)
			if !strings.Contains(string(out), tc.says) {
				t.Errorf("output does not say %q:\n%.600s", tc.says, out)
			}
			if took > hostileTime {
				t.Errorf("took %v, more than %v", took, hostileTime)
			}
			if rss > hostileRSS {
				t.Errorf("peak RSS %d MB, more than %d MB", rss>>20, hostileRSS>>20)
			}
		})
	}
}

// TestSignalStopsBatchCommands: SIGTERM ends doctor, score and detect within a few seconds even
// while they are blocked reading their input (here a FIFO nobody writes to, where they used to
// wait for ever).
func TestSignalStopsBatchCommands(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "input")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("making a FIFO in the test directory: %v", err)
	}
	// Held open for writing and never written: a reader's open succeeds and its read blocks.
	w, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	for _, args := range [][]string{{"doctor", "-config", fifo}, {"score", fifo}, {"detect", fifo}} {
		t.Run(args[0], func(t *testing.T) {
			cmd := kioskChildCmd(args...)
			var out strings.Builder
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			waitUntilOpen(t, cmd.Process.Pid, fifo)
			time.Sleep(200 * time.Millisecond) // into the read
			sent := time.Now()
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			select {
			case err := <-exited:
				t.Logf("exited %v after %v: %s", err, time.Since(sent).Round(time.Millisecond), strings.TrimSpace(out.String()))
				if cmd.ProcessState.ExitCode() != exitSignalled {
					t.Errorf("exit status %d, want %d", cmd.ProcessState.ExitCode(), exitSignalled)
				}
			case <-time.After(5 * time.Second):
				_ = cmd.Process.Kill()
				<-exited
				t.Fatalf("still running 5 s after SIGTERM")
			}
		})
	}
}

// waitUntilOpen waits until process pid has path open.
func waitUntilOpen(t *testing.T, pid int, path string) {
	t.Helper()
	fds := filepath.Join("/proc", strconv.Itoa(pid), "fd")
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		entries, _ := os.ReadDir(fds)
		for _, e := range entries {
			if target, err := os.Readlink(filepath.Join(fds, e.Name())); err == nil && target == path {
				return
			}
		}
	}
	t.Fatalf("the child never opened %s", path)
}
