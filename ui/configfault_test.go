package ui

import (
	"errors"
	"fmt"
	"image"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"tengen/clock"
	"tengen/config"
)

// badConfig is a configuration file with three problems, parsed by the config package itself.
func badConfig(t *testing.T) *config.Error {
	t.Helper()
	_, err := config.Parse([]byte("table = 3\n[pins]\nblak = \"GPIO17\"\npull = \"sideways\"\n[game]\nsize = 99\n"), "/etc/tengen/kiosk.toml")
	var ce *config.Error
	if !errors.As(err, &ce) || len(ce.Problems) < 3 {
		t.Fatalf("want a config.Error with 3 problems, got %v", err)
	}
	return ce
}

// shownTexts returns the text objects the screen draws.
func shownTexts(t *testing.T, s *ConfigFaultScreen) []*canvas.Text {
	t.Helper()
	var out []*canvas.Text
	for _, o := range test.WidgetRenderer(s).Objects() {
		if tx, ok := o.(*canvas.Text); ok {
			out = append(out, tx)
		}
	}
	return out
}

func TestConfigFaultScreen(t *testing.T) {
	newTestApp(t)
	ce := badConfig(t)
	for _, sz := range displays {
		t.Run(fmt.Sprintf("%vx%v", sz.Width, sz.Height), func(t *testing.T) {
			s := NewConfigFaultScreen(ce)
			img := capture(t, fmt.Sprintf("config-fault-%vx%v", sz.Width, sz.Height), s, sz)
			texts := shownTexts(t, s)
			var all []string
			for _, tx := range texts {
				all = append(all, tx.Text)
				p, ts := tx.Position(), tx.Size()
				if p.X < 0 || p.Y < 0 || p.X+ts.Width > sz.Width+0.5 || p.Y+ts.Height > sz.Height+0.5 {
					t.Errorf("%q at %v size %v is outside the screen", tx.Text, p, ts)
				}
				if w := fyne.MeasureText(tx.Text, tx.TextSize, tx.TextStyle).Width; w > sz.Width {
					t.Errorf("%q is %v wide on a %v-wide screen", tx.Text, w, sz.Width)
				}
				if tx.TextSize < 14 {
					t.Errorf("%q at %v points: too small to read from the table", tx.Text, tx.TextSize)
				}
			}
			joined := strings.Join(all, " ")
			for _, want := range []string{"Configuration problem", ce.Title(), "Line 3", "pins.blak", "unknown key",
				"did you mean pins.black?", "pins.pull", "game.size", "Line 6", "Fix /etc/tengen/kiosk.toml", "kiosk doctor"} {
				if !strings.Contains(joined, want) {
					t.Errorf("screen does not say %q; it shows %q", want, joined)
				}
			}
			if texts[0].Text != "Configuration problem" || texts[0].TextSize < 30 {
				t.Errorf("heading %q at %v points, want large", texts[0].Text, texts[0].TextSize)
			}
			// Rendered: a calm panel, with light text drawn on it.
			b := img.Bounds()
			if n := countNear(img, b, colCalm, 6); n < b.Dx()*b.Dy()/2 {
				t.Errorf("%d calm-panel pixels of %d", n, b.Dx()*b.Dy())
			}
			body := image.Rect(0, b.Dy()*30/100, b.Dx(), b.Dy()*75/100)
			if n := countNear(img, body, colText, 40); n < 500 {
				t.Errorf("%d text pixels where the problems are listed", n)
			}
			if n := countNear(img, image.Rect(0, b.Dy()*75/100, b.Dx(), b.Dy()), colToMove, 40); n < 300 {
				t.Errorf("%d advice-text pixels at the bottom", n)
			}
		})
	}
}

func TestConfigFaultScreenManyProblemsAndReadError(t *testing.T) {
	newTestApp(t)
	var src strings.Builder
	for i := range 20 {
		fmt.Fprintf(&src, "nope%d = 1\n", i)
	}
	_, err := config.Parse([]byte(src.String()), "k.toml")
	var ce *config.Error
	if !errors.As(err, &ce) || len(ce.Problems) != 20 {
		t.Fatalf("want 20 problems, got %v", err)
	}
	s := NewConfigFaultScreen(ce)
	ps := s.Problems()
	if len(ps) != maxFaultProblems || ps[len(ps)-1] != "…and 13 more" {
		t.Errorf("problems %q: want %d lines ending in the count of the rest", ps, maxFaultProblems)
	}
	for _, sz := range displays {
		capture(t, fmt.Sprintf("config-fault-many-%vx%v", sz.Width, sz.Height), s, sz)
		for _, tx := range shownTexts(t, s) {
			if tx.Position().Y+tx.Size().Height > sz.Height+0.5 {
				t.Errorf("%v: %q runs off the bottom", sz, tx.Text)
			}
		}
	}

	rs := NewConfigFaultScreen(&config.Error{Err: errors.New("permission denied")})
	if got := rs.Problems(); len(got) != 1 || got[0] != "Cannot read the file: permission denied" {
		t.Errorf("read error shown as %q", got)
	}
	if !strings.Contains(rs.Advice(), config.DefaultPath) {
		t.Errorf("advice without a path names %q, want the default", rs.Advice())
	}
}

// TestConfigFaultScreenTranslated: the fixed texts follow the language.
func TestConfigFaultScreenTranslated(t *testing.T) {
	newTestApp(t)
	ce := badConfig(t)
	want := map[string]string{"pl": "Problem z konfiguracją", "ru": "Проблема с конфигурацией",
		"bg": "Проблем с конфигурацията", "cs": "Problém s konfigurací"}
	for code, heading := range want {
		if err := SetLanguage(code); err != nil {
			t.Fatal(err)
		}
		s := NewConfigFaultScreen(ce)
		capture(t, "config-fault-"+code+"-800x480", s, displays[0])
		if s.Heading() != heading {
			t.Errorf("%s: heading %q, want %q", code, s.Heading(), heading)
		}
		if !strings.Contains(s.Advice(), "/etc/tengen/kiosk.toml") || strings.Contains(s.Advice(), "Fix") {
			t.Errorf("%s: advice %q", code, s.Advice())
		}
	}
	if err := SetLanguage("en"); err != nil {
		t.Fatal(err)
	}
}

// The journal fault screen with the game clock fits every display in every language (the fault's
// texts inside it, the clocks beside it, nothing overlapping), says the clocks run, and lights the
// side to move once the clock is started.
func TestFaultClockScreen(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	ctl, err := clock.ParseControlOrPreset("10m+3x30s")
	if err != nil {
		t.Fatal(err)
	}
	clk, err := clock.New(ctl, clock.SystemTime{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := clk.Handle(clock.NewPress(clock.WhiteClock, time.Now())); err != nil {
		t.Fatal(err)
	}
	fault := &config.Error{Path: "/var/lib/tengen/journal", Problems: []config.Problem{{Key: "paths.journal_dir",
		Msg: "journal: not a Tengen journal. The kiosk cannot keep the game safe here: move a damaged journal aside; then restart the kiosk"}}}
	d := fyne.CurrentApp().Driver()
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		for _, sz := range allDisplays {
			s := NewFaultClockScreen(fault)
			s.SetClock(clk.State())
			w := test.NewWindow(s.Content())
			w.SetPadded(false)
			w.Resize(sz)
			name := fmt.Sprintf("%s %vx%v", l.Code, sz.Width, sz.Height)
			var shown []rect
			for _, o := range []fyne.CanvasObject{s.Fault, s.White, s.Black} {
				r := rect{d.AbsolutePositionForObject(o).Subtract(d.AbsolutePositionForObject(s.Content())), o.Size()}
				if r.pos.X < -0.5 || r.pos.Y < -0.5 || r.pos.X+r.size.Width > sz.Width+0.5 || r.pos.Y+r.size.Height > sz.Height+0.5 {
					t.Errorf("%s: %T at %v %v is off the screen", name, o, r.pos, r.size)
				}
				for _, o2 := range shown {
					if r.overlaps(o2) {
						t.Errorf("%s: %T at %v %v overlaps", name, o, r.pos, r.size)
					}
				}
				shown = append(shown, r)
				checkTextsFit(t, name, o)
			}
			if m := s.White.MinSize(); s.White.Size().Height < m.Height || s.White.Size().Width < m.Width {
				t.Errorf("%s: a clock is %v", name, s.White.Size())
			}
			if !strings.Contains(s.Fault.Advice(), tr("The clocks run: press your clock as usual. Nothing is recorded until this is fixed.")) {
				t.Errorf("%s: the advice does not say the clocks run: %q", name, s.Fault.Advice())
			}
			if !s.Black.View().ToMove || s.White.View().ToMove || s.Black.View().Clock.Text == "" {
				t.Errorf("%s: Black to move not lit: black %+v white %+v", name, s.Black.View(), s.White.View())
			}
			w.Close()
			if t.Failed() {
				return
			}
		}
	}
}
