package referee

import (
	"fmt"
	"time"

	"tengen/engine"
)

// Japanese rules art. 12: when the same whole-board position repeats during the game (a triple
// ko, eternal life, a round-robin ko: cycles the simple ko rule allows), the game ends with no
// result if the players agree. The referee says so as soon as a stone recreates an earlier
// position. Either player may then agree to no result (AgreeVoid, journaled); when both have
// agreed the game ends "Void". A stone that does not repeat a position breaks the cycle and the
// agreements lapse. If the players go round the cycle until a position stands for the third
// time, neither gives way, and the referee ends the game with no result. Under superko rulesets a
// repeating stone is illegal and none of this arises.

// Repetition is a whole-board repetition standing under Japanese rules art. 12.
type Repetition struct {
	// Move is the move that recreated the position, Earlier the move after which it first stood
	// (0: the starting position).
	Move, Earlier int
	// Agreed says which players agreed to end the game with no result (index engine.Black,
	// engine.White).
	Agreed [3]bool
}

// voidAfter is how many times a position may stand before the referee ends the game with no
// result: the third time, both players went round the cycle twice without giving way.
const voidAfter = 3

// repetitionRule reports whether a repeated position may end the game with no result (art. 12).
func (t *core) repetitionRule() bool {
	return t.rules.Ko == engine.SimpleKo && t.rules.Name == "japanese"
}

// noteRepetition looks at the move just played (accept): a stone that recreates an earlier
// position opens or continues an art. 12 repetition and is said on the banner; any other stone
// ends it. It reports whether the game ended with no result.
func (t *core) noteRepetition(played engine.Played, at time.Time) bool {
	if !t.repetitionRule() || played.Move.Pass {
		return false
	}
	g := t.game
	earlier, ok := g.Repetition()
	if !ok {
		t.repeat = nil
		t.repeatSeen = nil
		return false
	}
	if t.repeatSeen == nil {
		t.repeatSeen = map[int]int{}
	}
	t.repeatSeen[earlier]++
	r := &Repetition{Move: played.Number, Earlier: earlier}
	if t.repeat != nil {
		r.Agreed = t.repeat.Agreed
	}
	t.repeat = r
	args := []string{"N", fmt.Sprint(played.Number), "Earlier", fmt.Sprint(earlier)}
	if t.repeatSeen[earlier]+1 >= voidAfter {
		t.comment(fmt.Sprintf("Move %d recreates the whole-board position after move %d for the third time: neither player gave way, no result (Japanese rules art. 12).", played.Number, earlier))
		says := append([]Phrase{}, t.banner.Says...)
		says = append(says, phrase("Move {{.N}} recreates the whole-board position after move {{.Earlier}} for the third time: neither player gave way, so the game ends with no result (Japanese rules art. 12).", args...))
		t.end("Void", at, says)
		return true
	}
	t.comment(fmt.Sprintf("Move %d recreates the whole-board position after move %d (Japanese rules art. 12).", played.Number, earlier))
	v := t.banner
	v.Says = append(append([]Phrase{}, v.Says...), phrase("The whole-board position after move {{.N}} repeats the one after move {{.Earlier}} (Japanese rules art. 12): if both players agree, the game ends with no result; otherwise one of them must play elsewhere.", args...))
	t.setBanner(v)
	return false
}

// AgreeVoid records that c agrees to end the game with no result because a whole-board position
// repeated (Japanese rules art. 12); once both players have, the game ends "Void".
func (t *Table) AgreeVoid(c engine.Color, at time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.phase != PhasePlaying || t.repeat == nil || (c != engine.Black && c != engine.White) {
		return fmt.Errorf("%w: no repeated position to end the game on (Japanese rules art. 12)", ErrPhase)
	}
	return t.runEvent(&event{Kind: kindVoid, At: at, Color: c})
}

func (t *core) applyVoid(c engine.Color, at time.Time) error {
	if t.phase != PhasePlaying || t.repeat == nil || (c != engine.Black && c != engine.White) {
		return fmt.Errorf("%w: no repeated position", ErrPhase)
	}
	t.repeat.Agreed[c] = true
	if !t.repeat.Agreed[c.Opponent()] {
		t.setBanner(Verdict{Kind: VerdictInfo, Color: c, At: at, Says: []Phrase{
			phrase("{{.Color}} agrees to end the game with no result (Japanese rules art. 12); {{.Opponent}}, agree too, or play on.",
				"Color", title(c), "Opponent", title(c.Opponent()))}})
		return nil
	}
	r := t.repeat
	t.comment(fmt.Sprintf("Both players agree: the whole-board position after move %d repeated after move %d, no result (Japanese rules art. 12).", r.Earlier, r.Move))
	t.end("Void", at, []Phrase{phrase("Both players agree to end the game with no result, the position having repeated (Japanese rules art. 12):"), resultPhrase("Void")})
	return nil
}

// repetitionState is the standing repetition for State (nil: none).
func (t *core) repetitionState() *Repetition {
	if t.repeat == nil || t.phase != PhasePlaying {
		return nil
	}
	r := *t.repeat
	return &r
}
