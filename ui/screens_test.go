package ui

import (
	"fmt"
	"image"
	"image/color"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee"
	"tengen/vision/observe"
)

// playingState is a referee state in the middle of the demo game, White to move.
func playingState(t *testing.T) referee.State {
	t.Helper()
	v := sampleTable(t)
	komi := 7.5
	last := engine.Move{Color: engine.Black, Point: v.Board.LastMove}
	return referee.State{
		Seq: 1, Phase: referee.PhasePlaying, Size: 9, Board: v.Board.Stones, ToMove: engine.White,
		MoveNumber: v.MoveNumber, LastMove: &last,
		Setup: referee.Setup{Rules: "aga", Komi: &komi, Size: 9},
		Black: referee.Side{Player: referee.Player{Name: "Ada Black", Rank: "3k"}, Prisoners: 1,
			Clock: referee.ClockDisplay{Remaining: 9*time.Minute + 41*time.Second, Text: "9:41"}},
		White: referee.Side{Player: referee.Player{Name: "Bo White", Rank: "2k"},
			Clock: referee.ClockDisplay{Remaining: 27 * time.Second, Overtime: true, Periods: 3, Running: true, Text: "0:27 (3)"}},
		ClockRunning: engine.White,
	}
}

func pt(t *testing.T, s string) engine.Point {
	t.Helper()
	p, err := engine.ParsePoint(s, 9)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// bannerCases are the verdicts the table shows, with the banner colour and the board mark colour.
func bannerCases(t *testing.T) []struct {
	name   string
	mod    func(*referee.State)
	cond   Conditions
	banner color.NRGBA
	mark   color.NRGBA
	at     string
} {
	return []struct {
		name   string
		mod    func(*referee.State)
		cond   Conditions
		banner color.NRGBA
		mark   color.NRGBA
		at     string
	}{
		{"illegal", func(s *referee.State) {
			s.Banner = referee.Verdict{Kind: referee.VerdictIllegal, Color: engine.White, Points: []engine.Point{pt(t, "F4")},
				Message: "Illegal move: AGA rule 6: this would repeat the position after move 20 with Black to play. White takes the stone on F4 back and passes instead (AGA rule 8)."}
		}, Conditions{}, colIllegal, colIllegal, "F4"},
		{"remove", func(s *referee.State) {
			s.Banner = referee.Verdict{Kind: referee.VerdictRemoveCaptures, Color: engine.Black, Points: []engine.Point{pt(t, "F5")},
				Message: "Black E5 captures 1: remove the captured stones at F5."}
		}, Conditions{}, colRemove, colRemove, "F5"},
		{"differs", func(s *referee.State) {
			s.Banner = referee.Verdict{Kind: referee.VerdictBoardDiffers, Color: engine.White, Points: []engine.Point{pt(t, "C3")},
				Message: "The board differs from the game: C3 should be empty."}
		}, Conditions{}, colDiffers, colDiffers, "C3"},
		{"camera-lost", func(s *referee.State) {}, Conditions{CameraLost: true}, colCalm, color.NRGBA{}, ""},
		{"hands-over", func(s *referee.State) {
			s.Seen = make([]observe.Stone, 81)
			s.Seen[40] = observe.Obscured
		}, Conditions{}, colCalm, color.NRGBA{}, ""},
		{"hands-over-live", func(s *referee.State) {}, Conditions{HandsOver: true}, colCalm, color.NRGBA{}, ""},
	}
}

func TestTableBanners(t *testing.T) {
	newTestApp(t)
	for _, sz := range displays {
		for _, tc := range bannerCases(t) {
			t.Run(fmt.Sprintf("%s-%vx%v", tc.name, sz.Width, sz.Height), func(t *testing.T) {
				st := playingState(t)
				tc.mod(&st)
				ts := NewTableScreen(nil, nil)
				ts.SetView(TableViewOf(st, tc.cond))
				img := capture(t, fmt.Sprintf("banner-%s-%vx%v", tc.name, sz.Width, sz.Height), ts.Content(), sz)
				bp, bs := ts.Banner.Position(), ts.Banner.Size()
				r := image.Rectangle{Min: scale(img, sz, bp), Max: scale(img, sz, bp.Add(bs))}
				if n := countNear(img, r, tc.banner, 6); n < r.Dx()*r.Dy()/3 {
					t.Errorf("banner has %d pixels of its colour out of %d", n, r.Dx()*r.Dy())
				}
				if ts.Banner.View().Title == "" {
					t.Error("banner without a title")
				}
				if tc.at != "" {
					if n := countNear(img, pointRect(img, sz, ts.Board, pt(t, tc.at), 0.55), tc.mark, 30); n < 20 {
						t.Errorf("%s: %d pixels of the mark colour, want the point marked", tc.at, n)
					}
				}
				if tc.name == "illegal" && ts.Banner.View().Text == "" {
					t.Error("illegal move without the rule sentence")
				}
			})
		}
	}
}

func TestSetupScreen(t *testing.T) {
	newTestApp(t)
	var got referee.Setup
	s := NewSetupScreen(referee.Setup{}, func(st referee.Setup) error { got = st; return nil }, nil)
	for _, sz := range displays {
		img := capture(t, fmt.Sprintf("setup-%vx%v", sz.Width, sz.Height), s.Content(), sz)
		// The start button is big and lit.
		if s.Start.Size().Height < 40 {
			t.Errorf("start button only %v high", s.Start.Size().Height)
		}
		r := image.Rectangle{Min: scale(img, sz, fyne.CurrentApp().Driver().AbsolutePositionForObject(s.Start)),
			Max: scale(img, sz, fyne.CurrentApp().Driver().AbsolutePositionForObject(s.Start).Add(s.Start.Size()))}
		if n := countNear(img, r, colToMove, 30); n < r.Dx()*r.Dy()/3 {
			t.Errorf("start button: %d lit pixels of %d", n, r.Dx()*r.Dy())
		}
	}
	// Defaults follow the preset: AGA komi 7.5, Japanese 6.5, and the handicap komi with a handicap.
	if s.Komi.Text != "7.5" {
		t.Errorf("AGA komi %q", s.Komi.Text)
	}
	s.SelectRules("japanese")
	if s.Komi.Text != "6.5" {
		t.Errorf("Japanese komi %q", s.Komi.Text)
	}
	s.Handicap.SetSelected("3")
	if s.Komi.Text != "0.5" && s.Komi.Text != "0" {
		t.Errorf("handicap komi %q", s.Komi.Text)
	}
	s.BlackName.SetText("Ada")
	s.WhiteRank.SetText("2d")
	s.Size.SetSelected("13")
	test.Tap(s.Start)
	if got.Rules != "japanese" || got.Handicap != 3 || got.Size != 13 || got.Black.Name != "Ada" || got.White.Rank != "2d" || got.Komi == nil {
		t.Errorf("set-up %+v", got)
	}
	// Bad input is refused with a message, nothing is started.
	got = referee.Setup{}
	s.Komi.SetText("six")
	test.Tap(s.Start)
	if got.Rules != "" || s.Message.Text == "" {
		t.Errorf("bad komi accepted (%+v, message %q)", got, s.Message.Text)
	}
	s.Komi.SetText("6.5")
	s.TimeControl.SetText("forever")
	test.Tap(s.Start)
	if got.Rules != "" || s.Message.Text == "" {
		t.Errorf("bad time control accepted (%+v)", got)
	}
}

func TestDirectorScreen(t *testing.T) {
	newTestApp(t)
	var acts []referee.DirectorAction
	goodPIN := "2468"
	d := NewDirectorScreen(DirectorHandlers{
		Act: func(pin string, a referee.DirectorAction) error {
			if pin != goodPIN {
				return fmt.Errorf("checking: %w", referee.ErrBadPIN)
			}
			acts = append(acts, a)
			return nil
		},
		ExportSGF: func(pin string) (string, error) { return "/tmp/game.sgf", nil },
		Check:     checkPIN,
	})
	for _, sz := range displays {
		capture(t, fmt.Sprintf("director-pin-%vx%v", sz.Width, sz.Height), d.Content(), sz)
	}
	if d.Unlocked() {
		t.Fatal("the panel shows without a PIN")
	}
	w := test.NewWindow(d.Content())
	defer w.Close()
	w.Resize(displays[0])
	tapText := func(label string) {
		t.Helper()
		for _, o := range test.LaidOutObjects(d.Content()) {
			if bb, ok := o.(*bigButton); ok && bb.Text == label && bb.Visible() {
				test.Tap(bb)
				return
			}
			if b, ok := o.(*widget.Button); ok && b.Text == label && b.Visible() {
				test.Tap(b)
				return
			}
		}
		t.Fatalf("no button %q", label)
	}
	for _, k := range []string{"1", "2", "3", "4", "OK"} {
		tapText(k)
	}
	if d.Unlocked() || d.padMsg.Text != "Wrong PIN" {
		t.Fatalf("a wrong PIN opened the panel (pad: %q)", d.padMsg.Text)
	}
	for _, k := range []string{"2", "4", "6", "8", "OK"} {
		tapText(k)
	}
	if !d.Unlocked() {
		t.Fatal("OK did not open the panel")
	}
	capture(t, "director-panel-800x480", d.Content(), displays[0])
	goodPIN = "1357" // the referee refuses the PIN (changed, or locked out) after the panel opened
	tapText("Undo the last move")
	if len(acts) != 0 || d.Unlocked() {
		t.Fatalf("a wrong PIN acted (%v) or left the panel open", acts)
	}
	goodPIN = "2468"
	for _, k := range []string{"2", "4", "6", "8", "OK"} {
		tapText(k)
	}
	tapText("Undo the last move")
	d.Time.SetText("12:30")
	d.Side.SetSelected("White")
	tapText("Set the clock")
	d.Result.SetText("B+R")
	tapText("Set the result")
	tapText("Export the SGF")
	want := []referee.DirectorAction{{Kind: referee.DirectorUndo},
		{Kind: referee.DirectorAdjustClock, Color: engine.White, Remaining: 12*time.Minute + 30*time.Second},
		{Kind: referee.DirectorEnd, Result: "B+R"}}
	if fmt.Sprint(acts) != fmt.Sprint(want) {
		t.Errorf("actions %v, want %v", acts, want)
	}
	if d.Message.Text != "Saved: /tmp/game.sgf" {
		t.Errorf("export message %q", d.Message.Text)
	}
	d.Time.SetText("soon")
	tapText("Set the clock")
	if len(acts) != 3 || d.Message.Text == "" {
		t.Error("a bad time was sent")
	}
}

func TestParseClock(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"12:30", 12*time.Minute + 30*time.Second, true},
		{"1:02:03", time.Hour + 2*time.Minute + 3*time.Second, true},
		{"15", 15 * time.Minute, true},
		{"0:05", 5 * time.Second, true},
		{"", 0, false},
		{"1:75", 0, false},
		{"a:b", 0, false},
		{"1:2:3:4", 0, false},
		{"-3", 0, false},
	} {
		got, err := parseClock(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseClock(%q) = %v, %v", tc.in, got, err)
		}
	}
}

func TestCameraScreen(t *testing.T) {
	newTestApp(t)
	frame := image.NewRGBA(image.Rect(0, 0, 640, 480))
	for i := range frame.Pix {
		frame.Pix[i] = 90
	}
	var saved [4][2]float64
	var savedSide string
	cs := NewCameraScreen(CameraHandlers{
		Grab: func() (CameraView, error) {
			return CameraView{Frame: frame, Size: 9, HasGrid: true, Confidence: 0.93, BlackSide: "bottom",
				Corners: [4][2]float64{{180, 70}, {460, 70}, {500, 420}, {150, 420}}}, nil
		},
		Save: func(c [4][2]float64, size int, side string) error { saved, savedSide = c, side; return nil },
	})
	cs.Grab()
	for _, sz := range displays {
		img := capture(t, fmt.Sprintf("camera-%vx%v", sz.Width, sz.Height), cs.Content(), sz)
		// The grid is drawn in green over the picture, the corners in yellow.
		pp, ps := cs.Preview.Position(), cs.Preview.Size()
		r := image.Rectangle{Min: scale(img, sz, pp), Max: scale(img, sz, pp.Add(ps))}
		if n := countNear(img, r, color.NRGBA{R: 0x40, G: 0xd0, B: 0x58}, 60); n < 200 {
			t.Errorf("%d green grid pixels", n)
		}
		if n := countNear(img, r, color.NRGBA{R: 0xa0, G: 0x86, B: 0x40}, 60); n < 100 {
			t.Errorf("%d corner-handle pixels", n)
		}
	}
	if cs.Confidence.Text != "Confidence: 93%" {
		t.Errorf("confidence %q", cs.Confidence.Text)
	}
	// Drag the top-left corner 20 px right in the widget.
	w := test.NewWindow(cs.Content())
	defer w.Close()
	w.Resize(displays[0])
	start := cs.Preview.toWidget([2]float64{180, 70})
	_, _, s := cs.Preview.frameRect()
	cs.Preview.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: start.AddXY(20, 0)}, Dragged: fyne.Delta{DX: 20}})
	cs.Preview.DragEnd()
	cs.Side.SetSelectedIndex(1)
	cs.save()
	if d := saved[0][0] - (180 + float64(20/s)); d > 0.5 || d < -0.5 || saved[2] != [2]float64{500, 420} {
		t.Errorf("saved corners %v", saved)
	}
	if savedSide != "top" {
		t.Errorf("black side %q", savedSide)
	}
	// After a save, a new frame brings the detection back; while dragged, corners stay.
	cs.Preview.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: cs.Preview.toWidget([2]float64{500, 420}).AddXY(-10, 0)}, Dragged: fyne.Delta{DX: -10}})
	cs.Preview.DragEnd()
	moved := cs.Preview.View().Corners
	cs.Grab()
	if cs.Preview.View().Corners != moved {
		t.Error("a new frame threw away the corners being placed by hand")
	}
}

func TestKeyboardFallback(t *testing.T) {
	newTestApp(t)
	var got []clock.Press
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a, w := appWindow(t, fyne.Size{}, Handlers{Press: func(p clock.Press) { got = append(got, p) }, Now: func() time.Time { return at }})
	a.Update(playingState(t), Conditions{})
	for _, k := range []fyne.KeyName{fyne.KeyB, fyne.KeyW, fyne.KeyP, fyne.KeyLeft, fyne.KeyRight, fyne.KeySpace, fyne.KeyL, fyne.KeyX} {
		w.Canvas().(test.WindowlessCanvas).OnTypedKey()(&fyne.KeyEvent{Name: k})
	}
	want := []clock.Press{clock.NewPress(clock.BlackClock, at), clock.NewPress(clock.WhiteClock, at), clock.NewPress(clock.PassButton, at),
		clock.NewPress(clock.BlackClock, at), clock.NewPress(clock.WhiteClock, at), clock.NewPress(clock.PassButton, at),
		clock.NewLongPress(clock.PassButton, at)}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("presses %v, want %v", got, want)
	}
}

func TestCameraLivePicture(t *testing.T) {
	newTestApp(t)
	w := test.NewWindow(nil)
	defer w.Close()
	first := image.NewRGBA(image.Rect(0, 0, 64, 48))
	frames := make(chan image.Image, 8)
	a := NewApp(w, Handlers{Camera: CameraHandlers{
		Grab: func() (CameraView, error) { return CameraView{Frame: first, Size: 9, BlackSide: "bottom"}, nil },
		Frame: func() (image.Image, error) {
			img := image.NewRGBA(image.Rect(0, 0, 64, 48))
			frames <- img
			return img, nil
		},
	}})
	a.Update(playingState(t), Conditions{})
	q := uiQueue(a)
	a.Show(ScreenCamera)
	var last image.Image
	select {
	case last = <-frames:
	case <-time.After(5 * time.Second):
		t.Fatal("no live frame asked for")
	}
	// The board search's result and the live frames come in turn; the frame asked for is shown
	// when its turn comes.
	deadline := time.After(3 * time.Second)
	for a.camera.Preview.View().Frame != last {
		select {
		case f := <-q:
			f()
		case <-deadline:
			t.Fatal("the live frame is not shown")
		}
	}
	a.Show(ScreenGame)
	for len(frames) > 0 {
		<-frames
	}
	time.Sleep(2 * livePeriod)
	if n := len(frames); n > 1 {
		t.Errorf("%d frames asked for after leaving the camera screen", n)
	}
}

// FuzzParseClock: any text typed into the director's clock field gives a duration or an error.
func FuzzParseClock(f *testing.F) {
	for _, s := range []string{"12:30", "1:02:03", "15", "", "1:75", "::", "-1", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseClock(s)
		if err == nil && d < 0 {
			t.Fatalf("parseClock(%q) = %v", s, d)
		}
	})
}

// TestAppFollowsTheGame checks which screen shows in each phase, and that a phase change does not
// pull the director's screen away.
func TestAppFollowsTheGame(t *testing.T) {
	newTestApp(t)
	a, _ := appWindow(t, displays[0], Handlers{})
	a.Update(referee.State{Phase: referee.PhaseSetup}, Conditions{})
	if a.Current() != a.setupKB {
		t.Error("set-up phase: the set-up screen is not showing")
	}
	st := playingState(t)
	a.Update(st, Conditions{})
	if a.Current() != a.Table().Content() {
		t.Error("playing: the table is not showing")
	}
	cv := demoCount(t)
	st.Phase, st.Score, st.Dead = referee.PhaseMarking, &cv.Score, cv.Score.Dead
	a.Update(st, Conditions{})
	if a.Current() != a.Count().Content() {
		t.Error("marking: the counting screen is not showing")
	}
	a.Show(ScreenDirector)
	st.Phase = referee.PhaseEnded
	a.Update(st, Conditions{})
	if a.Current() != a.dirKB {
		t.Error("the end of the game pulled the director's screen away")
	}
	a.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if a.Current() != a.Count().Content() || !a.Count().view.Ended {
		t.Error("Escape does not bring back the final count")
	}
}

// TestMenuAndLanguageScreens draws the menu and the language list: every choice is a big button.
func TestMenuAndLanguageScreens(t *testing.T) {
	newTestApp(t)
	for _, sz := range displays {
		w := test.NewWindow(nil)
		w.SetPadded(false)
		w.Resize(sz)
		a := NewApp(w, Handlers{})
		a.Update(playingState(t), Conditions{})
		for _, s := range []struct {
			name   string
			screen Screen
			want   int
		}{{"menu", ScreenMenu, 6}, {"languages", ScreenLanguage, 6}} {
			a.Show(s.screen)
			capture(t, fmt.Sprintf("%s-%vx%v", s.name, sz.Width, sz.Height), a.Current(), sz)
			n := 0
			for _, o := range test.LaidOutObjects(a.Current()) {
				if b, ok := o.(*widget.Button); ok {
					n++
					if b.Size().Height < 60 || b.Size().Width < 150 {
						t.Errorf("%s %v: button %q is only %v", s.name, sz, b.Text, b.Size())
					}
				}
			}
			if n != s.want {
				t.Errorf("%s: %d buttons, want %d", s.name, n, s.want)
			}
		}
		w.Close()
	}
}

// TestOnScreenKeyboard types a name into the set-up screen with the on-screen keyboard.
func TestOnScreenKeyboard(t *testing.T) {
	newTestApp(t)
	a, w := appWindow(t, displays[1], Handlers{})
	a.Update(referee.State{Phase: referee.PhaseSetup}, Conditions{})
	tapLabel := func(label string) {
		t.Helper()
		for _, o := range test.LaidOutObjects(a.Current()) {
			switch k := o.(type) {
			case *keyCap:
				if k.label == label && k.Visible() {
					test.Tap(k)
					return
				}
			case *widget.Button:
				if k.Text == label && k.Visible() {
					test.Tap(k)
					return
				}
			}
		}
		t.Fatalf("no key %q", label)
	}
	tapLabel("Keyboard")
	capture(t, "setup-keyboard-1280x720", a.Current(), displays[1])
	w.Canvas().Focus(a.setup.BlackName)
	tapLabel("⇧")
	tapLabel("A")
	tapLabel("⇧")
	for _, k := range []string{"d", "a"} {
		tapLabel(k)
	}
	tapLabel("x")
	tapLabel("←")
	if got := a.setup.BlackName.Text; got != "Ada" {
		t.Errorf("typed %q, want Ada", got)
	}
	if w.Canvas().Focused() != a.setup.BlackName {
		t.Error("typing took the focus away from the field")
	}
}

func TestSetupDefaultsFromConfiguration(t *testing.T) {
	newTestApp(t)
	komi := 6.5
	a, _ := appWindow(t, fyne.Size{}, Handlers{SetupDefaults: referee.Setup{Rules: "japanese", Size: 13, Komi: &komi, TimeControl: "40m+5x30s", Event: "Cup", Table: "7"}})
	a.Update(referee.State{Phase: referee.PhaseSetup}, Conditions{})
	s := a.setup
	if s.RulesPreset() != "japanese" || s.Size.Selected != "13" || s.Komi.Text != "6.5" || s.TimeControl.Text != "40m+5x30s" || s.Event.Text != "Cup" || s.Table.Text != "7" {
		t.Errorf("set-up shows %s/%s/%s/%s/%s/%s", s.RulesPreset(), s.Size.Selected, s.Komi.Text, s.TimeControl.Text, s.Event.Text, s.Table.Text)
	}
}
