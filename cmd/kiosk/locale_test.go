package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestQuietUnderPOSIXLocales runs commands that draw nothing under the locales Debian and systemd
// give a process by default. Fyne's lang package reads the locale while it initializes, before
// main, and used to log "Fyne error: Error parsing user locale C" on every command
// (internal/localeenv replaces the module it asks).
func TestQuietUnderPOSIXLocales(t *testing.T) {
	for _, env := range [][]string{{"LANG=C.UTF-8"}, {"LANG=C"}, {"LC_ALL=POSIX"}, {"LANG="}, {"LANG=pl_PL.UTF-8"}} {
		t.Run(strings.Join(env, " "), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			var base []string
			for _, e := range os.Environ() {
				if !strings.HasPrefix(e, "LANG=") && !strings.HasPrefix(e, "LC_") && !strings.HasPrefix(e, "LANGUAGE=") {
					base = append(base, e)
				}
			}
			cmd.Env = append(append(base, runKioskEnv+"=version"), env...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("kiosk version: %v (stderr %q)", err, stderr.String())
			}
			if !strings.HasPrefix(string(out), "kiosk ") {
				t.Errorf("stdout = %q, want the version", out)
			}
			if stderr.Len() != 0 {
				t.Errorf("stderr = %q, want nothing", stderr.String())
			}
		})
	}
}
