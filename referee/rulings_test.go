package referee

import (
	"reflect"
	"testing"

	"tengen/engine"
)

// The game's rulings are kept in order with their time, move number and the article cited, stay
// when the banner moves on, are rebuilt from the journal after a restart, and start afresh with the
// next game.
func TestRulingsLog(t *testing.T) {
	h := newHarness(t, 9, withDirector)
	start(h, nil)
	h.moves("B E5", "W G3", "B B1", "W J9", "B A2", "W A1")
	h.wantBanner(VerdictIllegal, "AGA rule 8")
	// White takes the stone back: the banner moves on, the ruling stays.
	h.put('.', "A1")
	h.look()
	h.move(engine.Black, "C3")
	if err := h.tab.Director(pin, DirectorAction{Kind: DirectorUndo, Note: "knocked"}, h.now()); err != nil {
		t.Fatal(err)
	}
	st := h.state()
	if st.Banner.Kind != VerdictDirector {
		t.Fatalf("banner %v after the undo", st.Banner.Kind)
	}
	if len(st.Rulings) != 2 {
		t.Fatalf("%d rulings, want 2: %+v", len(st.Rulings), st.Rulings)
	}
	ill, dir := st.Rulings[0], st.Rulings[1]
	if ill.Kind != VerdictIllegal || ill.Color != engine.White || ill.RuleCited() != "AGA rule 5" || ill.MoveNumber != 6 || ill.At.IsZero() {
		t.Errorf("first ruling %v %v rule %q move %d at %v", ill.Kind, ill.Color, ill.RuleCited(), ill.MoveNumber, ill.At)
	}
	if dir.Kind != VerdictDirector || dir.RuleCited() != "" || !dir.At.After(ill.At) {
		t.Errorf("second ruling %v rule %q at %v", dir.Kind, dir.RuleCited(), dir.At)
	}
	for _, r := range st.Rulings {
		if len(r.Says) == 0 {
			t.Errorf("ruling %v without phrases", r.Kind)
		}
	}
	// Moves and presses are not rulings.
	for _, v := range st.History {
		if !IsRuling(v.Kind) && containsVerdict(st.Rulings, v) {
			t.Errorf("%v verdict in the rulings", v.Kind)
		}
	}
	h.reopen()
	if got := h.state().Rulings; !reflect.DeepEqual(got, st.Rulings) {
		t.Errorf("after replaying the journal the rulings are\n%+v\nwant\n%+v", got, st.Rulings)
	}
	// The result is a ruling too; the next game starts with none.
	if err := h.tab.Director(pin, DirectorAction{Kind: DirectorEnd, Result: "B+R"}, h.now()); err != nil {
		t.Fatal(err)
	}
	if rs := h.state().Rulings; len(rs) < 3 || rs[len(rs)-1].Kind != VerdictResult && rs[len(rs)-1].Kind != VerdictDirector {
		t.Fatalf("the result is not among the rulings: %+v", rs)
	}
	if err := h.tab.NewGame(h.now()); err != nil {
		t.Fatal(err)
	}
	if rs := h.state().Rulings; len(rs) != 0 {
		t.Errorf("the next game starts with %d rulings", len(rs))
	}
}

func containsVerdict(vs []Verdict, v Verdict) bool {
	for _, w := range vs {
		if reflect.DeepEqual(w, v) {
			return true
		}
	}
	return false
}
