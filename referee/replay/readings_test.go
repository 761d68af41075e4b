package replay

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tengen/internal/shareddata"
	"tengen/vision/observe"
)

// recordedReading is one frame as the vision package read it (testdata/vision/*.json, see the
// README there): best guesses, confidences, and probabilities when the reader gives them.
type recordedReading struct {
	Frame      string          `json:"frame"`
	Size       int             `json:"size"`
	Board      string          `json:"board"`
	Confidence []float32       `json:"confidence"`
	Probs      []observe.Probs `json:"probs"`
	Error      string          `json:"error"`
}

// loadReadings reads a sequence's recorded readings, by frame name.
func loadReadings(t *testing.T, name string) ([]string, map[string]observe.Observation) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "vision", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var rs []recordedReading
	if err := json.Unmarshal(b, &rs); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var frames []string
	out := map[string]observe.Observation{}
	for _, r := range rs {
		frames = append(frames, r.Frame)
		if r.Error != "" {
			continue
		}
		o := observe.New(r.Size)
		for i, ch := range r.Board {
			s, err := observe.StoneFromRune(ch)
			if err != nil {
				t.Fatalf("%s %s: %v", name, r.Frame, err)
			}
			o.Stones[i] = s
		}
		if r.Confidence != nil {
			o.Confidence = r.Confidence
		}
		o.Probs = r.Probs
		if err := o.Valid(); err != nil {
			t.Fatalf("%s %s: %v", name, r.Frame, err)
		}
		out[r.Frame] = o
	}
	return frames, out
}

// readingObserver serves the recorded readings (an unreadable frame as ErrUnreadable).
func readingObserver(obs map[string]observe.Observation) ObserveFunc {
	return func(_ context.Context, frame string, _ time.Duration, seq uint64) (observe.Sight, error) {
		o, ok := obs[frame]
		if !ok {
			return observe.Sight{}, fmt.Errorf("%w: %s", ErrUnreadable, frame)
		}
		o = o.Clone()
		o.Seq = seq
		return observe.Reading(o), nil
	}
}

// tally counts moves recorded right, wrong and refused (not recorded).
type tally struct{ right, wrong, refused int }

func (a tally) String() string {
	return fmt.Sprintf("%d right, %d wrong, %d refused", a.right, a.wrong, a.refused)
}

// compareMoves tallies the recorded moves against the labels' moves, move by move.
func compareMoves(got, want []string) tally {
	var n tally
	for i, w := range want {
		switch {
		case i >= len(got):
			n.refused++
		case got[i] == w:
			n.right++
		default:
			n.wrong++
		}
	}
	if len(got) > len(want) {
		n.wrong += len(got) - len(want)
	}
	return n
}

// TestVisionReadingsReplay replays the real photo sequences (imago-tests t1, t2, t3 and the
// gomrade-sample testing sequence) through the referee with the readings the vision package made
// of every photo (recorded in testdata/vision, so that the referee's part is measured on real
// readings without GoCV), and counts the moves recorded right, wrong and refused against the
// labels. No move may be recorded wrong; every move of the labels must be recorded.
func TestVisionReadingsReplay(t *testing.T) {
	var total tally
	for _, tc := range []struct {
		script, readings string
		dir              []string
	}{
		{"t1.presses", "t1", []string{"vision-eval", "imago-tests", "t1"}},
		{"t2.presses", "t2", []string{"vision-eval", "imago-tests", "t2"}},
		{"t3.presses", "t3", []string{"vision-eval", "imago-tests", "t3"}},
		{"gomrade.presses", "gomrade", []string{"vision-eval", "gomrade-sample", "testing_sequence"}},
	} {
		t.Run(tc.readings, func(t *testing.T) {
			dir := shareddata.Path(t, tc.dir...)
			s := loadScript(t, tc.script)
			_, obs := loadReadings(t, tc.readings)
			_, got, want, out := runAgainstLabels(t, dir, s, readingObserver(obs))
			n := compareMoves(got, want)
			total.right, total.wrong, total.refused = total.right+n.right, total.wrong+n.wrong, total.refused+n.refused
			t.Logf("%s: %v", tc.readings, n)
			if n.wrong > 0 || n.refused > 0 {
				t.Errorf("recorded %v\nlabels   %v\nverdicts:\n%s", got, want, out)
			}
		})
	}
	t.Logf("all sequences: %v", total)
}
