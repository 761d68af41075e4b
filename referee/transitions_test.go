package referee

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"tengen/clock"
	"tengen/engine"
)

const pin = "2468"

func withDirector(o *Options) { o.CheckPIN = func(p string) bool { return p == pin } }

// start sets up an even 9x9 AGA game with a 10 minute clock and starts it.
func start(h *harness, mod func(*Setup)) {
	s := Setup{Rules: "aga", Size: h.size, TimeControl: "10m", Black: Player{Name: "Ann", Rank: "3k"}, White: Player{Name: "Bo", Rank: "1d"},
		Event: "Spring Open", Round: "2", Table: "7"}
	if mod != nil {
		mod(&s)
	}
	h.setup(s)
	h.look()
	h.press(clock.WhiteClock)
}

func TestTransitions(t *testing.T) {
	type tc struct {
		name     string
		size     int
		opts     func(*Options)
		steps    func(h *harness)
		phase    Phase
		banner   VerdictKind
		contains []string
		moves    string // GTP moves recorded, space separated
		check    func(t *testing.T, h *harness, s State)
	}
	cases := []tc{
		{name: "setup/press before setup", size: 9, steps: func(h *harness) { h.press(clock.BlackClock) },
			phase: PhaseSetup, banner: VerdictInfo, contains: []string{"Set up the game first"}},
		{name: "ready/even game starts on an empty board", size: 9, steps: func(h *harness) { start(h, nil) },
			phase: PhasePlaying, banner: VerdictInfo, contains: []string{"started", "Black to play"},
			check: func(t *testing.T, h *harness, s State) {
				if s.ClockRunning != engine.Black || s.ToMove != engine.Black {
					t.Errorf("clock %v to move %v", s.ClockRunning, s.ToMove)
				}
			}},
		{name: "ready/stone on the board", size: 9, steps: func(h *harness) {
			h.put('X', "E5")
			start(h, nil)
		}, phase: PhaseReady, banner: VerdictBoardDiffers, contains: []string{"E5", "empty board", "take the black stone off E5"}},
		{name: "ready/pass button does nothing", size: 9, steps: func(h *harness) {
			h.setup(Setup{Size: 9})
			h.look()
			h.press(clock.PassButton)
		}, phase: PhaseReady, banner: VerdictInfo, contains: []string{"Game set up"}},
		{name: "ready/fixed handicap seen", size: 19, steps: func(h *harness) {
			h.put('X', "Q16", "D4", "Q4")
			start(h, func(s *Setup) { s.Handicap = 3 })
		}, phase: PhasePlaying, banner: VerdictInfo, contains: []string{"White to play"},
			check: func(t *testing.T, h *harness, s State) {
				if s.ClockRunning != engine.White {
					t.Errorf("clock runs for %v", s.ClockRunning)
				}
			}},
		{name: "ready/fixed handicap missing a stone", size: 19, steps: func(h *harness) {
			h.put('X', "Q16", "D4")
			start(h, func(s *Setup) { s.Handicap = 3 })
		}, phase: PhaseReady, banner: VerdictBoardDiffers, contains: []string{"Q4", "AGA rule 4", "put the black stone back on Q4"}},
		{name: "ready/free handicap", size: 19, steps: func(h *harness) {
			h.put('X', "C3", "R17", "K10")
			start(h, func(s *Setup) { s.Handicap, s.FreeHandicap = 3, true })
		}, phase: PhasePlaying, banner: VerdictInfo, contains: []string{"White to play"},
			check: func(t *testing.T, h *harness, s State) {
				if s.Board[h.pt("C3").Y*19+h.pt("C3").X] != engine.Black {
					t.Error("free handicap stone not on the game board")
				}
			}},
		{name: "ready/free handicap wrong count", size: 19, steps: func(h *harness) {
			h.put('X', "C3", "R17")
			start(h, func(s *Setup) { s.Handicap, s.FreeHandicap = 3, true })
		}, phase: PhaseReady, banner: VerdictBoardDiffers, contains: []string{"exactly 3 handicap stones", "seen 2 black"}},
		{name: "ready/hands over the board, then clear", size: 9, steps: func(h *harness) {
			h.setup(Setup{Size: 9})
			h.look()
			h.hand()
			h.press(clock.WhiteClock)
			if !h.state().Waiting {
				h.tb.Fatal("press should wait for a clear view")
			}
			h.look()
		}, phase: PhasePlaying, banner: VerdictInfo, contains: []string{"started"}},
		{name: "playing/move accepted", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
		}, phase: PhasePlaying, banner: VerdictMove, contains: []string{"1: Black E5"}, moves: "B E5",
			check: func(t *testing.T, h *harness, s State) {
				if s.ClockRunning != engine.White || s.LastMove == nil || s.LastMove.Point != h.pt("E5") {
					t.Errorf("clock %v last %v", s.ClockRunning, s.LastMove)
				}
			}},
		{name: "playing/press with no new stone", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.look()
			h.press(clock.BlackClock)
		}, phase: PhasePlaying, banner: VerdictNoChange, contains: []string{"No new stone"}},
		{name: "playing/stone of the wrong colour", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.put('O', "E5")
			h.look()
			h.press(clock.BlackClock)
		}, phase: PhasePlaying, banner: VerdictBoardDiffers, contains: []string{"at E5", "white stone was placed but it is Black's move", "take the white stone off E5"}},
		{name: "playing/two new stones", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.put('X', "E5", "C3")
			h.look()
			h.press(clock.BlackClock)
		}, phase: PhasePlaying, banner: VerdictBoardDiffers, contains: []string{"E5, C3", "2 new stones"}},
		{name: "playing/moved stone", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			h.put('.', "E5")
			h.put('X', "E6")
			h.put('O', "C3")
			h.look()
			h.press(clock.WhiteClock)
		}, phase: PhasePlaying, banner: VerdictBoardDiffers, contains: []string{"E6", "E5", "put the black stone back on E5", "take the black stone off E6"}, moves: "B E5"},
		{name: "playing/board fixed clears the banner", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.put('O', "E5")
			h.look()
			h.press(clock.BlackClock)
			h.put('.', "E5")
			h.look()
		}, phase: PhasePlaying, banner: VerdictInfo, contains: []string{"matches the game again"}},
		{name: "playing/not your turn", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.press(clock.WhiteClock)
		}, phase: PhasePlaying, banner: VerdictNotYourTurn, contains: []string{"Black's turn"}},
		{name: "playing/press waits then times out", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.put('X', "E5")
			h.hand()
			h.press(clock.BlackClock)
			h.advance(4 * time.Second)
			h.tab.Tick(h.now())
		}, phase: PhasePlaying, banner: VerdictNotSeen, contains: []string{"could not be seen"}},
		{name: "playing/press waits for the stone to settle", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.put('X', "E5")
			h.tab.Observe(h.observation(h.board)) // not yet stable
			h.press(clock.BlackClock)
			h.advance(600 * time.Millisecond)
			h.tab.Observe(h.observation(h.board))
		}, phase: PhasePlaying, banner: VerdictMove, moves: "B E5"},
		{name: "playing/capture with the stone still there, then removed", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "D5")
			h.move(engine.White, "E5")
			h.move(engine.Black, "F5")
			h.move(engine.White, "A1")
			h.move(engine.Black, "E6")
			h.move(engine.White, "A2")
			h.move(engine.Black, "E4")
			h.wantBanner(VerdictRemoveCaptures, "remove the captured stones at E5")
			if got := h.tab.Moves(); len(got) != 6 {
				h.tb.Fatalf("move recorded before the capture was removed: %d", len(got))
			}
			h.put('.', "E5")
			h.look()
		}, phase: PhasePlaying, banner: VerdictMove, contains: []string{"Black E4", "capturing 1 (E5)"},
			moves: "B D5 W E5 B F5 W A1 B E6 W A2 B E4",
			check: func(t *testing.T, h *harness, s State) {
				if s.Black.Prisoners != 1 {
					t.Errorf("black prisoners %d", s.Black.Prisoners)
				}
			}},
		{name: "playing/capture: the mover presses again after removing the stone", size: 9, steps: func(h *harness) {
			start(h, nil)
			for _, m := range []struct {
				c engine.Color
				v string
			}{{engine.Black, "D5"}, {engine.White, "E5"}, {engine.Black, "F5"}, {engine.White, "A1"}, {engine.Black, "E6"}, {engine.White, "A2"}, {engine.Black, "E4"}} {
				h.move(m.c, m.v)
			}
			h.press(clock.WhiteClock)
			h.wantBanner(VerdictRemoveCaptures, "First remove the captured stones at E5")
			h.put('.', "E5")
			h.put('X', "J9") // and a stray stone
			h.look()
			h.press(clock.BlackClock)
			h.wantBanner(VerdictBoardDiffers, "J9")
			h.put('.', "J9")
			h.look()
			h.press(clock.BlackClock)
		}, phase: PhasePlaying, banner: VerdictMove, contains: []string{"Black E4", "capturing 1 (E5)"},
			moves: "B D5 W E5 B F5 W A1 B E6 W A2 B E4"},
		{name: "playing/capture taken back", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "D5")
			h.move(engine.White, "E5")
			h.move(engine.Black, "F5")
			h.move(engine.White, "A1")
			h.move(engine.Black, "E6")
			h.move(engine.White, "A2")
			h.move(engine.Black, "E4")
			h.put('.', "E4")
			h.look()
		}, phase: PhasePlaying, banner: VerdictInfo, contains: []string{"took the stone at E4 back"}, moves: "B D5 W E5 B F5 W A1 B E6 W A2"},
		{name: "playing/pass hands a pass stone", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.press(clock.PassButton)
		}, phase: PhasePlaying, banner: VerdictPass, contains: []string{"Black passes", "one pass stone to White"}, moves: "B pass",
			check: func(t *testing.T, h *harness, s State) {
				if s.White.PassStones != 1 || s.ToMove != engine.White {
					t.Errorf("pass stones %d, to move %v", s.White.PassStones, s.ToMove)
				}
			}},
		{name: "playing/suicide retracted as a pass", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "B1")
			h.move(engine.White, "E5")
			h.move(engine.Black, "A2")
			h.move(engine.White, "A1")
		}, phase: PhasePlaying, banner: VerdictIllegal, contains: []string{"AGA rule 5", "suicide", "White takes the stone on A1 back and passes", "one pass stone to Black"},
			moves: "B B1 W E5 B A2 W pass",
			check: func(t *testing.T, h *harness, s State) {
				if s.ToMove != engine.Black || len(s.Expected) != 1 {
					t.Errorf("to move %v expected %v", s.ToMove, s.Expected)
				}
				rec := string(h.tab.Record().MarshalSGF())
				if !strings.Contains(rec, "Illegal move W A1 retracted") || strings.Contains(rec, "W[aa]") {
					t.Errorf("SGF should note the illegal move only in a comment:\n%s", rec)
				}
				h.put('.', "A1")
				h.look()
				h.wantBanner(VerdictInfo, "matches the game again")
			}},
		{name: "playing/ko flagged with the ko point", size: 9, steps: func(h *harness) {
			start(h, nil)
			for _, m := range []struct {
				c engine.Color
				v string
			}{{engine.Black, "D6"}, {engine.White, "E6"}, {engine.Black, "C5"}, {engine.White, "D5"}, {engine.Black, "D4"},
				{engine.White, "E4"}, {engine.Black, "A9"}, {engine.White, "F5"}} {
				h.move(m.c, m.v)
			}
			h.put('.', "D5") // Black E5 captures D5; the player takes it off before pressing
			h.move(engine.Black, "E5")
			h.wantBanner(VerdictMove, "capturing 1 (D5)")
			h.put('.', "E5")
			h.move(engine.White, "D5") // immediate recapture: ko
		}, phase: PhasePlaying, banner: VerdictIllegal, contains: []string{"AGA rule 6", "White takes the stone on D5 back and passes"},
			moves: "B D6 W E6 B C5 W D5 B D4 W E4 B A9 W F5 B E5 W pass",
			check: func(t *testing.T, h *harness, s State) {
				if len(s.Banner.Points) == 0 || s.Banner.Points[0] != h.pt("D5") {
					t.Errorf("points %v", s.Banner.Points)
				}
			}},
		{name: "playing/director policy halts on an illegal move", size: 9, opts: withDirector, steps: func(h *harness) {
			start(h, func(s *Setup) { s.Policy = PolicyDirector })
			h.move(engine.Black, "B1")
			h.move(engine.White, "E5")
			h.move(engine.Black, "A2")
			h.move(engine.White, "A1")
			h.wantBanner(VerdictIllegal, "halted")
			h.press(clock.BlackClock)
			h.wantBanner(VerdictInfo, "halted")
			if err := h.tab.Director(pin, DirectorAction{Kind: DirectorRetractPass}, h.now()); err != nil {
				h.tb.Fatal(err)
			}
		}, phase: PhasePlaying, banner: VerdictDirector, contains: []string{"takes the stone on A1 back and passes"}, moves: "B B1 W E5 B A2 W pass"},
		{name: "playing/director resume after a halt", size: 9, opts: withDirector, steps: func(h *harness) {
			start(h, func(s *Setup) { s.Policy = PolicyDirector })
			h.move(engine.Black, "B1")
			h.move(engine.White, "E5")
			h.move(engine.Black, "A2")
			h.move(engine.White, "A1")
			if err := h.tab.Director(pin, DirectorAction{Kind: DirectorResume}, h.now()); err != nil {
				h.tb.Fatal(err)
			}
		}, phase: PhasePlaying, banner: VerdictDirector, contains: []string{"White plays again"}, moves: "B B1 W E5 B A2",
			check: func(t *testing.T, h *harness, s State) {
				if s.ToMove != engine.White || s.ClockRunning != engine.White {
					t.Errorf("to move %v clock %v", s.ToMove, s.ClockRunning)
				}
			}},
		{name: "playing/flag falls", size: 9, steps: func(h *harness) {
			start(h, func(s *Setup) { s.TimeControl = "1m" })
			h.advance(61 * time.Second)
			h.tab.Tick(h.now())
		}, phase: PhaseEnded, banner: VerdictResult, contains: []string{"Black's time ran out", "W+T"},
			check: func(t *testing.T, h *harness, s State) {
				if s.Result != "W+T" {
					t.Errorf("result %q", s.Result)
				}
			}},
		{name: "playing/a press just before the flag counts", size: 9, steps: func(h *harness) {
			start(h, func(s *Setup) { s.TimeControl = "1m" })
			h.put('X', "E5")
			h.look()
			h.advance(60*time.Second - 900*time.Millisecond) // 100ms of Black's minute left
			pressed := h.now()
			h.advance(150 * time.Millisecond) // the flag falls while the press is debounced
			h.tab.Tick(h.now())
			if err := h.tab.Press(clock.Press{Button: clock.BlackClock, At: pressed}); err != nil {
				h.tb.Fatal(err)
			}
		}, phase: PhasePlaying, banner: VerdictMove, contains: []string{"Black E5"}, moves: "B E5"},
		{name: "playing/resign", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			if err := h.tab.Resign(engine.White, h.now()); err != nil {
				h.tb.Fatal(err)
			}
		}, phase: PhaseEnded, banner: VerdictResult, contains: []string{"White resigns", "B+R"}, moves: "B E5"},
		{name: "end/two passes stop and white owes none", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			h.press(clock.PassButton)
			h.press(clock.PassButton)
		}, phase: PhaseMarking, banner: VerdictStopped, contains: []string{"Two passes stop the game"}, moves: "B E5 W pass B pass W pass",
			check: func(t *testing.T, h *harness, s State) {
				if s.ClockRunning != engine.Empty {
					t.Errorf("clock runs in marking: %v", s.ClockRunning)
				}
			}},
		{name: "end/mark, confirm, count", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			h.move(engine.White, "B2")
			h.press(clock.PassButton)
			h.press(clock.PassButton)
			if err := h.tab.ToggleDead(h.pt("B2"), h.now()); err != nil {
				h.tb.Fatal(err)
			}
			h.press(clock.BlackClock)
			h.wantBanner(VerdictMarking, "Black confirms")
			h.press(clock.WhiteClock)
		}, phase: PhaseEnded, banner: VerdictResult, contains: []string{"Count by area", "B+73.5"}, moves: "B E5 W B2 B pass W pass",
			check: func(t *testing.T, h *harness, s State) {
				// Area: Black 81 points, White 7.5 komi: B+73.5.
				if s.Result != "B+73.5" || len(s.Dead) != 1 {
					t.Errorf("result %q dead %v", s.Result, s.Dead)
				}
				if s.GamePath == "" {
					t.Error("finished game not filed")
				}
			}},
		{name: "end/toggle resets a confirmation", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			h.move(engine.White, "B2")
			h.press(clock.PassButton)
			h.press(clock.PassButton)
			h.press(clock.BlackClock)
			h.tab.ToggleDead(h.pt("B2"), h.now())
		}, phase: PhaseMarking, banner: VerdictMarking, contains: []string{"marked dead"}, moves: "B E5 W B2 B pass W pass",
			check: func(t *testing.T, h *harness, s State) {
				if s.Black.Confirmed {
					t.Error("confirmation survived a change")
				}
			}},
		{name: "end/dead stones taken off the board", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			h.move(engine.White, "B2")
			h.press(clock.PassButton)
			h.press(clock.PassButton)
			h.put('.', "B2")
			h.look()
		}, phase: PhaseMarking, banner: VerdictMarking, contains: []string{"taken off the board count as dead: B2"}, moves: "B E5 W B2 B pass W pass"},
		{name: "end/engine proposal", size: 9, opts: func(o *Options) { o.Proposer = &fakeProposer{dead: []string{"B2"}} }, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			h.move(engine.White, "B2")
			h.press(clock.PassButton)
			h.press(clock.PassButton)
			h.waitProposal()
		}, phase: PhaseMarking, banner: VerdictMarking, contains: []string{"proposes 1 dead stones: B2"}, moves: "B E5 W B2 B pass W pass",
			check: func(t *testing.T, h *harness, s State) {
				if !s.FromProposal || len(s.Dead) != 1 {
					t.Errorf("proposal not applied: %+v", s.Dead)
				}
			}},
		{name: "end/engine proposal fails", size: 9, opts: func(o *Options) { o.Proposer = &fakeProposer{err: errors.New("gnugo crashed")} }, steps: func(h *harness) {
			start(h, nil)
			h.press(clock.PassButton)
			h.press(clock.PassButton)
			h.waitProposal()
		}, phase: PhaseMarking, banner: VerdictMarking, contains: []string{"could not propose", "gnugo crashed"}, moves: "B pass W pass"},
		{name: "end/resume after disagreement", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			h.press(clock.PassButton)
			h.press(clock.PassButton)
			if err := h.tab.Resume(engine.Black, h.now()); err != nil {
				h.tb.Fatal(err)
			}
		}, phase: PhasePlaying, banner: VerdictInfo, contains: []string{"AGA rule 10", "Black to play"}, moves: "B E5 W pass B pass W pass",
			check: func(t *testing.T, h *harness, s State) {
				// W, B pass (stop), W's owed pass (AGA 11); AGA 10: the opponent of the last passer plays: Black.
				if s.ToMove != engine.Black || s.ClockRunning != engine.Black {
					t.Errorf("to move %v clock %v", s.ToMove, s.ClockRunning)
				}
			}},
		{name: "end/four passes after resumption: all alive", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			h.move(engine.White, "B2")
			h.press(clock.PassButton)
			h.press(clock.PassButton)
			h.tab.Resume(engine.White, h.now())
			for i := 0; i < 4; i++ {
				h.press(clock.PassButton)
				if h.state().Phase == PhaseMarking {
					h.tab.Resume(engine.White, h.now())
				}
			}
		}, phase: PhaseEnded, banner: VerdictResult, contains: []string{"every stone is alive"}, moves: "B E5 W B2 B pass W pass B pass W pass",
			check: func(t *testing.T, h *harness, s State) {
				// AGA rule 10 is said once in the record (it was commented twice).
				if rec := string(h.tab.Record().MarshalSGF()); strings.Count(rec, "AGA rule 10).") != 1 {
					t.Errorf("the record says AGA rule 10's four passes %d times:\n%s", strings.Count(rec, "AGA rule 10)."), rec)
				}
			}},
		{name: "end/white owes the last pass", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			h.press(clock.PassButton) // W
			h.move(engine.Black, "D4")
			h.press(clock.PassButton) // W
			h.press(clock.PassButton) // B: stop, White owes
		}, phase: PhaseMarking, banner: VerdictStopped, moves: "B E5 W pass B D4 W pass B pass W pass",
			check: func(t *testing.T, h *harness, s State) {
				if s.Black.PassStones != 3 || s.White.PassStones != 1 {
					t.Errorf("pass stones B %d W %d", s.Black.PassStones, s.White.PassStones)
				}
			}},
		{name: "end/japanese: territory count and resumption by the requester's opponent", size: 9, steps: func(h *harness) {
			start(h, func(s *Setup) { s.Rules = "japanese" })
			h.move(engine.Black, "E5")
			h.press(clock.PassButton)
			h.press(clock.PassButton)
			if err := h.tab.Resume(engine.White, h.now()); err != nil {
				h.tb.Fatal(err)
			}
			h.wantBanner(VerdictInfo, "Japanese rules art. 9", "Black to play")
			h.press(clock.PassButton)
			h.press(clock.PassButton)
			h.press(clock.BlackClock)
			h.press(clock.WhiteClock)
		}, phase: PhaseEnded, banner: VerdictResult, contains: []string{"Count by territory", "B+73.5"}, moves: "B E5 W pass B pass B pass W pass"},
		{name: "recovery/a waiting press survives a restart", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.put('X', "E5")
			h.hand()
			h.press(clock.BlackClock)
			h.reopen()
			if s := h.state(); !s.Waiting || s.Banner.Kind != VerdictWaiting {
				h.tb.Fatalf("after restart: waiting %v banner %v", s.Waiting, s.Banner.Kind)
			}
			h.look()
		}, phase: PhasePlaying, banner: VerdictMove, contains: []string{"Black E5"}, moves: "B E5"},
		{name: "recovery/the waiting player restarts the clock", size: 9, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			h.reopen()
			if s := h.state(); !s.ClocksPaused || s.ClockRunning != engine.Empty {
				h.tb.Fatalf("clocks after restart: paused %v running %v", s.ClocksPaused, s.ClockRunning)
			}
			h.press(clock.BlackClock) // Black is waiting: his press restarts White's clock
		}, phase: PhasePlaying, banner: VerdictInfo, contains: []string{"Clocks running: White to play"}, moves: "B E5",
			check: func(t *testing.T, h *harness, s State) {
				if s.ClocksPaused || s.ClockRunning != engine.White {
					t.Errorf("paused %v running %v", s.ClocksPaused, s.ClockRunning)
				}
			}},
		{name: "director/undo after the count reopens the game", size: 9, opts: withDirector, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			h.press(clock.PassButton)
			h.press(clock.PassButton)
			h.press(clock.BlackClock)
			h.press(clock.WhiteClock)
			if err := h.tab.Director(pin, DirectorAction{Kind: DirectorUndo}, h.now()); err != nil {
				h.tb.Fatal(err)
			}
		}, phase: PhasePlaying, banner: VerdictDirector, contains: []string{"move 4 (W pass) taken back", "White to play"}, moves: "B E5 W pass B pass",
			check: func(t *testing.T, h *harness, s State) {
				if s.Result != "" || !s.ClocksPaused {
					t.Errorf("result %q paused %v", s.Result, s.ClocksPaused)
				}
			}},
		{name: "director/wrong PIN", size: 9, opts: withDirector, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			if err := h.tab.Director("0000", DirectorAction{Kind: DirectorUndo}, h.now()); !errors.Is(err, ErrBadPIN) {
				h.tb.Fatalf("err %v", err)
			}
		}, phase: PhasePlaying, banner: VerdictDirector, contains: []string{"Wrong director PIN"}, moves: "B E5"},
		{name: "director/no PIN configured", size: 9, steps: func(h *harness) {
			start(h, nil)
			if err := h.tab.Director(pin, DirectorAction{Kind: DirectorUndo}, h.now()); !errors.Is(err, ErrNoDirector) {
				h.tb.Fatalf("err %v", err)
			}
		}, phase: PhasePlaying, banner: VerdictInfo},
		{name: "director/undo", size: 9, opts: withDirector, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			h.move(engine.White, "C3")
			if err := h.tab.Director(pin, DirectorAction{Kind: DirectorUndo, Note: "misclick"}, h.now()); err != nil {
				h.tb.Fatal(err)
			}
		}, phase: PhasePlaying, banner: VerdictDirector, contains: []string{"move 2 (W C3) taken back", "Take the stone off C3", "misclick"}, moves: "B E5",
			check: func(t *testing.T, h *harness, s State) {
				if s.ToMove != engine.White || s.ClockRunning != engine.White {
					t.Errorf("to move %v clock %v", s.ToMove, s.ClockRunning)
				}
			}},
		{name: "director/correct", size: 9, opts: withDirector, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			if err := h.tab.Director(pin, DirectorAction{Kind: DirectorCorrect, Move: "D5"}, h.now()); err != nil {
				h.tb.Fatal(err)
			}
		}, phase: PhasePlaying, banner: VerdictDirector, contains: []string{"corrected from B E5 to B D5"}, moves: "B D5"},
		{name: "director/correct an earlier move", size: 9, opts: withDirector, steps: func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
			h.move(engine.White, "C3")
			h.move(engine.Black, "G7")
			if err := h.tab.Director(pin, DirectorAction{Kind: DirectorCorrect, Number: 2, Move: "G7"}, h.now()); !errors.Is(err, ErrPhase) {
				h.tb.Fatalf("a correction that makes a later move illegal: %v", err)
			}
			if err := h.tab.Director(pin, DirectorAction{Kind: DirectorCorrect, Number: 2, Move: "C4"}, h.now()); err != nil {
				h.tb.Fatal(err)
			}
		}, phase: PhasePlaying, banner: VerdictDirector, contains: []string{"move 2 corrected from W C3 to W C4"}, moves: "B E5 W C4 B G7",
			check: func(t *testing.T, h *harness, s State) {
				if s.ToMove != engine.White {
					t.Errorf("to move %v", s.ToMove)
				}
			}},
		{name: "director/adjust clock", size: 9, opts: withDirector, steps: func(h *harness) {
			start(h, nil)
			if err := h.tab.Director(pin, DirectorAction{Kind: DirectorAdjustClock, Color: engine.White, Remaining: 5 * time.Minute}, h.now()); err != nil {
				h.tb.Fatal(err)
			}
		}, phase: PhasePlaying, banner: VerdictDirector, contains: []string{"White's clock set to 5:00"}},
		{name: "director/end with a result", size: 9, opts: withDirector, steps: func(h *harness) {
			start(h, nil)
			if err := h.tab.Director(pin, DirectorAction{Kind: DirectorEnd, Result: "B+F"}, h.now()); err != nil {
				h.tb.Fatal(err)
			}
		}, phase: PhaseEnded, banner: VerdictResult, contains: []string{"Black wins by forfeit"}},
		{name: "director/pause and resume", size: 9, opts: withDirector, steps: func(h *harness) {
			start(h, nil)
			if err := h.tab.Director(pin, DirectorAction{Kind: DirectorPause}, h.now()); err != nil {
				h.tb.Fatal(err)
			}
			if s := h.state(); s.Phase != PhaseHalted || s.ClockRunning != engine.Empty {
				h.tb.Fatalf("pause: %v %v", s.Phase, s.ClockRunning)
			}
			if err := h.tab.Director(pin, DirectorAction{Kind: DirectorResume}, h.now()); err != nil {
				h.tb.Fatal(err)
			}
		}, phase: PhasePlaying, banner: VerdictDirector, contains: []string{"play resumes"}},
		{name: "director/a press while paused says the game is paused", size: 9, opts: withDirector, steps: func(h *harness) {
			start(h, nil)
			if err := h.tab.Director(pin, DirectorAction{Kind: DirectorPause}, h.now()); err != nil {
				h.tb.Fatal(err)
			}
			h.advance(time.Minute)
			h.press(clock.BlackClock)
		}, phase: PhaseHalted, banner: VerdictDirector, contains: []string{"The game is paused by the director", "until the director resumes play"},
			check: func(t *testing.T, h *harness, s State) {
				if strings.Contains(s.Banner.Message, "halted") || s.ClockRunning != engine.Empty || !s.ClocksPaused {
					t.Errorf("banner %q, clock running for %v, paused %v", s.Banner.Message, s.ClockRunning, s.ClocksPaused)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, c.size, func(o *Options) {
				o.GamesDir = t.TempDir()
				if c.opts != nil {
					c.opts(o)
				}
			})
			c.steps(h)
			s := h.state()
			if s.Phase != c.phase {
				t.Fatalf("phase %v, want %v (banner %q)", s.Phase, c.phase, s.Banner.Message)
			}
			if s.Banner.Kind != c.banner {
				t.Fatalf("banner %v %q, want %v", s.Banner.Kind, s.Banner.Message, c.banner)
			}
			for _, w := range c.contains {
				if !strings.Contains(s.Banner.Message, w) {
					t.Errorf("banner %q does not contain %q", s.Banner.Message, w)
				}
			}
			// What a screen shows of the banner is its phrases: they must say the message.
			if len(s.Banner.Says) > 0 && strings.TrimPrefix(s.Banner.Message, "Illegal move: ") != sentences(s.Banner.Says) {
				t.Errorf("banner %q, its phrases say %q", s.Banner.Message, sentences(s.Banner.Says))
			}
			if s.Banner.Kind != VerdictNone && len(s.Banner.Says) == 0 {
				t.Errorf("%v banner %q without phrases: the screens cannot translate it", s.Banner.Kind, s.Banner.Message)
			}
			if c.moves != "" || s.MoveNumber > 0 {
				if got := h.movesGTP(); got != c.moves {
					t.Errorf("moves %q, want %q", got, c.moves)
				}
			}
			if c.check != nil {
				c.check(t, h, s)
			}
			// Every state must survive a restart on the same journal.
			var want []byte
			if r := h.tab.Record(); r != nil {
				want = r.MarshalSGF()
			}
			wantMoves := h.movesGTP()
			h.reopen()
			s2 := h.state()
			if strings.Contains(s2.Recovery, "could not be replayed") || strings.Contains(s2.Recovery, "unreadable") {
				t.Fatalf("replay problem: %s", s2.Recovery)
			}
			if s2.Phase != s.Phase || h.movesGTP() != wantMoves || s2.Result != s.Result {
				t.Fatalf("after restart: phase %v moves %q result %q; before: %v %q %q", s2.Phase, h.movesGTP(), s2.Result, s.Phase, wantMoves, s.Result)
			}
			if r := h.tab.Record(); r != nil && string(r.MarshalSGF()) != string(want) {
				got := r.MarshalSGF()
				t.Errorf("SGF changed across a restart:\n%s\nwant\n%s", got, want)
			}
			if disk, err := os.ReadFile(s2.SGFPath); s.Phase != PhaseSetup && (err != nil || string(disk) != string(want)) {
				t.Errorf("SGF on disk differs (%v)", err)
			}
		})
	}
}

func TestSetupErrors(t *testing.T) {
	h := newHarness(t, 9, nil)
	k := 7.5
	for _, s := range []Setup{
		{Rules: "nonsense"}, {Size: 1}, {Size: 9, Handicap: 1}, {Size: 9, Handicap: 12}, {Size: 9, TimeControl: "5 apples"},
		{Size: 9, Policy: "lenient"}, {Size: 30, Komi: &k},
	} {
		if err := h.tab.Setup(s, h.now()); !errors.Is(err, ErrBadSetup) {
			t.Errorf("%+v: %v, want ErrBadSetup", s, err)
		}
	}
	if st := h.state(); st.Phase != PhaseSetup {
		t.Fatalf("phase %v after refused set-ups", st.Phase)
	}
	h.setup(Setup{Size: 9})
	if err := h.tab.Setup(Setup{Size: 9}, h.now()); !errors.Is(err, ErrPhase) {
		t.Errorf("second set-up: %v", err)
	}
	// Nothing refused was journaled: a restart finds just the one set-up.
	h.reopen()
	if st := h.state(); st.Phase != PhaseReady || st.Setup.Rules != "aga" || st.Setup.Date != "2026-03-14" {
		t.Fatalf("after restart: %v %+v", st.Phase, st.Setup)
	}
}

// TestIntentsOutOfPhase checks that every intent that does not apply in a phase is refused with
// ErrPhase and changes nothing.
func TestIntentsOutOfPhase(t *testing.T) {
	type intent struct {
		name string
		do   func(h *harness) error
	}
	intents := []intent{
		{"toggle", func(h *harness) error { return h.tab.ToggleDead(h.pt("E5"), h.now()) }},
		{"confirm", func(h *harness) error { return h.tab.Confirm(engine.Black, h.now()) }},
		{"resume", func(h *harness) error { return h.tab.Resume(engine.Black, h.now()) }},
		{"resume-clocks", func(h *harness) error { return h.tab.ResumeClocks(h.now()) }},
		{"director-resume", func(h *harness) error {
			return h.tab.Director(pin, DirectorAction{Kind: DirectorResume}, h.now())
		}},
		{"director-retract", func(h *harness) error {
			return h.tab.Director(pin, DirectorAction{Kind: DirectorRetractPass}, h.now())
		}},
		{"director-bad-result", func(h *harness) error {
			return h.tab.Director(pin, DirectorAction{Kind: DirectorEnd, Result: "Black wins"}, h.now())
		}},
		{"director-unknown", func(h *harness) error {
			return h.tab.Director(pin, DirectorAction{Kind: "teleport"}, h.now())
		}},
	}
	phases := map[string]func(h *harness){
		"setup": func(h *harness) {},
		"ready": func(h *harness) { h.setup(Setup{Size: 9}) },
		"playing": func(h *harness) {
			start(h, nil)
			h.move(engine.Black, "E5")
		},
		"ended": func(h *harness) {
			start(h, nil)
			h.tab.Resign(engine.Black, h.now())
		},
	}
	for pname, enter := range phases {
		for _, in := range intents {
			t.Run(pname+"/"+in.name, func(t *testing.T) {
				h := newHarness(t, 9, withDirector)
				enter(h)
				before := h.state()
				if err := in.do(h); !errors.Is(err, ErrPhase) {
					t.Fatalf("err %v, want ErrPhase", err)
				}
				after := h.state()
				if after.Phase != before.Phase || after.MoveNumber != before.MoveNumber || after.Result != before.Result {
					t.Fatalf("state changed: %v -> %v", before.Phase, after.Phase)
				}
			})
		}
	}
}

// TestMoveTimedAtPress: when the board settles only after the press, the mover's clock stops at
// the press, not when the camera saw the board still.
func TestMoveTimedAtPress(t *testing.T) {
	h := newHarness(t, 9, nil)
	start(h, nil)
	started := h.now().Add(-100 * time.Millisecond) // start() pressed, then advanced 100ms
	h.advance(10 * time.Second)
	h.put('X', "E5")
	h.tab.Observe(h.observation(h.board)) // the stone is seen, not yet stable
	pressed := h.now()
	if err := h.tab.Press(clock.Press{Button: clock.BlackClock, At: pressed}); err != nil {
		t.Fatal(err)
	}
	h.advance(2 * time.Second)
	h.tab.Observe(h.observation(h.board))
	s := h.state()
	if s.Banner.Kind != VerdictMove {
		t.Fatalf("banner %v %q", s.Banner.Kind, s.Banner.Message)
	}
	st := h.tab.clk.State()
	if used := 10*time.Minute - st.Black.Main; used != pressed.Sub(started) {
		t.Fatalf("Black was charged %v, want %v (up to the press)", used, pressed.Sub(started))
	}
}

// TestClockJumpBack: frames stamped long before the last event (the system clock went back) are
// still used, while frames just before it (seen again after a restart) are not acted on.
func TestClockJumpBack(t *testing.T) {
	h := newHarness(t, 9, nil)
	start(h, nil)
	h.put('X', "E5")
	h.hand()
	h.press(clock.BlackClock)
	back := h.now().Add(-time.Hour)
	for i := 0; i < 2; i++ {
		o := h.observation(h.board)
		o.Time = back.Add(time.Duration(i) * time.Second)
		h.tab.Observe(o)
	}
	if s := h.state(); s.Banner.Kind != VerdictMove || s.MoveNumber != 1 {
		t.Fatalf("after a clock jump: %v %q", s.Banner.Kind, s.Banner.Message)
	}
	// A frame 1s older than the last event, showing a changed board, is not acted on.
	h.put('O', "C3")
	h.hand()
	h.press(clock.WhiteClock)
	if !h.state().Waiting {
		t.Fatal("the press should wait")
	}
	last := h.tab.LastEventTime()
	for i := 0; i < 2; i++ {
		o := h.observation(h.board)
		o.Time = last.Add(-2*time.Second + time.Duration(i)*time.Second)
		h.tab.Observe(o)
	}
	if s := h.state(); s.MoveNumber != 1 || !s.Waiting {
		t.Fatalf("a stale frame was acted on: %q", s.Banner.Message)
	}
	// The next current frame settles it.
	o := h.observation(h.board)
	o.Time = last.Add(100 * time.Millisecond)
	h.tab.Observe(o)
	if s := h.state(); s.MoveNumber != 2 {
		t.Fatalf("the current frame was not used: %q", s.Banner.Message)
	}
}
