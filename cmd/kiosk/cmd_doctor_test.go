package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tengen/config"
)

func TestPrintPINHash(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := printPINHash(strings.NewReader("2468\n"), &out, &errOut); err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSpace(out.String())
	c, err := config.Parse([]byte("[director]\n"+line+"\n"), "t")
	if err != nil {
		t.Fatalf("the printed line %q is not a valid config line: %v", line, err)
	}
	if !config.CheckPIN(c.Director.PINHash, "2468") || config.CheckPIN(c.Director.PINHash, "2469") {
		t.Error("the printed hash does not check the PIN")
	}
	if err := printPINHash(strings.NewReader("12\n"), &out, &errOut); !errors.Is(err, config.ErrBadPIN) {
		t.Errorf("short PIN: %v", err)
	}
}

// A configuration with an unknown key fails the doctor (exit status 1) and names the key and line.
func TestDoctorBadConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kiosk.toml")
	if err := os.WriteFile(path, []byte("[camera]\nsource = \"demo\"\nsorce = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	err := runDoctor(context.Background(), []string{"-config", path, "-camera-time", "100ms"}, &out, &errOut)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("runDoctor = %v, want exit status 1", err)
	}
	if !strings.Contains(out.String(), "line 3: camera.sorce: unknown key (did you mean camera.source?)") {
		t.Errorf("the checklist does not name the bad key:\n%s", out.String())
	}
}
