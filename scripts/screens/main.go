// Command screens shows one of the kiosk's screens in a real window, in a given state, for
// screenshots under Xvfb (scripts/screenshots): the table with an illegal-move ruling, the list of
// rulings, the counting screen, the zoomed marking of a 19x19 board, and the table with no camera
// at the start. It closes by itself.
package main

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/bits"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"tengen/demo"
	"tengen/engine"
	"tengen/referee"
	"tengen/ui"
)

func main() {
	shot := flag.String("shot", "ruling", "table, ruling, rulings, count, count-ended, zoom, nocamera, dame, dame-asked, confirm, repetition, void, called, director, director-kb, director-kb-closed, gate, setup, setup-game, camera or menu")
	lang := flag.String("lang", "en", "language: en, pl, cs, ru or bg")
	w := flag.Int("width", 800, "window width")
	h := flag.Int("height", 480, "window height")
	quit := flag.Duration("quit-after", 5*time.Second, "take the picture and close the window after this long")
	out := flag.String("png", "", "with -xwd: the PNG to write")
	xwd := flag.String("xwd", "", "convert this X window dump (xwd -root) to the PNG of -png, and show nothing")
	flag.Parse()
	if *xwd != "" {
		if err := convertXWD(*xwd, *out); err != nil {
			fmt.Fprintln(os.Stderr, "screens:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*shot, *lang, *w, *h, *quit); err != nil {
		fmt.Fprintln(os.Stderr, "screens:", err)
		os.Exit(1)
	}
}

func run(shot, lang string, w, h int, quit time.Duration) error {
	a := app.New()
	a.Settings().SetTheme(ui.NewTheme())
	if err := ui.LoadTranslations(); err != nil {
		return err
	}
	win := a.NewWindow("Tengen")
	win.SetPadded(false)
	win.Resize(fyne.NewSize(float32(w), float32(h)))
	komi := 6.5
	k := ui.NewApp(win, ui.Handlers{NextGame: func(string) error { return nil },
		CheckPIN: func(string) error { return nil },
		SetupDefaults: referee.Setup{Rules: "japanese", Size: 19, Komi: &komi, TimeControl: "egf-a-byoyomi",
			Event: "Warsaw Open", Table: "12"}})
	if err := k.SetLanguage(lang); err != nil {
		return err
	}
	st, cond, err := state(shot)
	if err != nil {
		return err
	}
	k.Update(st, cond)
	switch shot {
	case "rulings":
		k.Show(ui.ScreenRulings)
	case "zoom":
		k.Count().Board.OnTapped(engine.Point{X: 15, Y: 3})
	case "director":
		k.Show(ui.ScreenDirector)
		k.Director().Unlock("0000")
	case "director-kb", "director-kb-closed":
		// The on-screen keyboard opened for the result field (and, for -closed, closed again): the
		// field stays in view above it, and closing it gives the window its size back.
		k.Show(ui.ScreenDirector)
		d := k.Director()
		d.Unlock("0000")
		toggle, ok := d.KeyboardSlot.Objects[0].(interface{ Tapped(*fyne.PointEvent) })
		if !ok {
			return errors.New("no keyboard toggle on the director's panel")
		}
		go func() {
			time.Sleep(2 * time.Second)
			fyne.Do(func() {
				win.Canvas().Focus(d.Result)
				toggle.Tapped(&fyne.PointEvent{})
			})
			if shot == "director-kb-closed" {
				time.Sleep(2 * time.Second)
				fyne.Do(func() { toggle.Tapped(&fyne.PointEvent{}) })
			}
			time.Sleep(2 * time.Second)
			fyne.Do(func() {
				fmt.Fprintf(os.Stderr, "screens: %s: the window's canvas is %vx%v (asked %dx%d)\n", shot,
					win.Canvas().Size().Width, win.Canvas().Size().Height, w, h)
			})
		}()
	case "gate", "setup-game":
		k.Show(ui.ScreenSetup)
		if shot == "setup-game" {
			k.Gate().Open("0000")
		}
	case "camera":
		k.Show(ui.ScreenCamera)
	case "menu":
		k.Show(ui.ScreenMenu)
	}
	go func() {
		time.Sleep(quit)
		fyne.Do(a.Quit)
	}()
	win.ShowAndRun()
	return nil
}

// convertXWD writes the X window dump in as a PNG to out: a ZPixmap of 24 or 32 bits per pixel,
// as xwd writes for Xvfb's TrueColor root window.
func convertXWD(in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	if len(data) < 100 {
		return errors.New("xwd: short header")
	}
	hd := func(i int) uint32 { return binary.BigEndian.Uint32(data[4*i:]) }
	headerSize, format, width, height := int(hd(0)), hd(2), int(hd(4)), int(hd(5))
	lsbFirst, bpp, bpl := hd(7) == 0, int(hd(11)), int(hd(12))
	masks := [3]uint32{hd(14), hd(15), hd(16)}
	off := headerSize + 12*int(hd(19))
	if format != 2 || (bpp != 24 && bpp != 32) || width <= 0 || height <= 0 || width > 1<<14 || height > 1<<14 {
		return fmt.Errorf("xwd: unsupported dump (format %d, %d bpp, %dx%d)", format, bpp, width, height)
	}
	if off < 0 || bpl < width*bpp/8 || off+bpl*height > len(data) {
		return errors.New("xwd: truncated pixel data")
	}
	img := image.NewNRGBA(image.Rect(0, 0, width, height))
	n := bpp / 8
	for y := 0; y < height; y++ {
		for x := 0; x < width; x++ {
			px := data[off+y*bpl+x*n : off+y*bpl+x*n+n]
			var v uint32
			for i := 0; i < n; i++ {
				b := px[i]
				if lsbFirst {
					b = px[n-1-i]
				}
				v = v<<8 | uint32(b)
			}
			var c [3]uint8
			for i, m := range masks {
				s := bits.TrailingZeros32(m)
				c[i] = uint8((v & m) >> s)
			}
			img.SetNRGBA(x, y, color.NRGBA{R: c[0], G: c[1], B: c[2], A: 255})
		}
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

var t0 = time.Date(2026, 5, 1, 14, 3, 12, 0, time.Local)

// state is the referee's state for a shot.
func state(shot string) (referee.State, ui.Conditions, error) {
	switch shot {
	case "ruling", "rulings":
		return rulingState()
	case "count", "count-ended":
		st, err := countState(shot == "count-ended")
		return st, ui.Conditions{}, err
	case "zoom":
		st, err := zoomState()
		return st, ui.Conditions{}, err
	case "table":
		st, cond, err := rulingState()
		st.Rulings, st.Banner = nil, referee.Verdict{}
		return st, cond, err
	case "dame", "dame-asked":
		st, err := dameState(shot == "dame-asked")
		return st, ui.Conditions{}, err
	case "confirm":
		st, err := confirmState()
		return st, ui.Conditions{}, err
	case "repetition", "void":
		return repetitionState(shot == "void")
	case "setup", "camera":
		return referee.State{Phase: referee.PhaseSetup}, ui.Conditions{}, nil
	case "director", "director-kb", "director-kb-closed", "gate", "setup-game", "menu":
		st, cond, err := rulingState()
		st.Rulings, st.Banner = nil, referee.Verdict{}
		return st, cond, err
	case "called":
		// A player called the director: play halted, both clocks stopped, White in byo-yomi as the
		// referee gives its clock ("BY 3×0:27").
		st, cond, err := rulingState()
		st.Rulings = nil
		st.Phase, st.ToMove, st.ClockRunning, st.ClocksPaused = referee.PhaseHalted, engine.Empty, engine.Empty, true
		st.Black.Clock.Running, st.White.Clock.Running = false, false
		st.White.Clock.Text = "BY 3×0:27"
		st.Banner = referee.Verdict{Kind: referee.VerdictDirector, At: t0.Add(10 * time.Minute), Says: []referee.Phrase{{Text: "The director is called: the clocks are stopped until the director resumes play. Press the director button again to withdraw the call."}}}
		return st, cond, err
	case "nocamera":
		st, _, err := rulingState()
		st.Phase, st.MoveNumber, st.Rulings, st.LastMove, st.Banner = referee.PhaseReady, 0, nil, nil, referee.Verdict{}
		st.Board = make([]engine.Color, 81)
		st.ClockRunning = engine.Empty
		st.White.Clock.Running = false
		return st, ui.Conditions{CameraLost: true}, err
	}
	return referee.State{}, ui.Conditions{}, errors.New("unknown shot " + shot)
}

func play(size int, rules string, moves ...string) (*engine.Game, error) {
	r, err := engine.Preset(rules)
	if err != nil {
		return nil, err
	}
	g, err := engine.NewGame(size, r)
	if err != nil {
		return nil, err
	}
	for _, m := range moves {
		mv := engine.Move{Color: g.ToMove(), Pass: m == "pass"}
		if !mv.Pass {
			if mv.Point, err = engine.ParsePoint(m, size); err != nil {
				return nil, err
			}
		}
		if _, err := g.Play(mv); err != nil {
			return nil, fmt.Errorf("%s: %w", m, err)
		}
	}
	return g, nil
}

func players(st *referee.State) {
	komi := 7.5
	st.Setup = referee.Setup{Rules: "aga", Komi: &komi, Size: st.Size}
	st.Black = referee.Side{Player: referee.Player{Name: "Ada Black", Rank: "3k"}, Prisoners: 1,
		Clock: referee.ClockDisplay{Remaining: 9*time.Minute + 41*time.Second, Text: "9:41"}}
	st.White = referee.Side{Player: referee.Player{Name: "Bo White", Rank: "2k"}, PassStones: 1,
		Clock: referee.ClockDisplay{Remaining: 27 * time.Second, Overtime: true, Periods: 3, Running: true, Text: "0:27 (3)"}}
}

// rulingState: White tried to retake a ko at once and passed instead (AGA rule 8); a director's
// ruling came before.
func rulingState() (referee.State, ui.Conditions, error) {
	g, err := play(9, "aga", "E5", "D5", "F4", "C4", "F6", "D3", "G5", "D4", "E4", "pass")
	if err != nil {
		return referee.State{}, ui.Conditions{}, err
	}
	e := &engine.IllegalMoveError{Reason: engine.Ko, Rules: "aga", Size: 9, KoPoint: engine.Point{X: 4, Y: 5},
		Move: engine.Move{Color: engine.White, Point: engine.Point{X: 4, Y: 4}}}
	text, args := e.Sentence()
	ill := referee.Verdict{Kind: referee.VerdictIllegal, Color: engine.White, At: t0.Add(9 * time.Minute), MoveNumber: g.MoveNumber(),
		Points: []engine.Point{{X: 4, Y: 4}}, Says: []referee.Phrase{{Text: text + ".", Args: args},
			{Text: "{{.Color}} takes the stone on {{.Point}} back and passes instead (AGA rule 8), handing one pass stone to {{.Opponent}}.",
				Args: map[string]string{"Color": "White", "Point": "E5", "Opponent": "Black"}}}}
	dir := referee.Verdict{Kind: referee.VerdictDirector, At: t0, MoveNumber: 4, Says: []referee.Phrase{
		{Text: "Director: {{.Color}}'s clock set to {{.Time}}.", Args: map[string]string{"Color": "Black", "Time": "9:50"}}}}
	st := referee.State{Seq: 1, Phase: referee.PhasePlaying, Size: 9, Board: g.Board(), ToMove: engine.Black,
		MoveNumber: g.MoveNumber(), Banner: ill, Rulings: []referee.Verdict{dir, ill}, ClockRunning: engine.Black}
	players(&st)
	st.Black.Clock.Running, st.White.Clock.Running = true, false
	return st, ui.Conditions{}, nil
}

// countState is the built-in demo game at its count, C7-C8 dead, Black agreed.
func countState(ended bool) (referee.State, error) {
	s, err := demo.Default()
	if err != nil {
		return referee.State{}, err
	}
	r, _ := engine.Preset("aga")
	r.Komi = s.Record.Komi
	g, err := engine.NewGame(9, r)
	if err != nil {
		return referee.State{}, err
	}
	for _, m := range s.Record.Moves {
		if _, err := g.Play(m.Engine()); err != nil {
			return referee.State{}, err
		}
	}
	dead := g.Chain(engine.Point{X: 2, Y: 2})
	sc, err := g.Score(dead)
	if err != nil {
		return referee.State{}, err
	}
	st := referee.State{Seq: 1, Phase: referee.PhaseMarking, Size: 9, Board: g.Board(), MoveNumber: g.MoveNumber(),
		Dead: dead, Score: &sc}
	players(&st)
	st.Black.Confirmed = true
	if ended {
		st.Phase, st.White.Confirmed, st.Result = referee.PhaseEnded, true, sc.Result
	}
	return st, nil
}

// zoomState is a 19x19 game at its count.
func zoomState() (referee.State, error) {
	// A plain split: Black holds the left, White the right, a few stones inside each other's area.
	board := make([]engine.Color, 19*19)
	for y := 0; y < 19; y++ {
		board[y*19+8] = engine.Black
		board[y*19+10] = engine.White
	}
	for _, p := range []engine.Point{{X: 15, Y: 3}, {X: 16, Y: 3}, {X: 15, Y: 4}, {X: 3, Y: 15}, {X: 2, Y: 16}} {
		c := engine.Black
		if p.X < 9 {
			c = engine.White
		}
		board[p.Y*19+p.X] = c
	}
	for _, p := range []engine.Point{{X: 3, Y: 3}, {X: 15, Y: 15}, {X: 6, Y: 10}} {
		c := engine.Black
		if p.X > 9 {
			c = engine.White
		}
		board[p.Y*19+p.X] = c
	}
	r, _ := engine.Preset("aga")
	g, err := engine.NewGame(19, r)
	if err != nil {
		return referee.State{}, err
	}
	var black, white []engine.Point
	for i, c := range board {
		switch c {
		case engine.Black:
			black = append(black, engine.Point{X: i % 19, Y: i / 19})
		case engine.White:
			white = append(white, engine.Point{X: i % 19, Y: i / 19})
		}
	}
	if err := g.Setup(black, white, engine.Black); err != nil {
		return referee.State{}, err
	}
	dead := []engine.Point{{X: 15, Y: 3}, {X: 16, Y: 3}, {X: 15, Y: 4}}
	sc, err := g.Score(dead)
	if err != nil {
		return referee.State{}, err
	}
	st := referee.State{Seq: 1, Phase: referee.PhaseMarking, Size: 19, Board: g.Board(), MoveNumber: 212, Dead: dead, Score: &sc}
	players(&st)
	return st, nil
}
