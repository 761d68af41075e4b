// Package testenv decides what a test does when something it needs from the machine (a tool, root,
// a package that make test installs) is missing: on a developer's machine it skips with the reason;
// under CI (CI=true), where scripts/install-deps has installed everything, it fails, so a missing
// install step can never pass silently as a skip.
package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// InCI reports whether the tests run under CI (CI=true), where every requirement must be met.
func InCI() bool { return os.Getenv("CI") == "true" }

// Missing skips tb with the reason, or fails it under CI.
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	why := fmt.Sprintf(format, args...)
	if InCI() {
		tb.Fatalf("required under CI: %s", why)
	}
	tb.Skipf("%s (make test installs what is missing)", why)
}

// Tool returns the path of the named program, or calls Missing when it is not on PATH.
func Tool(tb testing.TB, name string) string {
	tb.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(tb, "%s is not installed", name)
	}
	return p
}

// SelfExec calls Missing unless this test binary can start itself as a child process. It cannot
// when it is a foreign-architecture binary run by qemu-user without binfmt_misc (scripts/ci-arm64).
// The child runs no test, in an empty environment: a variable a test has set to make the binary act
// as a fake helper must not change what the probe does.
func SelfExec(tb testing.TB) {
	tb.Helper()
	exe, err := os.Executable()
	if err == nil {
		probe := exec.Command(exe, "-test.run=^$")
		probe.Env = []string{}
		err = probe.Run()
	}
	if err != nil {
		Missing(tb, "the test binary cannot start itself as a child process (%v): is it a foreign-architecture binary under qemu-user?", err)
	}
}

// RunAlone runs the test named name again in a child process of this test binary, with env as its
// whole environment, and returns its output: for a test of something set once per process
// (Fyne's fonts, its cache lifetime), which the other tests of the binary may already have set.
// It calls SelfExec first, so it skips where the binary cannot start itself.
func RunAlone(tb testing.TB, name string, env []string) ([]byte, error) {
	tb.Helper()
	SelfExec(tb)
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("testenv: %w", err)
	}
	cmd := exec.Command(exe, "-test.run=^"+name+"$", "-test.v")
	cmd.Env = env
	return cmd.CombinedOutput()
}
