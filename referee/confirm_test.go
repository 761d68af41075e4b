package referee

import (
	"fmt"
	"strings"
	"testing"

	"tengen/clock"
	"tengen/engine"
)

// confPlay makes move m ("W B8") in the confirmation and takes the stones it captured off.
func (h *harness) confPlay(m string) State {
	h.tb.Helper()
	st := h.move(map[byte]engine.Color{'B': engine.Black, 'W': engine.White}[m[0]], m[2:])
	if c := st.Confirmation; c != nil {
		for i, s := range c.Board {
			if s == engine.Empty && h.board[i] != '.' {
				h.board[i] = '.'
			}
		}
		h.look()
	}
	return h.state()
}

// TestJapaneseArt72ConfirmationAtTheTable: two kos stand after the stop under Japanese rules, and
// the players play the dispute out. The moves are hypothetical (not recorded as moves, noted as
// confirmation); a ko may be retaken only after a pass for it, each ko on its own; at the end the
// stones the play captured are marked dead and the count follows.
func TestJapaneseArt72ConfirmationAtTheTable(t *testing.T) {
	h := newHarness(t, 9, nil)
	start(h, func(s *Setup) { s.Rules = "japanese" })
	black := []string{"B9", "A8", "B7", "G9", "F8", "G7"}
	white := []string{"C9", "B8", "D8", "C7", "H9", "G8", "J8", "H7"}
	for i, w := range white {
		if i < len(black) {
			h.play("B " + black[i])
		} else {
			h.press(clock.PassButton)
		}
		h.play("W " + w)
	}
	h.press(clock.PassButton)
	h.press(clock.PassButton)
	if st := h.state(); st.Phase != PhaseMarking {
		t.Fatalf("phase %v after two passes", st.Phase)
	}
	moves := h.movesGTP()
	if err := h.tab.StartConfirmation(engine.Black, h.now()); err != nil {
		t.Fatal(err)
	}
	h.wantBanner(VerdictMarking, "art. 7.2", "Black plays first")
	h.confPlay("B C8") // takes B8: White may not retake there before passing for it
	h.confPlay("W E2")
	st := h.confPlay("B H8") // takes G8: White is banned from two kos
	if c := st.Confirmation; c == nil || fmt.Sprint(c.KoBans) != fmt.Sprint([]engine.Point{h.pt("B8"), h.pt("G8")}) {
		t.Fatalf("confirmation %+v: want White banned from B8 and G8", st.Confirmation)
	}
	h.confPlay("W E3")
	h.confPlay("B E4")
	st = h.confPlay("W B8")
	if st.Banner.Kind != VerdictIllegal || !strings.Contains(st.Banner.Message, "art. 7.2") || !strings.Contains(st.Banner.Message, "pass once for this ko") {
		t.Fatalf("a retake without a pass for the ko: %v %q", st.Banner.Kind, st.Banner.Message)
	}
	if st.Phase != PhaseMarking || st.Result != "" {
		t.Fatalf("a ko retaken in the confirmation ended the game: %v %q", st.Phase, st.Result)
	}
	h.put('.', "B8")
	h.look()
	if err := h.tab.PassForKo(h.pt("G8"), h.now()); err != nil {
		t.Fatal(err)
	}
	h.wantBanner(VerdictMarking, "White passes for the ko at G8")
	h.confPlay("B E5")
	if st := h.confPlay("W B8"); st.Banner.Kind != VerdictIllegal {
		t.Fatalf("B8 retaken after a pass for G8 only: %v %q", st.Banner.Kind, st.Banner.Message)
	}
	h.put('.', "B8")
	h.look()
	h.press(clock.PassButton) // White passes for its oldest ko, B8
	h.wantBanner(VerdictMarking, "White passes for the ko at B8")
	h.confPlay("B E6")
	if st := h.confPlay("W B8"); st.Banner.Kind != VerdictMarking || !strings.Contains(st.Banner.Message, "Confirmation: White B8, capturing 1 (C8)") {
		t.Fatalf("the retake after the pass for it: %v %q", st.Banner.Kind, st.Banner.Message)
	}
	h.reopen() // the journal replays the confirmation
	if err := h.tab.EndConfirmation(h.now()); err != nil {
		t.Fatal(err)
	}
	st = h.wantBanner(VerdictMarking, "stones at G8 were captured and are marked dead", "Take the stones played in the confirmation off the board: H8, E6, E5, E4, E3, E2")
	if fmt.Sprint(st.Dead) != fmt.Sprint([]engine.Point{h.pt("G8")}) || st.Confirmation != nil {
		t.Fatalf("dead %v, confirmation %+v", st.Dead, st.Confirmation)
	}
	if got := h.movesGTP(); got != moves {
		t.Fatalf("the confirmation's moves were recorded as moves: %q", got)
	}
	if rec := string(h.tab.Record().MarshalSGF()); !strings.Contains(rec, "Confirmation (Japanese rules art. 7.2), hypothetical play: B C8, W E2, B H8") {
		t.Errorf("the record does not note the confirmation:\n%s", rec)
	}
	h.put('.', "H8", "E6", "E5", "E4", "E3", "E2")
	h.look()
	if st := h.state(); st.Banner.Kind != VerdictMarking || len(st.Dame.Filled) != 0 {
		t.Fatalf("the board put back: %v %q, dame %+v", st.Banner.Kind, st.Banner.Message, st.Dame)
	}
	h.press(clock.BlackClock)
	h.press(clock.WhiteClock)
	h.wantBanner(VerdictMarking, "Open dame remain") // the position has open dame (art. 8)
	h.press(clock.BlackClock)
	h.press(clock.WhiteClock)
	if st := h.state(); st.Phase != PhaseEnded || st.Score == nil || st.Score.Black.DeadCaptured != 1 {
		t.Fatalf("phase %v, score %+v after the count", st.Phase, st.Score)
	}
}
