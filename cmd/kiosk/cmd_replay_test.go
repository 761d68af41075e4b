package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tengen/calib"
	"tengen/internal/shareddata"
	"tengen/vision"
)

func TestReplayUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"a", "b"}, {"--speed", "-1", "x"}} {
		var out, errb bytes.Buffer
		err := runReplay(context.Background(), args, &out, &errb)
		var ee exitError
		if !errors.As(err, &ee) || ee.code != 2 {
			t.Errorf("%q: %v, want exit status 2", args, err)
		}
	}
	var out, errb bytes.Buffer
	if err := runReplay(context.Background(), []string{"--help"}, &out, &errb); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("--help: %v", err)
	}
	if !strings.Contains(errb.String(), "presses.txt") {
		t.Errorf("help does not describe the press script:\n%s", errb.String())
	}
	if err := runReplay(context.Background(), []string{t.TempDir()}, &out, &errb); err == nil || !strings.Contains(err.Error(), "press script") {
		t.Errorf("directory without a script: %v", err)
	}
}

// TestReplayLabels replays imago-tests t1 from its labels (flags after SOURCE), then resumes on
// the same journal, which must change nothing.
func TestReplayLabels(t *testing.T) {
	dir := shareddata.Path(t, "vision-eval", "imago-tests", "t1")
	script, _ := filepath.Abs(filepath.Join("..", "..", "referee", "replay", "testdata", "t1.presses"))
	sgfPath := filepath.Join(t.TempDir(), "t1.sgf")
	journalDir := t.TempDir()
	args := []string{dir, "--script", script, "--labels", "--journal", journalDir, "--out", sgfPath, "--rules", "chinese", "--time", "10m"}
	var out, errb bytes.Buffer
	if err := runReplay(context.Background(), args, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "10: White") || !strings.Contains(out.String(), "phase playing, 10 moves") {
		t.Errorf("output:\n%s", out.String())
	}
	first, err := os.ReadFile(sgfPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(first), "RU[Chinese]") || !strings.Contains(string(first), "TM[600]") {
		t.Errorf("flags not applied:\n%s", first)
	}
	out.Reset()
	if err := runReplay(context.Background(), args, &out, &errb); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(sgfPath)
	if !bytes.Equal(first, again) || !strings.Contains(out.String(), "resumed") {
		t.Errorf("resuming a finished session changed the record or did not say so:\n%s", out.String())
	}
}

// TestReplayVisionGomrade runs the whole pipeline on real webcam photos: the gomrade-sample
// sequence read by the vision package (calibrated from the set's verified corners), refereed and
// recorded. The moves must be those of the labels: nine moves with White's capture on Q16, then
// frame 10's three stones at once refused as "board differs".
func TestReplayVisionGomrade(t *testing.T) {
	dir := shareddata.Path(t, "vision-eval", "gomrade-sample", "testing_sequence")
	raw, err := os.ReadFile(filepath.Join(dir, "..", "corners_verified.json"))
	if err != nil {
		t.Fatal(err)
	}
	var corners map[string][4][2]float64
	if err := json.Unmarshal(raw, &corners); err != nil {
		t.Fatal(err)
	}
	c, ok := corners["testing_sequence/0.jpg"]
	if !ok {
		t.Fatal("no corners for testing_sequence/0.jpg")
	}
	var q [4]calib.Point2
	for i := range c {
		q[i] = calib.Point2{X: c[i][0], Y: c[i][1]}
	}
	cal, err := calib.FromCorners(1280, 720, 19, q)
	if err != nil {
		t.Fatal(err)
	}
	// First the vision alone: the empty board of frame 0 must read empty (if not, the failure
	// below is the vision package's, not the referee's).
	d, err := vision.DetectFile(filepath.Join(dir, "0.jpg"), vision.DetectOptions{Calibration: &cal})
	if err != nil {
		t.Fatal(err)
	}
	if n := 361 - strings.Count(d.Reading.Text(), "."); n != 0 {
		t.Errorf("vision reads %d stones on the empty board of 0.jpg (a vision regression):\n%s", n, d.Reading.Text())
	}
	calPath := filepath.Join(t.TempDir(), "cal.json")
	if err := calib.Save(calPath, cal); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "referee", "replay", "testdata", "gomrade.presses"))
	runWith := func(extra ...string) (string, []byte) {
		sgfPath := filepath.Join(t.TempDir(), "g.sgf")
		var out, errb bytes.Buffer
		args := append([]string{dir, "--script", script, "--out", sgfPath}, extra...)
		if err := runReplay(context.Background(), args, &out, &errb); err != nil {
			t.Fatalf("%v: %v\n%s", extra, err, errb.String())
		}
		b, err := os.ReadFile(sgfPath)
		if err != nil {
			t.Fatal(err)
		}
		return out.String(), b
	}
	visionOut, visionSGF := runWith("--calibration", calPath)
	_, labelSGF := runWith("--labels")
	for _, want := range []string{"8: White Q17, capturing 1 (Q16).", "9: Black F17.",
		"Board differs from the game at E15, E5, P5: 3 new stones at once", "phase playing, 9 moves"} {
		if !strings.Contains(visionOut, want) {
			t.Errorf("vision replay output lacks %q:\n%s", want, visionOut)
		}
	}
	if !bytes.Equal(visionSGF, labelSGF) {
		t.Errorf("vision and ground truth give different records:\n%s\n%s", visionSGF, labelSGF)
	}
}
