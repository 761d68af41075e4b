package ui

import (
	"fmt"
	"image"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tengen/engine"
	"tengen/referee"
)

// japaneseStopped is a 9x9 game under Japanese rules stopped by two passes: Black's wall on the D
// line, White's on the E line up to E5 and on the F line above, so that E6 to E9 are open dame
// between them; a White stone dead at B7 and a Black one at H3.
func japaneseStopped(t *testing.T) (*engine.Game, []engine.Point) {
	t.Helper()
	r, err := engine.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(9, r)
	if err != nil {
		t.Fatal(err)
	}
	var black, white []engine.Point
	for y := 1; y <= 9; y++ {
		black = append(black, pt(t, fmt.Sprintf("D%d", y)))
		if y <= 5 {
			white = append(white, pt(t, fmt.Sprintf("E%d", y)))
		} else {
			white = append(white, pt(t, fmt.Sprintf("F%d", y)))
		}
	}
	black = append(black, pt(t, "H3"))
	white = append(white, pt(t, "B7"))
	if err := g.Setup(black, white, engine.Black); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := g.Play(engine.Move{Color: g.ToMove(), Pass: true}); err != nil {
			t.Fatal(err)
		}
	}
	return g, []engine.Point{pt(t, "B7"), pt(t, "H3")}
}

// japaneseCountState is the referee's state after the stop of the demo game under Japanese rules:
// the open dame the engine finds, one of them filled by Black, and the referee's instruction that
// names the dame left.
func japaneseCountState(t *testing.T) referee.State {
	t.Helper()
	g, dead := japaneseStopped(t)
	open, _, err := g.OpenDame(dead)
	if err != nil {
		t.Fatal(err)
	}
	if len(open) < 2 {
		t.Fatalf("the demo game has %d open dame under Japanese rules; the test needs two", len(open))
	}
	if err := g.FillDame(engine.Move{Color: engine.Black, Point: open[0]}, dead); err != nil {
		t.Fatal(err)
	}
	open, seki, err := g.OpenDame(dead)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := g.Score(dead)
	if err != nil {
		t.Fatal(err)
	}
	st := playingState(t)
	komi := 6.5
	st.Setup = referee.Setup{Rules: "japanese", Komi: &komi, Size: 9}
	st.Phase, st.Board, st.Dead, st.Score, st.ToMove = referee.PhaseMarking, g.Board(), dead, &sc, engine.Empty
	st.Dame = referee.DameState{Applies: true, Open: open, Seki: seki, Filled: g.DameFilled()}
	names := make([]string, len(open))
	for i, p := range open {
		names[i] = p.GTP(9)
	}
	st.Banner = referee.Verdict{Kind: referee.VerdictMarking, Points: open, Says: []referee.Phrase{{
		Text: "Open dame left at {{.Points}}: fill them, then both players press their clock to confirm.",
		Args: map[string]string{"Points": strings.Join(names, ", ")}}}}
	return st
}

// askedState is st after both players confirmed with dame open: the referee asks them to fill
// them or to confirm again.
func askedState(st referee.State) referee.State {
	st.Dame.Asked = true
	names := make([]string, len(st.Dame.Open))
	for i, p := range st.Dame.Open {
		names[i] = p.GTP(9)
	}
	st.Banner = referee.Verdict{Kind: referee.VerdictMarking, Points: st.Dame.Open, Says: []referee.Phrase{{
		Text: "Open dame remain at {{.Points}} (Japanese rules art. 8): fill them (a stone on each; dame filling is not a move) and both press your clock, or both press your clock again to count them as filled.",
		Args: map[string]string{"Points": strings.Join(names, ", ")}}}}
	return st
}

// Under Japanese rules the counting board marks the open dame (magenta rings), the dame filled
// (magenta dots on the stones) and the seki's liberties (teal squares), says what they are, and
// takes its instructions from the referee: the dame left, then, once the players were asked, to
// fill them or to agree again.
func TestJapaneseCountShowsDame(t *testing.T) {
	newTestApp(t)
	st := japaneseCountState(t)
	v := CountViewOf(st)
	kinds := map[MarkKind][]engine.Point{}
	for _, m := range v.Board.Marks {
		kinds[m.Kind] = append(kinds[m.Kind], m.Point)
	}
	if len(kinds[MarkDame]) != len(st.Dame.Open) || len(kinds[MarkFilled]) != 1 || len(kinds[MarkSeki]) != len(st.Dame.Seki) {
		t.Errorf("marks %v for open %v, filled %v, seki %v", kinds, st.Dame.Open, st.Dame.Filled, st.Dame.Seki)
	}
	if len(kinds[MarkDead]) != len(st.Dead) {
		t.Errorf("dead marks %v, want %v", kinds[MarkDead], st.Dead)
	}
	if !v.CanConfirm || !v.Dame.Applies || v.Dame.Open != len(st.Dame.Open) {
		t.Errorf("view %+v", v.Dame)
	}
	cs := NewCountScreen(CountHandlers{})
	sz := displays[0]
	cs.SetView(v)
	img := capture(t, "count-japanese-dame", cs.Content(), sz)
	// Each open dame is ringed in magenta, the filled dame dotted.
	d := fyne.CurrentApp().Driver()
	g := boardGeometry(cs.Board.Size(), 9)
	origin := d.AbsolutePositionForObject(cs.Board)
	for _, p := range append(append([]engine.Point{}, st.Dame.Open...), st.Dame.Filled[0].Point) {
		c := origin.Add(fyne.NewPos(g.x0+float32(p.X)*g.step, g.y0+float32(p.Y)*g.step))
		lo, hi := scale(img, sz, c.SubtractXY(g.step/2, g.step/2)), scale(img, sz, c.AddXY(g.step/2, g.step/2))
		if n := countNear(img, image.Rectangle{Min: lo, Max: hi}, colDame, 40); n < 20 {
			t.Errorf("%s: %d magenta pixels", p.GTP(9), n)
		}
	}
	want := fmt.Sprintf("Open dame left at %s: fill them, then both players press their clock to confirm.", st.Banner.Says[0].Args["Points"])
	if cs.steps.Text != want {
		t.Errorf("instructions %q, want %q", cs.steps.Text, want)
	}
	if !cs.legend.Visible() || !strings.Contains(cs.legend.Text, fmt.Sprintf("open dame (%d)", len(st.Dame.Open))) || !strings.Contains(cs.legend.Text, "dame filled (1)") {
		t.Errorf("legend %q", cs.legend.Text)
	}
	// Once asked, the screen says what to do next (the referee's long sentence stays on the table).
	cs.SetView(CountViewOf(askedState(st)))
	if cs.steps.Text != "Open dame remain: fill them (a stone on each), or both players agree again to count them as filled." {
		t.Errorf("asked, no verdict: %q", cs.steps.Text)
	}
	// Under AGA rules there is no dame filling and no confirmation by play.
	aga := st
	aga.Setup.Rules, aga.Dame = "aga", referee.DameState{}
	cs.SetView(CountViewOf(aga))
	if cs.legend.Visible() || cs.playOut.Visible() {
		t.Error("AGA rules show the dame legend or the confirmation by play")
	}
}

// "Play it out (confirmation)" asks who plays first, and only then starts the confirmation.
func TestPlayItOutAsksWhoPlaysFirst(t *testing.T) {
	newTestApp(t)
	var started []engine.Color
	cs := NewCountScreen(CountHandlers{StartConfirmation: func(c engine.Color) { started = append(started, c) }})
	w := test.NewWindow(cs.Content())
	defer w.Close()
	w.Resize(displays[0])
	cs.SetView(CountViewOf(japaneseCountState(t)))
	if !cs.playOut.Visible() {
		t.Fatal("no Play it out under Japanese rules")
	}
	test.Tap(cs.playOut)
	if len(started) != 0 || !cs.firstB.Visible() || !cs.firstW.Visible() || cs.agreeB.Visible() || cs.resumeB.Visible() {
		t.Fatalf("one tap started (%v) or did not ask", started)
	}
	if !strings.HasSuffix(cs.steps.Text, "Who plays first?") {
		t.Errorf("question %q", cs.steps.Text)
	}
	test.Tap(cs.noPlay)
	if len(started) != 0 || cs.firstB.Visible() || !cs.agreeB.Visible() {
		t.Fatal("cancel did not go back")
	}
	test.Tap(cs.playOut)
	test.Tap(cs.firstW)
	if len(started) != 1 || started[0] != engine.White || cs.firstW.Visible() {
		t.Errorf("started %v", started)
	}
}

// koState is a confirmation by play after the stop under Japanese rules: Black has just taken a
// ko at C4 (from D4), so White may retake it only after passing once for it.
func koState(t *testing.T) referee.State {
	t.Helper()
	r, err := engine.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(9, r)
	if err != nil {
		t.Fatal(err)
	}
	pts := func(s ...string) []engine.Point {
		var out []engine.Point
		for _, v := range s {
			out = append(out, pt(t, v))
		}
		return out
	}
	if err := g.Setup(pts("C5", "B4", "C3", "G7", "G6"), pts("C4", "D5", "E4", "D3", "F7"), engine.Black); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := g.Play(engine.Move{Color: g.ToMove(), Pass: true}); err != nil {
			t.Fatal(err)
		}
	}
	sb, err := g.Confirmation(engine.Black)
	if err != nil {
		t.Fatal(err)
	}
	moves := []engine.Move{{Color: engine.Black, Point: pt(t, "D4")}}
	for _, m := range moves {
		if _, err := sb.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	bans := sb.KoBans(sb.ToMove())
	if len(bans) != 1 || bans[0] != pt(t, "C4") {
		t.Fatalf("ko bans %v", bans)
	}
	st := playingState(t)
	komi := 6.5
	st.Setup = referee.Setup{Rules: "japanese", Komi: &komi, Size: 9}
	st.Phase, st.Board, st.ToMove = referee.PhaseMarking, g.Board(), engine.Empty
	st.Confirmation = &referee.ConfirmationState{Board: sb.Board(), ToMove: sb.ToMove(), Moves: moves, KoBans: bans,
		Captured: pts("C4")}
	st.Banner = referee.Verdict{Kind: referee.VerdictMarking, Says: []referee.Phrase{{
		Text: "Confirmation of life and death by play (Japanese rules art. 7.2): {{.Color}} plays first. These moves are hypothetical, not moves of the game; a ko may be retaken only after passing once for it.",
		Args: map[string]string{"Color": "Black"}}}}
	return st
}

// During a confirmation by play the game screen is the confirmation's: its own board, the moves
// (not moves of the game), the banned ko in words and on the board, "Pass for this ko" for it and
// "End confirmation"; each reaches its handler.
func TestConfirmationScreen(t *testing.T) {
	newTestApp(t)
	var passed []engine.Point
	ended, started, voided := 0, []engine.Color{}, []engine.Color{}
	a, _ := appWindow(t, displays[0], Handlers{
		PassForKo:         func(p engine.Point) error { passed = append(passed, p); return nil },
		EndConfirmation:   func() error { ended++; return nil },
		StartConfirmation: func(c engine.Color) error { started = append(started, c); return nil },
		AgreeVoid:         func(c engine.Color) error { voided = append(voided, c); return nil },
	})
	a.Update(japaneseCountState(t), Conditions{})
	if a.Current() != a.Count().Content() {
		t.Fatal("not the counting screen after the stop")
	}
	test.Tap(a.Count().playOut)
	test.Tap(a.Count().firstB)
	if len(started) != 1 || started[0] != engine.Black {
		t.Fatalf("started %v", started)
	}
	st := koState(t)
	a.Update(st, Conditions{})
	cf := a.Confirm()
	if a.Current() != cf.Content() {
		t.Fatal("the confirmation is not on screen")
	}
	if b := cf.Board.View(); b.At(pt(t, "D4")) != engine.Black || b.At(pt(t, "C4")) != engine.Empty {
		t.Error("the board is not the confirmation's")
	}
	if cf.moves.Text != "Moves (not moves of the game): B D4" {
		t.Errorf("moves %q", cf.moves.Text)
	}
	if cf.bans.Text != "White may retake the ko at C4 only after passing once for it." {
		t.Errorf("bans %q", cf.bans.Text)
	}
	if !strings.Contains(cf.said.Text, "White plays next") || !strings.HasPrefix(cf.said.Text, "Confirmation of life and death by play") {
		t.Errorf("said %q", cf.said.Text)
	}
	if !cf.koPass[0].Visible() || cf.koPass[0].Text != "Pass for this ko (C4)" || cf.koPass[1].Visible() {
		t.Errorf("ko buttons %q %v %v", cf.koPass[0].Text, cf.koPass[0].Visible(), cf.koPass[1].Visible())
	}
	test.Tap(cf.koPass[0])
	if len(passed) != 1 || passed[0] != pt(t, "C4") {
		t.Errorf("passed %v", passed)
	}
	test.Tap(cf.end)
	if ended != 1 {
		t.Errorf("ended %d times", ended)
	}
	// The confirmation over, the count is back.
	st.Confirmation = nil
	a.Update(st, Conditions{})
	if a.Current() != a.Count().Content() {
		t.Error("the count is not back after the confirmation")
	}
}

// repetitionState is a game under Japanese rules whose move 9 recreated the position after move 5.
func repetitionState(t *testing.T) referee.State {
	t.Helper()
	st := playingState(t)
	st.Setup.Rules = "japanese"
	st.Repetition = &referee.Repetition{Move: 9, Earlier: 5}
	st.Banner = referee.Verdict{Kind: referee.VerdictInfo, Says: []referee.Phrase{{
		Text: "The whole-board position after move {{.N}} repeats the one after move {{.Earlier}} (Japanese rules art. 12): if both players agree, the game ends with no result; otherwise one of them must play elsewhere.",
		Args: map[string]string{"N": "9", "Earlier": "5"}}}}
	return st
}

// A whole-board repetition (art. 12) is said on the table, and each player has an "agree: no
// result" button; an agreement shows. The game ended void reads "No result (Void)".
func TestRepetitionOnTable(t *testing.T) {
	newTestApp(t)
	var voided []engine.Color
	a, _ := appWindow(t, displays[0], Handlers{AgreeVoid: func(c engine.Color) error { voided = append(voided, c); return nil }})
	st := repetitionState(t)
	a.Update(st, Conditions{})
	ts := a.Table()
	if a.Current() != ts.Content() {
		t.Fatal("not the table")
	}
	if !ts.voidB.Visible() || !ts.voidW.Visible() || ts.voidB.Text != "Black: agree, no result" {
		t.Fatalf("void buttons %q %v %v", ts.voidB.Text, ts.voidB.Visible(), ts.voidW.Visible())
	}
	if ts.Banner.view.Title != "Position repeated (art. 12)" || !strings.Contains(ts.Banner.view.Text, "repeats the one after move 5") {
		t.Errorf("banner %q", ts.Banner.view.Text)
	}
	test.Tap(ts.voidW)
	if len(voided) != 1 || voided[0] != engine.White {
		t.Errorf("agreed %v", voided)
	}
	st.Repetition.Agreed[engine.White] = true
	st.Seq++
	a.Update(st, Conditions{})
	if ts.voidW.Text != "White agrees: no result" || !ts.voidW.disabled || ts.voidB.disabled {
		t.Errorf("after White agreed: %q disabled %v", ts.voidW.Text, ts.voidW.disabled)
	}
	// A stone that breaks the cycle takes the buttons away.
	st.Repetition = nil
	a.Update(st, Conditions{})
	if ts.voidB.Visible() || ts.voidW.Visible() {
		t.Error("the void buttons stay without a repetition")
	}
	// Both agreed: the game ends with no result.
	st.Phase, st.Result = referee.PhaseEnded, "Void"
	st.Banner = referee.Verdict{Kind: referee.VerdictResult, Says: []referee.Phrase{
		{Text: "Both players agree to end the game with no result, the position having repeated (Japanese rules art. 12):"},
		{Text: "no result ({{.Result}}).", Args: map[string]string{"Result": "Void"}}}}
	a.Update(st, Conditions{})
	if a.Current() != ts.Content() || ts.Banner.view.Title != "No result (Void)" || !strings.HasSuffix(ts.Banner.view.Text, "no result (Void).") {
		t.Errorf("void end: %q %q", ts.Banner.view.Title, ts.Banner.view.Text)
	}
	if got := resultText("Void"); got != "No result (Void)" {
		t.Errorf("resultText(Void) = %q", got)
	}
}

// The new screens at 800x480, 1280x720 and 1920x1080 in every language: the Japanese count (dame
// open, asked, choosing who plays first, one agreed), the confirmation by play (with and without a
// banned ko) and the table with a repetition (with and without a ruling): no part overlaps another
// or the board, every text is inside its part.
func TestRulesScreensFitEveryLanguage(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	count := japaneseCountState(t)
	conf := koState(t)
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		for _, sz := range allDisplays {
			cs := NewCountScreen(CountHandlers{})
			w := test.NewWindow(cs.Content())
			w.SetPadded(false)
			w.Resize(sz)
			for _, s := range []struct {
				name string
				st   referee.State
				mod  func()
			}{
				{"dame", count, func() {}},
				{"asked", askedState(count), func() {}},
				{"choosing", count, func() { cs.choosing = true }},
				{"one-agreed", func() referee.State { s := count; s.Banner = referee.Verdict{}; s.Black.Confirmed = true; return s }(), func() { cs.choosing = false }},
			} {
				s.mod()
				cs.SetView(CountViewOf(s.st))
				cs.Content().Refresh()
				name := fmt.Sprintf("%s %vx%v count %s", l.Code, sz.Width, sz.Height, s.name)
				checkCountLayout(t, name, cs)
			}
			w.Close()

			cf := NewConfirmScreen(ConfirmHandlers{})
			w = test.NewWindow(cf.Content())
			w.SetPadded(false)
			w.Resize(sz)
			noBan := conf
			c := *conf.Confirmation
			c.KoBans, noBan.Confirmation = nil, &c
			for i, st := range []referee.State{conf, noBan} {
				cf.SetView(ConfirmViewOf(st))
				cf.Content().Refresh()
				name := fmt.Sprintf("%s %vx%v confirmation %d", l.Code, sz.Width, sz.Height, i)
				checkParts(t, name, cf.Board, cf.content, []fyne.CanvasObject{cf.title, cf.menu, cf.said, cf.bans, cf.moves, cf.koPass[0], cf.koPass[1], cf.end})
			}
			w.Close()

			ts := NewTableScreen(nil, nil)
			w = test.NewWindow(ts.Content())
			w.SetPadded(false)
			w.Resize(sz)
			for _, withRuling := range []bool{false, true} {
				st := repetitionState(t)
				if withRuling {
					r := illegalRulings(t)[0]
					r.MoveNumber = st.MoveNumber
					st.Rulings = []referee.Verdict{r}
				}
				ts.SetView(TableViewOf(st, Conditions{}))
				ts.Content().Refresh()
				name := fmt.Sprintf("%s %vx%v repetition ruling=%v", l.Code, sz.Width, sz.Height, withRuling)
				if !ts.voidB.Visible() {
					t.Errorf("%s: no agree buttons", name)
				}
				checkParts(t, name, ts.Board, ts.content, []fyne.CanvasObject{ts.White, ts.Black, ts.Banner, ts.status, ts.menu, ts.rulings, ts.voidB, ts.voidW, ts.Ruling})
			}
			w.Close()
			if t.Failed() {
				return
			}
		}
	}
}

// checkParts fails when a visible part overlaps the board or another part, runs off the screen, or
// draws text outside itself; a big button must be one a finger hits, with text of 14 px or more.
func checkParts(t *testing.T, name string, board, root fyne.CanvasObject, parts []fyne.CanvasObject) {
	t.Helper()
	d := fyne.CurrentApp().Driver()
	origin := d.AbsolutePositionForObject(root)
	screen := root.Size()
	b := rect{d.AbsolutePositionForObject(board), board.Size()}
	var shown []rect
	var objs []fyne.CanvasObject
	for _, o := range parts {
		if !o.Visible() {
			continue
		}
		r := rect{d.AbsolutePositionForObject(o), o.Size()}
		if r.overlaps(b) {
			t.Errorf("%s: %T at %v %v overlaps the board", name, o, r.pos, r.size)
		}
		if p := r.pos.Subtract(origin); p.X < -0.5 || p.Y < -0.5 || p.X+r.size.Width > screen.Width+0.5 || p.Y+r.size.Height > screen.Height+0.5 {
			t.Errorf("%s: %T at %v %v is off the screen", name, o, r.pos, r.size)
		}
		for i, s := range shown {
			if r.overlaps(s) {
				t.Errorf("%s: %T %v %v overlaps %T %v %v", name, o, r.pos, r.size, objs[i], s.pos, s.size)
			}
		}
		shown, objs = append(shown, r), append(objs, o)
		checkTextsFit(t, name, o)
		if bb, ok := o.(*bigButton); ok {
			if bb.Size().Height < 44 || bb.Size().Width < 100 {
				t.Errorf("%s: button %q only %v", name, bb.Text, bb.Size())
			}
			for _, pt := range textsIn(bb) {
				if pt.t.TextSize < 14 {
					t.Errorf("%s: button %q drawn at %.1f px", name, bb.Text, pt.t.TextSize)
				}
			}
		}
		if wt, ok := o.(*wrapText); ok && wt.Text != "" {
			for _, pt := range textsIn(wt) {
				if pt.t.TextSize < 10 {
					t.Errorf("%s: %q drawn at %.1f px", name, wt.Text, pt.t.TextSize)
				}
			}
		}
	}
}

// A seki's shared liberties are marked as such (teal squares), apart from the open dame beside it:
// KataGo's GroupTaxSekiScoring board, with its real seki at H9 J8 and the dame G3.
func TestSekiDameMarked(t *testing.T) {
	newTestApp(t)
	rows := []string{
		".X.XO.O.X",
		"...XOOOX.",
		".XXXXXXOO",
		"XOOOOOXO.",
		"XO.O.OXOO",
		"XOOOOOXXX",
		"XXXO...OO",
		".XXXOOOO.",
		".X.XO.O.O",
	}
	r, err := engine.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(9, r)
	if err != nil {
		t.Fatal(err)
	}
	var black, white []engine.Point
	for y, row := range rows {
		for x, c := range row {
			switch c {
			case 'X':
				black = append(black, engine.Point{X: x, Y: y})
			case 'O':
				white = append(white, engine.Point{X: x, Y: y})
			}
		}
	}
	if err := g.Setup(black, white, engine.Black); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := g.Play(engine.Move{Color: g.ToMove(), Pass: true}); err != nil {
			t.Fatal(err)
		}
	}
	open, seki, err := g.OpenDame(nil)
	if err != nil {
		t.Fatal(err)
	}
	st := playingState(t)
	st.Setup.Rules, st.Phase, st.Board = "japanese", referee.PhaseMarking, g.Board()
	st.Dame = referee.DameState{Applies: true, Open: open, Seki: seki}
	got := map[MarkKind][]string{}
	for _, m := range CountViewOf(st).Board.Marks {
		got[m.Kind] = append(got[m.Kind], m.Point.GTP(9))
	}
	if fmt.Sprint(got[MarkSeki]) != "[H9 J8]" || fmt.Sprint(got[MarkDame]) != "[G3]" {
		t.Errorf("seki marks %v, open dame %v", got[MarkSeki], got[MarkDame])
	}
	cs := NewCountScreen(CountHandlers{})
	cs.SetView(CountViewOf(st))
	if cs.legend.Text != "Magenta ring: open dame (1) · teal square: seki, stays open (2)" {
		t.Errorf("legend %q", cs.legend.Text)
	}
}

// TestAGARule9CountScreenShowsTheBoardDisagreeing: after the stop, while the board disagrees with
// the marking (a live stone lifted, a stone that is not the game's: AGA rule 9, Japanese art. 10),
// the counting screen marks the points in blue, says the referee's sentences about them in the
// players' language whatever the latest verdict was, and explains the mark in the legend, and the
// screen still fits in every language. Once the board agrees, the marks and the sentences go.
func TestAGARule9CountScreenShowsTheBoardDisagreeing(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	st := japaneseCountState(t)
	lifted, placed := pt(t, "D5"), pt(t, "G8")
	st.CountBoard = referee.CountBoard{Lifted: []engine.Point{lifted}, Placed: []engine.Point{placed}, Says: []referee.Phrase{
		{Text: "The stones at {{.Points}} are off the board, but their groups are not marked dead: put them back, or mark the groups dead.",
			Args: map[string]string{"Points": "D5"}},
		{Text: "The stones at {{.Points}} are not on an open dame: take them off. After the stop only dame are filled (Japanese rules art. 8).",
			Args: map[string]string{"Points": "G8"}},
	}}
	st.Black.Confirmed = true
	st.Banner = referee.Verdict{Kind: referee.VerdictMarking, Color: engine.Black, Says: []referee.Phrase{{
		Text: "{{.Color}} confirms the marking; {{.Opponent}}, press your clock to confirm too, or change the marking.",
		Args: map[string]string{"Color": "Black", "Opponent": "White"}}}}
	english := ""
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		v := CountViewOf(st)
		var fix []engine.Point
		for _, m := range v.Board.Marks {
			if m.Kind == MarkFix {
				fix = append(fix, m.Point)
			}
		}
		if fmt.Sprint(fix) != fmt.Sprint([]engine.Point{placed, lifted}) || v.Differs != 2 {
			t.Fatalf("%s: differences marked at %v (%d), want D5 and G8", l.Code, fix, v.Differs)
		}
		cs := NewCountScreen(CountHandlers{})
		w := test.NewWindow(cs.Content())
		w.SetPadded(false)
		for _, sz := range allDisplays {
			w.Resize(sz)
			cs.SetView(v)
			cs.Content().Refresh()
			checkCountLayout(t, fmt.Sprintf("%s %vx%v differs", l.Code, sz.Width, sz.Height), cs)
		}
		if !strings.Contains(cs.steps.Text, "D5") || !strings.Contains(cs.steps.Text, "G8") {
			t.Errorf("%s: instructions %q do not name the points", l.Code, cs.steps.Text)
		}
		if l.Code == "en" {
			english = cs.steps.Text
			if !strings.Contains(english, "not marked dead") || !strings.Contains(english, "not on an open dame") {
				t.Errorf("instructions %q: not the referee's sentences", english)
			}
		} else if cs.steps.Text == english || strings.Contains(cs.steps.Text, "off the board") {
			t.Errorf("%s: instructions left in English: %q", l.Code, cs.steps.Text)
		}
		if !cs.legend.Visible() || !strings.Contains(cs.legend.Text, tr("Blue square: the board differs from the marking ({{.N}})", "N", 2)) {
			t.Errorf("%s: legend %q", l.Code, cs.legend.Text)
		}
		if l.Code == "en" {
			sz := displays[0]
			w.Resize(sz)
			cs.SetView(v)
			img := capture(t, "count-board-differs", cs.Content(), sz)
			d := fyne.CurrentApp().Driver()
			g := boardGeometry(cs.Board.Size(), 9)
			origin := d.AbsolutePositionForObject(cs.Board)
			for _, p := range fix {
				c := origin.Add(fyne.NewPos(g.x0+float32(p.X)*g.step, g.y0+float32(p.Y)*g.step))
				lo, hi := scale(img, sz, c.SubtractXY(g.step/2, g.step/2)), scale(img, sz, c.AddXY(g.step/2, g.step/2))
				if n := countNear(img, image.Rectangle{Min: lo, Max: hi}, colDiffers, 40); n < 20 {
					t.Errorf("%s: %d blue pixels", p.GTP(9), n)
				}
			}
		}
		w.Close()
	}
	_ = SetLanguage("en")
	st.CountBoard = referee.CountBoard{}
	v := CountViewOf(st)
	for _, m := range v.Board.Marks {
		if m.Kind == MarkFix {
			t.Errorf("a difference marked at %s once the board agrees", m.Point.GTP(9))
		}
	}
	if v.Differs != 0 || strings.Contains(v.Said, "not marked dead") {
		t.Errorf("once the board agrees: %d differences, said %q", v.Differs, v.Said)
	}
}
