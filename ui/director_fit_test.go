package ui

import (
	"fmt"
	"image"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tengen/referee"
)

// The director's panel, the set-up (before a game and during one), the camera screen and the menu
// fit every display in every language: no text cut or outside its widget, no overlap, and the
// main actions (the result, Start, Find/Save/Back, Lock, the keyboard) in view without scrolling,
// with the on-screen keyboard closed and open; opening and closing it leaves the window's size.
func TestDirectorAndSetupFitEveryLanguage(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	komi := 6.5
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		for _, sz := range allDisplays {
			frame := image.NewRGBA(image.Rect(0, 0, 640, 480))
			a, w := appWindow(t, sz, Handlers{CheckPIN: checkPIN,
				Camera:        CameraHandlers{Grab: func() (CameraView, error) { return CameraView{Frame: frame, Size: 19}, nil }},
				SetupDefaults: referee.Setup{Rules: "japanese", Size: 19, Komi: &komi, TimeControl: "egf-a-byoyomi", Event: "Warsaw Open"}})
			w.SetPadded(false)
			w.Resize(sz)
			name := fmt.Sprintf("%s %vx%v", l.Code, sz.Width, sz.Height)
			a.Update(referee.State{Phase: referee.PhaseSetup}, Conditions{})
			for _, kb := range []bool{false, true} {
				n := fmt.Sprintf("%s keyboard=%v", name, kb)
				a.Show(ScreenSetup)
				toggle := keyboardToggle(t, a.setup.KeyboardSlot)
				if kb {
					test.Tap(toggle)
				}
				fitCheck(t, "set-up "+n, a.Current(), sz, a.setup.Start, toggle)
				if kb {
					test.Tap(toggle)
				}
				if w.Canvas().Size() != sz {
					t.Errorf("set-up %s: the window is %v", n, w.Canvas().Size())
				}
			}
			showCamera(t, a)
			for range 3 { // a wrapped label's height follows its width at the next layout (as every frame does on a display)
				a.camera.settings.Refresh()
			}
			fitCheck(t, "camera "+name, a.Current(), sz, a.camera.Find, a.camera.Save, a.camera.Back)
			a.Show(ScreenMenu)
			fitCheck(t, "menu "+name, a.Current(), sz)
			a.Update(playingState(t), Conditions{})
			a.Show(ScreenSetup)
			fitCheck(t, "gate "+name, a.Current(), sz)
			a.Gate().Open("2468")
			fitCheck(t, "set-up in a game "+name, a.Current(), sz, a.setup.Start)
			a.Show(ScreenDirector)
			fitCheck(t, "PIN pad "+name, a.Current(), sz)
			glanceCheck(t, "PIN pad "+name, a.director, sz, false)
			a.Director().Unlock("2468")
			for _, kb := range []bool{false, true} {
				n := fmt.Sprintf("%s keyboard=%v", name, kb)
				toggle := keyboardToggle(t, a.director.KeyboardSlot)
				if kb {
					w.Canvas().Focus(a.director.Result)
					test.Tap(toggle)
				}
				for range 3 { // a wrapped label's height follows its width at the next layout (as every frame does on a display)
					a.director.panel.Refresh()
				}
				fitCheck(t, "director "+n, a.Current(), sz, a.director.Result, a.director.End, a.director.LockButton, toggle)
				glanceCheck(t, "director "+n, a.director, sz, kb)
				if kb {
					test.Tap(toggle)
				}
				if w.Canvas().Size() != sz {
					t.Errorf("director %s: the window is %v", n, w.Canvas().Size())
				}
			}
			a.Show(ScreenGame)
			if t.Failed() {
				return
			}
		}
	}
}

// glanceCheck checks that the director's screen leaves the game in view beside the pad or the
// panel: the board (at least 70% of the height above the keyboard) and both clocks (at least their
// least size) lie inside the window, clear of each other and of the pad or the panel. With the
// on-screen keyboard open on a screen as low as 800x480 the panel takes the width instead.
func glanceCheck(t *testing.T, name string, d *DirectorScreen, sz fyne.Size, keyboard bool) {
	t.Helper()
	if keyboard && sz.Height <= 480 {
		if d.Board.Visible() || d.White.Visible() || d.Black.Visible() {
			t.Errorf("%s: the board or a clock is squeezed beside the panel above the keyboard", name)
		}
		return
	}
	dr := fyne.CurrentApp().Driver()
	root := dr.AbsolutePositionForObject(d.Content())
	var shown []rect
	for _, o := range []fyne.CanvasObject{d.Board, d.White, d.Black, d.right} {
		r := rect{dr.AbsolutePositionForObject(o).Subtract(root), o.Size()}
		if !o.Visible() {
			t.Errorf("%s: %T is hidden", name, o)
			continue
		}
		if r.pos.X < -0.5 || r.pos.Y < -0.5 || r.pos.X+r.size.Width > sz.Width+0.5 || r.pos.Y+r.size.Height > sz.Height+0.5 {
			t.Errorf("%s: %T at %v %v is off the %vx%v window", name, o, r.pos, r.size, sz.Width, sz.Height)
		}
		for _, s := range shown {
			if r.overlaps(s) {
				t.Errorf("%s: %T at %v %v overlaps another part at %v %v", name, o, r.pos, r.size, s.pos, s.size)
			}
		}
		shown = append(shown, r)
	}
	if s, h := d.Board.Size(), d.right.Size().Height; s.Height < 0.7*h || s.Width < 0.7*h {
		t.Errorf("%s: the board is %v beside a panel %v high", name, s, h)
	}
	for _, c := range []*ClockFace{d.White, d.Black} {
		if s, m := c.Size(), c.MinSize(); s.Width < m.Width || s.Height < m.Height {
			t.Errorf("%s: a clock is %v, under its least size %v", name, s, m)
		}
	}
}

// keyboardToggle is the on-screen keyboard's toggle put in slot.
func keyboardToggle(t *testing.T, slot *fyne.Container) *widget.Button {
	t.Helper()
	if len(slot.Objects) != 1 {
		t.Fatal("no keyboard toggle in its slot")
	}
	b, ok := slot.Objects[0].(*widget.Button)
	if !ok {
		t.Fatalf("the keyboard toggle is a %T", slot.Objects[0])
	}
	return b
}

// The set-up says the time control in words in every language, never only a preset's id.
func TestSetupSaysTheTimeControl(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	cases := []struct{ lang, control, want string }{
		{"en", "egf-a-byoyomi", "60 min, then 5 × 30 s byo-yomi"},
		{"en", "30m+20/5m", "30 min, then 20 stones in 5 min (Canadian)"},
		{"en", "3m+15s", "3 min + 15 s a move (Fischer)"},
		{"en", "45m", "45 min, no overtime"},
		{"en", "1m30s+3x10s", "1 min 30 s, then 3 × 10 s byo-yomi"},
		{"pl", "egf-a-byoyomi", "60 min, potem byo-yomi 5 × 30 s"},
		{"ru", "aga-min-fischer", "3 мин + 15 с за ход (Фишер)"},
		{"en", "one hour", ""},
	}
	for _, c := range cases {
		if err := SetLanguage(c.lang); err != nil {
			t.Fatal(err)
		}
		s := NewSetupScreen(referee.Setup{TimeControl: c.control}, nil, nil)
		if got := s.ControlText.Text; got != c.want {
			t.Errorf("%s %s: %q, want %q", c.lang, c.control, got, c.want)
		}
	}
}

// Komi and points are written in the language's form: 6.5 in English, 6,5 in Polish, Czech,
// Russian and Bulgarian; other text is left alone.
func TestNumbersInTheLanguagesForm(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	for _, c := range []struct{ lang, in, want string }{
		{"en", "6.5", "6.5"}, {"pl", "6.5", "6,5"}, {"cs", "-0.5", "-0,5"}, {"ru", "28.5", "28,5"}, {"bg", "3.5", "3,5"},
		{"pl", "7", "7"}, {"pl", "1.2.3", "1.2.3"}, {"pl", "D4", "D4"}, {"pl", "0:27", "0:27"}, {"pl", ".5", ".5"}, {"pl", "5.", "5."},
	} {
		if err := SetLanguage(c.lang); err != nil {
			t.Fatal(err)
		}
		if got := localNumber(c.in); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.lang, c.in, got, c.want)
		}
	}
	if err := SetLanguage("pl"); err != nil {
		t.Fatal(err)
	}
	komi := 6.5
	s := NewSetupScreen(referee.Setup{Rules: "japanese", Komi: &komi}, nil, nil)
	if s.Komi.Text != "6,5" {
		t.Errorf("komi field %q", s.Komi.Text)
	}
	if got, err := s.Setup(); err != nil || *got.Komi != 6.5 {
		t.Errorf("komi 6,5 read as %v, %v", got.Komi, err)
	}
	st := playingState(t)
	if line := statusLine(st); !strings.Contains(line, "7,5") {
		t.Errorf("status line %q", line)
	}
}

// No selector on the set-up or camera screens shows Fyne's own untranslated "(Select one)".
func TestNoUntranslatedPlaceholder(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	if err := SetLanguage("ru"); err != nil {
		t.Fatal(err)
	}
	s := NewSetupScreen(referee.Setup{}, nil, nil)
	c := NewCameraScreen(CameraHandlers{})
	for _, sel := range []*widget.Select{s.Rules, s.Handicap, s.Size, s.Policy, c.Size} {
		if sel.PlaceHolder != "Выберите" {
			t.Errorf("placeholder %q", sel.PlaceHolder)
		}
	}
}

// Opening the on-screen keyboard scrolls the field being typed into view, at 800x480 in every
// language.
func TestKeyboardKeepsTheFieldInView(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	d := func() fyne.Driver { return fyne.CurrentApp().Driver() }
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		a, w := appWindow(t, allDisplays[0], Handlers{})
		w.SetPadded(false)
		w.Resize(allDisplays[0])
		a.Update(playingState(t), Conditions{})
		a.Show(ScreenDirector)
		a.Director().Unlock("1")
		for _, field := range []*widget.Entry{a.director.Periods, a.director.Result} {
			w.Canvas().Focus(field)
			toggle := keyboardToggle(t, a.director.KeyboardSlot)
			// On the display a tap on a button leaves the focus where it was (the test driver's
			// test.Tap takes it away), so the toggle is pressed as the display does.
			toggle.OnTapped()
			if w.Canvas().Focused() != field {
				t.Fatal("the field lost the focus")
			}
			sc := a.director.Scroll
			top, bottom := d().AbsolutePositionForObject(sc).Y, d().AbsolutePositionForObject(sc).Y+sc.Size().Height
			y := d().AbsolutePositionForObject(field).Y
			if y < top-0.5 || y+field.Size().Height > bottom+0.5 {
				t.Errorf("%s: the field at %.0f..%.0f is outside the view %.0f..%.0f with the keyboard open", l.Code, y, y+field.Size().Height, top, bottom)
			}
			toggle.OnTapped()
		}
	}
}
