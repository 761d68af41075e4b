package main

import (
	"bytes"
	"strings"
	"testing"
)

// Usage errors exit with status 2 and are said once; --version and `help run` work; --lang names
// the five languages.
func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		code       int
		out, err   string // wanted in stdout, stderr
		errOnceOut string // said exactly once in stderr
	}{
		{args: []string{"--version"}, code: 0, out: "kiosk dev"},
		{args: []string{"version"}, code: 0, out: "kiosk dev"},
		{args: []string{"help", "run"}, code: 0, err: "Usage: kiosk run", errOnceOut: "Usage: kiosk run"},
		{args: []string{"run", "--lang", "xx"}, code: 2, err: "en, pl, bg, ru, cs", errOnceOut: `--lang "xx"`},
		{args: []string{"run", "--bogus"}, code: 2, errOnceOut: "flag provided but not defined: -bogus"},
		{args: []string{"frobnicate"}, code: 2, errOnceOut: `unknown command "frobnicate"`},
		{args: []string{"detect", "--size", "7", "board.jpg"}, code: 2, errOnceOut: "--size 7: the kiosk plays on 9, 13 or 19 lines"},
		{args: []string{"calibrate", "--size", "21", "--out", "c.json", "board.jpg"}, code: 2, errOnceOut: "--size 21: the kiosk plays on 9, 13 or 19 lines"},
	} {
		var out, errb bytes.Buffer
		code := dispatch(tc.args, &out, &errb)
		name := strings.Join(tc.args, " ")
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s", name, code, tc.code, errb.String())
		}
		if !strings.Contains(out.String(), tc.out) || !strings.Contains(errb.String(), tc.err) {
			t.Errorf("%s: stdout %q stderr %q", name, out.String(), errb.String())
		}
		if tc.errOnceOut != "" && strings.Count(errb.String(), tc.errOnceOut) != 1 {
			t.Errorf("%s: %q said %d times in %q", name, tc.errOnceOut, strings.Count(errb.String(), tc.errOnceOut), errb.String())
		}
	}
}

// TestRunWithoutADisplay: `kiosk run --demo` with no display says so in one line and exits 1,
// where Fyne's GLFW driver panicked with a stack trace.
func TestRunWithoutADisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	var out, errb bytes.Buffer
	code := dispatch([]string{"run", "--demo", "--quit-after", "2s"}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "no display to draw on") || strings.Contains(errb.String(), "goroutine") {
		t.Errorf("exit %d, stderr:\n%s", code, errb.String())
	}
}
