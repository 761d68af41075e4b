package demo_test

import (
	"bytes"
	"log/slog"
	"os"
	"testing"
	"time"

	"tengen/calib"
	"tengen/clock"
	"tengen/demo"
	"tengen/engine"
	"tengen/engine/sgf"
	"tengen/internal/shareddata"
	"tengen/referee"
	"tengen/referee/infer"
	"tengen/vision"
	"tengen/vision/observe"
)

// hardGameMoves is how many moves of the game TestHardLightGameThroughVision plays.
const hardGameMoves = 250

// The figures TestHardLightGameThroughVision holds the pipeline to. The bar is no wrong move; the goal
// is every move right. The floor of right moves is under the figure measured with the learned reader
// and the referee's likelihood ranking (2026-11-27, the frame's weighing with each point's
// brightness and its odd sure points: 250 right, 0 wrong, 0 refused; 2026-11-26, the weighing by
// the networks' activations alone: 185 right, 0 wrong, 65 refused; 129 without any weighing, 25
// with a single network, 5 with the thresholding reader): a refusal leaves later boards a stone
// off, since the script does not fix the board as players would, so TestHardLightMovesOneByOne
// measures each move on its own.
const (
	maxWrongHardMoves = 0
	minRightHardMoves = 240
	// minRightOneByOne is TestHardLightMovesOneByOne's floor, under what the committed reader
	// measured (2026-11-26: 250 right, 0 wrong, 0 refused; 249 and 1 refused without weighing the
	// unsure points against the frame; a retraining that recorded 195 was not committed; the
	// six-copy reader of 2026-11-30: 250 right, and 250 through the referee).
	minRightOneByOne = 245
)

// hardLightGame returns the first n moves of a real 19x19 game with many captures (AlphaGo 2.0
// against itself: 39 captures in the first 250 moves) as a demo script at a quick, steady pace.
func hardLightGame(t *testing.T, n int) *demo.Script {
	t.Helper()
	data, err := os.ReadFile(shareddata.Path(t, "sgf-corpus", "yenw-computer-go-dataset-AI", "AlphaGo-2.0", "0022.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := sgf.ReadRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	played := 0
	for i, m := range rec.Moves {
		if m.IsMove() {
			played++
		}
		if played == n {
			rec.Moves = rec.Moves[:i+1]
			break
		}
	}
	if played < n {
		t.Fatalf("the game has %d moves, want %d", played, n)
	}
	pace := demo.Pace{Reach: 300 * time.Millisecond, Dwell: 300 * time.Millisecond, Settle: 1000 * time.Millisecond,
		After: 250 * time.Millisecond, Slow: 2 * time.Second}
	s, err := demo.New(rec.MarshalSGF(), pace, demo.Choreography{})
	if err != nil {
		t.Fatal(err)
	}
	// Stop after the last move's press: the script's counting is not part of this test.
	var last time.Duration
	for _, a := range s.Actions() {
		if a.Kind == demo.PressButton && a.Button != demo.PassButton {
			last = a.At
		}
	}
	return s.Until(last - 3*time.Second)
}

// hardLook is the look of the test: hard light (one low bare lamp, sharp shadows, glare on the stones
// and the board) with a camera a kiosk would have: above the board, at most 12 degrees off, steady.
func hardLook(seed uint64) demo.Look {
	l := demo.HardLook(seed)
	l.Tilt = max(min(l.Tilt, 12), -12)
	l.Azimuth = max(min(l.Azimuth, 10), -10)
	l.Scale = max(l.Scale, 0.95)
	l.MotionBlur = 0
	l.Blur = 0
	l.Barrel = 0
	l.JPEG = 0 // the kiosk's camera helper delivers raw frames
	l.Clutter = 0
	return l
}

// TestHardLightGameThroughVision plays 250 moves of a real 19x19 game with captures, rendered under
// hard light (demo.HardLook), through the real pipeline: the vision reader calibrated on the true
// corners, the referee with its stability filter and move inference, the clock presses. It reports
// the moves recorded right, wrong, and not recorded (refused), and holds them to maxWrongHardMoves
// and minRightHardMoves.
func TestHardLightGameThroughVision(t *testing.T) {
	if testing.Short() {
		t.Skip("250 moves of a 19x19 game through vision take about a minute; skipped with -short")
	}
	s := hardLightGame(t, hardGameMoves)
	const w, h = 640, 480
	r, cal, rd := hardLightReader(t, s.Size, w, h)
	defer rd.Close()

	t0 := time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)
	tm := clock.NewManualTime(t0)
	tab, err := referee.Open(referee.Options{JournalDir: t.TempDir(), Time: tm, NoSync: true,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	setup := referee.Setup{Rules: "japanese", Size: s.Size, Black: referee.Player{Name: s.Record.BlackName},
		White: referee.Player{Name: s.Record.WhiteName}, Table: "1", Policy: referee.PolicyRetractPass}
	if err := tab.Setup(setup, t0); err != nil {
		t.Fatal(err)
	}

	img, err := r.Render(w, h, s.SceneAt(0))
	if err != nil {
		t.Fatal(err)
	}
	// A still board is read on its first frame; later frames of it repeat that reading, which keeps the
	// test near a minute. Every frame with a hand is read.
	var lastStill []demo.Stone
	var stillReads int
	var stillObs observe.Observation
	reads := 0
	seen := map[referee.VerdictKind]int{}
	actions := s.Actions()
	ai := 0
	var seq, lastSeq uint64
	const step = 250 * time.Millisecond
	for d := time.Duration(0); d <= s.Duration()+2*time.Second; d += step {
		now := t0.Add(d)
		tm.Set(now)
		seq++
		sc := s.SceneAt(d)
		sc.Frame = seq
		var o observe.Observation
		if sc.Hand == nil && lastStill != nil && bytes.Equal(stoneBytes(lastStill), stoneBytes(sc.Stones)) && stillReads >= 1 {
			o = stillObs.Clone()
		} else {
			if err := r.RenderInto(img, sc); err != nil {
				t.Fatal(err)
			}
			reading, err := rd.ReadImage(img)
			if err != nil {
				t.Fatal(err)
			}
			reads++
			o = reading.Observation(cal, now, seq)
			if sc.Hand == nil {
				if lastStill == nil || !bytes.Equal(stoneBytes(lastStill), stoneBytes(sc.Stones)) {
					lastStill, stillReads = sc.Stones, 0
				}
				stillReads++
				stillObs = o.Clone()
			} else {
				lastStill = nil
			}
		}
		o.Seq, o.Time = seq, now
		tab.Observe(o)
		for ai < len(actions) && actions[ai].At <= d {
			a := actions[ai]
			ai++
			if a.Kind != demo.PressButton {
				continue
			}
			b := a.Button
			if err := tab.Press(clock.Press{Button: b, At: now}); err != nil {
				t.Fatalf("%s: %v", a.Note, err)
			}
		}
		tab.Tick(now)
		st := tab.State()
		if st.Seq != lastSeq {
			lastSeq = st.Seq
			if k := st.Banner.Kind; k != referee.VerdictNone {
				seen[k]++
				if k != referee.VerdictMove && k != referee.VerdictInfo && k != referee.VerdictWaiting && seen[k] <= 5 {
					t.Logf("%v: %v: %s", d.Round(time.Second), k, st.Banner.Message)
				}
			}
		}
	}
	var want []string
	for _, m := range s.Record.Moves {
		if m.IsMove() {
			want = append(want, m.Engine().String())
		}
	}
	right, wrong := 0, 0
	got := tab.Moves()
	for i, m := range got {
		if i < len(want) && m.Move.String() == want[i] {
			right++
		} else {
			wrong++
			if wrong <= 5 {
				w := "none"
				if i < len(want) {
					w = want[i]
				}
				t.Logf("move %d recorded as %v, the game has %s", i+1, m.Move, w)
			}
		}
	}
	refused := max(len(want)-len(got), 0)
	t.Logf("%d moves under hard light (look %s board, %s stones, tilt %.0f): %d right, %d wrong, %d refused; %d frames read; verdicts %v",
		len(want), r.Look().Board, r.Look().Stones, r.Look().Tilt, right, wrong, refused, reads, seen)
	if wrong > maxWrongHardMoves {
		t.Errorf("%d wrong moves recorded, want at most %d", wrong, maxWrongHardMoves)
	}
	if right < minRightHardMoves {
		t.Errorf("%d moves recorded right, want at least %d", right, minRightHardMoves)
	}
}

func stoneBytes(s []demo.Stone) []byte {
	b := make([]byte, len(s))
	for i, v := range s {
		b[i] = byte(v)
	}
	return b
}

// TestHardLightMovesOneByOne measures move reading on its own: for each of the 250 moves of the
// hard-light game, the still board after the move is rendered and read, and the move is ranked
// from the true position before it (referee/infer, as the referee does at a press). Unlike the
// game through the referee, where one refused move leaves every later board two stones off (the
// players would fix it; the script does not), each move counts once: right, wrong (a clear
// ranking of another move), or refused (no clear explanation: the players are asked to look).
func TestHardLightMovesOneByOne(t *testing.T) {
	if testing.Short() {
		t.Skip("250 readings of a 19x19 board take about 20 s; skipped with -short")
	}
	s := hardLightGame(t, hardGameMoves)
	const w, h = 640, 480
	r, cal, rd := hardLightReader(t, s.Size, w, h)
	defer rd.Close()
	rules, err := engine.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(s.Size, rules)
	if err != nil {
		t.Fatal(err)
	}
	right, wrong, refused := 0, 0, 0
	for i, rm := range s.Record.Moves {
		if !rm.IsMove() {
			continue
		}
		m := rm.Engine()
		before := g.Board()
		if _, err := g.Play(m); err != nil {
			t.Fatalf("move %d %v: %v", i+1, m, err)
		}
		after := g.Board()
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
		stones := make([]demo.Stone, len(after))
		for k, col := range after {
			stones[k] = demo.Stone(col)
		}
		img, err := r.Render(w, h, demo.Scene{Size: s.Size, Stones: stones, Frame: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		reading, err := rd.ReadImage(img)
		if err != nil {
			t.Fatal(err)
		}
		rk, err := infer.Rank(g, m.Color, reading.Observation(cal, time.Time{}, uint64(i)))
		if err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
		switch {
		case !rk.Clear():
			refused++
			if refused <= 5 {
				t.Logf("move %d %v refused: best %v %v, margin %.1f, misfits %d, unseen %d", i+1, m, rk.Best.Kind, rk.Best.Move, rk.Margin, len(rk.Misfits), len(rk.Unseen))
			}
		case rk.Best.Move == m && (rk.Best.Kind == infer.Move || rk.Best.Kind == infer.MoveThenNext):
			right++
		default:
			wrong++
			t.Logf("move %d %v read as %v %v (board before had %d stones)", i+1, m, rk.Best.Kind, rk.Best.Move, stonesOn(before))
		}
		if _, err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("250 moves under hard light, each ranked from the true position: %d right, %d wrong, %d refused", right, wrong, refused)
	if wrong > 0 {
		t.Errorf("%d moves read wrong, want none", wrong)
	}
	if right < minRightOneByOne {
		t.Errorf("%d moves read right, want at least %d", right, minRightOneByOne)
	}
}

// stonesOn counts the stones on a board.
func stonesOn(b []engine.Color) int {
	n := 0
	for _, c := range b {
		if c != engine.Empty {
			n++
		}
	}
	return n
}

// hardLightReader returns the hard-light renderer for a board of size and a vision reader
// calibrated on its true corners in w x h frames.
func hardLightReader(t *testing.T, size, w, h int) (*demo.LookRenderer, calib.Calibration, *vision.Reader) {
	t.Helper()
	r, err := demo.NewLookRenderer(hardLook(3), size)
	if err != nil {
		t.Fatal(err)
	}
	cal := trueCalibration(t, r.Corners(w, h), w, h, size)
	rd, err := vision.NewReader(cal, vision.Params{})
	if err != nil {
		t.Fatal(err)
	}
	return r, cal, rd
}
