package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
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

// The doctor prints its checklist and nothing else: the camera helper's OpenCV and GStreamer
// warnings (here from a stand-in helper that fails) reach neither its output nor the log, and the
// camera's check says the camera failed.
func TestDoctorKeepsTheLibrariesQuiet(t *testing.T) {
	dir := t.TempDir()
	noise := []string{
		"[ WARN:0@0.011] global cap_gstreamer.cpp:2401 handleMessage OpenCV | GStreamer warning: Embedded video playback halted",
		"(kiosk-camera:4242): GStreamer-CRITICAL **: gst_element_get_state: assertion 'GST_IS_ELEMENT (element)' failed",
	}
	helper := "#!/bin/sh\n"
	for _, n := range noise {
		helper += fmt.Sprintf("echo %q >&2\n", n)
	}
	helper += "exit 1\n"
	if err := os.WriteFile(filepath.Join(dir, "kiosk-camera"), []byte(helper), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	cfg := filepath.Join(dir, "kiosk.toml")
	if err := os.WriteFile(cfg, []byte("[camera]\nsource = \"/dev/video9\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logged, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	var out, errOut bytes.Buffer
	err := runDoctor(context.Background(), []string{"-config", cfg, "-camera-time", "100ms"}, &out, &errOut)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("runDoctor = %v, want exit status 1", err)
	}
	if !strings.Contains(out.String(), `[FAIL] camera       camera "/dev/video9" gives no frames: /dev/video9: `) {
		t.Errorf("the camera's check does not fail in words:\n%s", out.String())
	}
	for _, w := range []string{"GStreamer", "WARN:0", "cap_gstreamer"} {
		for name, s := range map[string]string{"output": out.String(), "stderr": errOut.String(), "log": logged.String()} {
			if strings.Contains(s, w) {
				t.Errorf("the doctor's %s carries the libraries' %q:\n%s", name, w, s)
			}
		}
	}
}
