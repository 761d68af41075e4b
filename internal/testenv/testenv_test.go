package testenv

import (
	"os/exec"
	"testing"
)

// TestToolFindsSh: a program every machine has is found and returned.
func TestToolFindsSh(t *testing.T) {
	want, err := exec.LookPath("sh")
	if err != nil {
		t.Fatalf("no sh on PATH: %v", err)
	}
	if got := Tool(t, "sh"); got != want {
		t.Fatalf("Tool(sh) = %q, want %q", got, want)
	}
}

// TestMissingFailsUnderCI: under CI a missing requirement fails the test instead of skipping it.
func TestMissingFailsUnderCI(t *testing.T) {
	t.Setenv("CI", "true")
	var rec recorder
	func() {
		defer func() { _ = recover() }() // Fatalf ends the recorder's goroutine-less test with a panic
		Missing(&rec, "frobnicator is not installed")
	}()
	if !rec.failed || rec.skipped {
		t.Fatalf("under CI: failed=%v skipped=%v, want failed and not skipped", rec.failed, rec.skipped)
	}
}

// TestMissingSkipsLocally: off CI a missing requirement skips.
func TestMissingSkipsLocally(t *testing.T) {
	t.Setenv("CI", "")
	var rec recorder
	func() {
		defer func() { _ = recover() }()
		Missing(&rec, "frobnicator is not installed")
	}()
	if rec.failed || !rec.skipped {
		t.Fatalf("off CI: failed=%v skipped=%v, want skipped and not failed", rec.failed, rec.skipped)
	}
}

// recorder is a testing.TB that records Fatalf and Skipf instead of ending a real test.
type recorder struct {
	testing.TB
	failed, skipped bool
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(string, ...any) {
	r.failed = true
	panic("fatal")
}
func (r *recorder) Skipf(string, ...any) {
	r.skipped = true
	panic("skip")
}
