package main

import (
	"debug/elf"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"tengen/internal/testenv"
)

// TestBuildKeepsTheCameraStackOutOfTheKiosk builds both executables the way make build does
// (scripts/build) and checks which OpenCV libraries each one loads. The kiosk must not load
// videoio, imgcodecs, highgui or dnn: their dependencies (GStreamer, FFmpeg, GDAL, Poppler, Qt,
// protobuf) cost about 60 MB resident, most of the kiosk's memory budget, and the kiosk calls none
// of them (cameras are read by kiosk-camera, photos are decoded in Go). The camera helper must
// load videoio, or it could not open a camera.
func TestBuildKeepsTheCameraStackOutOfTheKiosk(t *testing.T) {
	if testing.Short() && !testenv.InCI() {
		t.Skip("links two executables (-short; under CI it always runs)")
	}
	testenv.Tool(t, "ld.lld")
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	out := t.TempDir()
	cmd := exec.Command("../../scripts/build", out)
	cmd.Env = append(cmd.Environ(), "GO="+goBin, "VERSION=test")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/build: %v\n%s", err, b)
	}
	libs := func(name string) []string {
		t.Helper()
		f, err := elf.Open(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		l, err := f.ImportedLibraries()
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	has := func(libs []string, module string) bool {
		for _, l := range libs {
			if strings.HasPrefix(l, "libopencv_"+module+".so") {
				return true
			}
		}
		return false
	}
	kiosk, camera := libs("kiosk"), libs("kiosk-camera")
	t.Logf("kiosk loads %v", kiosk)
	t.Logf("kiosk-camera loads %v", camera)
	for _, m := range []string{"videoio", "imgcodecs", "highgui", "dnn", "objdetect", "photo", "video"} {
		if has(kiosk, m) {
			t.Errorf("the kiosk links libopencv_%s", m)
		}
	}
	for _, m := range []string{"core", "imgproc"} {
		if !has(kiosk, m) {
			t.Errorf("the kiosk does not link libopencv_%s: is it still the kiosk?", m)
		}
	}
	if !has(camera, "videoio") {
		t.Errorf("kiosk-camera does not link libopencv_videoio")
	}
	for _, m := range []string{"highgui", "dnn"} {
		if has(camera, m) {
			t.Errorf("kiosk-camera links libopencv_%s", m)
		}
	}
}
