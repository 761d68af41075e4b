package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"tengen/internal/testenv"
)

// kiosk run and kiosk doctor say the same about a missing kiosk.toml: on a development machine
// (run plays the demo), on an installed table (run starts at the set-up with the defaults; doctor
// knows the table is installed from its kiosk unit even outside systemd) and when the file the
// command line names is missing (both fail on it).
func TestRunAndDoctorAgreeOnAMissingConfig(t *testing.T) {
	for _, tc := range []struct {
		name      string
		explicit  bool
		installed bool
		want      string // in run's log and doctor's checklist
		status    string // the doctor's config line
	}{
		{name: "development machine", want: "kiosk run plays the built-in demo game", status: "[warn] config"},
		{name: "installed table", installed: true, want: "this installed table starts with the default settings at the set-up screen, not the demo", status: "[warn] config"},
		{name: "named on the command line", explicit: true, want: "no such file or directory", status: "[FAIL] config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.installed && fileExists(kioskUnit) {
				// A table cannot play a development machine. CI runs on a fresh machine, where
				// the unit is never there: finding it there fails the test rather than skip it.
				if testenv.InCI() {
					t.Fatalf("CI runs on an installed table (%s): these cases cannot run", kioskUnit)
				}
				t.Skip("this machine is an installed table (" + kioskUnit + ")")
			}
			dir := t.TempDir()
			path := filepath.Join(dir, "kiosk.toml")
			t.Setenv("TENGEN_CONFIG", "")
			t.Setenv("CONFIGURATION_DIRECTORY", "")
			if tc.installed {
				t.Setenv("CONFIGURATION_DIRECTORY", dir)
				t.Setenv("STATE_DIRECTORY", filepath.Join(dir, "state"))
			} else if !tc.explicit {
				t.Setenv("TENGEN_CONFIG", path)
			}
			var args []string
			var o runOptions
			if tc.explicit {
				args, o.configPath = []string{"-config", path}, path
			}
			// kiosk run.
			var logged bytes.Buffer
			k, err := newKiosk(o, slog.New(slog.NewTextHandler(&logged, nil)))
			if k != nil {
				defer k.cleanup()
			}
			runSaid := logged.String()
			if err != nil {
				runSaid = errorWords(err)
			}
			if tc.explicit != (err != nil) || (err != nil && !errors.Is(err, fs.ErrNotExist)) {
				t.Fatalf("run: %v", err)
			}
			if !strings.Contains(runSaid, tc.want) {
				t.Errorf("run says %q, not %q", runSaid, tc.want)
			}
			if k != nil && k.demo == tc.installed {
				t.Errorf("run plays the demo: %v", k.demo)
			}
			// kiosk doctor.
			var out, errOut bytes.Buffer
			_ = runDoctor(context.Background(), append(args, "-camera-time", "10ms"), &out, &errOut)
			line := ""
			for _, l := range strings.Split(out.String(), "\n") {
				if strings.Contains(l, "] config ") {
					line = l
				}
			}
			if !strings.Contains(line, tc.status) || !strings.Contains(line, tc.want) {
				t.Errorf("doctor's config line %q, want %s and %q", line, tc.status, tc.want)
			}
			if !tc.explicit {
				want := configFile{path: path, installed: tc.installed}.missing()
				if !strings.Contains(runSaid, want) || !strings.Contains(line, want) {
					t.Errorf("run and doctor do not both say %q:\nrun: %s\ndoctor: %s", want, runSaid, line)
				}
			}
		})
	}
}

// An installed table is known by its kiosk unit too, when systemd's variables are not set (kiosk
// doctor run by hand).
func TestLocateConfigKnowsAnInstalledTable(t *testing.T) {
	none := func(string) string { return "" }
	if f := locateConfig("", none, func(p string) bool { return p == kioskUnit }); !f.installed || f.explicit {
		t.Errorf("with the unit: %+v", f)
	}
	if f := locateConfig("", none, func(string) bool { return false }); f.installed {
		t.Errorf("without the unit: %+v", f)
	}
	if f := locateConfig("/tmp/k.toml", none, func(string) bool { return false }); !f.explicit || f.path != "/tmp/k.toml" {
		t.Errorf("named: %+v", f)
	}
}
