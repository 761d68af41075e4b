package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestParsePoint(t *testing.T) {
	tests := []struct {
		s    string
		size int
		want Point
		ok   bool
	}{
		{"A1", 19, Point{0, 18}, true},
		{"a1", 19, Point{0, 18}, true},
		{"T19", 19, Point{18, 0}, true},
		{"J10", 19, Point{8, 9}, true},
		{"D4", 9, Point{3, 5}, true},
		{"Z25", 25, Point{24, 0}, true},
		{"B2", 2, Point{1, 0}, true},
		{"I5", 19, Point{}, false},
		{"T20", 19, Point{}, false},
		{"A0", 19, Point{}, false},
		{"A01", 19, Point{}, false},
		{"K1", 9, Point{}, false},
		{"pass", 19, Point{}, false},
		{"", 19, Point{}, false},
		{"D", 19, Point{}, false},
		{"D-1", 19, Point{}, false},
		{"D4", 1, Point{}, false},
		{"D4", 26, Point{}, false},
		{"é4", 19, Point{}, false},
	}
	for _, tt := range tests {
		got, err := ParsePoint(tt.s, tt.size)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParsePoint(%q, %d) = %v, %v; want %v ok=%v", tt.s, tt.size, got, err, tt.want, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrBadPoint) {
			t.Errorf("ParsePoint(%q): error %v does not wrap ErrBadPoint", tt.s, err)
		}
		if tt.ok && got.GTP(tt.size) != strings.ToUpper(tt.s) {
			t.Errorf("%v.GTP(%d) = %q, want %q", got, tt.size, got.GTP(tt.size), strings.ToUpper(tt.s))
		}
	}
}

func FuzzParsePoint(f *testing.F) {
	for _, s := range []string{"A1", "t19", "I5", "Z25", "pass", "", "D04", "\x00\xff", "J10"} {
		f.Add(s, 19)
	}
	f.Add("B2", 2)
	f.Fuzz(func(t *testing.T, s string, size int) {
		p, err := ParsePoint(s, size)
		if err != nil {
			return
		}
		if !p.In(size) {
			t.Fatalf("ParsePoint(%q, %d) = %v, off the board", s, size, p)
		}
		if q, err := ParsePoint(p.GTP(size), size); err != nil || q != p {
			t.Fatalf("round trip %q -> %v -> %q -> %v, %v", s, p, p.GTP(size), q, err)
		}
	})
}

func TestPresets(t *testing.T) {
	type want struct {
		ko                                            KoRule
		scoring                                       Scoring
		sekiEyes, suicide, passStones, whiteLast, cko bool
		bonus                                         HandicapBonus
		komi, hkomi                                   float64
		resume                                        Resumption
	}
	tests := map[string]want{
		"aga":           {SituationalSuperko, AreaScoring, true, false, true, true, false, BonusNMinus1, 7.5, 0.5, ResumeOpponentOfLastPasser},
		"aga-territory": {SituationalSuperko, TerritoryScoring, true, false, true, true, false, BonusNone, 7.5, 0.5, ResumeOpponentOfLastPasser},
		"japanese":      {SimpleKo, TerritoryScoring, false, false, false, false, true, BonusNone, 6.5, 0.5, ResumeOtherThanRequester},
		"chinese":       {PositionalSuperko, AreaScoring, true, false, false, false, false, BonusN, 7.5, 0.5, ResumeOpponentOfLastPasser},
		"tromp-taylor":  {PositionalSuperko, AreaScoring, true, true, false, false, false, BonusNone, 7.5, 0.5, ResumeOpponentOfLastPasser},
		"new-zealand":   {SituationalSuperko, AreaScoring, true, true, false, false, false, BonusNone, 7, 0, ResumeOpponentOfLastPasser},
		"basic":         {SimpleKo, TerritoryScoring, true, false, false, false, false, BonusNone, 7.5, 0.5, ResumeOpponentOfLastPasser}, // seed 003: no pass stones, no white-moves-last
	}
	if len(PresetNames()) != len(tests) {
		t.Fatalf("PresetNames %v, tests cover %d", PresetNames(), len(tests))
	}
	for _, name := range PresetNames() {
		w, ok := tests[name]
		if !ok {
			t.Fatalf("preset %s untested", name)
		}
		r, err := Preset(strings.ToUpper(name))
		if err != nil {
			t.Fatal(err)
		}
		got := want{r.Ko, r.Scoring, r.SekiEyesCount, r.SuicideLegal, r.PassStones, r.WhiteMovesLast, r.ConfirmationKo, r.HandicapBonus, r.Komi, r.HandicapKomi, r.Resumption}
		if got != w || r.Name != name {
			t.Errorf("%s: %+v, want %+v", name, got, w)
		}
		if !strings.HasPrefix(r.String(), name+": ") {
			t.Errorf("%s: String() = %q", name, r.String())
		}
	}
	if _, err := Preset("aga-area"); err != nil {
		t.Error(err)
	}
	if _, err := Preset("ing"); !errors.Is(err, ErrUnknownRules) {
		t.Errorf("Preset(ing) = %v", err)
	}
}

func TestBoardSizes(t *testing.T) {
	r, _ := Preset("aga")
	for _, size := range []int{0, 1, 26, -3} {
		if _, err := NewGame(size, r); !errors.Is(err, ErrBadSize) {
			t.Errorf("NewGame(%d): %v", size, err)
		}
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for size := MinSize; size <= MaxSize; size++ {
		moves := randomGame(t, size, r, rng, 3*size*size)
		g, _ := NewGame(size, r)
		for i, m := range moves {
			if _, err := g.Play(m); err != nil {
				t.Fatalf("size %d move %d: %v", size, i+1, err)
			}
		}
		if err := verify(g); err != nil {
			t.Fatalf("size %d: %v", size, err)
		}
		for g.MoveNumber() > 0 {
			if err := g.Undo(); err != nil {
				t.Fatal(err)
			}
		}
		if slices.ContainsFunc(g.Board(), func(c Color) bool { return c != Empty }) || g.table.n != 1 {
			t.Fatalf("size %d: undo to the start left stones or positions (%d)", size, g.table.n)
		}
	}
}

// TestIllegalReasons triggers every reason under several rulesets and checks the sentence cites the article.
func TestIllegalReasons(t *testing.T) {
	ko := []string{ // Black to capture at C4 in a ko; White then may not retake at B4
		". X O . .",
		"X O . O .",
		". X O . .",
		". . . . .",
		". . . . .",
	}
	corner := []string{". X . . .", "X . . . .", ". . . . .", ". . . . .", ". . . . ."}
	tests := []struct {
		name, rules string
		rows        []string
		moves       []string
		try         string
		want        Reason
		sentence    string
	}{
		{"occupied aga", "aga", ko, nil, "B B5", Occupied, "AGA rule 2: B5 is not empty"},
		{"occupied japanese", "japanese", ko, nil, "B C5", Occupied, "Japanese rules art. 3: C5 is not empty"},
		{"suicide aga", "aga", corner, []string{"B E1"}, "W A5", Suicide, "AGA rule 5: suicide is not allowed; White at A5"},
		{"suicide japanese", "japanese", corner, []string{"B E1"}, "W A5", Suicide, "Japanese rules art. 4: suicide"},
		{"suicide basic", "basic", corner, []string{"B E1"}, "W A5", Suicide, "Basic rule 3: suicide"},
		{"ko japanese", "japanese", ko, []string{"B C4"}, "W B4", Ko, "Japanese rules art. 6: ko; White may not retake the ko at B4"},
		{"ko basic", "basic", ko, []string{"B C4"}, "W B4", Ko, "Basic rule 4: ko"},
		{"superko aga", "aga", ko, []string{"B C4"}, "W B4", SituationalSuperkoReason(), "AGA rule 6: this would repeat the position after move 0 with Black to play"},
		{"superko chinese", "chinese", ko, []string{"B C4"}, "W B4", ReasonPositionalSuperko, "Chinese rules: this would repeat the board position after move 0 (positional superko)"},
		{"superko tromp-taylor", "tromp-taylor", ko, []string{"B C4"}, "W B4", ReasonPositionalSuperko, "Tromp-Taylor rule 6: this would repeat the board position after move 0"},
		{"superko new-zealand", "new-zealand", ko, []string{"B C4"}, "W B4", ReasonSituationalSuperko, "New Zealand rules: this would repeat the position after move 0 with Black to play"},
		{"wrong player", "aga", ko, nil, "W E1", WrongPlayer, "AGA rule 2: it is Black's turn, not White's"},
		{"stopped", "japanese", ko, []string{"B pass", "W pass"}, "B E1", GameStopped, "Japanese rules art. 9: two passes stopped the game"},
		{"stopped pass", "japanese", ko, []string{"B pass", "W pass"}, "B pass", GameStopped, "Japanese rules art. 9"},
		{"white owes", "aga", ko, []string{"B E1", "W pass", "B pass"}, "B E2", GameStopped, "AGA rule 11: the game is stopped; White owes the last pass"},
		{"off board", "aga", ko, nil, "B F9", OffBoard, "AGA rule 1: the point is not on the 5x5 board"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.want == 0 {
				return
			}
			g := diagram(t, tt.rules, Black, tt.rows...)
			mustPlay(t, g, tt.moves...)
			f := strings.Fields(tt.try)
			m := Move{Color: Black, Pass: f[1] == "pass"}
			if f[0] == "W" {
				m.Color = White
			}
			if !m.Pass {
				if f[1] == "F9" {
					m.Point = Point{5, -3}
				} else {
					m.Point = pt(t, g, f[1])
				}
			}
			before := g.Board()
			n := g.MoveNumber()
			err := g.Check(m)
			if got := reason(t, err); got != tt.want {
				t.Fatalf("Check(%s) = %v (%v), want %v", tt.try, got, err, tt.want)
			}
			if !errors.Is(err, ErrIllegalMove) {
				t.Errorf("%v does not match ErrIllegalMove", err)
			}
			if !strings.HasPrefix(err.Error(), tt.sentence) {
				t.Errorf("sentence %q, want prefix %q", err.Error(), tt.sentence)
			}
			if _, err2 := g.Play(m); reason(t, err2) != tt.want {
				t.Errorf("Play(%s) = %v", tt.try, err2)
			}
			if !slices.Equal(before, g.Board()) || g.MoveNumber() != n {
				t.Error("an illegal move changed the game")
			}
		})
	}
}

// SituationalSuperkoReason names the reason (keeps the table above readable).
func SituationalSuperkoReason() Reason { return ReasonSituationalSuperko }

func TestSuperkoRepeatsLaterMove(t *testing.T) {
	// AGA: the ko retake repeats the position after the move before the capture, with the same player to play.
	g := diagram(t, "aga", Black, ". X O . .", "X O . O .", ". X O . .", ". . . . .", ". . . . .")
	mustPlay(t, g, "B E1", "W E2", "B C4")
	err := g.Check(Move{Color: White, Point: pt(t, g, "B4")})
	var e *IllegalMoveError
	if !errors.As(err, &e) || e.Reason != ReasonSituationalSuperko || e.Repeats != 2 {
		t.Fatalf("got %v", err)
	}
	if want := "AGA rule 6: this would repeat the position after move 2 with Black to play"; err.Error() != want {
		t.Errorf("%q, want %q", err.Error(), want)
	}
	// after an exchange elsewhere the retake is legal, and undo restores the ban
	mustPlay(t, g, "W E4", "B E3", "W B4")
	for i := 0; i < 3; i++ {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if reason(t, g.Check(Move{Color: White, Point: pt(t, g, "B4")})) != ReasonSituationalSuperko {
		t.Error("undo did not restore the superko ban")
	}
}

func TestSuicideLegal(t *testing.T) {
	rows := []string{
		". X O . .",
		"X X O . .",
		"O O O . .",
		". . . . .",
		". . . . .",
	}
	// Black A5 fills the last liberty of its own three stones: suicide of 4 stones.
	for _, tt := range []struct {
		rules string
		legal bool
	}{{"tromp-taylor", true}, {"new-zealand", true}, {"aga", false}, {"japanese", false}} {
		g := diagram(t, tt.rules, Black, rows...)
		pl, err := g.Play(Move{Color: Black, Point: pt(t, g, "A5")})
		if (err == nil) != tt.legal {
			t.Fatalf("%s: %v", tt.rules, err)
		}
		if !tt.legal {
			if reason(t, err) != Suicide {
				t.Errorf("%s: %v", tt.rules, err)
			}
			continue
		}
		if len(pl.Captured) != 0 || g.At(pt(t, g, "B5")) != Empty || g.At(pt(t, g, "A5")) != Empty {
			t.Errorf("%s: suicide not executed: %v", tt.rules, g.Board())
		}
		if g.Prisoners(White) != 4 {
			t.Errorf("%s: white prisoners %d, want 4", tt.rules, g.Prisoners(White))
		}
		if err := verify(g); err != nil {
			t.Fatal(err)
		}
		// positional superko: a single-stone suicide never changes the board, so it repeats
		g2 := diagram(t, tt.rules, Black, ". O . . .", "O . . . .", ". . . . .", ". . . . .", ". . . . .")
		err = g2.Check(Move{Color: Black, Point: pt(t, g2, "A5")})
		if tt.rules == "tromp-taylor" && reason(t, err) != ReasonPositionalSuperko {
			t.Errorf("tromp-taylor single-stone suicide: %v", err)
		}
		if err := g.Undo(); err != nil || g.At(pt(t, g, "B5")) != Black || g.At(pt(t, g, "A5")) != Empty {
			t.Errorf("undo of a suicide: %v", err)
		}
	}
}

func TestUndoMatchesReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, name := range []string{"aga", "chinese", "japanese", "tromp-taylor"} {
		r, _ := Preset(name)
		for game := 0; game < 8; game++ {
			size := []int{5, 7, 9}[game%3]
			moves := randomGame(t, size, r, rng, 200)
			g, _ := NewGame(size, r)
			var played []Move
			for _, m := range moves {
				if _, err := g.Play(m); err != nil {
					break // the game's own line may diverge after undos; stop at the first refusal
				}
				played = append(played, m)
				if rng.IntN(4) == 0 && len(played) > 0 {
					k := 1 + rng.IntN(min(3, len(played)))
					for i := 0; i < k; i++ {
						if err := g.Undo(); err != nil {
							t.Fatal(err)
						}
						played = played[:len(played)-1]
					}
					// compare with a replay
					h, _ := NewGame(size, r)
					for _, pm := range played {
						if _, err := h.Play(pm); err != nil {
							t.Fatal(err)
						}
					}
					if !slices.Equal(g.Board(), h.Board()) || g.ToMove() != h.ToMove() || g.b.hash != h.b.hash ||
						g.Phase() != h.Phase() || g.Prisoners(Black) != h.Prisoners(Black) || g.table.n != h.table.n {
						t.Fatalf("%s: after undo the game differs from a replay", name)
					}
					for y := 0; y < size; y++ {
						for x := 0; x < size; x++ {
							m := Move{Color: g.ToMove(), Point: Point{x, y}}
							if reason(t, g.Check(m)) != reason(t, h.Check(m)) {
								t.Fatalf("%s: Check(%v) differs after undo", name, m)
							}
						}
					}
					if err := verify(g); err != nil {
						t.Fatal(err)
					}
					if g.Phase() != Playing {
						break
					}
				}
			}
		}
	}
}

func TestFixedHandicap(t *testing.T) {
	tests := []struct {
		size, n int
		want    string
	}{
		{19, 2, "Q16 D4"},
		{19, 3, "Q16 D4 Q4"},
		{19, 4, "Q16 D4 Q4 D16"},
		{19, 5, "Q16 D4 Q4 D16 K10"},
		{19, 6, "Q16 D4 Q4 D16 Q10 D10"},
		{19, 7, "Q16 D4 Q4 D16 Q10 D10 K10"},
		{19, 8, "Q16 D4 Q4 D16 Q10 D10 K16 K4"},
		{19, 9, "Q16 D4 Q4 D16 Q10 D10 K16 K4 K10"},
		{13, 4, "K10 D4 K4 D10"},
		{13, 9, "K10 D4 K4 D10 K7 D7 G10 G4 G7"},
		{9, 2, "G7 C3"},
		{9, 5, "G7 C3 G3 C7 E5"},
		{9, 9, "G7 C3 G3 C7 G5 C5 E7 E3 E5"},
	}
	for _, tt := range tests {
		r, _ := Preset("aga")
		g, _ := NewGame(tt.size, r)
		ps, err := g.PlaceFixedHandicap(tt.n)
		if err != nil {
			t.Fatalf("%dx%d %d: %v", tt.size, tt.size, tt.n, err)
		}
		var got []string
		for _, p := range ps {
			got = append(got, p.GTP(tt.size))
			if g.At(p) != Black {
				t.Errorf("%v not black", p)
			}
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%dx%d %d: %v, want %s", tt.size, tt.size, tt.n, got, tt.want)
		}
		if g.ToMove() != White || g.Komi() != 0.5 || len(g.Handicap()) != tt.n || g.MoveNumber() != 0 {
			t.Errorf("after handicap: to move %v komi %v", g.ToMove(), g.Komi())
		}
		if _, err := g.PlaceFixedHandicap(2); !errors.Is(err, ErrHandicapLate) {
			t.Errorf("second handicap: %v", err)
		}
	}
	r, _ := Preset("aga")
	for _, bad := range []struct{ size, n int }{{19, 1}, {19, 10}, {9, 10}, {8, 5}, {7, 5}, {5, 2}} {
		g, _ := NewGame(bad.size, r)
		if _, err := g.PlaceFixedHandicap(bad.n); !errors.Is(err, ErrBadHandicap) {
			t.Errorf("%dx%d handicap %d: %v", bad.size, bad.size, bad.n, err)
		}
	}
	g, _ := NewGame(9, r)
	mustPlay(t, g, "B E5")
	if _, err := g.PlaceFixedHandicap(2); !errors.Is(err, ErrHandicapLate) {
		t.Errorf("handicap after a move: %v", err)
	}
	g, _ = NewGame(9, r)
	if err := g.PlaceFreeHandicap([]Point{{0, 0}, {0, 0}}); !errors.Is(err, ErrBadHandicap) {
		t.Errorf("duplicate free handicap: %v", err)
	}
	if err := g.PlaceFreeHandicap([]Point{{0, 0}, {1, 1}, {2, 2}}); err != nil || g.ToMove() != White {
		t.Errorf("free handicap: %v", err)
	}
}

func TestHandicapBonusAndKomi(t *testing.T) {
	for _, tt := range []struct {
		rules string
		n     int
		bonus float64
	}{{"aga", 4, 3}, {"aga-territory", 4, 0}, {"chinese", 4, 4}, {"japanese", 4, 0}, {"aga", 0, 0}} {
		r, _ := Preset(tt.rules)
		g, _ := NewGame(19, r)
		if tt.n > 0 {
			g.PlaceFixedHandicap(tt.n)
		}
		s, err := g.Score(nil)
		if err != nil {
			t.Fatal(err)
		}
		wantKomi := r.Komi
		if tt.n > 0 {
			wantKomi = r.HandicapKomi
		}
		if s.White.Bonus != tt.bonus || s.White.Komi != wantKomi {
			t.Errorf("%s handicap %d: bonus %v komi %v, want %v %v", tt.rules, tt.n, s.White.Bonus, s.White.Komi, tt.bonus, wantKomi)
		}
	}
}

func TestEndOfGameAGA(t *testing.T) {
	g := diagram(t, "aga", Black, ". . . . .", ". . . . .", ". . . . .", ". . . . .", ". . . . .")
	mustPlay(t, g, "B C3", "W pass", "B pass")
	if g.Phase() != Stopped || !g.WhiteOwesPass() || g.ToMove() != White {
		t.Fatalf("after W pass, B pass: phase %v owes %v", g.Phase(), g.WhiteOwesPass())
	}
	if reason(t, g.Check(Move{Color: White, Point: pt(t, g, "D4")})) != GameStopped {
		t.Error("a white stone accepted while White owes the last pass")
	}
	mustPlay(t, g, "W pass")
	if g.WhiteOwesPass() || g.Phase() != Stopped || g.PassStones(Black) != 2 || g.PassStones(White) != 1 {
		t.Fatalf("owed pass: owes %v pass stones B %d W %d", g.WhiteOwesPass(), g.PassStones(Black), g.PassStones(White))
	}
	if reason(t, g.Check(Move{Color: Black, Pass: true})) != GameStopped {
		t.Error("pass accepted after the stop")
	}
	// AGA 10: resumption by the opponent of the player who passed last, whoever asks
	if err := g.Resume(White); err != nil {
		t.Fatal(err)
	}
	if g.ToMove() != Black || g.Phase() != Playing {
		t.Fatalf("after resume: %v to move, %v", g.ToMove(), g.Phase())
	}
	mustPlay(t, g, "B D4", "W B2", "B pass", "W pass")
	if g.Phase() != Stopped || g.AllAlive() {
		t.Fatalf("second stop: %v allAlive %v", g.Phase(), g.AllAlive())
	}
	s1, _ := g.Score([]Point{pt(t, g, "B2")})
	if len(s1.Dead) != 1 {
		t.Fatalf("dead stones before the four passes: %v", s1.Dead)
	}
	if err := g.Resume(Black); err != nil {
		t.Fatal(err)
	}
	mustPlay(t, g, "B pass", "W pass")
	if !g.AllAlive() {
		t.Fatal("four passes in a row after a resumption did not make every stone alive")
	}
	s2, _ := g.Score([]Point{pt(t, g, "B2")})
	if len(s2.Dead) != 0 {
		t.Errorf("dead stones counted after AGA 10's four passes: %v", s2.Dead)
	}
	if err := g.Undo(); err != nil || g.AllAlive() || g.Phase() != Playing {
		t.Errorf("undo of the fourth pass: %v", err)
	}
	if err := g.Resume(Black); !errors.Is(err, ErrNotStopped) {
		t.Errorf("resume while playing: %v", err)
	}
}

func TestEndOfGameJapanese(t *testing.T) {
	g := diagram(t, "japanese", Black, ". . . . .", ". . . . .", ". . . . .", ". . . . .", ". . . . .")
	mustPlay(t, g, "B C3", "W pass", "B pass")
	if g.Phase() != Stopped || g.WhiteOwesPass() || g.PassStones(White) != 0 {
		t.Fatalf("japanese stop: %v owes %v", g.Phase(), g.WhiteOwesPass())
	}
	// art. 9.3: the player who asks to resume does not play first
	if err := g.Resume(Black); err != nil || g.ToMove() != White {
		t.Fatalf("resume by black: %v, %v to move", err, g.ToMove())
	}
	mustPlay(t, g, "W pass", "B pass")
	if err := g.Resume(White); err != nil || g.ToMove() != Black {
		t.Fatalf("resume by white: %v, %v to move", err, g.ToMove())
	}
	if err := g.Resign(White); err != nil || g.Result() != "B+R" || g.Phase() != Ended {
		t.Fatalf("resign: %v %q", err, g.Result())
	}
	if reason(t, g.Check(Move{Color: Black, Pass: true})) != GameEnded {
		t.Error("move accepted after the end")
	}
	if err := g.Resume(Black); !errors.Is(err, ErrNotStopped) {
		t.Errorf("resume after the end: %v", err)
	}
}

func TestRetractAndPass(t *testing.T) {
	g := diagram(t, "aga", Black, ". X O . .", "X O . O .", ". X O . .", ". . . . .", ". . . . .")
	if _, err := g.RetractAndPass(Move{Color: Black, Point: pt(t, g, "E1")}); !errors.Is(err, ErrMoveIsLegal) {
		t.Fatalf("legal move: %v", err)
	}
	if _, err := g.RetractAndPass(Move{Color: White, Point: pt(t, g, "B5")}); reason(t, err) != WrongPlayer {
		t.Fatalf("out of turn: %v", err)
	}
	pl, err := g.RetractAndPass(Move{Color: Black, Point: pt(t, g, "C5")})
	if err != nil {
		t.Fatal(err)
	}
	if !pl.Move.Pass || pl.Move.Color != Black || pl.Retracted == nil || pl.Retracted.Point != pt(t, g, "C5") {
		t.Fatalf("played %+v", pl)
	}
	if g.PassStones(White) != 1 || g.ToMove() != White || g.MoveNumber() != 1 {
		t.Errorf("after AGA 8: pass stones %d, %v to move", g.PassStones(White), g.ToMove())
	}
	if m := g.Moves(); len(m) != 1 || m[0].Retracted == nil {
		t.Errorf("record %+v", m)
	}
	if err := g.Undo(); err != nil || g.PassStones(White) != 0 || len(g.retracted) != 0 {
		t.Errorf("undo: %v", err)
	}
}

func TestConfirmationKo(t *testing.T) {
	rows := []string{". X O . .", "X O . O .", ". X O . .", ". . . . .", ". . . . ."}
	// during play, simple ko: the retake is legal after one exchange elsewhere
	g := diagram(t, "japanese", Black, rows...)
	mustPlay(t, g, "B C4", "W E1", "B E2", "W B4")
	// after the stop, in confirmation (art. 7.2) it is not, until White passes for the ko
	g = diagram(t, "japanese", Black, rows...)
	if _, err := g.Confirmation(Black); !errors.Is(err, ErrNoConfirmation) {
		t.Fatalf("confirmation while playing: %v", err)
	}
	mustPlay(t, g, "B pass", "W pass")
	c, err := g.Confirmation(Black)
	if err != nil {
		t.Fatal(err)
	}
	mustPlay(t, c, "B C4", "W E1", "B E2")
	err = c.Check(Move{Color: White, Point: pt(t, c, "B4")})
	if reason(t, err) != KoConfirmation || !strings.HasPrefix(err.Error(), "Japanese rules art. 7.2") {
		t.Fatalf("retake during confirmation: %v", err)
	}
	mustPlay(t, c, "W pass", "B E3", "W B4")
	if g.Phase() != Stopped || g.At(pt(t, g, "C4")) != Empty {
		t.Error("the confirmation sandbox changed the real game")
	}
}

func TestRepetitionAndVoid(t *testing.T) {
	// a plain ko fought back and forth with passes as "threats" repeats positions under simple ko
	g := diagram(t, "japanese", Black, ". X O . .", "X O . O .", ". X O . .", ". . . . .", ". . . . .")
	mustPlay(t, g, "B C4")
	if _, ok := g.Repetition(); ok {
		t.Fatal("repetition reported for a new position")
	}
	mustPlay(t, g, "W E1", "B E2", "W B4")
	if _, ok := g.Repetition(); ok {
		t.Fatal("repetition reported for a new position")
	}
	if err := g.EndVoid(); err != nil || g.Result() != "Void" || g.Phase() != Ended {
		t.Fatalf("EndVoid: %v %q", err, g.Result())
	}
	if err := g.EndVoid(); !errors.Is(err, ErrGameEnded) {
		t.Errorf("second EndVoid: %v", err)
	}
	// Apply repeats a position outright: the same board with the same player to move
	h := diagram(t, "japanese", Black, ". X O . .", "X O . O .", ". X O . .", ". . . . .", ". . . . .")
	for _, m := range []Move{{Color: Black, Point: pt(t, h, "C4")}, {Color: White, Point: pt(t, h, "B4")}} {
		if _, err := h.Apply(m); err != nil {
			t.Fatal(err)
		}
	}
	if n, ok := h.Repetition(); !ok || n != 0 {
		t.Errorf("repetition after the immediate retake: %d %v", n, ok)
	}
}

func TestScoring(t *testing.T) {
	rows := []string{
		". X O . .",
		"X X O . .",
		". X O O O",
		"X X O . O",
		". X O O .",
	}
	tests := []struct {
		rules  string
		dead   []string
		komi   float64
		result string
		black  SideScore
	}{
		// black: 7 stones, territory A5 A3 A1; white: 9 stones, territory D5 E5 D4 E4 D2 E1
		{"chinese", nil, 0, "W+5", SideScore{Territory: 3, Stones: 7, Total: 10}},
		{"japanese", nil, 0, "W+3", SideScore{Territory: 3, Stones: 7, Total: 3}},
		{"japanese", []string{"E5"}, 0.5, "W+3.5", SideScore{Territory: 3, Stones: 7, Total: 3}}, // E5 is empty: ignored
		// the black chain dead: white takes 7 prisoners and the 10 points of the left side
		{"japanese", []string{"B1"}, 0, "W+23", SideScore{}},
		{"chinese", []string{"B1"}, 0, "W+25", SideScore{}},
	}
	for _, tt := range tests {
		g := diagram(t, tt.rules, Black, rows...)
		g.SetKomi(tt.komi)
		var dead []Point
		for _, v := range tt.dead {
			dead = append(dead, pt(t, g, v))
		}
		s, err := g.Score(dead)
		if err != nil {
			t.Fatal(err)
		}
		if s.Result != tt.result {
			t.Errorf("%s dead %v: %s (%+v), want %s", tt.rules, tt.dead, s.Result, s, tt.result)
		}
		if tt.black != (SideScore{}) && s.Black != tt.black {
			t.Errorf("%s: black %+v, want %+v", tt.rules, s.Black, tt.black)
		}
	}
	if _, err := diagram(t, "aga", Black, rows...).Score([]Point{{7, 7}}); !errors.Is(err, ErrBadPoint) {
		t.Errorf("dead stone off the board: %v", err)
	}
	for margin, want := range map[float64]string{3.5: "B+3.5", -0.5: "W+0.5", 0: "0", 12: "B+12"} {
		if got := ResultString(margin); got != want {
			t.Errorf("ResultString(%v) = %q, want %q", margin, got, want)
		}
	}
}

// TestAGAAreaEqualsTerritory plays whole AGA games (pass stones, White passing last, dead stones,
// handicaps) and counts each by area and by territory: the margins must be equal (AGA rule 12).
func TestAGAAreaEqualsTerritory(t *testing.T) {
	area, _ := Preset("aga")
	terr, _ := Preset("aga-territory")
	rng := rand.New(rand.NewPCG(21, 22))
	for game := 0; game < 40; game++ {
		size := []int{9, 13, 19}[game%3]
		handicap := 0
		if game%4 == 1 {
			handicap = 2 + game%7
			if size == 13 && handicap > 9 {
				handicap = 9
			}
		}
		ga, _ := NewGame(size, area)
		gt, _ := NewGame(size, terr)
		if handicap > 0 {
			if _, err := ga.PlaceFixedHandicap(handicap); err != nil {
				t.Fatal(err)
			}
			gt.PlaceFixedHandicap(handicap)
		}
		// random moves, with passes sprinkled in, until two passes stop the game
		for ga.Phase() == Playing && ga.MoveNumber() < 3*size*size {
			c := ga.ToMove()
			m := Move{Color: c, Pass: true}
			if rng.IntN(20) != 0 {
				for try := 0; try < 30; try++ {
					p := Point{rng.IntN(size), rng.IntN(size)}
					if ga.At(p) == Empty && !ga.IsOwnEye(c, p) && ga.Check(Move{Color: c, Point: p}) == nil {
						m = Move{Color: c, Point: p}
						break
					}
				}
			}
			if _, err := ga.Play(m); err != nil {
				t.Fatal(err)
			}
			if _, err := gt.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if ga.Phase() == Playing {
			mustPlay(t, ga, "B pass", "W pass")
			mustPlay(t, gt, "B pass", "W pass")
		}
		if ga.WhiteOwesPass() {
			mustPlay(t, ga, "W pass")
			mustPlay(t, gt, "W pass")
		}
		// a few random chains dead
		var dead []Point
		for i := 0; i < 4; i++ {
			p := Point{rng.IntN(size), rng.IntN(size)}
			if ga.At(p) != Empty {
				dead = append(dead, p)
			}
		}
		sa, _ := ga.Score(dead)
		st, _ := gt.Score(dead)
		if sa.Margin != st.Margin {
			t.Fatalf("game %d (%dx%d, handicap %d): area %v (%+v) vs territory %v (%+v)", game, size, size, handicap,
				sa.Margin, sa, st.Margin, st)
		}
		if st.Black.PassStones == 0 && st.White.PassStones == 0 {
			t.Fatalf("game %d: no pass stones counted", game)
		}
	}
}

func TestSetupErrors(t *testing.T) {
	r, _ := Preset("aga")
	g, _ := NewGame(9, r)
	if err := g.Setup([]Point{{9, 0}}, nil, Black); !errors.Is(err, ErrBadPoint) {
		t.Errorf("setup off board: %v", err)
	}
	if err := g.Setup(nil, nil, Empty); !errors.Is(err, ErrBadColor) {
		t.Errorf("setup colour: %v", err)
	}
	mustPlay(t, g, "B E5")
	if err := g.Setup(nil, nil, Black); !errors.Is(err, ErrHandicapLate) {
		t.Errorf("setup after a move: %v", err)
	}
	if _, err := g.Apply(Move{Color: Empty}); !errors.Is(err, ErrBadColor) {
		t.Errorf("apply colour: %v", err)
	}
	if _, err := g.Apply(Move{Color: White, Point: pt(t, g, "E5")}); reason(t, err) != Occupied {
		t.Errorf("apply on a stone: %v", err)
	}
	if err := g.SetToMove(Empty); !errors.Is(err, ErrBadColor) {
		t.Error("SetToMove(Empty) accepted")
	}
	if g.Chain(Point{-1, 0}) != nil || g.Chain(Point{0, 0}) != nil || len(g.Chain(pt(t, g, "E5"))) != 1 {
		t.Error("Chain")
	}
	if g.At(Point{20, 20}) != Empty {
		t.Error("At off the board")
	}
}

func TestReset(t *testing.T) {
	r, _ := Preset("aga")
	rng := rand.New(rand.NewPCG(31, 32))
	g, _ := NewGame(9, r)
	for i := 0; i < 5; i++ {
		moves := randomGame(t, 9, r, rng, 150)
		for _, m := range moves {
			if _, err := g.Play(m); err != nil {
				t.Fatalf("game %d after reset: %v", i, err)
			}
		}
		g.Reset()
		fresh, _ := NewGame(9, r)
		if !slices.Equal(g.Board(), fresh.Board()) || g.ToMove() != Black || g.MoveNumber() != 0 || g.table.n != 1 ||
			g.b.hash != fresh.b.hash || g.Phase() != Playing {
			t.Fatal("Reset did not give a fresh game")
		}
		if err := verify(g); err != nil {
			t.Fatal(err)
		}
	}
}

// TestJapaneseArt72EachKoOnItsOwn: during confirmation (art. 7.2) a player banned from two kos
// passes for each on its own: a pass for one ko lifts that ban only, and a plain pass lifts the
// oldest.
func TestJapaneseArt72EachKoOnItsOwn(t *testing.T) {
	g := diagram(t, "japanese", Black,
		". X O . . . X O .",
		"X O . O . X O . O",
		". X O . . . X O .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
		". . . . . . . . .",
	)
	mustPlay(t, g, "B pass", "W pass")
	c, err := g.Confirmation(Black)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.PassForKo(Black, pt(t, c, "B8")); !errors.Is(err, ErrNoKoBan) {
		t.Fatalf("a pass for a ko with no ban: %v", err)
	}
	mustPlay(t, c, "B C8", "W E1", "B H8") // White is banned from B8 and G8
	if got := fmt.Sprint(c.KoBans(White)); got != fmt.Sprint([]Point{pt(t, c, "B8"), pt(t, c, "G8")}) || !c.InConfirmation() {
		t.Fatalf("White's bans %s", got)
	}
	if _, err := c.PassForKo(White, pt(t, c, "G8")); err != nil {
		t.Fatal(err)
	}
	mustPlay(t, c, "B E2", "W G8", "B E3", "W E5") // the ko White passed for
	if reason(t, c.Check(Move{Color: Black, Point: pt(t, c, "H8")})) != KoConfirmation {
		t.Error("Black retakes H8 without passing for it")
	}
	mustPlay(t, c, "B E6")
	if err := c.Check(Move{Color: White, Point: pt(t, c, "B8")}); reason(t, err) != KoConfirmation {
		t.Fatalf("White retakes B8 without passing for it: %v", err)
	}
	mustPlay(t, c, "W pass", "B E4", "W B8") // a plain pass lifts the oldest ban, B8's
	if got := c.KoBans(White); len(got) != 0 {
		t.Errorf("White's bans left: %v", got)
	}
	if g.InConfirmation() || len(g.KoBans(White)) != 0 {
		t.Error("the real game is in confirmation")
	}
}
