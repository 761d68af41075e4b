package ui

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tengen/config"
	"tengen/referee"
)

// checkPIN is a director PIN check for the tests: 2468 is the PIN.
func checkPIN(pin string) error {
	if pin != "2468" {
		return referee.ErrBadPIN
	}
	return nil
}

// typePIN types pin on the gate's pad and presses OK.
func typePIN(g *PINGate, pin string) {
	for _, k := range pin {
		g.key(string(k))
	}
	g.key("OK")
}

// During a game the set-up and the camera screens are behind the director's PIN; a wrong PIN
// opens nothing; the right one opens that screen until it is left by any route (Back, Escape);
// before a game and after it they open without one. The set-up shows the running game's settings.
func TestSettingsNeedThePINDuringAGame(t *testing.T) {
	newTestApp(t)
	a, _ := appWindow(t, displays[0], Handlers{CheckPIN: checkPIN,
		SetupDefaults: referee.Setup{Rules: "chinese", Size: 13}})
	a.Update(referee.State{Phase: referee.PhaseSetup}, Conditions{})
	a.Show(ScreenSetup)
	if a.Current() != a.setupKB {
		t.Fatal("before the game the set-up is locked")
	}
	a.Show(ScreenGame)
	st := playingState(t)
	st.Setup.Rules, st.Setup.TimeControl = "japanese", "egf-b-byoyomi"
	a.Update(st, Conditions{})
	for _, s := range []Screen{ScreenSetup, ScreenCamera} {
		a.Show(s)
		if a.Current() != a.gate.Content() {
			t.Fatalf("screen %d during a game: not behind the PIN", s)
		}
		typePIN(a.gate, "1111")
		if a.Current() != a.gate.Content() || a.gate.msg.Text != "Wrong PIN" {
			t.Fatalf("screen %d: a wrong PIN opened it or was not said (%q)", s, a.gate.msg.Text)
		}
		typePIN(a.gate, "2468")
		if a.Current() == a.gate.Content() {
			t.Fatalf("screen %d: the right PIN does not open it", s)
		}
		a.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		a.Show(s)
		if a.Current() != a.gate.Content() {
			t.Fatalf("screen %d: left with Escape, it stays open", s)
		}
		a.Show(ScreenMenu)
	}
	a.Show(ScreenSetup)
	typePIN(a.gate, "2468")
	if got := a.setup.RulesPreset(); got != "japanese" || a.setup.TimeControl.Text != controlField("egf-b-byoyomi") || a.setup.Size.Selected != "9" {
		t.Errorf("set-up during the game shows %s, %s, %s, not the game's settings", got, a.setup.TimeControl.Text, a.setup.Size.Selected)
	}
	a.Show(ScreenGame)
	st.Phase = referee.PhaseEnded
	a.Update(st, Conditions{})
	a.Show(ScreenCamera)
	if a.Current() != a.camera.Content() {
		t.Error("after the game the camera screen is locked")
	}
}

// With no director PIN configured the gate says that nothing can be changed until the game is over,
// and no PIN opens it.
func TestSettingsWithoutAPIN(t *testing.T) {
	newTestApp(t)
	for _, h := range []Handlers{{}, {CheckPIN: func(string) error { return referee.ErrNoDirector }}} {
		a, _ := appWindow(t, displays[0], h)
		a.Update(playingState(t), Conditions{})
		a.Show(ScreenSetup)
		typePIN(a.gate, "0000")
		if a.Current() != a.gate.Content() || a.gate.msg.Text != noPINText() {
			t.Errorf("no PIN configured: %q", a.gate.msg.Text)
		}
	}
}

// The director's panel locks again when it is left by any route: Escape, the menu, Lock.
func TestDirectorLocksWhenLeft(t *testing.T) {
	newTestApp(t)
	a, _ := appWindow(t, displays[0], Handlers{CheckPIN: func(pin string) error {
		if pin != "12" {
			return referee.ErrBadPIN
		}
		return nil
	}})
	a.Update(playingState(t), Conditions{})
	for _, leave := range []func(){
		func() { a.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) },
		func() { a.Show(ScreenMenu) },
		func() { a.director.back() },
	} {
		a.Show(ScreenDirector)
		for _, k := range []string{"1", "2", "OK"} {
			a.director.key(k)
		}
		if !a.director.Unlocked() {
			t.Fatal("the panel does not open")
		}
		leave()
		a.Show(ScreenDirector)
		if a.director.Unlocked() || a.director.pin != "" {
			t.Error("the director's panel stays unlocked after it was left")
		}
	}
}

// fitCheck walks a screen shown in a window of size sz: every text lies inside its widget and is
// not cut short with an ellipsis, no widget outside a scroller runs off the window, no two
// widgets overlap, and every main action lies in full inside the window and inside its
// scroller's view as it opens (reachable without scrolling).
func fitCheck(t *testing.T, name string, root fyne.CanvasObject, sz fyne.Size, mains ...fyne.CanvasObject) {
	t.Helper()
	d := fyne.CurrentApp().Driver()
	type leaf struct {
		o      fyne.CanvasObject
		r      rect
		clip   *rect // the view of the scroller it is in
		scroll *container.Scroll
	}
	var leaves []leaf
	var walk func(o fyne.CanvasObject, clip *rect, sc *container.Scroll)
	walk = func(o fyne.CanvasObject, clip *rect, sc *container.Scroll) {
		if !o.Visible() {
			return
		}
		r := rect{d.AbsolutePositionForObject(o), o.Size()}
		switch c := o.(type) {
		case *widget.Button, *widget.Label, *widget.Entry, *widget.Select, *widget.SelectEntry, *widget.RadioGroup, *widget.Check, *keyCap, *bigButton:
			leaves = append(leaves, leaf{o, r, clip, sc})
			return
		case *container.Scroll:
			v := r
			walk(c.Content, &v, c)
			return
		case *fyne.Container:
			for _, ch := range c.Objects {
				walk(ch, clip, sc)
			}
			return
		case fyne.Widget:
			for _, ch := range test.WidgetRenderer(c).Objects() {
				walk(ch, clip, sc)
			}
		}
	}
	walk(root, nil, nil)
	win := rect{d.AbsolutePositionForObject(root), sz}
	inside := func(r, in rect) bool {
		return r.pos.X >= in.pos.X-0.5 && r.pos.Y >= in.pos.Y-0.5 &&
			r.pos.X+r.size.Width <= in.pos.X+in.size.Width+0.5 && r.pos.Y+r.size.Height <= in.pos.Y+in.size.Height+0.5
	}
	for i, l := range leaves {
		if l.clip == nil && !inside(l.r, win) {
			t.Errorf("%s: %T at %v %v runs off the %vx%v window", name, l.o, l.r.pos, l.r.size, sz.Width, sz.Height)
		}
		if l.clip != nil && l.r.pos.X+l.r.size.Width > l.clip.pos.X+l.clip.size.Width+0.5 {
			t.Errorf("%s: %T at %v %v is wider than its scroller", name, l.o, l.r.pos, l.r.size)
		}
		checkTextsFit(t, fmt.Sprintf("%s %T", name, l.o), l.o)
		for _, pt := range textsIn(l.o) {
			if _, label := l.o.(*widget.Label); !label && strings.Contains(pt.t.Text, "…") { // (a message may end in one)
				t.Errorf("%s: %q is cut short", name, pt.t.Text)
			}
		}
		if _, big := l.o.(*bigButton); big {
			for _, pt := range textsIn(l.o) {
				if pt.t.TextSize < 14 {
					t.Errorf("%s: button text %q drawn at %.1f px", name, pt.t.Text, pt.t.TextSize)
				}
			}
		}
		for _, m := range leaves[:i] {
			if l.r.overlaps(m.r) && (l.clip == nil || inside(l.r, *l.clip)) && (m.clip == nil || inside(m.r, *m.clip)) {
				t.Errorf("%s: %T at %v %v overlaps %T at %v %v", name, l.o, l.r.pos, l.r.size, m.o, m.r.pos, m.r.size)
			}
		}
	}
	for _, m := range mains {
		found := false
		for _, l := range leaves {
			if l.o != m {
				continue
			}
			found = true
			if !inside(l.r, win) || (l.clip != nil && !inside(l.r, *l.clip)) || (l.scroll != nil && l.scroll.Offset.Y != 0) {
				t.Errorf("%s: the main action %T at %v %v is not in view", name, m, l.r.pos, l.r.size)
			}
		}
		if !found {
			t.Errorf("%s: the main action %T is not on the screen", name, m)
		}
	}
}

// The PIN gate fits 800x480 (and the larger displays) in every language, OK and Back in view.
func TestGateFitsEveryLanguage(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		for _, sz := range allDisplays {
			for _, check := range []func(string) error{checkPIN, nil} {
				g := newPINGate(check, nil, nil, nil)
				w := test.NewWindow(g.Content())
				w.SetPadded(false)
				w.Resize(sz)
				fitCheck(t, fmt.Sprintf("gate %s %vx%v pin=%v", l.Code, sz.Width, sz.Height, check != nil), g.Content(), sz)
				w.Close()
			}
		}
	}
}

// The director's pad checks the PIN before the panel opens: a wrong PIN, or any PIN when none is
// configured, leaves the pad and says why; behind the kiosk's lockout (config.PINGuard), five wrong
// PINs lock it, and the right one is refused until the lock ends.
func TestDirectorPadChecksThePINFirst(t *testing.T) {
	newTestApp(t)
	now := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	guard := config.NewPINGuard(func(p string) bool { return p == "2468" }, func() time.Time { return now }, slog.New(slog.DiscardHandler))
	guarded := func(pin string) error {
		if !guard.Check(pin) {
			return referee.ErrBadPIN
		}
		return nil
	}
	typeOn := func(d *DirectorScreen, pin string) {
		for _, k := range pin {
			d.key(string(k))
		}
		d.key("OK")
	}
	cases := []struct {
		name   string
		check  func(string) error
		pins   []string
		open   bool
		padMsg string
	}{
		{"right", checkPIN, []string{"2468"}, true, ""},
		{"wrong", checkPIN, []string{"1111"}, false, "Wrong PIN"},
		{"wrong then right", checkPIN, []string{"1111", "2468"}, true, ""},
		{"no PIN configured", nil, []string{"2468"}, false, noDirectorText()},
		{"locked out", guarded, []string{"1", "2", "3", "4", "5", "2468"}, false,
			"The director PIN is locked after repeated wrong PINs: try again in 1 min. Nothing was changed."},
		{"after the lock", guarded, []string{"2468"}, true, ""},
	}
	for _, c := range cases {
		if c.name == "after the lock" {
			now = now.Add(config.PINLockout + time.Second)
		}
		var acts int
		a, _ := appWindow(t, displays[0], Handlers{CheckPIN: c.check, PINLockedFor: guard.LockedFor,
			Director: func(string, referee.DirectorAction) error { acts++; return nil }})
		a.Update(playingState(t), Conditions{})
		a.Show(ScreenDirector)
		for _, p := range c.pins {
			typeOn(a.director, p)
		}
		if got := a.director.Unlocked(); got != c.open {
			t.Errorf("%s: unlocked %v, want %v", c.name, got, c.open)
		}
		if !c.open && a.director.padMsg.Text != c.padMsg {
			t.Errorf("%s: the pad says %q, want %q", c.name, a.director.padMsg.Text, c.padMsg)
		}
		if !c.open && a.director.pin != "" {
			t.Errorf("%s: the refused PIN is kept", c.name)
		}
		if acts != 0 {
			t.Errorf("%s: %d director actions taken by typing a PIN", c.name, acts)
		}
	}
}
