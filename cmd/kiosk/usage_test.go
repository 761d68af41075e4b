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
