package referee

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee/journal"
	"tengen/vision/observe"
)

// see tells the table the camera's view now (ViewBoard: the fake board, read twice a hold apart).
func (h *harness) see(v observe.View) {
	h.tb.Helper()
	if v == observe.ViewBoard {
		h.tab.See(observe.Reading(h.observation(h.board)))
		h.advance(600 * time.Millisecond)
		h.tab.See(observe.Reading(h.observation(h.board)))
		h.advance(100 * time.Millisecond)
		return
	}
	h.tab.See(observe.Sight{View: v, Time: h.now(), Why: "test"})
	h.advance(100 * time.Millisecond)
}

// TestCameraViewHoldsPlay covers a camera lost and a board bumped in the middle of a game: play
// is held (no reading acted on, no press timed out), presses made meanwhile are kept, and the
// first still board once the view is back settles them when it is unambiguous, or says which
// points differ; the journal replays to the same table.
func TestCameraViewHoldsPlay(t *testing.T) {
	tests := []replayCase{
		{name: "two moves made while the camera is lost are read when it is back", steps: func(h *harness) {
			h.move(engine.Black, "E5")
			h.see(observe.ViewNoPicture)
			h.wantBanner(VerdictCamera, "no picture")
			h.put('O', "C3")
			h.press(clock.WhiteClock)
			h.wantBanner(VerdictCamera, "Press kept")
			h.advance(20 * time.Second) // far past the press wait: nothing times out while the camera is lost
			h.tab.Tick(h.now())
			h.put('X', "G7")
			h.press(clock.BlackClock)
			h.advance(20 * time.Second)
			h.tab.Tick(h.now())
			if s := h.state(); !s.Waiting || s.MoveNumber != 1 {
				h.tb.Fatalf("waiting %v at move %d, want a press waiting at move 1", s.Waiting, s.MoveNumber)
			}
			h.see(observe.ViewBoard)
		}, banner: VerdictMove, contains: []string{"G7"}, moves: "B E5 W C3 B G7"},
		{name: "readings while the board is moved are not acted on", steps: func(h *harness) {
			h.move(engine.Black, "E5")
			h.see(observe.ViewMoved)
			h.wantBanner(VerdictCamera, "moved")
			h.put('O', "C3")
			h.look() // a misaligned grid's reading: ignored
			h.press(clock.WhiteClock)
			h.look()
			if s := h.state(); !s.Waiting {
				h.tb.Fatalf("the press was settled from a reading while the board was moved: %q", s.Banner.Message)
			}
			h.see(observe.ViewBoard)
		}, banner: VerdictMove, contains: []string{"C3"}, moves: "B E5 W C3"},
		{name: "a bumped board that lost a stone is said when the board is found again", steps: func(h *harness) {
			h.move(engine.Black, "E5")
			h.move(engine.White, "C3")
			h.see(observe.ViewMoved)
			h.put('.', "E5") // knocked off its point
			h.see(observe.ViewBoard)
		}, banner: VerdictBoardDiffers, contains: []string{"E5"}, moves: "B E5 W C3"},
		{name: "a board found again as it was says so", steps: func(h *harness) {
			h.move(engine.Black, "E5")
			h.see(observe.ViewMoved)
			h.see(observe.ViewBoard)
		}, banner: VerdictInfo, contains: []string{"matches the game", "White to play"}, moves: "B E5"},
		{name: "two stones of one colour for one press are not guessed", steps: func(h *harness) {
			h.move(engine.Black, "E5")
			h.see(observe.ViewNoPicture)
			h.put('O', "C3", "G7")
			h.press(clock.WhiteClock)
			h.see(observe.ViewBoard)
		}, banner: VerdictBoardDiffers, moves: "B E5"},
		{name: "the clocks run while the camera is lost", steps: func(h *harness) {
			h.see(observe.ViewNoPicture)
			h.advance(11 * time.Minute) // Black's 10 minutes run out
			h.tab.Tick(h.now())
		}, banner: VerdictResult, contains: []string{"time ran out"}, moves: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 9, nil)
			start(h, nil)
			tc.steps(h)
			checkReplayed(t, h, tc.banner, tc.contains, tc.moves)
		})
	}
}

// TestDirectorCallStopsTheClock: the director button stops the clocks during play, as a player
// does in a tournament; a clock press meanwhile says the game is paused; a second press of the
// button withdraws the call and the clocks run on from where they stopped.
func TestDirectorCallStopsTheClock(t *testing.T) {
	h := newHarness(t, 9, nil)
	start(h, nil)
	h.advance(10 * time.Second)
	h.press(clock.DirectorButton)
	h.wantBanner(VerdictDirector, "clocks are stopped")
	st := h.state()
	if st.Phase != PhaseHalted || st.ClockRunning != engine.Empty {
		t.Fatalf("phase %v, clock running for %v: want halted, no clock running", st.Phase, st.ClockRunning)
	}
	left := st.Black.Clock.Remaining
	h.advance(time.Minute)
	h.put('X', "E5")
	h.look()
	h.press(clock.BlackClock)
	h.wantBanner(VerdictDirector, "The game is paused")
	if got := h.state().Black.Clock.Remaining; got != left {
		t.Fatalf("Black's clock ran while the director was called: %v, then %v", left, got)
	}
	h.press(clock.DirectorButton)
	h.wantBanner(VerdictDirector, "withdrawn", "Black to play")
	if st := h.state(); st.Phase != PhasePlaying || st.ClockRunning != engine.Black {
		t.Fatalf("after withdrawing: phase %v, clock running for %v", st.Phase, st.ClockRunning)
	}
	h.move(engine.Black, "E5")
	h.wantBanner(VerdictMove, "E5")
	h.reopen()
	if got := h.movesGTP(); got != "B E5" {
		t.Fatalf("after replaying the journal: moves %q", got)
	}
}

// TestFullDiskSaidOnce: a journal that cannot be written (a full disk) is said once and logged
// once however often the table tries (frames, ticks, presses), and the table recovers by itself
// when the disk does.
func TestFullDiskSaidOnce(t *testing.T) {
	var full atomic.Bool
	var said atomic.Int32
	h := newHarness(t, 9, func(o *Options) {
		o.journalOptions = append(o.journalOptions, journal.WithFault(func() error {
			if full.Load() {
				return syscall.ENOSPC
			}
			return nil
		}))
		o.OnVerdict = func(v Verdict) {
			if strings.Contains(v.Message, "journal cannot be written") {
				said.Add(1)
			}
		}
	})
	start(h, nil)
	full.Store(true)
	h.put('X', "E5")
	for range 50 {
		h.look()
		_ = h.tab.Press(clock.Press{Button: clock.BlackClock, At: h.now()})
		h.advance(time.Second)
		h.tab.Tick(h.now())
	}
	if n := said.Load(); n != 1 {
		t.Fatalf("the full disk was said %d times, want once", n)
	}
	h.wantBanner(VerdictDirector, "journal cannot be written")
	full.Store(false)
	h.look()
	h.press(clock.BlackClock)
	h.wantBanner(VerdictMove, "E5")
	if got := h.movesGTP(); got != "B E5" {
		t.Fatalf("moves %q after the disk came back", got)
	}
}

// TestShorterRecordKeepsTheLonger: a journal cut back after damage rewrites the SGF from the
// shorter game, and the longer record it replaces is kept beside it, not lost.
func TestShorterRecordKeepsTheLonger(t *testing.T) {
	h := newHarness(t, 9, nil)
	start(h, nil)
	h.moves("B E5", "W C3", "B G7", "W C7")
	sgfPath := filepath.Join(h.dir, "game.sgf")
	full, err := os.ReadFile(sgfPath)
	if err != nil {
		t.Fatal(err)
	}
	h.tab.Close()
	jp := filepath.Join(h.dir, journal.FileName)
	data, err := os.ReadFile(jp)
	if err != nil {
		t.Fatal(err)
	}
	// A torn journal (the card pulled mid-write, or damage with nothing good after it): cut back.
	if err := os.WriteFile(jp, data[:len(data)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	h.tab = nil
	h.reopen()
	if h.state().MoveNumber >= 4 {
		t.Fatalf("the damaged journal still gave %d moves", h.state().MoveNumber)
	}
	kept, _ := filepath.Glob(sgfPath + ".longer-*")
	if len(kept) != 1 {
		t.Fatalf("kept %v, want one longer record", kept)
	}
	if got, _ := os.ReadFile(kept[0]); !bytes.Equal(got, full) {
		t.Fatalf("the kept record is not the one replaced:\n%s", got)
	}
}

// TestDamagedRecordInTheMiddle: one damaged record in the middle of the journal loses only itself;
// the table replays the records after it and says which records were skipped and from which move
// the board needs the director's look.
func TestDamagedRecordInTheMiddle(t *testing.T) {
	h := newHarness(t, 9, nil)
	start(h, nil)
	h.moves("B E5", "W C3", "B G7", "W C7", "B G3")
	h.tab.Close()
	jp := filepath.Join(h.dir, journal.FileName)
	data, err := os.ReadFile(jp)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(data, []byte(`"moves":["B[ee]"`))
	if i < 0 {
		i = bytes.Index(data, []byte(`E5`))
	}
	if i < 0 {
		t.Fatal("no record of the first move found in the journal")
	}
	data[i+2] ^= 0x20 // one flipped bit in the outputs of move 1
	if err := os.WriteFile(jp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	h.tab = nil
	h.reopen()
	st := h.state()
	if st.MoveNumber != 5 {
		t.Fatalf("%d moves after the damaged record was skipped, want 5 (%s)", st.MoveNumber, st.Recovery)
	}
	if !strings.Contains(st.Recovery, "damaged and skipped") {
		t.Fatalf("recovery %q does not say which records were skipped", st.Recovery)
	}
}

// TestIllegalMovePolicies: what an illegal move costs is the table's setting, each ruleset with its
// own default: AGA rule 8 retracts and passes, Japanese rules art. 14 loses the game, a
// tournament's warning takes the stone back and lets the offender play again, and the verdict
// names the article applied.
func TestIllegalMovePolicies(t *testing.T) {
	tests := []struct {
		name     string
		rules    string
		policy   Policy
		phase    Phase
		result   string
		contains string
		moves    string
		toMove   engine.Color
	}{
		{"AGA rule 8 by default", "aga", "", PhasePlaying, "", "AGA rule 8", "B E5 W G3 B B1 W J9 B A2 W pass", engine.Black},
		{"Japanese art. 14 by default", "japanese", "", PhaseEnded, "B+F", "art. 14", "B E5 W G3 B B1 W J9 B A2", engine.Empty},
		{"a warning", "japanese", PolicyWarning, PhasePlaying, "", "Warning", "B E5 W G3 B B1 W J9 B A2", engine.White},
		{"loss chosen under AGA rules", "aga", PolicyLoss, PhaseEnded, "B+F", "art. 14", "B E5 W G3 B B1 W J9 B A2", engine.Empty},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 9, nil)
			start(h, func(s *Setup) { s.Rules, s.Policy = tc.rules, tc.policy })
			h.moves("B E5", "W G3", "B B1", "W J9", "B A2", "W A1")
			st := h.wantBanner(VerdictIllegal, tc.contains)
			if st.Phase != tc.phase || st.Result != tc.result {
				t.Fatalf("phase %v result %q, want %v %q", st.Phase, st.Result, tc.phase, tc.result)
			}
			if got := h.movesGTP(); got != tc.moves {
				t.Fatalf("moves %q, want %q", got, tc.moves)
			}
			if tc.toMove != engine.Empty && st.ToMove != tc.toMove {
				t.Fatalf("%v to move, want %v", st.ToMove, tc.toMove)
			}
			rec := string(h.tab.Record().MarshalSGF())
			if !strings.Contains(rec, "Illegal moves:") {
				t.Errorf("the record does not say the policy:\n%s", rec)
			}
		})
	}
}

// TestPassWithAStoneOnTheBoard: a pass pressed while a new stone stands on the board is refused
// (it recorded "passes" and dropped the stone); with the stone taken off the pass counts. The
// board goes into the journal with the press, so a replay decides the same.
func TestPassWithAStoneOnTheBoard(t *testing.T) {
	h := newHarness(t, 9, nil)
	start(h, nil)
	h.move(engine.Black, "E5")
	h.put('O', "C3")
	h.look()
	h.press(clock.PassButton)
	h.wantBanner(VerdictBoardDiffers, "pass does not count", "C3")
	if got := h.movesGTP(); got != "B E5" {
		t.Fatalf("moves %q after a refused pass", got)
	}
	h.reopen()
	if got := h.movesGTP(); got != "B E5" {
		t.Fatalf("moves %q after replaying the journal", got)
	}
	h.put('.', "C3")
	h.look()
	h.press(clock.PassButton)
	h.wantBanner(VerdictPass)
	if got := h.movesGTP(); got != "B E5 W pass" {
		t.Fatalf("moves %q after the pass with the stone off", got)
	}
}

// TestPassWithAStoneOnTheBoardNotStill: a pass pressed while the board is not still (a stone just
// put down, a hand over the board) waits for the still board, like a clock press: with a new stone
// on it the pass does not count (the stone was neither dropped from the record nor taken as the
// passer's next move); with none it counts, at the press. A board that stays covered refuses the
// pass once the press wait is over; with the camera lost the pass counts at once, as before. The
// journal replays each to the same table.
func TestPassWithAStoneOnTheBoardNotStill(t *testing.T) {
	tests := []replayCase{
		{name: "a stone just put down", steps: func(h *harness) {
			h.put('O', "C3")
			h.tab.Observe(h.observation(h.board)) // one frame: not still yet
			h.press(clock.PassButton)
			if st := h.wantBanner(VerdictWaiting, "before the pass"); !st.Waiting || st.MoveNumber != 1 {
				h.tb.Fatalf("waiting %v at move %d: want the pass waiting at move 1", st.Waiting, st.MoveNumber)
			}
			h.look()
		}, banner: VerdictBoardDiffers, contains: []string{"pass does not count", "C3"}, moves: "B E5"},
		{name: "a hand over the board, then no new stone", steps: func(h *harness) {
			h.hand()
			h.press(clock.PassButton)
			h.wantBanner(VerdictWaiting, "before the pass")
			h.look()
		}, banner: VerdictPass, contains: []string{"White passes"}, moves: "B E5 W pass"},
		{name: "a hand over the board, then the stone", steps: func(h *harness) {
			h.hand()
			h.press(clock.PassButton)
			h.press(clock.BlackClock) // queued behind the pass, refused with it
			h.put('O', "C3")
			h.look()
		}, banner: VerdictBoardDiffers, contains: []string{"pass does not count", "C3", "not counted"}, moves: "B E5"},
		{name: "the board stays covered", steps: func(h *harness) {
			h.hand()
			h.press(clock.PassButton)
			h.advance(4 * time.Second)
			h.hand()
			h.tab.Tick(h.now())
		}, banner: VerdictNotSeen, contains: []string{"the pass does not count"}, moves: "B E5"},
		{name: "the camera lost", steps: func(h *harness) {
			h.see(observe.ViewNoPicture)
			h.put('O', "C3")
			h.press(clock.PassButton)
		}, banner: VerdictPass, contains: []string{"White passes"}, moves: "B E5 W pass"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 9, nil)
			start(h, nil)
			h.move(engine.Black, "E5")
			tc.steps(h)
			checkReplayed(t, h, tc.banner, tc.contains, tc.moves)
			if st := h.state(); st.Waiting {
				t.Fatal("a press still waits after the pass was settled")
			}
		})
	}
}

// moves plays each move ("B E5", "W C3") in turn: the stone placed, seen, and the clock pressed.
func (h *harness) moves(ms ...string) {
	h.tb.Helper()
	for _, m := range ms {
		c := engine.Black
		if m[0] == 'W' {
			c = engine.White
		}
		h.move(c, m[2:])
	}
}
