package ui

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee"
)

// leftInEnglish is the set of the screens' English strings that code translates differently: a
// text drawn in that language equal to one of them was not translated. Strings with fields are
// left out (they are drawn filled in).
func leftInEnglish(t *testing.T, code string) map[string]bool {
	t.Helper()
	read := func(c string) map[string]string {
		data, err := translations.ReadFile("translations/" + c + ".json")
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s.json: %v", c, err)
		}
		return m
	}
	en, tr := read("en"), read(code)
	out := map[string]bool{}
	for k, e := range en {
		if v, ok := tr[k]; ok && v != e && !strings.Contains(e, "{{") {
			out[e] = true
		}
	}
	return out
}

// rawIDs matches the configuration's ids (rules presets, time-control presets) said as they are
// written in kiosk.toml, which a screen must say in words.
func rawIDs(t *testing.T) *regexp.Regexp {
	t.Helper()
	var ids []string
	for _, n := range append(engine.PresetNames(), clock.PresetNames()...) {
		ids = append(ids, regexp.QuoteMeta(n))
	}
	return regexp.MustCompile(`(^|[^\pL-])(` + strings.Join(ids, "|") + `)($|[^\pL-])`)
}

// overtimeAbbrev matches the clock package's overtime texts ("BY 3×0:30", "CAN 7/4:10").
var overtimeAbbrev = regexp.MustCompile(`\b(BY|CAN) \d`)

// checkSaidInWords fails on a text of root that lang left in English (a whole label or line that
// has a translation), a raw configuration id, an unfilled field or Fyne's own "(Select one)". The
// texts of values are left out: fields the director may type into, which hold what is typed (the
// time control's field holds a preset's name or a spec such as 30m+5x30s, said in words beside it).
func checkSaidInWords(t *testing.T, name string, root fyne.CanvasObject, english map[string]bool, ids *regexp.Regexp, values ...fyne.CanvasObject) {
	t.Helper()
	typed := map[*canvas.Text]bool{}
	for _, v := range values {
		for _, pt := range textsIn(v) {
			typed[pt.t] = true
		}
	}
	for _, pt := range textsIn(root) {
		if typed[pt.t] {
			continue
		}
		s := strings.TrimSpace(pt.t.Text)
		switch {
		case english[s]:
			t.Errorf("%s: %q is left in English", name, s)
		case ids.MatchString(s):
			t.Errorf("%s: %q says a configuration id", name, s)
		case strings.Contains(s, "{{") || strings.Contains(s, "<no value>"):
			t.Errorf("%s: %q has an unfilled field", name, s)
		case strings.Contains(s, "(Select one)"):
			t.Errorf("%s: Fyne's untranslated %q", name, s)
		case overtimeAbbrev.MatchString(s):
			t.Errorf("%s: %q abbreviates the overtime in English", name, s)
		}
	}
}

// checkTableLayout checks the table screen ts shown at sz: no part off the screen, no two parts
// overlapping, every text of the banner, the ruling and the clocks inside its box.
func checkTableLayout(t *testing.T, name string, ts *TableScreen, sz fyne.Size) {
	t.Helper()
	d := fyne.CurrentApp().Driver()
	var shown []rect
	var objs []fyne.CanvasObject
	for _, o := range []fyne.CanvasObject{ts.Board, ts.White, ts.Black, ts.Banner, ts.move, ts.status, ts.menu, ts.rulings, ts.Ruling} {
		if !o.Visible() {
			continue
		}
		r := rect{d.AbsolutePositionForObject(o).Subtract(d.AbsolutePositionForObject(ts.Content())), o.Size()}
		if o == ts.move {
			m := fyne.MeasureText(ts.move.Text, ts.move.TextSize, ts.move.TextStyle)
			r.size = fyne.NewSize(m.Width, ts.move.TextSize*1.2)
		}
		if r.pos.X < -0.5 || r.pos.Y < -0.5 || r.pos.X+r.size.Width > sz.Width+0.5 || r.pos.Y+r.size.Height > sz.Height+0.5 {
			t.Errorf("%s: %T at %v %v is off the screen", name, o, r.pos, r.size)
		}
		for j, s := range shown {
			if r.overlaps(s) {
				t.Errorf("%s: %T at %v %v overlaps %T at %v %v", name, o, r.pos, r.size, objs[j], s.pos, s.size)
			}
		}
		shown, objs = append(shown, r), append(objs, o)
	}
	for _, o := range []fyne.CanvasObject{ts.Banner, ts.Ruling, ts.White, ts.Black} {
		if o.Visible() {
			checkTextsFit(t, name, o)
		}
	}
}

// longestSaid is the template of templates whose sentence is longest in the current language.
func longestSaid(templates []string) string {
	best, n := "", -1
	for _, tpl := range templates {
		s := phraseText(referee.Phrase{Text: tpl, Args: sampleArgs(tpl)})
		if len([]rune(s)) > n {
			best, n = tpl, len([]rune(s))
		}
	}
	return best
}

// Every screen, and the table with every kind of verdict, rendered at 800x480 in the five
// languages through the App as the kiosk shows them: no text clipped or outside its box, no two
// parts overlapping, the main actions in view, and nothing left in English, said as a raw id or
// with an unfilled field. The verdicts carry the longest sentence the referee can say (in that
// language) under each kind, alone and with an illegal-move ruling in large type.
func TestEveryScreenAndVerdictAt800x480(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	sz := allDisplays[0]
	templates, _ := refereeTemplates(t)
	illegal, _ := illegalTemplates(t)
	templates = append(templates, illegal...)
	var kinds []referee.VerdictKind
	for k := referee.VerdictKind(1); k.String() != "verdict?"; k++ {
		kinds = append(kinds, k)
	}
	if last := kinds[len(kinds)-1]; last < referee.VerdictCamera {
		t.Fatalf("the verdict kinds end at %v", last)
	}
	ids := rawIDs(t)
	komi := 6.5
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		english := map[string]bool{}
		if l.Code != "en" {
			english = leftInEnglish(t, l.Code)
		}
		a, w := appWindow(t, sz, Handlers{CheckPIN: checkPIN, NextGame: func(string) error { return nil },
			SetupDefaults: referee.Setup{Rules: "japanese", Size: 19, Komi: &komi, TimeControl: "egf-a-byoyomi", Event: "Warsaw Open"}})
		w.SetPadded(false)
		w.Resize(sz)
		if err := a.SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		// The table with every verdict kind.
		long := longestSaid(templates)
		ruling := illegalRulings(t)[0]
		for _, k := range kinds {
			for _, withRuling := range []bool{false, true} {
				st := playingState(t)
				st.White.Clock.Text = "BY 3×0:27" // as the referee gives it
				st.Seq = uint64(k)
				st.Banner = referee.Verdict{Kind: k, Color: engine.White, Points: []engine.Point{pt(t, "F4")}, At: time.Now(),
					MoveNumber: st.MoveNumber, Says: []referee.Phrase{{Text: long, Args: sampleArgs(long)}}}
				if withRuling {
					r := ruling
					r.MoveNumber = st.MoveNumber
					st.Rulings = []referee.Verdict{r}
				}
				a.Update(st, Conditions{})
				a.Show(ScreenGame)
				a.Current().Refresh()
				name := fmt.Sprintf("%s table %v ruling=%v", l.Code, k, withRuling)
				if a.Current() != a.table.Content() {
					t.Fatalf("%s: the table is not shown", name)
				}
				checkTableLayout(t, name, a.table, sz)
				checkSaidInWords(t, name, a.Current(), english, ids)
				// The clocks' times are drawn as glyphs, not texts: their view is checked.
				for _, c := range []string{a.table.view.White.Clock.Text, a.table.view.Black.Clock.Text} {
					if overtimeAbbrev.MatchString(c) {
						t.Errorf("%s: a clock shows %q", name, c)
					}
				}
				if t.Failed() {
					return
				}
			}
		}
		// Counting after two passes, with dead stones marked and Black agreed, then the game over.
		cv := demoCount(t)
		for _, ended := range []bool{false, true} {
			st := playingState(t)
			st.Seq = 90
			st.Phase, st.Board, st.Score, st.Dead, st.ToMove = referee.PhaseMarking, cv.Board.Stones, &cv.Score, cv.Score.Dead, engine.Empty
			st.Black.Confirmed = true
			if ended {
				st.Seq, st.Phase, st.White.Confirmed, st.Result = 91, referee.PhaseEnded, true, cv.Score.Result
			}
			a.Update(st, Conditions{})
			a.Show(ScreenGame)
			name := fmt.Sprintf("%s count ended=%v", l.Code, ended)
			if a.Current() != a.count.Content() {
				t.Fatalf("%s: the counting screen is not shown", name)
			}
			a.Current().Refresh()
			checkCountLayout(t, name, a.count)
			checkSaidInWords(t, name, a.Current(), english, ids)
		}
		// The rulings list, the menu, the languages.
		st := playingState(t)
		st.Seq = 100
		r := ruling
		r.MoveNumber = st.MoveNumber
		st.Rulings = []referee.Verdict{{Kind: referee.VerdictDirector, MoveNumber: 3, At: time.Now(),
			Says: []referee.Phrase{{Text: "Director: {{.Color}}'s clock set to {{.Time}}.", Args: map[string]string{"Color": "Black", "Time": "9:50"}}}}, r}
		a.Update(st, Conditions{})
		for _, s := range []struct {
			name   string
			screen Screen
		}{{"rulings", ScreenRulings}, {"menu", ScreenMenu}, {"languages", ScreenLanguage}} {
			a.Show(s.screen)
			name := l.Code + " " + s.name
			fitCheck(t, name, a.Current(), sz)
			checkTextsFit(t, name, a.Current())
			checkSaidInWords(t, name, a.Current(), english, ids)
		}
		// The director: the PIN pad, then the panel beside the game.
		a.Show(ScreenDirector)
		fitCheck(t, l.Code+" PIN pad", a.Current(), sz)
		checkSaidInWords(t, l.Code+" PIN pad", a.Current(), english, ids)
		a.Director().Unlock("2468")
		for range 3 { // a wrapped label's height follows its width at the next layout
			a.director.panel.Refresh()
		}
		fitCheck(t, l.Code+" director", a.Current(), sz, a.director.Result, a.director.End, a.director.LockButton)
		checkSaidInWords(t, l.Code+" director", a.Current(), english, ids)
		a.Show(ScreenGame)
		// The set-up: behind the PIN during a game, then open; before a game; the camera screen.
		a.Show(ScreenSetup)
		fitCheck(t, l.Code+" gate", a.Current(), sz)
		checkSaidInWords(t, l.Code+" gate", a.Current(), english, ids)
		a.Gate().Open("2468")
		fitCheck(t, l.Code+" set-up in a game", a.Current(), sz, a.setup.Start)
		checkSaidInWords(t, l.Code+" set-up in a game", a.Current(), english, ids)
		a.Update(referee.State{Seq: 200, Phase: referee.PhaseSetup}, Conditions{})
		a.Show(ScreenSetup)
		fitCheck(t, l.Code+" set-up", a.Current(), sz, a.setup.Start)
		checkSaidInWords(t, l.Code+" set-up", a.Current(), english, ids)
		showCamera(t, a)
		fitCheck(t, l.Code+" camera", a.Current(), sz, a.camera.Find, a.camera.Save, a.camera.Back)
		checkSaidInWords(t, l.Code+" camera", a.Current(), english, ids)
		// No camera at the start.
		a.Update(referee.State{Seq: 201, Phase: referee.PhaseReady, Size: 9, Board: make([]engine.Color, 81)}, Conditions{CameraLost: true})
		a.Show(ScreenGame)
		checkTableLayout(t, l.Code+" no camera", a.table, sz)
		checkSaidInWords(t, l.Code+" no camera", a.Current(), english, ids)
		if t.Failed() {
			return
		}
	}
}

// Every field the director types into on the director's panel, the set-up and the camera screen
// has a label beside it on its row (a placeholder such as "12:30" looks like a value), at 800x480
// in every language.
func TestEveryFieldHasALabel(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	sz := allDisplays[0]
	d := fyne.CurrentApp().Driver()
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		a, w := appWindow(t, sz, Handlers{CheckPIN: checkPIN})
		w.SetPadded(false)
		w.Resize(sz)
		if err := a.SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		a.Update(playingState(t), Conditions{})
		a.Show(ScreenDirector)
		a.Director().Unlock("2468")
		director := a.Current()
		a.Update(referee.State{Seq: 2, Phase: referee.PhaseSetup}, Conditions{})
		for _, s := range []struct {
			name   string
			screen Screen
		}{{"director", ScreenDirector}, {"set-up", ScreenSetup}, {"camera", ScreenCamera}} {
			a.Show(s.screen)
			root := a.Current()
			if s.screen == ScreenDirector {
				// After the game the panel opens without the PIN; it was unlocked above during one.
				root = director
			}
			var entries, labels []fyne.CanvasObject
			var walk func(o fyne.CanvasObject)
			walk = func(o fyne.CanvasObject) {
				if !o.Visible() {
					return
				}
				switch c := o.(type) {
				case *widget.Entry:
					entries = append(entries, c)
				case *widget.SelectEntry:
					entries = append(entries, c)
				case *widget.Label:
					if strings.TrimSpace(c.Text) != "" {
						labels = append(labels, c)
					}
				case *canvas.Text: // a form's labels
					if strings.TrimSpace(c.Text) != "" {
						labels = append(labels, c)
					}
				case *widget.Select, *widget.Button: // their texts are values and actions, not labels
				case *container.Scroll:
					walk(c.Content)
				case *fyne.Container:
					for _, ch := range c.Objects {
						walk(ch)
					}
				case fyne.Widget:
					for _, ch := range test.WidgetRenderer(c).Objects() {
						walk(ch)
					}
				}
			}
			walk(root)
			if len(entries) == 0 && s.screen != ScreenCamera {
				t.Errorf("%s %s: no fields found", l.Code, s.name)
			}
			for _, e := range entries {
				ep, es := d.AbsolutePositionForObject(e), e.Size()
				found := false
				for _, lb := range labels {
					lp, ls := d.AbsolutePositionForObject(lb), lb.Size()
					mid := lp.Y + ls.Height/2
					if mid >= ep.Y && mid <= ep.Y+es.Height && lp.X+ls.Width <= ep.X+0.5 {
						found = true
						break
					}
				}
				if !found {
					ph := ""
					if en, ok := e.(*widget.Entry); ok {
						ph = en.PlaceHolder
					}
					t.Errorf("%s %s: the field at %v (placeholder %q) has no label beside it", l.Code, s.name, ep, ph)
				}
			}
		}
	}
}
