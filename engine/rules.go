package engine

import (
	"errors"
	"fmt"
	"strings"
)

// KoRule says which repetitions a move may not create.
type KoRule int8

// The ko rules.
const (
	// SimpleKo forbids only the immediate recapture of a single stone in a ko (Japanese art. 6).
	SimpleKo KoRule = iota
	// PositionalSuperko forbids recreating any earlier whole-board position (Chinese, Tromp-Taylor).
	PositionalSuperko
	// SituationalSuperko forbids recreating an earlier position with the same player to move (AGA rule 6).
	SituationalSuperko
)

// String names the ko rule.
func (k KoRule) String() string {
	switch k {
	case SimpleKo:
		return "simple ko"
	case PositionalSuperko:
		return "positional superko"
	case SituationalSuperko:
		return "situational superko"
	}
	return fmt.Sprintf("KoRule(%d)", int(k))
}

// Scoring is the counting method.
type Scoring int8

// The counting methods.
const (
	// AreaScoring counts live stones plus surrounded empty points; prisoners do not count.
	AreaScoring Scoring = iota
	// TerritoryScoring counts surrounded empty points plus prisoners (captures, dead stones, pass stones).
	TerritoryScoring
)

// String names the counting method.
func (s Scoring) String() string {
	if s == TerritoryScoring {
		return "territory"
	}
	return "area"
}

// HandicapBonus is what White receives for Black's handicap stones at the count.
type HandicapBonus int8

// The handicap bonuses.
const (
	BonusNone    HandicapBonus = iota // nothing
	BonusN                            // one point per handicap stone (Chinese)
	BonusNMinus1                      // one point per handicap stone after the first (AGA area counting)
)

// String names the bonus.
func (h HandicapBonus) String() string {
	switch h {
	case BonusN:
		return "N"
	case BonusNMinus1:
		return "N-1"
	}
	return "0"
}

// Resumption says who moves first when a stopped game is resumed.
type Resumption int8

// The resumption rules.
const (
	// ResumeOpponentOfLastPasser: play resumes with the opponent of the player who passed last (AGA rule 10).
	ResumeOpponentOfLastPasser Resumption = iota
	// ResumeOtherThanRequester: the player who did not ask to resume plays first (Japanese art. 9.3).
	ResumeOtherThanRequester
)

// Rules is a ruleset: a set of independent parameters. Presets fill it; any combination is valid.
type Rules struct {
	Name           string        // preset name ("aga", "japanese", ...) or a custom label; picks the articles errors cite
	Ko             KoRule        // which repetitions are forbidden
	Scoring        Scoring       // area or territory
	SekiEyesCount  bool          // false = Japanese art. 8: eye points of groups in seki are not territory
	LiteralDame    bool          // with SekiEyesCount false: art. 8 read literally, any live stone next to an open dame is in seki (default: the count regards every dame that can be filled safely as filled)
	SuicideLegal   bool          // true = a move may remove its own chain (Tromp-Taylor, New Zealand)
	HandicapBonus  HandicapBonus // White's compensation per handicap stone
	PassStones     bool          // a pass hands a stone to the opponent (AGA rule 7)
	WhiteMovesLast bool          // if Black passed last, White owes one more pass (AGA rule 11)
	Komi           float64       // komi in even games
	HandicapKomi   float64       // komi once handicap stones are placed
	Resumption     Resumption    // who plays first when a stopped game resumes
	// ConfirmationKo: while confirming life and death after the stop (Japanese art. 7.2) a ko may be
	// retaken only after a pass for it. Applies in the Confirmation sandbox.
	ConfirmationKo bool
}

// presetOrder lists the preset names in the order PresetNames returns them.
var presetOrder = [...]string{"aga", "aga-territory", "japanese", "chinese", "tromp-taylor", "new-zealand", "basic"}

// ErrUnknownRules is wrapped by Preset when the name is not a preset.
var ErrUnknownRules = errors.New("unknown rules")

// PresetNames returns the names Preset accepts.
func PresetNames() []string { return append([]string(nil), presetOrder[:]...) }

// Preset returns a named ruleset: "aga" (area counting), "aga-territory", "japanese", "chinese",
// "tromp-taylor", "new-zealand", "basic" (seed 003: AGA play, Japanese counting, simple repetition rule;
// no pass stones and no white-moves-last, which its text does not have).
// Names are case-insensitive; "aga-area" is an alias of "aga".
func Preset(name string) (Rules, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "aga", "aga-area":
		return Rules{Name: "aga", Ko: SituationalSuperko, Scoring: AreaScoring, SekiEyesCount: true,
			HandicapBonus: BonusNMinus1, PassStones: true, WhiteMovesLast: true, Komi: 7.5, HandicapKomi: 0.5,
			Resumption: ResumeOpponentOfLastPasser}, nil
	case "aga-territory":
		return Rules{Name: "aga-territory", Ko: SituationalSuperko, Scoring: TerritoryScoring, SekiEyesCount: true,
			HandicapBonus: BonusNone, PassStones: true, WhiteMovesLast: true, Komi: 7.5, HandicapKomi: 0.5,
			Resumption: ResumeOpponentOfLastPasser}, nil
	case "japanese":
		return Rules{Name: "japanese", Ko: SimpleKo, Scoring: TerritoryScoring, SekiEyesCount: false,
			HandicapBonus: BonusNone, Komi: 6.5, HandicapKomi: 0.5, Resumption: ResumeOtherThanRequester,
			ConfirmationKo: true}, nil
	case "chinese":
		return Rules{Name: "chinese", Ko: PositionalSuperko, Scoring: AreaScoring, SekiEyesCount: true,
			HandicapBonus: BonusN, Komi: 7.5, HandicapKomi: 0.5, Resumption: ResumeOpponentOfLastPasser}, nil
	case "tromp-taylor":
		return Rules{Name: "tromp-taylor", Ko: PositionalSuperko, Scoring: AreaScoring, SekiEyesCount: true,
			SuicideLegal: true, HandicapBonus: BonusNone, Komi: 7.5, HandicapKomi: 0.5,
			Resumption: ResumeOpponentOfLastPasser}, nil
	case "new-zealand":
		return Rules{Name: "new-zealand", Ko: SituationalSuperko, Scoring: AreaScoring, SekiEyesCount: true,
			SuicideLegal: true, HandicapBonus: BonusNone, Komi: 7, HandicapKomi: 0,
			Resumption: ResumeOpponentOfLastPasser}, nil
	case "basic":
		return Rules{Name: "basic", Ko: SimpleKo, Scoring: TerritoryScoring, SekiEyesCount: true,
			HandicapBonus: BonusNone, Komi: 7.5, HandicapKomi: 0.5,
			Resumption: ResumeOpponentOfLastPasser}, nil
	}
	return Rules{}, fmt.Errorf("%w %q (known: %s)", ErrUnknownRules, name, strings.Join(presetOrder[:], ", "))
}

// String summarises the parameters, e.g. "aga: situational superko, area, ...".
func (r Rules) String() string {
	seki := "seki eyes count"
	if !r.SekiEyesCount {
		seki = "no territory in seki"
		if r.LiteralDame {
			seki += " (open dame read literally)"
		}
	}
	suicide := "suicide illegal"
	if r.SuicideLegal {
		suicide = "suicide legal"
	}
	return fmt.Sprintf("%s: %s, %s scoring, %s, %s, handicap bonus %s, pass stones %t, white moves last %t, komi %g",
		r.Name, r.Ko, r.Scoring, seki, suicide, r.HandicapBonus, r.PassStones, r.WhiteMovesLast, r.Komi)
}
