package referee

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"tengen/clock"
	"tengen/engine"
)

// walls plays a 9x9 Japanese game to the stop: Black's wall on column C, White's on column D
// up to D8, so that D9 is the one open dame between Black's 18 points and White's 45.
func walls(t *testing.T) *harness {
	t.Helper()
	return wallsWith(t, nil)
}

// wallsWith is walls with the table's options changed by mod.
func wallsWith(t *testing.T, mod func(*Options)) *harness {
	t.Helper()
	h := newHarness(t, 9, mod)
	start(h, func(s *Setup) { s.Rules = "japanese" })
	for y := 1; y <= 8; y++ {
		h.moves(fmt.Sprintf("B C%d", y), fmt.Sprintf("W D%d", y))
	}
	h.moves("B C9")
	h.press(clock.PassButton) // White
	h.press(clock.PassButton) // Black: the game stops
	return h
}

// TestJapaneseArt8DameFillingAtTheTable: after the stop under Japanese rules the screen names the
// open dame; a stone put on one is dame filling, not a move, and the count uses it; a stone off
// the dame is refused; the count is final only once no dame is open, or when both players confirm
// a second time that the open dame are regarded as filled (art. 8).
func TestJapaneseArt8DameFillingAtTheTable(t *testing.T) {
	t.Run("filled", func(t *testing.T) {
		h := walls(t)
		st := h.wantBanner(VerdictStopped, "Open dame at D9")
		if !st.Dame.Applies || fmt.Sprint(st.Dame.Open) != fmt.Sprint([]engine.Point{h.pt("D9")}) {
			t.Fatalf("dame state %+v, want D9 open", st.Dame)
		}
		moves := h.movesGTP()
		h.put('X', "A1") // in Black's own territory: not a dame
		h.look()
		h.wantBanner(VerdictBoardDiffers, "not on an open dame", "A1")
		h.put('.', "A1")
		h.put('X', "D9")
		h.look()
		// Black's stone on D9 touches White's territory: E9 is a dame now, which White closes.
		st = h.wantBanner(VerdictMarking, "Dame filled at B D9", "Open dame left at E9")
		if fmt.Sprint(st.Dame.Open) != fmt.Sprint([]engine.Point{h.pt("E9")}) || len(st.Dame.Filled) != 1 || st.Board[h.pt("D9").Y*9+h.pt("D9").X] != engine.Black {
			t.Fatalf("dame state %+v after the fill", st.Dame)
		}
		h.put('O', "E9")
		h.look()
		st = h.wantBanner(VerdictMarking, "Dame filled at W E9", "No open dame is left")
		if len(st.Dame.Open) != 0 || len(st.Dame.Filled) != 2 {
			t.Fatalf("dame state %+v after the second fill", st.Dame)
		}
		if got := h.movesGTP(); got != moves {
			t.Fatalf("the dame stone became a move: %q", got)
		}
		// A dame stone on its own is no group to mark dead.
		if err := h.tab.ToggleDead(h.pt("E9"), h.now()); err == nil || len(h.state().Dead) != 0 {
			t.Fatalf("the dame stone E9 was marked: %v, dead %v", err, h.state().Dead)
		}
		h.reopen() // the journal replays the fill
		if st := h.state(); len(st.Dame.Filled) != 2 {
			t.Fatalf("after the replay: dame state %+v", st.Dame)
		}
		h.press(clock.BlackClock)
		h.press(clock.WhiteClock)
		st = h.wantBanner(VerdictResult, "W+32.5") // E9 is White's stone, no longer territory
		if st.Phase != PhaseEnded || st.Result != "W+32.5" {
			t.Fatalf("phase %v result %q", st.Phase, st.Result)
		}
		if rec := string(h.tab.Record().MarshalSGF()); !strings.Contains(rec, "Dame filled after the stop (not moves): B D9, W E9.") {
			t.Errorf("the record does not list the dame filled:\n%s", rec)
		}
	})
	t.Run("regarded as filled", func(t *testing.T) {
		h := walls(t)
		h.press(clock.BlackClock)
		h.press(clock.WhiteClock)
		st := h.wantBanner(VerdictMarking, "Open dame remain at D9", "again to count them as filled")
		if st.Phase != PhaseMarking || !st.Dame.Asked || st.Black.Confirmed {
			t.Fatalf("phase %v, dame %+v, black confirmed %v: want marking, asked, not confirmed", st.Phase, st.Dame, st.Black.Confirmed)
		}
		h.press(clock.WhiteClock)
		h.press(clock.BlackClock)
		if st := h.wantBanner(VerdictResult, "W+33.5"); st.Result != "W+33.5" {
			t.Fatalf("result %q", st.Result)
		}
		if rec := string(h.tab.Record().MarshalSGF()); !strings.Contains(rec, "regard the open dame at D9 as filled") {
			t.Errorf("the record does not say the dame were regarded as filled:\n%s", rec)
		}
	})
	t.Run("taken back, and play resumed", func(t *testing.T) {
		h := walls(t)
		h.put('O', "D9")
		h.look()
		h.wantBanner(VerdictMarking, "Dame filled at W D9")
		h.put('.', "D9")
		h.look()
		st := h.wantBanner(VerdictMarking, "taken back", "Open dame left at D9")
		if len(st.Dame.Filled) != 0 || len(st.Dead) != 0 {
			t.Fatalf("dame %+v, dead %v after taking the dame stone back", st.Dame, st.Dead)
		}
		h.put('O', "D9")
		h.look()
		if err := h.tab.Resume(engine.Black, h.now()); err != nil {
			t.Fatal(err)
		}
		st = h.wantBanner(VerdictInfo, "Take the dame stones at D9 off the board")
		if st.Phase != PhasePlaying || st.Board[h.pt("D9").Y*9+h.pt("D9").X] != engine.Empty {
			t.Fatalf("phase %v, D9 %v after resuming", st.Phase, st.Board[h.pt("D9").Y*9+h.pt("D9").X])
		}
	})
	t.Run("taken back by the director's undo", func(t *testing.T) {
		h := wallsWith(t, withDirector)
		h.put('X', "D9")
		h.look()
		h.wantBanner(VerdictMarking, "Dame filled at B D9")
		if err := h.tab.Director(pin, DirectorAction{Kind: DirectorUndo}, h.now()); err != nil {
			t.Fatal(err)
		}
		st := h.wantBanner(VerdictDirector, "taken back", "Take the dame stones at D9 off the board first")
		if st.Phase != PhasePlaying || !slices.Contains(st.Expected, h.pt("D9")) {
			t.Fatalf("phase %v, expected %v: want play, D9 to take off", st.Phase, st.Expected)
		}
		h.put('.', "D9")
		h.look()
		if st := h.wantBanner(VerdictInfo, "matches the game again"); len(st.Expected) != 0 {
			t.Fatalf("expected %v once the dame stone is off", st.Expected)
		}
	})
	t.Run("not under AGA rules", func(t *testing.T) {
		h := newHarness(t, 9, nil)
		start(h, nil)
		h.moves("B C1", "W D1")
		h.press(clock.PassButton)
		h.press(clock.PassButton)
		h.put('X', "E5")
		h.look()
		// Not dame filling: a stone that is not part of the game (TestAGARule12StonesPlacedAfterTheStop).
		if st := h.state(); st.Dame.Applies || len(st.Dame.Filled) != 0 || st.Banner.Kind != VerdictBoardDiffers || !strings.Contains(st.Banner.Message, "not part of the game") {
			t.Fatalf("AGA: dame %+v, banner %v %q", st.Dame, st.Banner.Kind, st.Banner.Message)
		}
	})
}

// TestJapaneseArt8DameNextToADeadStone: a dame next to a stone marked dead is filled like any
// other (art. 8; the dead stone is off the board for the count), and the count is the one with the
// dame regarded as filled. A stone next to its own colour's dead stone would join it: it is no dame
// stone while that stone is marked dead, and becomes one when the stone is marked alive.
func TestJapaneseArt8DameNextToADeadStone(t *testing.T) {
	// Black's dead stone E9 stands in White's area, next to the gap D9 in White's wall.
	game := func(t *testing.T) *harness {
		h := newHarness(t, 9, nil)
		start(h, func(s *Setup) { s.Rules = "japanese" })
		for y := 1; y <= 8; y++ {
			h.moves(fmt.Sprintf("B C%d", y), fmt.Sprintf("W D%d", y))
		}
		h.moves("B C9", "W H2", "B E9")
		h.press(clock.PassButton) // White
		h.press(clock.PassButton) // Black: the game stops
		markDead(h, "E9")
		if st := h.state(); fmt.Sprint(st.Dame.Open) != h.pts("D9") {
			t.Fatalf("open dame %v, want D9", st.Dame.Open)
		}
		return h
	}
	ref := game(t)
	want := confirmCount(ref) // D9 regarded as filled
	if want.Phase != PhaseEnded {
		t.Fatalf("reference: phase %v", want.Phase)
	}
	t.Run("filled next to the dead stone", func(t *testing.T) {
		h := game(t)
		h.put('.', "E9") // the dead stone taken off
		h.put('O', "D9")
		h.look()
		st := h.wantBanner(VerdictMarking, "Dame filled at W D9", "No open dame is left")
		if len(st.Dame.Filled) != 1 || !st.CountBoard.Agrees() {
			t.Fatalf("dame %+v, count board %+v", st.Dame, st.CountBoard)
		}
		h.reopen()
		if got := confirmCount(h); got.Phase != PhaseEnded || got.Result != want.Result {
			t.Fatalf("phase %v result %q, want %q (the dame regarded as filled)", got.Phase, got.Result, want.Result)
		}
	})
	t.Run("next to its own colour's dead stone", func(t *testing.T) {
		h := game(t)
		h.put('X', "D9")
		h.look()
		st := h.wantBanner(VerdictBoardDiffers, "D9", "not on an open dame")
		if len(st.Dame.Filled) != 0 || fmt.Sprint(st.CountBoard.Placed) != h.pts("D9") {
			t.Fatalf("dame %+v, count board %+v: want D9 refused", st.Dame, st.CountBoard)
		}
		if err := h.tab.ToggleDead(h.pt("E9"), h.now()); err != nil {
			t.Fatal(err)
		}
		st = h.wantBanner(VerdictMarking, "marked alive")
		if len(st.Dame.Filled) != 1 || !st.CountBoard.Agrees() || len(st.Dead) != 0 {
			t.Fatalf("dame %+v, count board %+v, dead %v: want D9 filled once E9 is alive", st.Dame, st.CountBoard, st.Dead)
		}
		h.reopen() // the journal replays the marking and the fill
		if st := h.state(); len(st.Dame.Filled) != 1 || !st.CountBoard.Agrees() {
			t.Fatalf("after the replay: dame %+v, count board %+v", st.Dame, st.CountBoard)
		}
	})
}
