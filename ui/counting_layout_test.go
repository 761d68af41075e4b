package ui

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tengen/engine"
)

// luminance is a colour's relative luminance (WCAG 2).
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v>>8) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// contrast is the WCAG contrast ratio of two colours.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// Every text of the counting screen reads at WCAG AA (4.5:1) against what it is drawn on, the
// buttons in each state included, with the theme's own colours; the disabled agreement still does.
func TestCountScreenContrast(t *testing.T) {
	newTestApp(t)
	th := NewTheme()
	bg := th.Color("background", 0)
	for _, tc := range []struct {
		what   string
		fg, on color.Color
	}{
		{"instructions", colText, bg},
		{"breakdown labels", colDimText, bg},
		{"final result", colToMove, bg},
		{"lit button on the theme's primary", th.Color("foregroundOnPrimary", 0), th.Color("primary", 0)},
	} {
		if c := contrast(tc.fg, tc.on); c < 4.5 {
			t.Errorf("%s: contrast %.2f:1", tc.what, c)
		}
	}
	for _, b := range []*bigButton{newBigButton("x", true, nil), newBigButton("x", false, nil), func() *bigButton {
		b := newBigButton("x", true, nil)
		b.SetDisabled(true)
		return b
	}()} {
		face, border, fg := b.colours()
		if c := contrast(fg, face); c < 4.5 {
			t.Errorf("button (primary %v, disabled %v): text contrast %.2f:1", b.primary, b.disabled, c)
		}
		if b.disabled && contrast(border, bg) < 3 {
			t.Errorf("the disabled button's border is invisible (%.2f:1)", contrast(border, bg))
		}
		if b.disabled && contrast(face, colToMove) < 3 {
			t.Error("a disabled button looks like a lit one")
		}
	}
}

// At 800x480 (and the larger displays), in every language, under area and territory rules, in
// every state (nobody agreed, one agreed, a resumption being confirmed, zoomed, ended), every text
// of the counting screen fits its box, the panel's parts do not overlap each other or the board,
// and the buttons are big enough to hit.
func TestCountScreenFitsEveryLanguage(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		for _, sz := range allDisplays {
			for _, rules := range []string{"aga", "japanese", "aga-territory"} {
				cs := NewCountScreen(CountHandlers{NextGame: func() {}})
				w := test.NewWindow(cs.Content())
				w.SetPadded(false)
				w.Resize(sz)
				v := countFor(t, rules)
				v.Rules = rulesName(rules)
				states := []struct {
					name string
					mod  func(*CountView)
				}{
					{"open", func(v *CountView) { v.BlackAgreed = false }},
					{"one-agreed", func(v *CountView) { v.BlackAgreed = true }},
					{"asking", func(v *CountView) { v.BlackAgreed = false; cs.asking = engine.White }},
					{"zoomed", func(v *CountView) { cs.asking = engine.Empty; cs.Board.Zoom(engine.Point{X: 1, Y: 1}, 5) }},
					{"ended", func(v *CountView) { v.Ended = true; cs.Board.Zoom(engine.Point{}, 0) }},
				}
				for _, s := range states {
					vv := v
					s.mod(&vv)
					cs.SetView(vv)
					cs.Content().Refresh()
					name := fmt.Sprintf("%s %vx%v %s %s", l.Code, sz.Width, sz.Height, rules, s.name)
					if l.Code == "bg" && sz.Width == 800 && rules == "aga" && s.name == "one-agreed" {
						capture(t, "count-bg-800x480", cs.Content(), sz)
					}
					checkCountLayout(t, name, cs)
				}
				w.Close()
				if t.Failed() {
					return
				}
			}
		}
	}
}

// checkCountLayout checks one state of the counting screen (see TestCountScreenFitsEveryLanguage).
func checkCountLayout(t *testing.T, name string, cs *CountScreen) {
	t.Helper()
	checkTextsFit(t, name+" panel", cs.panel)
	d := fyne.CurrentApp().Driver()
	board := rect{d.AbsolutePositionForObject(cs.Board), cs.Board.Size()}
	var parts []fyne.CanvasObject
	parts = append(parts, cs.title, cs.menu, cs.steps, cs.result, cs.agreeB, cs.agreeW, cs.resumeB, cs.resumeW, cs.whole, cs.yes, cs.no, cs.next)
	parts = append(parts, cs.legend, cs.playOut, cs.firstB, cs.firstW, cs.noPlay)
	for i, row := range cs.rows {
		if i < len(cs.rowKinds) {
			parts = append(parts, row[0], row[1], row[2])
		}
	}
	var shown []rect
	var objs []fyne.CanvasObject
	for _, o := range parts {
		if !o.Visible() {
			continue
		}
		r := rect{d.AbsolutePositionForObject(o), o.Size()}
		if r.overlaps(board) {
			t.Errorf("%s: %T at %v %v overlaps the board %v %v", name, o, r.pos, r.size, board.pos, board.size)
		}
		for i, s := range shown {
			if r.overlaps(s) {
				t.Errorf("%s: %T %v %v overlaps %T %v %v", name, o, r.pos, r.size, objs[i], s.pos, s.size)
			}
		}
		shown, objs = append(shown, r), append(objs, o)
		if b, ok := o.(*bigButton); ok {
			checkTextsFit(t, name+" button "+b.Text, b)
			if b.Size().Height < 44 || b.Size().Width < 100 {
				t.Errorf("%s: button %q only %v", name, b.Text, b.Size())
			}
			for _, pt := range textsIn(b) {
				if pt.t.TextSize < 14 {
					t.Errorf("%s: button %q drawn at %.1f px", name, b.Text, pt.t.TextSize)
				}
			}
		}
		if wt, ok := o.(*wrapText); ok {
			checkTextsFit(t, name+" "+wt.Text, wt)
			if wt.Text == "" && wt != cs.result && wt != cs.legend {
				t.Errorf("%s: empty instructions", name)
			}
		}
	}
	if p, sz := d.AbsolutePositionForObject(cs.panel), cs.panel.Size(); p.Y+sz.Height > d.AbsolutePositionForObject(cs.Content()).Y+cs.Content().Size().Height+0.5 {
		t.Errorf("%s: the panel runs off the screen", name)
	}
}

// rect is a box on the screen.
type rect struct {
	pos  fyne.Position
	size fyne.Size
}

func (a rect) overlaps(b rect) bool {
	const e = 0.5
	return a.pos.X+e < b.pos.X+b.size.Width && b.pos.X+e < a.pos.X+a.size.Width &&
		a.pos.Y+e < b.pos.Y+b.size.Height && b.pos.Y+e < a.pos.Y+a.size.Height
}

// Resume acts only once confirmed: the first tap asks, Cancel goes back, the confirmation resumes.
func TestCountResumeAsksFirst(t *testing.T) {
	newTestApp(t)
	var resumed []engine.Color
	cs := NewCountScreen(CountHandlers{Resume: func(c engine.Color) { resumed = append(resumed, c) }})
	w := test.NewWindow(cs.Content())
	defer w.Close()
	w.Resize(displays[0])
	cs.SetView(demoCount(t))
	test.Tap(cs.resumeW)
	if len(resumed) != 0 || !cs.yes.Visible() || !cs.no.Visible() || cs.agreeW.Visible() {
		t.Fatalf("one tap resumed (%v) or did not ask", resumed)
	}
	if cs.steps.Text != "White wants to resume play: the marking is dropped and play goes on. Resume?" {
		t.Errorf("question %q", cs.steps.Text)
	}
	test.Tap(cs.no)
	if len(resumed) != 0 || cs.yes.Visible() || !cs.resumeW.Visible() {
		t.Fatal("cancel did not go back")
	}
	test.Tap(cs.resumeB)
	test.Tap(cs.yes)
	if len(resumed) != 1 || resumed[0] != engine.Black || cs.yes.Visible() {
		t.Errorf("resumed %v", resumed)
	}
}

// Every banner (and so the ruling panel) reads at WCAG AA: its text against its colour.
func TestBannerContrast(t *testing.T) {
	for _, k := range []BannerKind{BannerIllegal, BannerRemove, BannerDiffers, BannerCalm, BannerInfo} {
		bg, fg := bannerColours(k)
		if c := contrast(fg, bg); c < 4.5 {
			t.Errorf("banner kind %d: contrast %.2f:1", k, c)
		}
	}
}
