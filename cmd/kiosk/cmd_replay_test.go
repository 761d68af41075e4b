package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tengen/calib"
	"tengen/engine"
	"tengen/engine/sgf"
	"tengen/internal/shareddata"
	"tengen/referee/replay"
	"tengen/vision"
	"tengen/vision/observe"
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

// visionSequence is a real photo sequence replayed through the whole pipeline.
type visionSequence struct {
	name   string
	dir    []string // under the shared data
	script string   // in referee/replay/testdata
}

var (
	// visionSequences are read correctly by vision: they must give the labels' moves.
	visionSequences = []visionSequence{
		{"t1", []string{"vision-eval", "imago-tests", "t1"}, "t1.presses"},
		{"gomrade", []string{"vision-eval", "gomrade-sample", "testing_sequence"}, "gomrade.presses"},
	}
	// handSequences have frames with a hand over the board edge at a press (imago t2:
	// skip/t2_008.jpg at A13; t3: t3_003.jpg at A12-A10 and t3_005.jpg at A19-A18). Vision rightly
	// reads those points as obscured, so the press waits and the next clear view shows that move
	// and the opponent's: the referee must catch both up.
	handSequences = []visionSequence{
		{"t2", []string{"vision-eval", "imago-tests", "t2"}, "t2.presses"},
		{"t3", []string{"vision-eval", "imago-tests", "t3"}, "t3.presses"},
	}
)

// TestReplayVision replays real photo sequences through the whole pipeline as `kiosk replay`
// does: the board found automatically in the first frame (and again whenever a photo was taken
// from elsewhere, as in t1), every frame read by vision, refereed and recorded. The recorded moves
// must be the labels' (one added stone per frame is a move). On a difference the test names every
// frame and point vision misread; it never falls back to the labels.
func TestReplayVision(t *testing.T) {
	for _, sq := range visionSequences {
		t.Run(sq.name, func(t *testing.T) { checkVisionReplay(t, sq) })
	}
}

// TestReplayVisionKnownMisreads replays the sequences with a hand over the board at a press
// (handSequences) through real vision: the recorded moves must be the labels', every move caught
// up after the hand.
func TestReplayVisionKnownMisreads(t *testing.T) {
	for _, sq := range handSequences {
		t.Run(sq.name, func(t *testing.T) { checkVisionReplay(t, sq) })
	}
}

func checkVisionReplay(t *testing.T, sq visionSequence) {
	dir := shareddata.Path(t, sq.dir...)
	scriptPath, _ := filepath.Abs(filepath.Join("..", "..", "referee", "replay", "testdata", sq.script))
	f, err := os.Open(scriptPath)
	if err != nil {
		t.Fatal(err)
	}
	script, err := replay.Parse(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	want, err := replay.LabelMoves(dir, script.Frames)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 9 {
		t.Fatalf("only %d moves derived from the labels", len(want))
	}
	sgfPath := filepath.Join(t.TempDir(), "game.sgf")
	var out, errb bytes.Buffer
	if err := runReplay(context.Background(), []string{dir, "--script", scriptPath, "--out", sgfPath, "--gtp", "none"}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	b, err := os.ReadFile(sgfPath)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := sgf.ReadRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range rec.Moves {
		if m.IsMove() {
			got = append(got, m.Engine().GTP(rec.Size))
		}
	}
	if strings.Join(got, " ") == strings.Join(want, " ") {
		return
	}
	t.Errorf("recorded %v\nlabels   %v\nvision misreads:\n%s\nverdicts:\n%s", got, want, misreads(t, dir, script), out.String())
}

// misreads reads the script's frames in order as the replay does and lists, per frame, every
// point where vision and the label differ.
func misreads(t *testing.T, dir string, s *replay.Script) string {
	eye, err := vision.NewEye(vision.EyeOptions{Size: s.Setup.Size, MovedAfter: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer eye.Close()
	sr := &stillReader{dir: dir, eye: eye}
	var b strings.Builder
	for i, f := range s.Frames {
		sg, err := sr.observe(context.Background(), f, time.Duration(i)*time.Minute, uint64(i))
		if err != nil || sg.View != observe.ViewBoard {
			fmt.Fprintf(&b, "  %s: %v %v %s\n", f, err, sg.View, sg.Why)
			continue
		}
		o := sg.Observation
		lab, err := replay.ReadLabel(filepath.Join(dir, strings.TrimSuffix(f, filepath.Ext(f))+".txt"))
		if err != nil {
			t.Fatal(err)
		}
		var pts []string
		for k := range o.Stones {
			if o.Stones[k] != lab.Stones[k] {
				pts = append(pts, fmt.Sprintf("%s %v (label %v)", engine.Point{X: k % o.Size, Y: k / o.Size}.GTP(o.Size), o.Stones[k], lab.Stones[k]))
			}
		}
		if len(pts) > 0 {
			fmt.Fprintf(&b, "  %s: %s\n", f, strings.Join(pts, ", "))
		}
	}
	return b.String()
}
