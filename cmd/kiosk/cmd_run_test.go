package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
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
		{[]string{"--config", filepath.Join(t.TempDir(), "missing.toml")}, "missing.toml"},
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

// freeDisplay returns an X display number with no server.
func freeDisplay() int {
	for n := 90; n < 140; n++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); errors.Is(err, os.ErrNotExist) {
			return n
		}
	}
	return 0
}

// TestKioskWindowUnderXvfb runs `kiosk run --demo` in a virtual X server for a few seconds and
// checks a screenshot: the wooden board with its stones, and both clocks with one of them lit.
func TestKioskWindowUnderXvfb(t *testing.T) {
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("Xvfb is not installed (apt-get install xvfb x11-apps; make test installs them): the window test cannot run")
	}
	xwd, err := exec.LookPath("xwd")
	if err != nil {
		t.Skip("xwd is not installed (apt-get install x11-apps): the window test cannot take screenshots")
	}
	n := freeDisplay()
	if n == 0 {
		t.Skip("no free X display number in :90..:139")
	}
	disp := fmt.Sprintf(":%d", n)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := exec.CommandContext(ctx, xvfb, disp, "-screen", "0", "1280x720x24", "-nolisten", "tcp")
	if err := srv.Start(); err != nil {
		t.Fatalf("starting Xvfb: %v", err)
	}
	defer func() {
		_ = srv.Process.Signal(syscall.SIGTERM)
		_ = srv.Wait()
	}()
	// Wait for the server to accept clients.
	for i := 0; ; i++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); err == nil {
			break
		}
		if i > 100 {
			t.Fatal("Xvfb did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	var logs bytes.Buffer
	kiosk := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	kiosk.Env = append(os.Environ(), "DISPLAY="+disp,
		runKioskEnv+"="+strings.Join([]string{"run", "--demo", "--size", "1280x720", "--quit-after", "90s"}, "\t"))
	kiosk.Stdout, kiosk.Stderr = &logs, &logs
	if err := kiosk.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- kiosk.Wait() }()
	defer func() {
		_ = kiosk.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = kiosk.Process.Kill()
		}
	}()

	// The demo's first move is about 6 s in; look until the board shows a stone and a clock is lit.
	var shot image.Image
	var problems []string
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			t.Fatalf("the kiosk exited early: %v\n%s", err, logs.String())
		case <-time.After(time.Second):
		}
		out, err := exec.CommandContext(ctx, xwd, "-root", "-silent", "-display", disp).Output()
		if err != nil {
			continue
		}
		img, err := decodeXWD(out)
		if err != nil {
			t.Fatalf("reading the screenshot: %v", err)
		}
		shot = img
		if problems = checkKioskShot(img); len(problems) == 0 {
			break
		}
	}
	if shot == nil {
		t.Fatalf("no screenshot\n%s", logs.String())
	}
	if dir := os.Getenv("TENGEN_UI_SHOTS"); dir != "" {
		if f, err := os.Create(filepath.Join(dir, "xvfb-kiosk-demo.png")); err == nil {
			_ = png.Encode(f, shot)
			_ = f.Close()
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
	if t.Failed() {
		t.Logf("kiosk output:\n%s", logs.String())
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
