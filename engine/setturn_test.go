package engine

import (
	"errors"
	"testing"
)

// A record where the same colour moves twice: after Black takes a ko and the turn is handed back to
// Black, Black may fill the ko; the ban is only on White's immediate recapture (corpus Li-Long/0047).
func TestSetToMoveLiftsKoBan(t *testing.T) {
	rows := []string{
		". X O . .",
		"X O . O .",
		". X O . .",
		". . . . .",
		". . . . .",
	}
	take := Move{Color: Black, Point: Point{2, 1}}
	ko := Point{1, 1}
	tests := []struct {
		name     string
		handTo   Color
		mover    Color
		wantBan  bool
		wantRule Reason
	}{
		{"turn handed back to the taker: fill is legal", Black, Black, false, 0},
		{"turn kept by the opponent: recapture is still ko", White, White, true, Ko},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := diagram(t, "japanese", Black, rows...)
			if _, err := g.Play(take); err != nil {
				t.Fatalf("taking the ko: %v", err)
			}
			if p, ok := g.KoPoint(); !ok || p != ko {
				t.Fatalf("KoPoint = %v %v, want %v", p, ok, ko)
			}
			if err := g.SetToMove(tc.handTo); err != nil {
				t.Fatal(err)
			}
			if _, ok := g.KoPoint(); ok != tc.wantBan {
				t.Errorf("ko ban after SetToMove(%v) = %v, want %v", tc.handTo, ok, tc.wantBan)
			}
			err := g.Step(Move{Color: tc.mover, Point: ko})
			var ill *IllegalMoveError
			switch {
			case tc.wantRule == 0 && err != nil:
				t.Errorf("%v at the ko point refused: %v", tc.mover, err)
			case tc.wantRule != 0 && (!errors.As(err, &ill) || ill.Reason != tc.wantRule):
				t.Errorf("%v at the ko point: err %v, want reason %v", tc.mover, err, tc.wantRule)
			}
		})
	}
}

// Step plays exactly what Play plays, without building the record entry.
func TestStepMatchesPlay(t *testing.T) {
	rows := []string{
		". X O . .",
		"X O . O .",
		". X O . .",
		". . . . .",
		". . . . .",
	}
	a := diagram(t, "japanese", Black, rows...)
	b := diagram(t, "japanese", Black, rows...)
	moves := []Move{{Color: Black, Point: Point{2, 1}}, {Color: White, Point: Point{1, 1}}, {Color: White, Point: Point{4, 4}}, {Color: White, Pass: true}}
	for _, m := range moves {
		_, perr := a.Play(m)
		serr := b.Step(m)
		if (perr == nil) != (serr == nil) {
			t.Fatalf("%v: Play err %v, Step err %v", m, perr, serr)
		}
	}
	if a.MoveNumber() != b.MoveNumber() || a.Prisoners(Black) != b.Prisoners(Black) || a.ToMove() != b.ToMove() {
		t.Errorf("Step and Play diverged: moves %d/%d, prisoners %d/%d", a.MoveNumber(), b.MoveNumber(), a.Prisoners(Black), b.Prisoners(Black))
	}
	for i, c := range a.Board() {
		if b.Board()[i] != c {
			t.Fatalf("boards differ at %d", i)
		}
	}
}
