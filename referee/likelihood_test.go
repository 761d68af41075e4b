package referee

import (
	"slices"
	"strings"
	"testing"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/vision/observe"
)

// probsObservation is the fake board read with probabilities: every point at 0.995 for what the
// board shows, the points of odd as given (their best guess follows).
func (h *harness) probsObservation(odd map[string]observe.Probs) observe.Observation {
	o := h.observation(h.board)
	o.Probs = make([]observe.Probs, len(o.Stones))
	for i, s := range o.Stones {
		for k := range o.Probs[i] {
			o.Probs[i][k] = 0.005 / 3
		}
		o.Probs[i][s] = 0.995
	}
	for v, p := range odd {
		q := h.pt(v)
		i := q.Y*h.size + q.X
		o.Probs[i] = p
		o.Stones[i] = p.Likeliest()
	}
	return o
}

// playUnder puts a stone ('X' or 'O') on v, lets the board settle read with odd, and presses that
// colour's clock.
func (h *harness) playUnder(odd map[string]observe.Probs, stone byte, v string) {
	h.put(stone, v)
	h.lookProbs(odd)
	if stone == 'X' {
		h.press(clock.BlackClock)
	} else {
		h.press(clock.WhiteClock)
	}
}

// lookProbs is look with probsObservation.
func (h *harness) lookProbs(odd map[string]observe.Probs) {
	h.tab.Observe(h.probsObservation(odd))
	h.advance(600 * time.Millisecond)
	h.tab.Observe(h.probsObservation(odd))
	h.advance(100 * time.Millisecond)
}

// TestPressByLikelihood: the press is judged on the most likely explanation of the reading, not
// on each point's best guess. A clear move is played despite an unsure point elsewhere; close
// explanations or a board that fits none are refused and nothing is recorded. Every decision is
// the same after a restart (the reading's probabilities are journaled).
func TestPressByLikelihood(t *testing.T) {
	tests := []struct {
		name     string
		steps    func(h *harness)
		banner   VerdictKind
		contains []string // in the banner's English
		points   string   // the banner's points, GTP, space separated ("" = not checked)
		moves    string
	}{
		{name: "an unsure point elsewhere does not spoil the move", steps: func(h *harness) {
			h.move(engine.Black, "E5")
			h.put('O', "C3")
			h.lookProbs(map[string]observe.Probs{
				"G7": {0.3, 0.6, 0.05, 0.05},  // an empty point read black, 60 to 30
				"E5": {0.6, 0.38, 0.01, 0.01}, // Black's stone read empty, 60 to 38
			})
			h.press(clock.WhiteClock)
		}, banner: VerdictMove, contains: []string{"2: White C3."}, moves: "B E5 W C3"},
		{name: "the move read at 78% counts: the press says a stone was placed", steps: func(h *harness) {
			h.move(engine.Black, "E5")
			h.put('O', "C3")
			h.lookProbs(map[string]observe.Probs{"C3": {0.2, 0.01, 0.78, 0.01}})
			h.press(clock.WhiteClock)
		}, banner: VerdictMove, contains: []string{"2: White C3."}, moves: "B E5 W C3"},
		{name: "a stone more likely absent than present is not guessed", steps: func(h *harness) {
			h.move(engine.Black, "E5")
			h.put('O', "C3")
			h.lookProbs(map[string]observe.Probs{"C3": {0.6, 0.01, 0.38, 0.01}})
			h.press(clock.WhiteClock)
		}, banner: VerdictNoChange, moves: "B E5"},
		{name: "two plausible points: nothing recorded", steps: func(h *harness) {
			h.move(engine.Black, "E5")
			h.lookProbs(map[string]observe.Probs{
				"C3": {0.3, 0.01, 0.68, 0.01},
				"G7": {0.32, 0.01, 0.66, 0.01},
			})
			h.press(clock.WhiteClock)
		}, banner: VerdictBoardDiffers, contains: []string{"White, check the stones at G7, C3"}, points: "G7 C3", moves: "B E5"},
		{name: "a stone moved: the board differs at both points", steps: func(h *harness) {
			h.move(engine.Black, "E5")
			h.move(engine.White, "C3")
			h.put('.', "C3")
			h.put('O', "D3")
			h.put('X', "G7")
			h.lookProbs(nil)
			h.press(clock.BlackClock)
		}, banner: VerdictBoardDiffers, contains: []string{"D3", "C3", "put the white stone back on C3"}, points: "G7 C3 D3", moves: "B E5 W C3"},
		{name: "a capture with one captured stone left on the board", steps: func(h *harness) {
			// White's E5 and E6 are captured by Black's E4.
			for _, m := range []struct {
				c engine.Color
				v string
			}{{engine.Black, "D5"}, {engine.White, "E5"}, {engine.Black, "F5"}, {engine.White, "E6"}, {engine.Black, "D6"},
				{engine.White, "A1"}, {engine.Black, "F6"}, {engine.White, "A2"}, {engine.Black, "E7"}, {engine.White, "A3"}} {
				h.move(m.c, m.v)
			}
			h.put('X', "E4")
			h.put('.', "E5")
			h.lookProbs(nil)
			h.press(clock.BlackClock)
		}, banner: VerdictRemoveCaptures, contains: []string{"Black E4 captures 2: remove the captured stones at E6."}, points: "E6", moves: "B D5 W E5 B F5 W E6 B D6 W A1 B F6 W A2 B E7 W A3"},
		{name: "the opponent's next stone read surely, the mover's too", steps: func(h *harness) {
			h.move(engine.Black, "E5")
			h.put('O', "C3")
			h.put('X', "G7")
			h.lookProbs(map[string]observe.Probs{"H8": {0.4, 0.55, 0.03, 0.02}})
			h.press(clock.WhiteClock)
		}, banner: VerdictMove, contains: []string{"2: White C3. Black's stone on G7 is seen already"}, moves: "B E5 W C3"},
		{name: "glare read as a stone at every move is not taken for the move", steps: func(h *harness) {
			glare := map[string]observe.Probs{"G7": {0.02, 0.01, 0.97, 0}} // an empty point read white, 97 to 2
			h.playUnder(glare, 'X', "E5")                                  // the glare appears with Black's move
			h.wantBanner(VerdictMove, "1: Black E5")
			h.playUnder(glare, 'O', "C3")
			// Seen once only, the glare may be a stone: White's C3 or G7?
			h.wantBanner(VerdictBoardDiffers, "White, check the stones at G7, C3")
			h.put('.', "C3") // White lifts the stone: the board matches the game again, glare and all
			h.lookProbs(glare)
			h.wantBanner(VerdictInfo, "The board matches the game again")
			h.playUnder(glare, 'O', "C3")
			h.wantBanner(VerdictMove, "2: White C3")
			h.playUnder(glare, 'X', "D4")
			h.playUnder(glare, 'O', "F6")
		}, banner: VerdictMove, contains: []string{"4: White F6."}, moves: "B E5 W C3 B D4 W F6"},
		{name: "a move on the glare cannot be seen: the glare is named", steps: func(h *harness) {
			glare := map[string]observe.Probs{"G7": {0.02, 0.01, 0.97, 0}}
			h.playUnder(glare, 'X', "E5")
			h.playUnder(glare, 'O', "C3") // White plays elsewhere first: refused once, then counted (see above)
			h.put('.', "C3")
			h.lookProbs(glare)
			h.playUnder(glare, 'O', "C3")
			h.wantBanner(VerdictMove, "2: White C3")
			h.playUnder(glare, 'X', "D4")
			h.playUnder(glare, 'O', "G7") // on the glare
		}, banner: VerdictBoardDiffers, contains: []string{"White, check the stones at G7"}, points: "G7", moves: "B E5 W C3 B D4"},
		{name: "a move on weak glare is seen: it counts for what it gained", steps: func(h *harness) {
			glare := map[string]observe.Probs{"G7": {0.19, 0.01, 0.8, 0}} // an empty point read white, 80 to 19
			h.playUnder(glare, 'X', "E5")
			h.playUnder(glare, 'O', "C3")
			h.playUnder(glare, 'X', "D4")
			h.wantBanner(VerdictMove, "3: Black D4")
			h.playUnder(nil, 'O', "G7") // on the glare, now read white at the reader's sure 0.995
		}, banner: VerdictMove, contains: []string{"4: White G7"}, moves: "B E5 W C3 B D4 W G7"},
		{name: "the opponent's stone after their press out of turn: a move was missed", steps: func(h *harness) {
			h.move(engine.Black, "E5")
			h.put('O', "C3")
			h.put('X', "G7")
			h.press(clock.BlackClock) // Black presses for G7 while White's C3 is not counted yet
			h.lookProbs(nil)
			h.press(clock.WhiteClock)
		}, banner: VerdictBoardDiffers, contains: []string{"2 new stones at once"}, points: "G7 C3", moves: "B E5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 9, nil)
			start(h, nil)
			tc.steps(h)
			s := h.wantBanner(tc.banner, tc.contains...)
			if tc.points != "" {
				var got []string
				for _, p := range s.Banner.Points {
					got = append(got, p.GTP(9))
				}
				if strings.Join(got, " ") != tc.points {
					t.Errorf("points %v, want %s", got, tc.points)
				}
			}
			if got := h.movesGTP(); got != tc.moves {
				t.Errorf("moves %q, want %q", got, tc.moves)
			}
			// A restart replays the journal to the same decision.
			h.reopen()
			r := h.state()
			said := slices.ContainsFunc(r.History, func(v Verdict) bool {
				return v.Kind == s.Banner.Kind && v.Message == s.Banner.Message && slices.Equal(v.Points, s.Banner.Points)
			})
			if got := h.movesGTP(); got != tc.moves || !said || !slices.Equal(r.Expected, s.Expected) {
				t.Errorf("after a restart: moves %q, verdict said again %v, expected %v; want %q, %v", got, said, r.Expected, tc.moves, s.Expected)
			}
		})
	}
}

// TestProbsText: the journal's form of a reading's probabilities reads back within a quarter nat,
// and a reading with best guesses only journals nothing more.
func TestProbsText(t *testing.T) {
	o := observe.New(3)
	if got := probsText(o); got != "" {
		t.Errorf("best guesses only: %q", got)
	}
	o.Confidence[4] = 0.6
	o.Probs = nil
	withConf := probsText(o)
	if len(withConf) != 36 {
		t.Fatalf("confidence: %d characters", len(withConf))
	}
	o.Probs = make([]observe.Probs, 9)
	for i := range o.Probs {
		o.Probs[i] = observe.Probs{0.9, 0.07, 0.029, 0.001}
	}
	o.Probs[8] = observe.Probs{0, 1, 0, 0}
	text := probsText(o)
	back := o.Clone()
	back.Probs = nil
	if err := parseProbsText(&back, text); err != nil {
		t.Fatal(err)
	}
	for i := range o.Probs {
		for k := range 4 {
			want, got := float64(o.Probs[i][k]), float64(back.Probs[i][k])
			if want == 0 {
				if got > 2e-7 {
					t.Errorf("point %d reading %d: %g for 0", i, k, got)
				}
				continue
			}
			if r := got / want; r < 0.88 || r > 1.14 {
				t.Errorf("point %d reading %d: %g for %g", i, k, got, want)
			}
		}
	}
	if probsText(journalForm(o)) != text {
		t.Error("the journal's form is not stable")
	}
	for _, bad := range []string{"AAA", strings.Repeat("*", 36)} {
		if err := parseProbsText(&back, bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// FuzzParseProbsText: any journaled probability text is either refused or read into
// probabilities in (0, 1] that encode back to the same text and rank without trouble.
func FuzzParseProbsText(f *testing.F) {
	o := observe.New(3)
	o.Confidence[4] = 0.6
	f.Add(probsText(o))
	f.Add("")
	f.Add(strings.Repeat("A", 36))
	f.Add(strings.Repeat("_", 35))
	f.Fuzz(func(t *testing.T, text string) {
		o := observe.New(3)
		if err := parseProbsText(&o, text); err != nil || text == "" {
			return
		}
		for i, p := range o.Probs {
			for k, v := range p {
				if !(v > 0 && v <= 1) {
					t.Fatalf("point %d reading %d: %g", i, k, v)
				}
			}
		}
		if got := probsText(o); got != text {
			t.Fatalf("%q encodes back as %q", text, got)
		}
		if _, err := parseBoardText(3, boardText(o)); err != nil {
			t.Fatal(err)
		}
		_ = fits(3, make([]engine.Color, 9), o)
		_ = changes(3, make([]engine.Color, 9), o)
	})
}
