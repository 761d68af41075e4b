package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tengen/engine"
	"tengen/referee"
)

// placedText is a text drawn on the screen with its place in the window.
type placedText struct {
	t   *canvas.Text
	pos fyne.Position
}

// textsIn returns the visible texts drawn inside o as the window draws them (its widgets' own
// renderers), with their window positions.
func textsIn(o fyne.CanvasObject) []placedText {
	var out []placedText
	d := fyne.CurrentApp().Driver()
	var walk func(o fyne.CanvasObject, at fyne.Position)
	walk = func(o fyne.CanvasObject, at fyne.Position) {
		if !o.Visible() {
			return
		}
		switch c := o.(type) {
		case *canvas.Text:
			if strings.TrimSpace(c.Text) != "" {
				out = append(out, placedText{t: c, pos: at})
			}
		case fyne.Widget:
			for _, child := range test.WidgetRenderer(c).Objects() {
				walk(child, at.Add(child.Position()))
			}
		case *fyne.Container:
			for _, child := range c.Objects {
				walk(child, at.Add(child.Position()))
			}
		}
	}
	walk(o, d.AbsolutePositionForObject(o))
	return out
}

// checkTextsFit fails when a text of o is drawn outside o's box (clipped: wider than its room or
// beyond an edge).
func checkTextsFit(t *testing.T, what string, o fyne.CanvasObject) {
	t.Helper()
	d := fyne.CurrentApp().Driver()
	p, sz := d.AbsolutePositionForObject(o), o.Size()
	for _, pt := range textsIn(o) {
		w := fyne.MeasureText(pt.t.Text, pt.t.TextSize, pt.t.TextStyle)
		left := pt.pos.X
		switch pt.t.Alignment {
		case fyne.TextAlignCenter:
			left += (pt.t.Size().Width - w.Width) / 2
		case fyne.TextAlignTrailing:
			left += pt.t.Size().Width - w.Width
		}
		// The ink of a line: its measured width, and from its top to the descenders' depth (about
		// 1.2 of the size; the measured height adds the line gap below).
		ink := pt.t.TextSize * 1.2
		if left < p.X-1 || left+w.Width > p.X+sz.Width+1 || pt.pos.Y < p.Y-1 || pt.pos.Y+ink > p.Y+sz.Height+1 {
			t.Errorf("%s: %q (%.0f px) is drawn at %v..%v, outside %v..%v", what, pt.t.Text, pt.t.TextSize,
				fyne.NewPos(left, pt.pos.Y), fyne.NewPos(left+w.Width, pt.pos.Y+ink), p, p.Add(sz))
		}
	}
}

// illegalRuling is an illegal move's verdict as the referee says it under each policy: the rules
// engine's sentence for reason and rules, then what the policy did.
func illegalRulings(t *testing.T) []referee.Verdict {
	t.Helper()
	policies := [][]referee.Phrase{
		{{Text: "{{.Color}} takes the stone on {{.Point}} back and passes instead (AGA rule 8), handing one pass stone to {{.Opponent}}.", Args: map[string]string{"Color": "White", "Point": "F4", "Opponent": "Black"}}},
		{{Text: "A violation loses the game at once (Japanese rules art. 14): {{.Opponent}} wins ({{.Result}}).", Args: map[string]string{"Opponent": "Black", "Result": "B+F"}}},
		{{Text: "Warning (tournament rule): {{.Color}} takes the stone on {{.Point}} back and plays again; {{.Color}}'s clock runs on.", Args: map[string]string{"Color": "White", "Point": "F4"}}},
		{{Text: "Play is halted and the clocks are stopped: call the director."}},
	}
	seen := map[string]bool{}
	var out []referee.Verdict
	for _, name := range engine.PresetNames() {
		r, err := engine.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		for reason := engine.Occupied; reason <= engine.OffBoard; reason++ {
			e := &engine.IllegalMoveError{Reason: reason, Rules: r.Name, Repeats: 120, Size: 19, KoPoint: engine.Point{X: 4, Y: 5},
				Move: engine.Move{Color: engine.White, Point: engine.Point{X: 5, Y: 5}}}
			text, args := e.Sentence()
			if seen[text] {
				continue
			}
			seen[text] = true
			for _, pol := range policies {
				says := append([]referee.Phrase{{Text: text + ".", Args: args}}, pol...)
				out = append(out, referee.Verdict{Kind: referee.VerdictIllegal, Color: engine.White, Says: says, MoveNumber: 121,
					Points: []engine.Point{{X: 5, Y: 5}}, At: time.Date(2026, 5, 1, 14, 3, 12, 0, time.UTC)})
			}
		}
	}
	return out
}

// rulingState is a 19x19 game at move 121 whose latest ruling is v (also the banner).
func rulingState(t *testing.T, v referee.Verdict) referee.State {
	t.Helper()
	st := playingState(t)
	st.Size, st.Setup.Size = 19, 19
	st.Board = make([]engine.Color, 19*19)
	for i := range st.Board {
		if i%7 == 0 {
			st.Board[i] = engine.Black
		} else if i%5 == 0 {
			st.Board[i] = engine.White
		}
	}
	st.LastMove = nil
	st.MoveNumber = v.MoveNumber
	st.Banner = v
	st.Rulings = []referee.Verdict{v}
	return st
}

// Every illegal-move ruling, under every policy and in every language, is shown at 800x480 in type
// at least 24 px high (readable at 1 m), and at 1920x1080 at least 48 px (a large display read from
// as far: its type grows with the panel), inside its panel, and the board and both clocks stay on
// screen.
func TestRulingReadableAt800x480(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	rulings := illegalRulings(t)
	if len(rulings) < 20 {
		t.Fatalf("only %d rulings", len(rulings))
	}
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		for _, at := range []struct {
			size  fyne.Size
			least float32
		}{{allDisplays[0], 24}, {allDisplays[2], 48}} {
			rulingReadable(t, l.Code, rulings, at.size, at.least)
		}
	}
}

// rulingReadable checks every ruling of rulings on the table at sz in the current language: type at
// least least px high, inside the panel, the board and clocks above it.
func rulingReadable(t *testing.T, code string, rulings []referee.Verdict, sz fyne.Size, least float32) {
	t.Helper()
	l := Language{Code: code}
	{
		ts := NewTableScreen(nil, nil)
		w := test.NewWindow(ts.Content())
		w.SetPadded(false)
		w.Resize(sz)
		smallest, worst := float32(1000), ""
		for _, v := range rulings {
			ts.SetView(TableViewOf(rulingState(t, v), Conditions{}))
			if !ts.RulingShown() {
				t.Fatalf("%s: the ruling is not shown", l.Code)
			}
			rs := ts.Ruling.Size()
			if rs.Width < 700 || rs.Height < 180 {
				t.Fatalf("%s: ruling panel only %v", l.Code, rs)
			}
			var body []string
			for _, pt := range textsIn(ts.Ruling) {
				if pt.t.Text == tr("Tap to close") {
					continue
				}
				body = append(body, pt.t.Text)
				if pt.t.TextSize < smallest {
					smallest, worst = pt.t.TextSize, saidText(v)
				}
			}
			if got, want := strings.Join(body, " "), ts.view.Ruling.Title+" "+saidText(v); got != want {
				t.Fatalf("%s: the ruling panel says %q, want %q", l.Code, got, want)
			}
			checkTextsFit(t, l.Code+" ruling", ts.Ruling)
			for _, o := range []fyne.CanvasObject{ts.Board, ts.White, ts.Black} {
				if o.Position().Y+o.Size().Height > ts.Ruling.Position().Y || o.Size().Height < 80 {
					t.Fatalf("%s: %T at %v size %v overlaps the ruling or is too small", l.Code, o, o.Position(), o.Size())
				}
			}
			if t.Failed() {
				break
			}
		}
		if smallest < least {
			t.Errorf("%s %v: a ruling is drawn at %.1f px: %q", l.Code, sz, smallest, worst)
		}
		t.Logf("%s %vx%v: smallest ruling type %.1f px", l.Code, sz.Width, sz.Height, smallest)
		w.Close()
	}
}

// A ruling stays on the table when the banner moves on (the stone taken back, the board checked),
// goes at the next move, and a tap closes it; the list of rulings is one tap away and lists the
// game's rulings newest first with time, move, article and what was done.
func TestRulingStaysAndListed(t *testing.T) {
	newTestApp(t)
	a, _ := appWindow(t, displays[0], Handlers{})
	rulings := illegalRulings(t)
	ill := rulings[0]
	ill.MoveNumber = 7
	st := playingState(t)
	st.MoveNumber, st.Banner, st.Rulings = 7, ill, []referee.Verdict{ill}
	a.Update(st, Conditions{})
	ts := a.Table()
	if !ts.RulingShown() || !ts.Ruling.Visible() {
		t.Fatal("the ruling is not shown")
	}
	capture(t, "ruling-800x480", a.Current(), displays[0])
	// The board is put right: the referee says something else; the ruling stays.
	st.Banner = referee.Verdict{Kind: referee.VerdictInfo, Says: []referee.Phrase{{Text: "The board matches the game again."}}, At: ill.At.Add(5 * time.Second)}
	st.Seq++
	a.Update(st, Conditions{})
	if !ts.RulingShown() {
		t.Error("the ruling went when the banner moved on")
	}
	// A tap closes it.
	test.Tap(ts.Ruling)
	if ts.RulingShown() || ts.Ruling.Visible() {
		t.Error("a tap did not close the ruling")
	}
	// A new ruling shows again, and the next move takes it away.
	dir := referee.Verdict{Kind: referee.VerdictDirector, Says: []referee.Phrase{{Text: "Director: play resumes: {{.Color}} to play.", Args: map[string]string{"Color": "Black"}}},
		MoveNumber: 7, At: ill.At.Add(time.Minute)}
	st.Rulings = append(st.Rulings, dir)
	st.Banner = dir
	a.Update(st, Conditions{})
	if !ts.RulingShown() {
		t.Error("a new ruling is not shown")
	}
	st.MoveNumber = 8
	st.Banner = referee.Verdict{Kind: referee.VerdictMove, MoveNumber: 8}
	a.Update(st, Conditions{})
	if ts.RulingShown() {
		t.Error("the ruling stays after the next move")
	}
	// The list, from the table's button.
	test.Tap(ts.rulings)
	if a.Screen() != ScreenRulings {
		t.Fatalf("the rulings button shows screen %v", a.Screen())
	}
	rows := a.Rulings().Rows()
	if len(rows) != 2 || rows[0].Title != "Director" || !strings.HasPrefix(rows[1].Title, "Illegal move") {
		t.Fatalf("rows %+v", rows)
	}
	if r := rows[1]; r.Move != "Move 7" || r.Rule != "AGA rule 7" && r.Rule == "—" || r.Time != ill.At.In(time.Local).Format("15:04:05") || !strings.Contains(r.Text, "back and passes") {
		t.Errorf("illegal-move row %+v", r)
	}
	capture(t, "rulings-800x480", a.Current(), displays[0])
	checkTextsFit(t, "rulings list", a.Current())
	for _, pt := range textsIn(a.Current()) {
		if pt.t.TextSize < 20 {
			t.Errorf("rulings list: %q at %.0f px", pt.t.Text, pt.t.TextSize)
		}
	}
	// Every language lists them translated.
	for _, l := range Languages()[1:] {
		if err := a.SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		a.Update(st, Conditions{})
		rows := a.Rulings().Rows()
		if rows[1].Rule == "AGA rule 7" || strings.Contains(rows[1].Text, "back and passes") || rows[0].Move == "Move 7" {
			t.Errorf("%s: row left in English: %+v", l.Code, rows[1])
		}
		a.Show(ScreenRulings)
		checkTextsFit(t, l.Code+" rulings list", a.Current())
	}
	_ = a.SetLanguage("en")
	// The director finds the list in the menu too.
	a.Show(ScreenMenu)
	for _, o := range test.LaidOutObjects(a.Current()) {
		if b, ok := o.(*widget.Button); ok && b.Text == "Rulings" {
			test.Tap(b)
		}
	}
	if a.Screen() != ScreenRulings {
		t.Error("the menu does not open the rulings")
	}
}
