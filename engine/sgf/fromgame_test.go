package sgf

import (
	"testing"

	"tengen/engine"
)

// TestFromGameRoundTrip: a game's record, written and read back, replays to the same position.
func TestFromGameRoundTrip(t *testing.T) {
	rules, err := engine.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(9, rules)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.PlaceFixedHandicap(2); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"E5", "C4", "pass", "D4"} {
		m := engine.Move{Color: g.ToMove(), Pass: v == "pass"}
		if !m.Pass {
			if m.Point, err = engine.ParsePoint(v, 9); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := g.Play(m); err != nil {
			t.Fatalf("%s: %v", v, err)
		}
	}
	rec := FromGame(g)
	if rec.Handicap != 2 || len(rec.Setup) != 2 || len(rec.Moves) != 4 {
		t.Fatalf("record: handicap %d, %d setup stones, %d moves", rec.Handicap, len(rec.Setup), len(rec.Moves))
	}
	back, err := ReadRecord(rec.MarshalSGF())
	if err != nil {
		t.Fatal(err)
	}
	rp, err := ReplayRecord(back, rules)
	if err != nil {
		t.Fatal(err)
	}
	want, got := g.Board(), rp.Game.Board()
	for i := range want {
		if want[i] != got[i] {
			t.Fatalf("point %d: %v after the round trip, %v in the game", i, got[i], want[i])
		}
	}
}
