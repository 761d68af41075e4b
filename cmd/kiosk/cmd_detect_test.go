package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tengen/internal/shareddata"
	"tengen/vision"
)

// writeImage writes a 640x480 PNG test image whose pixel (x, y) is px(x, y).
func writeImage(t *testing.T, path string, px func(x, y int) color.RGBA) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 640, 480))
	for y := range 480 {
		for x := range 640 {
			img.SetRGBA(x, y, px(x, y))
		}
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatalf("cannot write %s: %v", path, err)
	}
}

func TestDetectBadInputs(t *testing.T) {
	dir := t.TempDir()
	notImage := filepath.Join(dir, "notes.jpg")
	os.WriteFile(notImage, []byte("this is not a JPEG"), 0o644)
	black := filepath.Join(dir, "black.png")
	writeImage(t, black, func(x, y int) color.RGBA { return color.RGBA{0, 0, 0, 255} })
	noise := filepath.Join(dir, "noise.png")
	rng := rand.New(rand.NewPCG(1, 2))
	writeImage(t, noise, func(x, y int) color.RGBA {
		return color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
	})
	table := filepath.Join(dir, "table.png")
	writeImage(t, table, func(x, y int) color.RGBA {
		// An empty wooden table: brown with smooth, large-scale grain, no grid.
		v := 0.5 + 0.3*math.Sin(float64(x)/37+float64(y)/91) + 0.2*math.Sin(float64(y)/53-float64(x)/141)
		return color.RGBA{uint8(140 + 40*v), uint8(90 + 30*v), uint8(40 + 30*v), 255}
	})
	corrupt := filepath.Join(dir, "calib.json")
	os.WriteFile(corrupt, []byte(`{"version":1,"size":19,"corners":[`), 0o644)

	tests := []struct {
		name    string
		args    []string
		code    int
		stdout  []string
		stderrs []string
	}{
		{"not an image", []string{notImage}, 1, nil, []string{"notes.jpg: not a readable image"}},
		{"black frame", []string{black}, 1, nil, []string{"black.png:"}},
		{"pure noise", []string{noise}, 1, nil, []string{"noise.png:"}},
		{"empty table", []string{table}, 1, nil, []string{"table.png:"}},
		{"missing file", []string{filepath.Join(dir, "gone.jpg")}, 1, nil, []string{"gone.jpg:"}},
		{"others still run", []string{notImage, black}, 1, []string{"== " + notImage, "== " + black, "error: "}, nil},
		{"corrupt calibration", []string{"--calib", corrupt, black}, 0, nil, []string{"corrupt"}},
		{"no images", nil, 2, nil, []string{"Usage: kiosk detect"}},
		{"bad size", []string{"--size", "1", black}, 2, nil, []string{"--size 1: the kiosk plays on 9, 13 or 19 lines"}},
		{"a size the kiosk does not play", []string{"--size", "7", black}, 2, nil, []string{"--size 7"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := runDetect(context.Background(), tc.args, &out, &errb)
			var ee exitError
			switch {
			case tc.code == 0:
				if err == nil || errors.As(err, &ee) {
					t.Fatalf("want a plain error, got %v", err)
				}
				errb.WriteString(err.Error())
			case !errors.As(err, &ee) || ee.code != tc.code:
				t.Fatalf("err = %v, want exit status %d", err, tc.code)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, out.String())
				}
			}
			for _, s := range tc.stderrs {
				if !strings.Contains(errb.String(), s) {
					t.Errorf("stderr lacks %q:\n%s", s, errb.String())
				}
			}
			for _, line := range strings.Split(strings.TrimSpace(errb.String()), "\n") {
				if strings.Contains(line, "panic") {
					t.Errorf("panic: %s", line)
				}
			}
		})
	}
}

func TestDetectJSONError(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.png")
	os.WriteFile(p, []byte{0x89, 'P', 'N', 'G'}, 0o644)
	var out, errb bytes.Buffer
	err := runDetect(context.Background(), []string{"--json", p}, &out, &errb)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("err = %v", err)
	}
	if !strings.HasPrefix(out.String(), `{"path":"`+p+`","error":"not a readable image"}`) {
		t.Fatalf("json = %s", out.String())
	}
}

func TestCalibrateBadInputs(t *testing.T) {
	dir := t.TempDir()
	notImage := filepath.Join(dir, "a.jpg")
	os.WriteFile(notImage, []byte("nope"), 0o644)
	out := filepath.Join(dir, "cal.json")
	var o, e bytes.Buffer
	if err := runCalibrate(context.Background(), []string{"--out", out, notImage}, &o, &e); err == nil || !strings.Contains(err.Error(), "not a readable image") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("calibration written for a bad image")
	}
	err := runCalibrate(context.Background(), []string{notImage}, &o, &e)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 2 {
		t.Fatalf("missing --out: %v", err)
	}
}

func TestCalibrateFromCameraThenDetect(t *testing.T) {
	src := shareddata.Path(t, "vision-eval", "gomrade-sample", "testing_sequence", "10.jpg")
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	cam := t.TempDir() // a directory of stills is a camera too
	if err := os.WriteFile(filepath.Join(cam, "frame.jpg"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	cal := filepath.Join(t.TempDir(), "cal.json")
	var out, errb bytes.Buffer
	if err := runCalibrate(context.Background(), []string{"--camera", cam, "--out", cal, "--size", "19"}, &out, &errb); err != nil {
		t.Fatalf("calibrate: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "19x19 board in a 1280x720 image") {
		t.Fatalf("calibrate said:\n%s", out.String())
	}
	out.Reset()
	if err := runDetect(context.Background(), []string{"--calib", cal, src}, &out, &errb); err != nil {
		t.Fatalf("detect: %v\n%s", err, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 20 || !strings.HasPrefix(lines[19], "confidence: ") {
		t.Fatalf("detect printed:\n%s", out.String())
	}
	label, err := os.ReadFile(strings.TrimSuffix(src, ".jpg") + ".txt")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(" ", "", "B", "X", "W", "O").Replace(strings.TrimSpace(string(label)))
	if got := strings.Join(lines[:19], "\n"); got != want {
		t.Fatalf("read\n%s\nwant\n%s", got, want)
	}
}

// TestDetectJSONProbabilitiesAndDebug reads a labelled photo with --json and --debug: every
// point has a probability row that sums to one and whose likeliest reading is the printed one,
// the debug picture is the photo's size, and a photo without a board says why in "reason".
func TestDetectJSONProbabilitiesAndDebug(t *testing.T) {
	src := shareddata.Path(t, "vision-eval", "gomrade-sample", "testing_sequence", "10.jpg")
	dir := t.TempDir()
	blank := filepath.Join(dir, "blank.png")
	writeImage(t, blank, func(x, y int) color.RGBA { return color.RGBA{200, 140, 90, 255} })
	dbg := filepath.Join(dir, "dbg.png")
	var out, errb bytes.Buffer
	err := runDetect(context.Background(), []string{"--json", "--size", "19", "--debug", dbg, src, blank}, &out, &errb)
	var ee exitError
	if !errors.As(err, &ee) || ee.code != 1 {
		t.Fatalf("err = %v (the blank image must fail)\n%s", err, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want two JSON lines, got:\n%s", out.String())
	}
	var res, bad detectResult
	if err := json.Unmarshal([]byte(lines[0]), &res); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &bad); err != nil {
		t.Fatal(err)
	}
	if len(res.Probabilities) != 361 || len(res.Rows) != 19 {
		t.Fatalf("%d probability rows and %d text rows", len(res.Probabilities), len(res.Rows))
	}
	for i, p := range res.Probabilities {
		sum, best := 0.0, 0
		for k, v := range p {
			sum += v
			if v > p[best] {
				best = k
			}
		}
		if sum < 0.99 || sum > 1.01 {
			t.Fatalf("point %d: probabilities %v sum to %.3f", i, p, sum)
		}
		if got := rune(res.Rows[i/19][i%19]); got != rune(".XO?"[best]) {
			t.Fatalf("point %d: printed %c but the likeliest reading is %c (%v)", i, got, ".XO?"[best], p)
		}
	}
	if !bad.NoBoard || bad.Reason == "" || strings.Contains(bad.Reason, "calib:") {
		t.Errorf("the blank image: no_board %v, reason %q (want a reason in words)", bad.NoBoard, bad.Reason)
	}
	img, err := vision.LoadImage(debugPath(dbg, 0, 2))
	if err != nil {
		t.Fatalf("--debug picture: %v", err)
	}
	defer img.Close()
	if img.Cols() != 1280 || img.Rows() != 720 {
		t.Errorf("debug picture %dx%d, want the photo's 1280x720", img.Cols(), img.Rows())
	}
	if _, err := os.Stat(debugPath(dbg, 1, 2)); err == nil {
		t.Errorf("a debug picture was written for the image without a board")
	}
}
