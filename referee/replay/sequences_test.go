package replay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tengen/engine"
	"tengen/engine/sgf"
	"tengen/internal/shareddata"
	"tengen/referee"
	"tengen/vision/observe"
)

// labelObserver reads the ground-truth grid beside each frame (X.jpg -> X.txt).
func labelObserver(dir string) ObserveFunc {
	return func(_ context.Context, frame string, _ time.Duration, _ uint64) (observe.Sight, error) {
		o, err := ReadLabel(filepath.Join(dir, strings.TrimSuffix(frame, filepath.Ext(frame))+".txt"))
		return observe.Reading(o), err
	}
}

func loadScript(t *testing.T, name string) *Script {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestRealSequences replays the real sequences from their labels (an ideal camera): the referee's
// part alone. The same sequences through real vision (photos read, board found automatically) are
// cmd/kiosk's TestReplayVision, since this package must not depend on GoCV.
func TestRealSequences(t *testing.T) {
	tests := []struct {
		script string
		dir    []string
		check  func(t *testing.T, s referee.State, verdicts string)
	}{
		{script: "t1.presses", dir: []string{"vision-eval", "imago-tests", "t1"}},
		{script: "t2.presses", dir: []string{"vision-eval", "imago-tests", "t2"}},
		{script: "t3.presses", dir: []string{"vision-eval", "imago-tests", "t3"}, check: func(t *testing.T, s referee.State, _ string) {
			n := 0
			for _, c := range s.Board {
				if c == engine.Black {
					n++
				}
			}
			if s.Setup.Handicap != 5 || n != 10 {
				t.Errorf("handicap %d, %d black stones", s.Setup.Handicap, n)
			}
		}},
		{script: "gomrade.presses", dir: []string{"vision-eval", "gomrade-sample", "testing_sequence"}, check: func(t *testing.T, s referee.State, verdicts string) {
			if s.MoveNumber != 9 {
				t.Errorf("%d moves recorded, want 9 (frames 1-9)", s.MoveNumber)
			}
			if !strings.Contains(verdicts, "board-differs   Board differs from the game at E15, E5, P5: 3 new stones at once") {
				t.Errorf("frame 10 not refused: %q\n%s", s.Banner.Message, verdicts)
			}
			if s.White.Prisoners != 1 {
				t.Errorf("white prisoners %d, want 1 (the capture in frame 8)", s.White.Prisoners)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.script, func(t *testing.T) {
			dir := shareddata.Path(t, tc.dir...)
			s := loadScript(t, tc.script)
			res, got, want, out := runAgainstLabels(t, dir, s, labelObserver(dir))
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("recorded %v\nwant     %v\nverdicts:\n%s", got, want, out)
			}
			if len(want) < 9 {
				t.Errorf("only %d moves derived from the labels", len(want))
			}
			if tc.check != nil {
				tc.check(t, res.State, out)
			}
		})
	}
}

// recordedMoves lists the moves of the state's game from the SGF the run wrote.
func recordedMoves(t *testing.T, res Result) []string {
	t.Helper()
	b, err := os.ReadFile(res.State.SGFPath)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := sgf.ReadRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range rec.Moves {
		if m.IsMove() {
			out = append(out, m.Engine().GTP(rec.Size))
		}
	}
	return out
}

// TestUnreadableFrame checks that a frame whose board cannot be read at all (calib finds no board
// in a motion-blurred photo) is skipped, said once, and the referee simply waits for the next
// readable frame; any other reading error still ends the run.
func TestUnreadableFrame(t *testing.T) {
	dir := shareddata.Path(t, "vision-eval", "imago-tests", "t1")
	s, err := Parse(strings.NewReader("rules aga\nt1_001.jpg white\nblur.jpg\nt1_002.jpg black\nt1_003.jpg white\n"))
	if err != nil {
		t.Fatal(err)
	}
	labels := labelObserver(dir)
	for _, tc := range []struct {
		name string
		err  error
	}{{"unreadable", fmt.Errorf("%w: vision: no board found", ErrUnreadable)}, {"broken", errors.New("disk on fire")}} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			obs := func(ctx context.Context, frame string, at time.Duration, seq uint64) (observe.Sight, error) {
				if frame == "blur.jpg" {
					return observe.Sight{}, tc.err
				}
				return labels(ctx, frame, at, seq)
			}
			res, err := Run(context.Background(), Config{Script: s, Observe: obs, Cache: true, JournalDir: t.TempDir(),
				Stdout: &out, NoSync: true, Out: filepath.Join(t.TempDir(), "game.sgf")})
			if !errors.Is(tc.err, ErrUnreadable) {
				if err == nil || !strings.Contains(err.Error(), "disk on fire") {
					t.Fatalf("a reading error did not end the run: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(recordedMoves(t, res), " "); got != "B R16 W D17" {
				t.Errorf("recorded %q, want B R16 W D17\n%s", got, out.String())
			}
			if n := strings.Count(out.String(), "unreadable      blur.jpg"); n != 1 {
				t.Errorf("the unreadable frame is said %d times, want once:\n%s", n, out.String())
			}
		})
	}
}

// runAgainstLabels replays script s (frames of the photo sequence in dir) with obs reading the
// frames, and returns the result, the moves recorded, the moves the labels show, and the verdicts.
func runAgainstLabels(t *testing.T, dir string, s *Script, obs ObserveFunc) (res Result, got, want []string, verdicts string) {
	t.Helper()
	var out strings.Builder
	res, err := Run(context.Background(), Config{Script: s, Observe: obs, Cache: true,
		JournalDir: t.TempDir(), Stdout: &out, NoSync: true, Out: filepath.Join(t.TempDir(), "game.sgf")})
	if err != nil {
		t.Fatal(err)
	}
	if want, err = LabelMoves(dir, s.Frames); err != nil {
		t.Fatal(err)
	}
	return res, recordedMoves(t, res), want, out.String()
}
