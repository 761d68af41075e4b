package referee

// The game's rulings: what the referee or the director decided about the game (an illegal move and
// its penalty, a director's action, the result), kept for the whole game so that the players and
// the director can read them again after the banner has moved on. The log is part of the core's
// state: it is rebuilt by replaying the journal, as every verdict is said again there.

// RulingsLen is how many rulings State.Rulings keeps (the latest); a game has a handful.
const RulingsLen = 200

// IsRuling reports whether a verdict of kind k is a ruling the game's rulings log keeps: an
// illegal move and what it cost, a director's action, and the game's result.
func IsRuling(k VerdictKind) bool {
	switch k {
	case VerdictIllegal, VerdictDirector, VerdictResult:
		return true
	}
	return false
}

// noteRuling adds v to the rulings log when it is a ruling.
func (t *core) noteRuling(v Verdict) {
	if !IsRuling(v.Kind) {
		return
	}
	t.rulings = append(t.rulings, v)
	if len(t.rulings) > RulingsLen {
		t.rulings = append([]Verdict(nil), t.rulings[len(t.rulings)-RulingsLen:]...)
	}
}

// RuleCited returns the article a ruling cites ("AGA rule 6", "Japanese rules art. 14"): the Rule
// field of its first phrase that has one, as the rules engine words it (a word a screen
// translates), or "" when it cites none.
func (v Verdict) RuleCited() string {
	for _, p := range v.Says {
		if r := p.Args["Rule"]; r != "" {
			return r
		}
	}
	return ""
}
