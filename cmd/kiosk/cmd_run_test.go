package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"tengen/config"
	"tengen/internal/testenv"
	"tengen/referee/journal"
)

// runKioskEnv makes the test binary act as `kiosk` (on the main thread, as Fyne needs): the Xvfb
// test starts it as a child process with this variable set to the arguments, tab-separated.
const runKioskEnv = "TENGEN_TEST_RUN_KIOSK"

func TestMain(m *testing.M) {
	if args := os.Getenv(runKioskEnv); args != "" {
		os.Exit(dispatch(strings.Split(args, "\t"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestRunFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--size", "big"}, "--size"},
		{[]string{"--nope"}, "flag provided but not defined"},
	} {
		var stderr bytes.Buffer
		err := runKiosk(context.Background(), tc.args, &stderr, &stderr)
		if err == nil || !strings.Contains(err.Error()+stderr.String(), tc.want) {
			t.Errorf("%v: err %v, stderr %q; want %q", tc.args, err, stderr.String(), tc.want)
		}
	}
	var stderr bytes.Buffer
	if err := runKiosk(context.Background(), []string{"extra"}, &stderr, &stderr); !errors.As(err, new(exitError)) {
		t.Errorf("a stray argument: %v", err)
	}
}

// startXvfb starts a virtual X server with a w x h screen for the test and returns its display
// (":N"). It skips the test when Xvfb or xwd (for screenshots) is not installed.
func startXvfb(t *testing.T, ctx context.Context, w, h int) string {
	t.Helper()
	xvfb := testenv.Tool(t, "Xvfb")
	testenv.Tool(t, "xwd") // the screenshots
	// -displayfd: Xvfb picks a free display itself (stale lock files of killed servers do not
	// matter) and writes its number to the pipe once it accepts clients.
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	srv := exec.CommandContext(ctx, xvfb, "-displayfd", "3", "-screen", "0", fmt.Sprintf("%dx%dx24", w, h), "-nolisten", "tcp")
	srv.ExtraFiles = []*os.File{pw}
	if err := srv.Start(); err != nil {
		pw.Close()
		t.Fatalf("starting Xvfb: %v", err)
	}
	pw.Close()
	t.Cleanup(func() {
		_ = srv.Process.Signal(syscall.SIGTERM)
		_ = srv.Wait()
	})
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(pr).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case n := <-got:
		if n == "" {
			t.Fatal("Xvfb did not start (it closed -displayfd without a display number)")
		}
		return ":" + n
	case <-time.After(15 * time.Second):
		t.Fatal("Xvfb did not start within 15 s")
	}
	return ""
}

// screenshot dumps the X display's root window.
func screenshot(ctx context.Context, disp string) (image.Image, error) {
	out, err := exec.CommandContext(ctx, "xwd", "-root", "-silent", "-display", disp).Output()
	if err != nil {
		return nil, err
	}
	return decodeXWD(out)
}

// saveShot writes img to $TENGEN_UI_SHOTS/name.png when that variable names a directory.
func saveShot(img image.Image, name string) {
	if dir := os.Getenv("TENGEN_UI_SHOTS"); dir != "" && img != nil {
		if f, err := os.Create(filepath.Join(dir, name+".png")); err == nil {
			_ = png.Encode(f, img)
			_ = f.Close()
		}
	}
}

// lockedBuffer collects a child's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// kioskChild is `kiosk` running as a child process of the test binary.
type kioskChild struct {
	cmd    *exec.Cmd
	logs   *lockedBuffer
	exited chan struct{} // closed when the child has exited
	err    error         // how it exited (read after exited is closed)
}

// startKioskChild runs `kiosk ARGS` on display disp with extra environment variables; the child
// is stopped (SIGTERM, then killed) when the test ends.
func startKioskChild(t *testing.T, ctx context.Context, disp string, env []string, args ...string) *kioskChild {
	t.Helper()
	k := &kioskChild{logs: &lockedBuffer{}, exited: make(chan struct{})}
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	var base []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "NOTIFY_SOCKET=") && !strings.HasPrefix(e, "WATCHDOG_") {
			base = append(base, e)
		}
	}
	cmd.Env = append(append(base, "DISPLAY="+disp, runKioskEnv+"="+strings.Join(args, "\t")), env...)
	cmd.Stdout, cmd.Stderr = k.logs, k.logs
	k.cmd = cmd
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		k.err = cmd.Wait()
		close(k.exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-k.exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	return k
}

// notifySocket is a datagram socket like systemd's notify socket, collecting what the kiosk sends.
type notifySocket struct {
	path string
	mu   sync.Mutex
	msgs []string
}

// listenNotify opens a notify socket for the test; env returns the variables that point a child at
// it with a watchdog of the given period.
func listenNotify(t *testing.T) *notifySocket {
	t.Helper()
	dir, err := os.MkdirTemp("", "tengen-notify-") // short: a socket path has at most 107 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	ns := &notifySocket{path: filepath.Join(dir, "notify")}
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: ns.path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := c.Read(buf)
			if err != nil {
				return
			}
			ns.mu.Lock()
			ns.msgs = append(ns.msgs, strings.Split(strings.TrimSpace(string(buf[:n])), "\n")...)
			ns.mu.Unlock()
		}
	}()
	return ns
}

func (ns *notifySocket) env(watchdog time.Duration) []string {
	return []string{"NOTIFY_SOCKET=" + ns.path, fmt.Sprintf("WATCHDOG_USEC=%d", watchdog.Microseconds())}
}

// has reports whether a message starting with prefix arrived.
func (ns *notifySocket) has(prefix string) bool {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	for _, m := range ns.msgs {
		if strings.HasPrefix(m, prefix) {
			return true
		}
	}
	return false
}

func (ns *notifySocket) messages() []string {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	return append([]string(nil), ns.msgs...)
}

// waitNotify waits until every prefix has arrived; it reports the ones that did not.
func (ns *notifySocket) wait(d time.Duration, prefixes ...string) []string {
	deadline := time.Now().Add(d)
	for {
		var missing []string
		for _, p := range prefixes {
			if !ns.has(p) {
				missing = append(missing, p)
			}
		}
		if len(missing) == 0 || time.Now().After(deadline) {
			return missing
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestKioskWindowUnderXvfb runs `kiosk run --demo` in a virtual X server for a few seconds and
// checks a screenshot: the wooden board with its stones, and both clocks with one of them lit. It
// also plays systemd: the kiosk must report READY=1, feed the watchdog and describe the game in STATUS.
func TestKioskWindowUnderXvfb(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	disp := startXvfb(t, ctx, 1280, 720)
	ns := listenNotify(t)
	kiosk := startKioskChild(t, ctx, disp, ns.env(time.Second), "run", "--demo", "--size", "1280x720", "--quit-after", "90s")

	// The demo's first move is about 6 s in; look until the board shows a stone and a clock is lit.
	var shot image.Image
	var problems []string
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-kiosk.exited:
			t.Fatalf("the kiosk exited early: %v\n%s", kiosk.err, kiosk.logs.String())
		case <-time.After(time.Second):
		}
		img, err := screenshot(ctx, disp)
		if err != nil {
			continue
		}
		shot = img
		if problems = checkKioskShot(img); len(problems) == 0 {
			break
		}
	}
	if shot == nil {
		t.Fatalf("no screenshot\n%s", kiosk.logs.String())
	}
	saveShot(shot, "xvfb-kiosk-demo")
	for _, p := range problems {
		t.Error(p)
	}
	if missing := ns.wait(10*time.Second, "READY=1", "WATCHDOG=1", "STATUS=game: move"); len(missing) > 0 {
		t.Errorf("systemd never got %q; it got %q", missing, ns.messages())
	}
	// systemd stops the kiosk with SIGTERM: the window closes and the kiosk exits cleanly.
	_ = kiosk.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-kiosk.exited:
		if kiosk.err != nil {
			t.Errorf("after SIGTERM: %v, want a clean exit", kiosk.err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the kiosk did not exit within 10 s of SIGTERM")
		// SIGQUIT makes the Go runtime print every goroutine: where the shutdown is stuck.
		_ = kiosk.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-kiosk.exited:
		case <-time.After(5 * time.Second):
		}
	}
	if t.Failed() {
		t.Logf("kiosk output:\n%s", kiosk.logs.String())
	}
}

// TestConfigFaultUnderXvfb runs `kiosk run` with a bad configuration file in a virtual X server:
// the window must show the calm configuration-problem screen, systemd must hear READY=1, STATUS
// and WATCHDOG=1 (so it does not restart the kiosk in a loop), and closing the window exits with
// status 78.
func TestConfigFaultUnderXvfb(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kiosk.toml")
	if err := os.WriteFile(path, []byte("[pins]\nblak = \"GPIO17\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	faultScreenUnderXvfb(t, []string{"run", "--config", path, "--size", "800x480", "--quit-after", "8s"},
		"configuration problem", "key=pins.blak", "line=2", "unknown key")
}

// TestJournalFaultUnderXvfb: a journal that cannot be opened (here its file has a bad header)
// shows the same fault screen, naming paths.journal_dir and what to do, instead of an exit (under
// the unit's Restart=always, a blank screen restarting every few seconds).
func TestJournalFaultUnderXvfb(t *testing.T) {
	dir := t.TempDir()
	jdir := filepath.Join(dir, "journal")
	if err := os.MkdirAll(jdir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(jdir, journal.FileName), []byte("NOTAJOURNAL AT ALL\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "kiosk.toml")
	cfg := fmt.Sprintf("[camera]\nsource = %q\n[paths]\njournal_dir = %q\ngames_dir = %q\n",
		"/dev/video9", jdir, filepath.Join(dir, "games"))
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	faultScreenUnderXvfb(t, []string{"run", "--config", path, "--size", "800x480", "--quit-after", "8s"},
		"configuration problem", "key=paths.journal_dir", "not a Tengen journal", "move a damaged journal aside")
	if b, _ := os.ReadFile(filepath.Join(jdir, journal.FileName)); string(b) != "NOTAJOURNAL AT ALL\n" {
		t.Errorf("the kiosk changed the unreadable journal: %q", b)
	}
}

// faultScreenUnderXvfb runs `kiosk ARGS` in a virtual X server and checks that the window shows the
// calm fault screen, that systemd hears READY=1, STATUS and WATCHDOG=1 (so it does not restart the
// kiosk in a loop), that closing the window exits with status 78, and that the log says logWant.
func faultScreenUnderXvfb(t *testing.T, args []string, logWant ...string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	disp := startXvfb(t, ctx, 800, 480)
	ns := listenNotify(t)
	kiosk := startKioskChild(t, ctx, disp, ns.env(time.Second), args...)
	if missing := ns.wait(20*time.Second, "READY=1", "STATUS=configuration problem", "WATCHDOG=1"); len(missing) > 0 {
		t.Errorf("systemd never got %q; it got %q", missing, ns.messages())
	}
	img, err := screenshot(ctx, disp)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	saveShot(img, "xvfb-kiosk-config-fault")
	calm := color.NRGBA{R: 0x3d, G: 0x5a, B: 0x80}
	n, total := 0, img.Bounds().Dx()*img.Bounds().Dy()
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			if abs(int(c.R)-int(calm.R)) <= 6 && abs(int(c.G)-int(calm.G)) <= 6 && abs(int(c.B)-int(calm.B)) <= 6 {
				n++
			}
		}
	}
	if n < total/2 {
		t.Errorf("the screen shows %d calm-panel pixels of %d: not the configuration problem screen", n, total)
	}
	select {
	case <-kiosk.exited:
		var ee *exec.ExitError
		if !errors.As(kiosk.err, &ee) || ee.ExitCode() != exitConfig {
			t.Errorf("after the window closed: %v, want exit status %d", kiosk.err, exitConfig)
		}
	case <-time.After(30 * time.Second):
		t.Error("the kiosk did not exit after --quit-after")
	}
	logs := kiosk.logs.String()
	for _, want := range logWant {
		if !strings.Contains(logs, want) {
			t.Errorf("the log does not say %q", want)
		}
	}
	if t.Failed() {
		t.Logf("kiosk output:\n%s", logs)
	}
}

// checkKioskShot looks for the table screen in a 1280x720 screenshot: the board (wood, dark lines,
// at least one stone) on the left, the two clock faces on the right with exactly one lit.
func checkKioskShot(img image.Image) []string {
	var out []string
	b := img.Bounds()
	if b.Dx() != 1280 || b.Dy() != 720 {
		return []string{fmt.Sprintf("screenshot is %v, want 1280x720", b.Size())}
	}
	count := func(r image.Rectangle, match func(r, g, b int) bool) int {
		n := 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
				if match(int(c.R), int(c.G), int(c.B)) {
					n++
				}
			}
		}
		return n
	}
	near := func(want color.NRGBA, tol int) func(r, g, b int) bool {
		return func(r, g, b int) bool {
			return abs(r-int(want.R)) <= tol && abs(g-int(want.G)) <= tol && abs(b-int(want.B)) <= tol
		}
	}
	board := image.Rect(0, 0, 720, 720)
	area := board.Dx() * board.Dy()
	if wood := count(board, near(color.NRGBA{R: 0xdc, G: 0xb3, B: 0x5c}, 14)); wood < area/2 {
		out = append(out, fmt.Sprintf("board: %d wood pixels of %d", wood, area))
	}
	dark := count(board, func(r, g, b int) bool { return r < 50 && g < 50 && b < 50 })
	if dark < area/40 {
		out = append(out, fmt.Sprintf("board: %d dark pixels (lines, black stones), too few", dark))
	}
	white := count(board, func(r, g, b int) bool { return r > 235 && g > 235 && b > 225 })
	if white < 1000 {
		out = append(out, fmt.Sprintf("board: %d white-stone pixels; the first moves should be on it", white))
	}
	top, bottom := image.Rect(728, 8, 1272, 225), image.Rect(728, 495, 1272, 712)
	lit := near(color.NRGBA{R: 0xf2, G: 0xc1, B: 0x2e}, 12)
	panel := near(color.NRGBA{R: 0x2a, G: 0x2e, B: 0x36}, 8)
	tl, bl := count(top, lit), count(bottom, lit)
	tp, bp := count(top, panel), count(bottom, panel)
	half := top.Dx() * top.Dy() / 2
	if !(tl > half && bp > half) && !(bl > half && tp > half) {
		out = append(out, fmt.Sprintf("clocks: top %d lit / %d panel, bottom %d lit / %d panel; want one lit and one dark", tl, tp, bl, bp))
	}
	// The clock digits: light text on the dark face or dark text on the lit one.
	digits := count(top, func(r, g, b int) bool { return (r > 230 && g > 230 && b > 220) || (r < 40 && g < 40 && b < 40) }) +
		count(bottom, func(r, g, b int) bool { return (r > 230 && g > 230 && b > 220) || (r < 40 && g < 40 && b < 40) })
	if digits < 3000 {
		out = append(out, fmt.Sprintf("clocks: %d text pixels, want large digits", digits))
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// decodeXWD reads an X window dump (ZPixmap, 24 or 32 bits per pixel, as xwd writes for a TrueColor
// root window).
func decodeXWD(data []byte) (image.Image, error) {
	if len(data) < 100 {
		return nil, errors.New("xwd: short header")
	}
	h := make([]uint32, 25)
	for i := range h {
		h[i] = binary.BigEndian.Uint32(data[4*i:])
	}
	headerSize, version, format := h[0], h[1], h[2]
	width, height := int(h[4]), int(h[5])
	byteOrder, bpp, bpl := h[7], int(h[11]), int(h[12])
	rmask, gmask, bmask := h[14], h[15], h[16]
	ncolors := int(h[19])
	if version != 7 || format != 2 || (bpp != 32 && bpp != 24) || width <= 0 || height <= 0 || width > 1<<14 || height > 1<<14 {
		return nil, fmt.Errorf("xwd: unsupported dump (version %d, format %d, %d bpp, %dx%d)", version, format, bpp, width, height)
	}
	off := int(headerSize) + 12*ncolors
	if off < 0 || off+bpl*height > len(data) || bpl < width*bpp/8 {
		return nil, errors.New("xwd: truncated pixel data")
	}
	shift := func(m uint32) uint {
		s := uint(0)
		for m != 0 && m&1 == 0 {
			m >>= 1
			s++
		}
		return s
	}
	rs, gs, bs := shift(rmask), shift(gmask), shift(bmask)
	img := image.NewNRGBA(image.Rect(0, 0, width, height))
	step := bpp / 8
	for y := 0; y < height; y++ {
		row := data[off+y*bpl:]
		for x := 0; x < width; x++ {
			p := row[x*step : x*step+step]
			var v uint32
			if byteOrder == 0 { // LSBFirst
				for i := step - 1; i >= 0; i-- {
					v = v<<8 | uint32(p[i])
				}
			} else {
				for i := 0; i < step; i++ {
					v = v<<8 | uint32(p[i])
				}
			}
			img.SetNRGBA(x, y, color.NRGBA{R: uint8((v & rmask) >> rs), G: uint8((v & gmask) >> gs), B: uint8((v & bmask) >> bs), A: 255})
		}
	}
	return img, nil
}

// TestStartKioskConfigFault: a configuration the kiosk cannot use is not an exit but the fault
// screen (returned, and logged with the key and line); a good one starts the kiosk; a bad flag is
// an error before anything is read.
func TestStartKioskConfigFault(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	state := filepath.Join(dir, "state")
	good := write("good.toml", fmt.Sprintf("[camera]\nsource = \"/dev/video0\"\n[paths]\njournal_dir = %q\ngames_dir = %q\n",
		filepath.Join(state, "journal"), filepath.Join(state, "games")))
	for _, tc := range []struct {
		name    string
		opts    runOptions
		wantErr string   // startKiosk fails with this
		fault   []string // the fault names these (problems' keys, or the read error)
		logs    []string
	}{
		{name: "unknown key", opts: runOptions{configPath: write("typo.toml", "table = 3\n[pins]\nblak = \"GPIO17\"\n")},
			fault: []string{"pins.blak"}, logs: []string{"key=pins.blak", "line=3", "did you mean pins.black?"}},
		{name: "bad value", opts: runOptions{configPath: write("size.toml", "[game]\nsize = 99\n")},
			fault: []string{"game.size"}, logs: []string{"key=game.size", "line=2"}},
		{name: "syntax", opts: runOptions{configPath: write("syntax.toml", "[pins\n")},
			fault: []string{""}, logs: []string{"line=1"}},
		{name: "missing file", opts: runOptions{configPath: filepath.Join(dir, "missing.toml")},
			fault: []string{"no such file"}, logs: []string{"missing.toml"}},
		{name: "bad config through TENGEN_CONFIG", opts: runOptions{}, fault: []string{"pins.blak"}},
		{name: "journal_dir is a file", opts: runOptions{configPath: write("file.toml",
			fmt.Sprintf("[camera]\nsource = \"/dev/video0\"\n[paths]\njournal_dir = %q\n", write("not-a-dir", "x")))},
			fault: []string{"paths.journal_dir"}, logs: []string{"not a directory", "free space on the disk"}},
		{name: "bad size flag wins", opts: runOptions{configPath: filepath.Join(dir, "typo.toml"), size: "big"}, wantErr: "--size"},
		{name: "good", opts: runOptions{configPath: good}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("TENGEN_CONFIG", filepath.Join(dir, "typo.toml"))
			var logs bytes.Buffer
			k, fault, err := startKiosk(tc.opts, slog.New(slog.NewTextHandler(&logs, nil)))
			if k != nil {
				defer k.cleanup()
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || fault != nil || k != nil {
					t.Errorf("got %v, %v, %v; want only an error naming %q", k, fault, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("startKiosk: %v", err)
			}
			if tc.fault == nil {
				if fault != nil || k == nil {
					t.Fatalf("a good configuration: kiosk %v, fault %v", k, fault)
				}
				if k.demo || k.cfg.Camera.Source != "/dev/video0" {
					t.Errorf("kiosk from the good file: demo %v, camera %q", k.demo, k.cfg.Camera.Source)
				}
				return
			}
			if fault == nil || k != nil {
				t.Fatalf("want the fault screen, got kiosk %v, fault %v", k, fault)
			}
			var names []string
			for _, p := range fault.Problems {
				names = append(names, p.Key)
			}
			if fault.Err != nil {
				names = append(names, fault.Err.Error())
			}
			got := strings.Join(names, "|")
			for _, want := range tc.fault {
				if !strings.Contains(got, want) {
					t.Errorf("fault names %q, want %q", got, want)
				}
			}
			for _, want := range append(tc.logs, "configuration problem", fault.Title()) {
				if !strings.Contains(logs.String(), want) {
					t.Errorf("the log does not say %q:\n%s", want, logs.String())
				}
			}
		})
	}
}

func TestWindowPlan(t *testing.T) {
	table := config.Display{Fullscreen: true, Width: 1024, Height: 600}
	windowed := config.Display{Width: 1024, Height: 600}
	for _, tc := range []struct {
		name string
		o    runOptions
		d    config.Display
		demo bool
		size fyne.Size
		full bool
	}{
		{"table", runOptions{}, table, false, fyne.NewSize(1024, 600), true},
		{"size flag opens a window", runOptions{size: "800x480"}, table, false, fyne.NewSize(800, 480), false},
		{"windowed config", runOptions{}, windowed, false, fyne.NewSize(1024, 600), false},
		{"demo", runOptions{}, table, true, fyne.NewSize(1280, 720), false},
		{"demo full screen", runOptions{fullscreen: true}, windowed, true, fyne.NewSize(1280, 720), true},
	} {
		size, full, err := windowPlan(tc.o, tc.d, tc.demo)
		if err != nil || size != tc.size || full != tc.full {
			t.Errorf("%s: %v, %v, %v; want %v, %v", tc.name, size, full, err, tc.size, tc.full)
		}
	}
	if _, _, err := windowPlan(runOptions{size: "1x1"}, table, false); err == nil || !strings.Contains(err.Error(), "--size") {
		t.Errorf("a bad --size: %v", err)
	}
}

// TestInstalledTableIsNoDemo: under the systemd unit (CONFIGURATION_DIRECTORY set) a missing
// kiosk.toml starts the table with the defaults, at the set-up screen, and warns; it used to fall
// into the demo game silently. Outside the unit a missing file still plays the demo.
func TestInstalledTableIsNoDemo(t *testing.T) {
	for _, installed := range []bool{true, false} {
		t.Run(fmt.Sprintf("installed=%v", installed), func(t *testing.T) {
			etc, state := t.TempDir(), t.TempDir()
			t.Setenv("TENGEN_CONFIG", "")
			if installed {
				t.Setenv("CONFIGURATION_DIRECTORY", etc)
				t.Setenv("STATE_DIRECTORY", state)
			} else {
				t.Setenv("TENGEN_CONFIG", filepath.Join(etc, "kiosk.toml"))
			}
			var logs bytes.Buffer
			k, fault, err := startKiosk(runOptions{}, slog.New(slog.NewTextHandler(&logs, nil)))
			if err != nil || fault != nil {
				t.Fatalf("startKiosk: %v, %v", err, fault)
			}
			defer k.cleanup()
			if k.demo == installed {
				t.Errorf("demo %v on an installed=%v table with no configuration file", k.demo, installed)
			}
			if warned := strings.Contains(logs.String(), "not the demo"); warned != installed {
				t.Errorf("warning in the log: %v, want %v:\n%s", warned, installed, logs.String())
			}
			if installed && k.cfg.Paths.JournalDir != filepath.Join(state, "journal") {
				t.Errorf("journal in %s, want the unit's state directory %s", k.cfg.Paths.JournalDir, state)
			}
		})
	}
}
