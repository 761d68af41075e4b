package referee

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"tengen/clock"
	"tengen/engine"
)

// wallsGame plays a 9x9 game to the stop under rules: Black's wall on column C, White's on column
// D (up to D8, or D9 too with closed), a dead White stone at A5 in Black's area and a dead Black
// group G5-G6 in White's.
func wallsGame(t *testing.T, rules string, closed bool) *harness {
	t.Helper()
	h := newHarness(t, 9, nil)
	start(h, func(s *Setup) { s.Rules = rules })
	for y := 1; y <= 8; y++ {
		h.moves(fmt.Sprintf("B C%d", y), fmt.Sprintf("W D%d", y))
	}
	h.moves("B C9")
	if closed {
		h.moves("W D9", "B G5", "W A5", "B G6")
	} else {
		h.moves("W A5", "B G5", "W H2", "B G6")
	}
	h.press(clock.PassButton) // White
	h.press(clock.PassButton) // Black: the game stops
	if st := h.state(); st.Phase != PhaseMarking {
		t.Fatalf("phase %v after the passes, want marking", st.Phase)
	}
	return h
}

// confirmCount has both players press their clock, twice when asked about open dame (Japanese
// art. 8), and returns the state.
func confirmCount(h *harness) State {
	h.tb.Helper()
	h.press(clock.BlackClock)
	h.press(clock.WhiteClock)
	if st := h.state(); st.Phase == PhaseMarking && st.Dame.Asked {
		h.press(clock.BlackClock)
		h.press(clock.WhiteClock)
	}
	return h.state()
}

// wantCountRefused has both players confirm while the board disagrees with the marking: the
// count waits, the confirmations are dropped, and the points are named.
func wantCountRefused(t *testing.T, h *harness, points ...string) {
	t.Helper()
	h.press(clock.BlackClock)
	h.press(clock.WhiteClock)
	st := h.wantBanner(VerdictBoardDiffers, append([]string{"no count until it does"}, points...)...)
	if st.Phase != PhaseMarking || st.Result != "" || st.Black.Confirmed || st.White.Confirmed {
		t.Fatalf("phase %v, result %q, confirmed %v/%v: the count was made on a board that disagrees with the marking",
			st.Phase, st.Result, st.Black.Confirmed, st.White.Confirmed)
	}
}

// markDead marks the groups at vs dead by touching them on the screen.
func markDead(h *harness, vs ...string) {
	h.tb.Helper()
	for _, v := range vs {
		if err := h.tab.ToggleDead(h.pt(v), h.now()); err != nil {
			h.tb.Fatal(err)
		}
	}
}

// pts is the points named, for comparisons.
func (h *harness) pts(vs ...string) string {
	var ps []engine.Point
	for _, v := range vs {
		ps = append(ps, h.pt(v))
	}
	return fmt.Sprint(sortedPoints(ps))
}

// TestAGARule9JapaneseArt10LiftedStonesAreTheMarkedDead: after the stop the stones taken off the
// wooden board must be exactly stones marked dead (AGA rule 9, Japanese art. 10: dead stones
// become prisoners). A live stone lifted, a group taken off and then marked alive, or a stone put
// where a dead stone was lifted is named on the table, and the count waits until the board agrees;
// a group taken off and put back in full is marked alive again. The count is then the count of
// the marking, the same as with the dead stones touched on the screen and left on the board.
func TestAGARule9JapaneseArt10LiftedStonesAreTheMarkedDead(t *testing.T) {
	for _, rules := range []string{"aga", "japanese", "chinese", "aga-territory"} {
		t.Run(rules, func(t *testing.T) {
			// The same marking made by touching the groups, every stone left on the board.
			ref := wallsGame(t, rules, true)
			markDead(ref, "A5", "G5")
			want := confirmCount(ref)
			if want.Phase != PhaseEnded || want.Result == "" {
				t.Fatalf("the reference count: phase %v result %q", want.Phase, want.Result)
			}

			h := wallsGame(t, rules, true)
			// A live stone lifted: named, and no count.
			h.put('.', "C5")
			h.look()
			st := h.wantBanner(VerdictBoardDiffers, "C5", "not marked dead")
			if got := fmt.Sprint(st.CountBoard.Lifted); got != h.pts("C5") || len(st.CountBoard.Placed) != 0 || len(st.Dead) != 0 {
				t.Fatalf("count board %+v, dead %v: want C5 lifted, nothing dead", st.CountBoard, st.Dead)
			}
			if len(st.CountBoard.Says) != 1 || !strings.Contains(st.CountBoard.Says[0].String(), "C5") {
				t.Errorf("the count board says %v", st.CountBoard.Says)
			}
			if !slices.Contains(st.Expected, h.pt("C5")) {
				t.Errorf("expected %v: C5 is not highlighted", st.Expected)
			}
			wantCountRefused(t, h, "C5")
			h.reopen() // the journal replays the check
			if st := h.state(); fmt.Sprint(st.CountBoard.Lifted) != h.pts("C5") {
				t.Fatalf("after the replay: count board %+v", st.CountBoard)
			}
			h.put('X', "C5")
			h.look()
			h.wantBanner(VerdictMarking, "agrees with the marking again")

			// A group taken off counts as dead; marked alive on the screen while off the board,
			// it is named, and the count waits.
			h.put('.', "G5", "G6")
			h.look()
			h.wantBanner(VerdictMarking, "count as dead: G6, G5")
			if err := h.tab.ToggleDead(h.pt("G5"), h.now()); err != nil {
				t.Fatal(err)
			}
			st = h.wantBanner(VerdictBoardDiffers, "marked alive", "G6, G5", "not marked dead")
			if got := fmt.Sprint(st.CountBoard.Lifted); got != h.pts("G5", "G6") {
				t.Fatalf("count board %+v: want G5 G6 lifted", st.CountBoard)
			}
			wantCountRefused(t, h, "G6, G5")
			if err := h.tab.ToggleDead(h.pt("G6"), h.now()); err != nil {
				t.Fatal(err)
			}
			if st := h.wantBanner(VerdictMarking, "marked dead"); !st.CountBoard.Agrees() {
				t.Fatalf("count board %+v after marking the group dead again", st.CountBoard)
			}

			// A group taken off and put back in full is alive again: the taking was the marking.
			h.put('.', "A5")
			h.look()
			h.wantBanner(VerdictMarking, "count as dead: A5")
			h.put('O', "A5")
			h.look()
			st = h.wantBanner(VerdictMarking, "A5 are back on the board", "marked alive again")
			if slices.Contains(st.Dead, h.pt("A5")) {
				t.Fatalf("dead %v: A5 is still marked dead after it was put back", st.Dead)
			}

			// A stone of the other colour where a dead stone was lifted is not the game's.
			h.put('.', "A5")
			h.look()
			h.put('X', "A5")
			h.look()
			st = h.wantBanner(VerdictBoardDiffers, "A5")
			if got := fmt.Sprint(st.CountBoard.Placed); got != h.pts("A5") || !slices.Contains(st.Dead, h.pt("A5")) {
				t.Fatalf("count board %+v, dead %v: want A5 placed, A5 dead", st.CountBoard, st.Dead)
			}
			wantCountRefused(t, h, "A5")
			h.put('.', "A5")
			h.look()
			h.wantBanner(VerdictMarking, "agrees with the marking again")

			got := confirmCount(h)
			if got.Phase != PhaseEnded || got.Result != want.Result {
				t.Fatalf("phase %v result %q, want the marking's count %q", got.Phase, got.Result, want.Result)
			}
			if fmt.Sprint(got.Dead) != fmt.Sprint(want.Dead) {
				t.Fatalf("dead %v, want %v", got.Dead, want.Dead)
			}
		})
	}
}

// TestAGARule12StonesPlacedAfterTheStop: the count is taken on the game's board (AGA rule 12 and
// the other rulesets' counting). A stone placed after the stop is not a move: under Japanese rules
// a stone on an open dame is dame filling (art. 8, TestJapaneseArt8DameFillingAtTheTable); any
// other stone, under every ruleset, is named as not part of the game (under area counting a stone
// is a point, so dame are filled by moves, before the passes), and the count waits until it is off.
// Once it is off, the result is the one of the game without it.
func TestAGARule12StonesPlacedAfterTheStop(t *testing.T) {
	const (
		area      = "under area counting every stone is a point"
		territory = "the count is taken on the game's board"
		japanese  = "not on an open dame"
	)
	cases := []struct {
		rules, stone, point, says string
	}{
		{"aga", "X", "G2", area},     // in White's territory
		{"aga", "O", "D9", area},     // on the dame
		{"aga", "X", "B2", area},     // in the placer's own territory
		{"chinese", "O", "D9", area}, //
		{"chinese", "O", "B2", area}, // in the opponent's territory
		{"tromp-taylor", "X", "D9", area},
		{"new-zealand", "X", "F7", area},
		{"aga-territory", "O", "D9", territory},
		{"aga-territory", "X", "H8", territory},
		{"basic", "O", "D9", territory},
		{"japanese", "X", "H8", japanese},
		{"japanese", "O", "A2", japanese},
	}
	for _, c := range cases {
		t.Run(c.rules+" "+c.stone+" "+c.point, func(t *testing.T) {
			ref := wallsGame(t, c.rules, false)
			markDead(ref, "A5", "G5")
			want := confirmCount(ref)
			if want.Phase != PhaseEnded || want.Result == "" {
				t.Fatalf("the reference count: phase %v result %q", want.Phase, want.Result)
			}

			h := wallsGame(t, c.rules, false)
			markDead(h, "A5", "G5")
			board := slices.Clone(h.state().Board)
			h.put(c.stone[0], c.point)
			h.look()
			st := h.wantBanner(VerdictBoardDiffers, c.point, c.says)
			if got := fmt.Sprint(st.CountBoard.Placed); got != h.pts(c.point) {
				t.Fatalf("count board %+v: want %s placed", st.CountBoard, c.point)
			}
			if !slices.Equal(st.Board, board) || len(st.Dame.Filled) != 0 {
				t.Fatalf("the stone changed the game's board (dame %+v)", st.Dame)
			}
			wantCountRefused(t, h, c.point)
			h.reopen()
			if st := h.state(); fmt.Sprint(st.CountBoard.Placed) != h.pts(c.point) {
				t.Fatalf("after the replay: count board %+v", st.CountBoard)
			}
			h.put('.', c.point)
			h.look()
			h.wantBanner(VerdictMarking, "agrees with the marking again")
			got := confirmCount(h)
			if got.Phase != PhaseEnded || got.Result != want.Result {
				t.Fatalf("phase %v result %q, want %q as without the stone", got.Phase, got.Result, want.Result)
			}
			if rec := string(h.tab.Record().MarshalSGF()); strings.Contains(rec, "Dame filled") {
				t.Errorf("the stone was recorded as a dame fill:\n%s", rec)
			}
		})
	}
}
