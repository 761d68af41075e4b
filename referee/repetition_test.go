package referee

import (
	"strings"
	"testing"

	"tengen/clock"
	"tengen/engine"
)

// tripleKo is KataGo's "triple ko simple" board (../shared/rules-cases/katago), 7x7: three kos,
// Black to move, each capture answered by a capture elsewhere.
var tripleKo = struct{ black, white, cycle []string }{
	black: []string{"A5", "A4", "B6", "B4", "C5", "C4", "D4", "E5", "E4", "F4", "G5", "G4"},
	white: []string{"A7", "A6", "A3", "B7", "B3", "C7", "C6", "C3", "D7", "D5", "D3", "E7", "E6", "E3", "F7", "F5", "F3", "G7", "G6", "G3"},
	cycle: []string{"B D6", "W B5", "B F6", "W D5", "B B6", "W F5"},
}

// play makes move m ("B D4") at the table and takes off the stones it captures.
func (h *harness) play(m string) State {
	h.tb.Helper()
	c := engine.Black
	if m[0] == 'W' {
		c = engine.White
	}
	st := h.move(c, m[2:])
	if st.Banner.Kind == VerdictRemoveCaptures {
		for _, p := range st.Expected {
			h.board[p.Y*h.size+p.X] = '.'
		}
		h.look()
		st = h.state()
	}
	return st
}

// startTripleKo sets the triple ko up by play under rules (Black passes while White places its
// extra stones), ready for the cycle with Black to move.
func startTripleKo(t *testing.T, rules string) *harness {
	t.Helper()
	h := newHarness(t, 7, nil)
	start(h, func(s *Setup) { s.Rules, s.Size = rules, 7 })
	for i, w := range tripleKo.white {
		if i < len(tripleKo.black) {
			h.play("B " + tripleKo.black[i])
		} else {
			h.press(clock.PassButton)
		}
		h.play("W " + w)
	}
	if st := h.state(); st.ToMove != engine.Black || st.Phase != PhasePlaying {
		t.Fatalf("after the set-up: %v to move, phase %v", st.ToMove, st.Phase)
	}
	return h
}

// TestJapaneseArt12Repetition: a triple ko under Japanese rules. The stone that recreates an
// earlier whole-board position is said on screen (art. 12), both players may agree to no result,
// the game then ends "Void" (RE[Void]); players who go round the cycle until a position stands a
// third time get no result from the referee. Under AGA rules the repeating stone is illegal.
func TestJapaneseArt12Repetition(t *testing.T) {
	t.Run("agreed", func(t *testing.T) {
		h := startTripleKo(t, "japanese")
		for _, m := range tripleKo.cycle[:5] {
			if st := h.play(m); st.Repetition != nil {
				t.Fatalf("%s: repetition %+v before the cycle closed", m, st.Repetition)
			}
		}
		if err := h.tab.AgreeVoid(engine.White, h.now()); err == nil {
			t.Fatal("no result agreed with no repetition standing")
		}
		// The sixth stone brings back the position the cycle started from.
		st := h.play(tripleKo.cycle[5])
		if st.Repetition == nil || st.Repetition.Move != st.MoveNumber || st.Repetition.Move-st.Repetition.Earlier != 6 {
			t.Fatalf("repetition %+v after move %d, want one six moves back", st.Repetition, st.MoveNumber)
		}
		h.wantBanner(VerdictMove, "repeats the one after move", "art. 12")
		if err := h.tab.AgreeVoid(engine.White, h.now()); err != nil {
			t.Fatal(err)
		}
		h.wantBanner(VerdictInfo, "White agrees to end the game with no result")
		st = h.play(tripleKo.cycle[0]) // the cycle goes on: the agreement stands
		if st.Repetition == nil || !st.Repetition.Agreed[engine.White] {
			t.Fatalf("repetition %+v: White's agreement lapsed", st.Repetition)
		}
		h.reopen()
		if err := h.tab.AgreeVoid(engine.Black, h.now()); err != nil {
			t.Fatal(err)
		}
		st = h.wantBanner(VerdictResult, "no result (Void)")
		if st.Phase != PhaseEnded || st.Result != "Void" {
			t.Fatalf("phase %v result %q", st.Phase, st.Result)
		}
		if rec := string(h.tab.Record().MarshalSGF()); !strings.Contains(rec, "RE[Void]") || !strings.Contains(rec, "art. 12") {
			t.Errorf("record without RE[Void] or the article:\n%s", rec)
		}
	})
	t.Run("neither gives way", func(t *testing.T) {
		h := startTripleKo(t, "japanese")
		for i := 0; i < 11; i++ {
			if st := h.play(tripleKo.cycle[i%6]); st.Phase != PhasePlaying {
				t.Fatalf("move %d of the cycle: phase %v", i+1, st.Phase)
			}
		}
		h.play(tripleKo.cycle[5]) // the starting position stands for the third time
		st := h.wantBanner(VerdictResult, "for the third time", "no result")
		if st.Result != "Void" {
			t.Fatalf("result %q", st.Result)
		}
	})
	t.Run("a stone elsewhere breaks the cycle", func(t *testing.T) {
		h := startTripleKo(t, "japanese")
		for i := 0; i < 7; i++ {
			h.play(tripleKo.cycle[i%6])
		}
		if st := h.play("W A1"); st.Repetition != nil {
			t.Fatalf("repetition %+v after a new position", st.Repetition)
		}
		if err := h.tab.AgreeVoid(engine.Black, h.now()); err == nil {
			t.Fatal("no result agreed after the cycle was broken")
		}
	})
	t.Run("AGA: the repeating stone is illegal", func(t *testing.T) {
		h := startTripleKo(t, "aga")
		for _, m := range tripleKo.cycle[:5] {
			h.play(m)
		}
		st := h.play(tripleKo.cycle[5])
		if st.Banner.Kind != VerdictIllegal || !strings.Contains(st.Banner.Message, "AGA rule 6") || st.Repetition != nil {
			t.Fatalf("banner %v %q, repetition %+v", st.Banner.Kind, st.Banner.Message, st.Repetition)
		}
	})
}
