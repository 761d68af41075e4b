package engine

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"tengen/internal/shareddata"
)

// rulesCase is one entry of ../shared/rules-cases/cases.json (the fields the tests use).
type rulesCase struct {
	ID            string             `json:"id"`
	File          string             `json:"file"`
	Rules         string             `json:"rules"`
	Size          int                `json:"board_size"`
	FirstToMove   string             `json:"first_to_move"`
	Komi          float64            `json:"komi"`
	Moves         []string           `json:"moves"`
	AllMovesLegal bool               `json:"all_moves_legal"`
	MovesAllLegal []string           `json:"moves_all_legal"`
	ThenIllegal   string             `json:"then_illegal"`
	ExpectedEnd   string             `json:"expected_end"`
	Note          string             `json:"note"`
	FinalBlack    []string           `json:"expected_final_black"`
	FinalWhite    []string           `json:"expected_final_white"`
	KoPoint       *string            `json:"expected_ko_point"`
	AreaBMinusW   *float64           `json:"expected_area_b_minus_w"`
	WMinusB       map[string]float64 `json:"expected_white_minus_black"`
	Checkpoints   []struct {
		AfterMove int      `json:"after_move"`
		ToMove    string   `json:"to_move"`
		Illegal   []string `json:"illegal"`
	} `json:"checkpoints"`
	Checks []legalityCheck `json:"checks"`
	Check  *legalityCheck  `json:"check"`
}

type legalityCheck struct {
	AfterMove     int             `json:"after_move"`
	AfterAllMoves bool            `json:"after_all_moves"`
	ToMove        string          `json:"to_move"`
	Point         string          `json:"point"`
	Legal         map[string]bool `json:"legal"`
}

// sgfSetup is what the case tests need from an SGF file: the root's setup and the main line's moves.
type sgfSetup struct {
	black, white []Point
	toMove       Color
	moves        []Move
}

// readSetup reads SZ-independent AB/AW/PL and B/W properties from a simple SGF file (the case files are
// single-line main variations). It is a test helper, not an SGF parser: engine/sgf does that job.
func readSetup(t *testing.T, path string, size int) sgfSetup {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	out := sgfSetup{toMove: Black}
	pt := func(v string) Point {
		if len(v) != 2 {
			t.Fatalf("%s: bad SGF point %q", path, v)
		}
		return Point{X: int(v[0] - 'a'), Y: int(v[1] - 'a')}
	}
	var prop string
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch >= 'A' && ch <= 'Z':
			j := i
			for j < len(s) && s[j] >= 'A' && s[j] <= 'Z' {
				j++
			}
			prop = s[i:j]
			i = j - 1
		case ch == '[':
			j := i + 1
			var val strings.Builder
			for ; j < len(s) && s[j] != ']'; j++ {
				if s[j] == '\\' {
					j++
				}
				val.WriteByte(s[j])
			}
			v := val.String()
			switch prop {
			case "AB":
				out.black = append(out.black, pt(v))
			case "AW":
				out.white = append(out.white, pt(v))
			case "PL":
				if v == "W" {
					out.toMove = White
				}
			case "B", "W":
				c := Black
				if prop == "W" {
					c = White
				}
				if v == "" || (v == "tt" && size <= 19) {
					out.moves = append(out.moves, Move{Color: c, Pass: true})
				} else {
					out.moves = append(out.moves, Move{Color: c, Point: pt(v)})
				}
			}
			i = j
		}
	}
	return out
}

func parseGTPMove(t *testing.T, s string, size int) Move {
	t.Helper()
	f := strings.Fields(s)
	if len(f) != 2 {
		t.Fatalf("bad move %q", s)
	}
	c := Black
	if strings.EqualFold(f[0], "W") {
		c = White
	}
	if strings.EqualFold(f[1], "pass") {
		return Move{Color: c, Pass: true}
	}
	p, err := ParsePoint(f[1], size)
	if err != nil {
		t.Fatalf("move %q: %v", s, err)
	}
	return Move{Color: c, Point: p}
}

func colorOf(s string) Color {
	if strings.EqualFold(s, "W") {
		return White
	}
	return Black
}

// rulesFromText maps a case's rules description to engine parameters.
func rulesFromText(s string) Rules {
	r := Rules{Name: "case", Ko: SimpleKo, Scoring: AreaScoring, SekiEyesCount: true}
	switch {
	case strings.Contains(s, "positional"):
		r.Ko = PositionalSuperko
	case strings.Contains(s, "situational"):
		r.Ko = SituationalSuperko
	}
	r.SuicideLegal = strings.Contains(s, "suicide legal")
	return r
}

func loadCases(t *testing.T) ([]rulesCase, string) {
	path := shareddata.Path(t, "rules-cases", "cases.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []rulesCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("cases.json: %v", err)
	}
	if len(cases) == 0 {
		t.Fatal("cases.json has no cases")
	}
	return cases, filepath.Dir(path)
}

// newCaseGame sets up a case's board from its SGF root.
func newCaseGame(t *testing.T, dir string, c rulesCase, r Rules) (*Game, sgfSetup) {
	t.Helper()
	g, err := NewGame(c.Size, r)
	if err != nil {
		t.Fatal(err)
	}
	su := readSetup(t, filepath.Join(dir, c.File), c.Size)
	to := su.toMove
	if c.FirstToMove != "" {
		to = colorOf(c.FirstToMove)
	}
	if err := g.Setup(su.black, su.white, to); err != nil {
		t.Fatal(err)
	}
	g.SetKomi(c.Komi)
	return g, su
}

// illegalPoints lists the empty points illegal for c for a reason other than forbidden suicide (KataGo's
// printIllegalMoves convention; single-stone suicide counts as forbidden suicide there).
func illegalPoints(g *Game, c Color) []string {
	var out []string
	n := g.Size()
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			p := Point{x, y}
			if g.At(p) != Empty {
				continue
			}
			err := g.Check(Move{Color: c, Point: p})
			if err == nil {
				continue
			}
			e := err.(*IllegalMoveError)
			if e.Reason == Suicide {
				continue
			}
			i := g.b.idx(p)
			if o := g.b.analyze(i, c); o.suicide && g.b.stones[i] == 0 && !hasNeighbour(g.b, i, c) {
				continue
			}
			out = append(out, p.GTP(n))
		}
	}
	slices.Sort(out)
	return out
}

func hasNeighbour(b *board, i int, c Color) bool {
	for _, d := range b.dirs {
		if b.cells[i+d] == c {
			return true
		}
	}
	return false
}

func TestRulesCases(t *testing.T) {
	cases, dir := loadCases(t)
	ran := 0
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			ran++
			switch {
			case len(c.Checkpoints) > 0 || (len(c.Moves) > 0 && c.AllMovesLegal):
				runCheckpoints(t, dir, c)
			case c.WMinusB != nil:
				runSekiScoring(t, dir, c)
			case strings.HasPrefix(c.ID, "sgfmill-play-"):
				runLenientPlay(t, dir, c)
			case strings.HasPrefix(c.ID, "sgfmill-score-"):
				runStaticScore(t, dir, c)
			case c.ThenIllegal != "":
				runThenIllegal(t, dir, c)
			case len(c.Checks) > 0 || c.Check != nil:
				runLegalityChecks(t, dir, c)
			default:
				t.Fatalf("case %s: no test knows this case's format", c.ID)
			}
		})
	}
	if ran != len(cases) {
		t.Fatalf("ran %d of %d cases", ran, len(cases))
	}
}

func runCheckpoints(t *testing.T, dir string, c rulesCase) {
	g, _ := newCaseGame(t, dir, c, rulesFromText(c.Rules))
	cp := 0
	for i := 0; i <= len(c.Moves); i++ {
		for cp < len(c.Checkpoints) && c.Checkpoints[cp].AfterMove == i {
			want := slices.Clone(c.Checkpoints[cp].Illegal)
			slices.Sort(want)
			to := colorOf(c.Checkpoints[cp].ToMove)
			if g.ToMove() != to {
				t.Errorf("after move %d: to move %v, want %v", i, g.ToMove(), to)
			}
			if got := illegalPoints(g, to); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Errorf("after move %d: illegal %v, want %v", i, got, want)
			}
			cp++
		}
		if i == len(c.Moves) {
			break
		}
		m := parseGTPMove(t, c.Moves[i], c.Size)
		if _, err := g.Play(m); err != nil {
			t.Fatalf("move %d %s: %v", i+1, c.Moves[i], err)
		}
	}
	if cp != len(c.Checkpoints) {
		t.Errorf("checked %d of %d checkpoints", cp, len(c.Checkpoints))
	}
	if c.ExpectedEnd != "" && strings.Contains(c.ExpectedEnd, "NO RESULT") {
		// Japanese art. 12: the cycle repeated a whole-board position; the players may agree on no result.
		n, ok := g.Repetition()
		if !ok {
			t.Fatalf("after the cycle no repetition is reported")
		}
		if n >= len(c.Moves) {
			t.Errorf("repetition of move %d, want an earlier move", n)
		}
		if err := g.EndVoid(); err != nil {
			t.Fatal(err)
		}
		if g.Result() != "Void" || g.Phase() != Ended {
			t.Errorf("result %q phase %v, want Void, ended", g.Result(), g.Phase())
		}
	}
}

func runSekiScoring(t *testing.T, dir string, c rulesCase) {
	// KataGo's seki tax takes the eye points of every group that is not unconditionally alive, which on
	// these boards is art. 8 read literally (open dame included): LiteralDame. The referee's reading
	// (dame regarded as filled) is checked in TestJapaneseArt8KataGoSeki.
	variants := map[string]Rules{
		"area_no_tax":        {Scoring: AreaScoring, SekiEyesCount: true},
		"area_seki_tax":      {Scoring: AreaScoring, SekiEyesCount: false, LiteralDame: true},
		"territory_no_tax":   {Scoring: TerritoryScoring, SekiEyesCount: true},
		"territory_seki_tax": {Scoring: TerritoryScoring, SekiEyesCount: false, LiteralDame: true},
	}
	for name, r := range variants {
		want, ok := c.WMinusB[name]
		if !ok {
			t.Fatalf("no expectation %s", name)
		}
		r.Name = name
		g, _ := newCaseGame(t, dir, c, r)
		s, err := g.Score(nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := -s.Margin; got != want {
			t.Errorf("%s: W-B = %v, want %v (%+v)", name, got, want, s)
		}
	}
}

func pointNames(g *Game, c Color) []string {
	var out []string
	n := g.Size()
	for i, v := range g.Board() {
		if v == c {
			out = append(out, Point{i % n, i / n}.GTP(n))
		}
	}
	slices.Sort(out)
	return out
}

func runLenientPlay(t *testing.T, dir string, c rulesCase) {
	r, _ := Preset("tromp-taylor")
	g, _ := newCaseGame(t, dir, c, r)
	g.SetKomi(0)
	for _, s := range c.Moves {
		if _, err := g.Apply(parseGTPMove(t, s, c.Size)); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	wantB, wantW := slices.Clone(c.FinalBlack), slices.Clone(c.FinalWhite)
	slices.Sort(wantB)
	slices.Sort(wantW)
	if got := pointNames(g, Black); !slices.Equal(got, wantB) && len(got)+len(wantB) > 0 {
		t.Errorf("black %v, want %v", got, wantB)
	}
	if got := pointNames(g, White); !slices.Equal(got, wantW) && len(got)+len(wantW) > 0 {
		t.Errorf("white %v, want %v", got, wantW)
	}
	ko, isKo := g.KoPoint()
	switch {
	case c.KoPoint == nil && isKo:
		t.Errorf("ko point %s, want none", ko.GTP(c.Size))
	case c.KoPoint != nil && (!isKo || ko.GTP(c.Size) != *c.KoPoint):
		t.Errorf("ko point %v (%v), want %s", ko.GTP(c.Size), isKo, *c.KoPoint)
	}
	checkArea(t, g, c)
}

func checkArea(t *testing.T, g *Game, c rulesCase) {
	t.Helper()
	if c.AreaBMinusW == nil {
		t.Fatal("no expected area score")
	}
	s, err := g.Score(nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.Margin != *c.AreaBMinusW {
		t.Errorf("area B-W %v, want %v", s.Margin, *c.AreaBMinusW)
	}
}

func runStaticScore(t *testing.T, dir string, c rulesCase) {
	r, _ := Preset("tromp-taylor")
	g, _ := newCaseGame(t, dir, c, r)
	g.SetKomi(0)
	checkArea(t, g, c)
}

func runThenIllegal(t *testing.T, dir string, c rulesCase) {
	g, _ := newCaseGame(t, dir, c, rulesFromText(c.Rules))
	for _, s := range c.MovesAllLegal {
		if _, err := g.Play(parseGTPMove(t, s, c.Size)); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	m := parseGTPMove(t, c.ThenIllegal, c.Size)
	err := g.Check(m)
	var want Reason = ReasonSituationalSuperko
	if rulesFromText(c.Rules).Ko == PositionalSuperko {
		want = ReasonPositionalSuperko
	}
	e, ok := err.(*IllegalMoveError)
	if !ok || e.Reason != want {
		t.Fatalf("%s: got %v, want %v", c.ThenIllegal, err, want)
	}
	if e.Repeats < 0 || e.Repeats >= g.MoveNumber() {
		t.Errorf("repeats move %d", e.Repeats)
	}
	// the same cycle is legal under simple ko
	g2, _ := newCaseGame(t, dir, c, Rules{Name: "simple", Ko: SimpleKo})
	for _, s := range append(slices.Clone(c.MovesAllLegal), c.ThenIllegal) {
		if _, err := g2.Play(parseGTPMove(t, s, c.Size)); err != nil {
			t.Fatalf("simple ko: %s: %v", s, err)
		}
	}
}

func runLegalityChecks(t *testing.T, dir string, c rulesCase) {
	checks := c.Checks
	if c.Check != nil {
		checks = append(checks, *c.Check)
	}
	kos := map[string]KoRule{"simple": SimpleKo, "situational": SituationalSuperko, "positional": PositionalSuperko}
	for _, ch := range checks {
		for name, legal := range ch.Legal {
			g, su := newCaseGame(t, dir, c, Rules{Name: name, Ko: kos[name]})
			moves := su.moves
			if len(c.Moves) > 0 {
				moves = nil
				for _, s := range c.Moves {
					moves = append(moves, parseGTPMove(t, s, c.Size))
				}
			}
			if !ch.AfterAllMoves {
				moves = moves[:ch.AfterMove]
			}
			for i, m := range moves {
				if _, err := g.Apply(m); err != nil {
					t.Fatalf("%s: move %d: %v", name, i+1, err)
				}
			}
			to := colorOf(ch.ToMove)
			if g.ToMove() != to {
				t.Errorf("%s: to move %v, want %v", name, g.ToMove(), to)
			}
			p, err := ParsePoint(ch.Point, c.Size)
			if err != nil {
				t.Fatal(err)
			}
			err = g.Check(Move{Color: to, Point: p})
			if (err == nil) != legal {
				t.Errorf("%s after move %d: %s legal = %v (%v), want %v", name, len(moves), ch.Point, err == nil, err, legal)
			}
		}
	}
}
