package ui

import (
	"errors"
	"fmt"
	"image"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee"
)

// Screen names a screen of the kiosk.
type Screen int

// The screens. ScreenGame follows the game: set-up before it, the table during it, counting at the end.
const (
	ScreenGame Screen = iota
	ScreenMenu
	ScreenSetup
	ScreenCamera
	ScreenDirector
	ScreenLanguage
	ScreenRulings // the game's rulings
)

// Handlers connect the screens to the referee and the hardware. Nil handlers disable what they do.
type Handlers struct {
	Press      func(clock.Press) // the keyboard stands in for the three buttons when there is no GPIO
	ToggleDead func(engine.Point) error
	Resume     func(engine.Color) error
	Setup      func(referee.Setup) error
	Director   func(pin string, a referee.DirectorAction) error
	ExportSGF  func(pin string) (string, error)
	// NextGame files the finished game and readies the table for the next (the director's
	// PIN checked); Setup after the game is over does the same before it sets the new game up.
	NextGame func(pin string) error
	// CheckPIN tells whether pin is the director's: nil when it is, referee.ErrBadPIN when not,
	// referee.ErrNoDirector when no PIN is configured. Nil: no PIN is configured. It opens the
	// screens that change a game being played (set-up, camera and board) and the director's panel.
	CheckPIN func(pin string) error
	// PINLockedFor, when set, says how long the PIN is refused after repeated wrong ones (the pads
	// then say so instead of "Wrong PIN").
	PINLockedFor func() time.Duration
	Camera       CameraHandlers
	// AgreeVoid: a player agrees to end the game with no result, a whole-board position having
	// repeated (Japanese rules art. 12).
	AgreeVoid func(engine.Color) error
	// StartConfirmation starts the confirmation of life and death by play after the stop, first
	// playing first (Japanese rules art. 7.2); PassForKo passes for one ko in it;
	// EndConfirmation ends it (the count follows).
	StartConfirmation func(first engine.Color) error
	PassForKo         func(ko engine.Point) error
	EndConfirmation   func() error
	Language          func(code string) // told after the language changed (to save it, for example)
	// SetupDefaults fill the set-up screen when no game is set up (the table's configuration).
	SetupDefaults referee.Setup
	Now           func() time.Time // press times; nil = time.Now
}

// App is the kiosk's window content: it shows the screen the game needs (or the one the menu chose)
// and feeds it the referee's state. Call its methods on Fyne's goroutine (fyne.Do).
type App struct {
	win    fyne.Window
	h      Handlers
	screen Screen
	st     referee.State
	cond   Conditions
	lang   string

	table    *TableScreen
	count    *CountScreen
	confirm  *ConfirmScreen // the confirmation of life and death by play (Japanese art. 7.2)
	setup    *SetupScreen
	camera   *CameraScreen
	director *DirectorScreen
	rulings  *RulingsScreen
	gate     *PINGate          // the PIN pad in front of the set-up and the camera during a game
	opened   Screen            // the screen the gate was opened for (screenNone: none)
	setupKB  fyne.CanvasObject // the set-up screen with its on-screen keyboard
	dirKB    fyne.CanvasObject // the director's pad or panel (with its on-screen keyboard) beside the board
	shown    fyne.CanvasObject
	live     chan struct{}  // closed to stop the camera screen's live picture
	offered  *referee.Setup // a set-up offered during a game, for the next one (OfferSetup)
}

// livePeriod is how often the camera screen's picture is renewed.
const livePeriod = time.Second

// NewApp builds the screens in win and installs the keyboard fallback for the buttons.
func NewApp(win fyne.Window, h Handlers) *App {
	if h.Now == nil {
		h.Now = time.Now
	}
	a := &App{win: win, h: h, lang: "en", opened: screenNone}
	a.build()
	win.Canvas().SetOnTypedKey(a.TypedKey)
	a.show()
	return a
}

// build makes every screen (again, after a language change).
func (a *App) build() {
	a.table = NewTableScreen(func() { a.Show(ScreenMenu) }, func() { a.Show(ScreenRulings) })
	a.rulings = NewRulingsScreen(func() { a.Show(ScreenGame) })
	a.rulings.SetState(a.st)
	a.count = NewCountScreen(CountHandlers{
		ToggleDead: func(p engine.Point) {
			if a.h.ToggleDead != nil {
				_ = a.h.ToggleDead(p)
			}
		},
		Agree: func(c engine.Color) {
			b := clock.BlackClock
			if c == engine.White {
				b = clock.WhiteClock
			}
			a.press(b, false)
		},
		Resume: func(c engine.Color) {
			if a.h.Resume != nil {
				_ = a.h.Resume(c)
			}
		},
		Menu:     func() { a.Show(ScreenMenu) },
		NextGame: func() { a.Show(ScreenDirector) },
		StartConfirmation: func(first engine.Color) {
			if a.h.StartConfirmation != nil {
				_ = a.h.StartConfirmation(first)
			}
		},
	})
	a.table.OnAgreeVoid = func(c engine.Color) {
		if a.h.AgreeVoid != nil {
			_ = a.h.AgreeVoid(c)
		}
	}
	a.confirm = NewConfirmScreen(ConfirmHandlers{
		PassForKo: func(ko engine.Point) {
			if a.h.PassForKo != nil {
				_ = a.h.PassForKo(ko)
			}
		},
		End: func() {
			if a.h.EndConfirmation != nil {
				_ = a.h.EndConfirmation()
			}
		},
		Menu: func() { a.Show(ScreenMenu) },
	})
	initial := a.st.Setup
	if initial.Rules == "" && initial.Size == 0 {
		initial = a.h.SetupDefaults
	}
	a.buildSetup(initial)
	a.gate = newPINGate(a.h.CheckPIN, a.h.PINLockedFor, func() {
		a.opened = a.screen
		a.show()
	}, func() { a.Show(ScreenMenu) })
	cam := a.h.Camera
	back := cam.Back
	cam.Back = func() {
		if back != nil {
			back()
		}
		a.Show(ScreenMenu)
	}
	a.camera = NewCameraScreen(cam)
	a.director = NewDirectorScreen(DirectorHandlers{
		Check:     a.h.CheckPIN,
		LockedFor: a.h.PINLockedFor,
		Act: func(pin string, act referee.DirectorAction) error {
			if a.h.Director == nil {
				return referee.ErrNoDirector
			}
			return a.h.Director(pin, act)
		},
		ExportSGF: a.h.ExportSGF,
		NextGame:  a.nextGame,
		Back:      func() { a.Show(ScreenMenu) },
	})
	a.director.SetTable(TableViewOf(a.st, a.cond))
	a.dirKB = a.director.Content()
}

// buildSetup makes the set-up screen, filled with initial.
func (a *App) buildSetup(initial referee.Setup) {
	a.setup = NewSetupScreen(initial, func(s referee.Setup) error {
		if a.h.Setup == nil {
			return nil
		}
		if err := a.h.Setup(s); err != nil {
			if errors.Is(err, referee.ErrPhase) {
				return fmt.Errorf("%s", tr("A game is being played: the director ends it (Set the result) before the next one is set up."))
			}
			return spoken(err) // shown as it is: in words, without package prefixes
		}
		a.Show(ScreenGame)
		return nil
	}, func() { a.Show(ScreenGame) })
	a.setupKB = withKeyboard(a.setup.Content(), func() fyne.Focusable { return a.win.Canvas().Focused() }, a.setup.KeyboardSlot, a.setup.Scroll)
}

// nextGame files the finished game and shows the set-up of the next one, filled with this game's
// settings (rules, size, clock, event, table) without the players.
func (a *App) nextGame(pin string) error {
	if a.h.NextGame == nil {
		return referee.ErrNoDirector
	}
	last := a.st.Setup
	if err := a.h.NextGame(pin); err != nil {
		return err
	}
	last.Black, last.White, last.Round, last.Date = referee.Player{}, referee.Player{}, "", ""
	if s, ok := a.takeOffer(); ok {
		last = s
	}
	a.buildSetup(last)
	a.st = referee.State{Phase: referee.PhaseSetup}
	a.Show(ScreenGame)
	return nil
}

// Screen returns the screen showing.
func (a *App) Screen() Screen { return a.screen }

// Current returns the visible screen's root object (for tests).
func (a *App) Current() fyne.CanvasObject { return a.shown }

// Rulings returns the rulings list.
func (a *App) Rulings() *RulingsScreen { return a.rulings }

// Director returns the director's screen.
func (a *App) Director() *DirectorScreen { return a.director }

// Table returns the table screen.
func (a *App) Table() *TableScreen { return a.table }

// Confirm returns the screen of the confirmation by play.
func (a *App) Confirm() *ConfirmScreen { return a.confirm }

// Count returns the counting screen.
func (a *App) Count() *CountScreen { return a.count }

// Show switches to s.
func (a *App) Show(s Screen) {
	if a.live != nil {
		close(a.live)
		a.live = nil
	}
	if s != a.screen {
		a.lock()
		if s == ScreenSetup && a.gameOn() {
			// Set-up shows the running game's settings, not the configuration's.
			a.buildSetup(a.st.Setup)
		} else if s == ScreenSetup {
			a.applyOffer() // the game is over: a set-up offered during it is the next one's
		}
	}
	a.screen = s
	if s == ScreenCamera {
		a.camera.GrabAsync()
		if a.h.Camera.Frame != nil {
			a.live = make(chan struct{})
			go a.livePicture(a.live, a.h.Camera.Frame, a.camera.onUI)
		}
	}
	a.show()
}

// livePicture renews the camera screen's picture until stop is closed; onUI applies each picture on
// Fyne's goroutine.
func (a *App) livePicture(stop <-chan struct{}, frame func() (image.Image, error), onUI func(func())) {
	t := time.NewTicker(livePeriod)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		img, err := frame()
		if err != nil {
			continue
		}
		onUI(func() {
			select {
			case <-stop:
			default:
				a.camera.SetFrame(img)
			}
		})
	}
}

// Update shows a new referee state.
func (a *App) Update(st referee.State, cond Conditions) {
	phaseChanged := st.Phase != a.st.Phase
	a.st, a.cond = st, cond
	tv := TableViewOf(st, cond)
	a.table.SetView(tv)
	a.director.SetTable(tv)
	a.rulings.SetState(st)
	if st.Phase == referee.PhaseMarking || st.Phase == referee.PhaseEnded {
		a.count.SetView(CountViewOf(st))
	}
	if st.Confirmation != nil {
		a.confirm.SetView(ConfirmViewOf(st))
	}
	if phaseChanged && st.Phase == referee.PhaseSetup {
		a.applyOffer() // a new game to set up: a set-up offered during the last one is its
	}
	if phaseChanged || a.screen == ScreenGame {
		if phaseChanged && a.screen != ScreenGame && a.screen != ScreenMenu {
			return // do not pull the director or the set-up away mid-edit
		}
		a.show()
	}
}

// gameScreen is the screen the game needs now.
func (a *App) gameScreen() fyne.CanvasObject {
	switch {
	case a.st.Phase == referee.PhaseSetup:
		return a.setupKB
	case a.st.Phase == referee.PhaseMarking && a.st.Confirmation != nil:
		return a.confirm.Content()
	case a.st.Phase == referee.PhaseMarking, a.st.Phase == referee.PhaseEnded && a.st.Score != nil:
		return a.count.Content()
	}
	return a.table.Content()
}

func (a *App) show() {
	var c fyne.CanvasObject
	switch a.screen {
	case ScreenMenu:
		c = a.menu()
	case ScreenSetup:
		c = a.gated(a.setupKB)
	case ScreenCamera:
		c = a.gated(a.camera.Content())
	case ScreenDirector:
		c = a.dirKB
	case ScreenLanguage:
		c = a.languages()
	case ScreenRulings:
		c = a.rulings.Content()
	default:
		c = a.gameScreen()
	}
	if c != a.shown {
		a.shown = c
		a.win.SetContent(c)
	}
}

// menu is the list of screens, with big buttons.
func (a *App) menu() fyne.CanvasObject {
	item := func(label string, icon fyne.Resource, s Screen) fyne.CanvasObject {
		return widget.NewButtonWithIcon(label, icon, func() { a.Show(s) })
	}
	return container.NewPadded(container.NewGridWithColumns(2,
		item(tr("Back to the game"), theme.NavigateBackIcon(), ScreenGame),
		item(tr("Game set-up"), theme.DocumentCreateIcon(), ScreenSetup),
		item(tr("Camera and board"), theme.VisibilityIcon(), ScreenCamera),
		item(tr("Director"), theme.AccountIcon(), ScreenDirector),
		item(tr("Language"), theme.SettingsIcon(), ScreenLanguage),
		item(tr("Rulings"), theme.ListIcon(), ScreenRulings),
	))
}

// languages lists the languages as big buttons, each in its own tongue.
func (a *App) languages() fyne.CanvasObject {
	grid := container.NewGridWithColumns(2)
	for _, l := range Languages() {
		code := l.Code
		b := widget.NewButton(l.Name, func() {
			if err := a.SetLanguage(code); err == nil {
				a.Show(ScreenGame)
			}
		})
		if code == a.lang {
			b.Importance = widget.HighImportance
		}
		grid.Add(b)
	}
	grid.Add(widget.NewButtonWithIcon(tr("Back"), theme.NavigateBackIcon(), func() { a.Show(ScreenMenu) }))
	return container.NewPadded(grid)
}

// Language returns the language code in use.
func (a *App) Language() string { return a.lang }

// SetLanguage switches every screen to code at once.
func (a *App) SetLanguage(code string) error {
	if err := SetLanguage(code); err != nil {
		return err
	}
	a.lang = code
	a.build()
	a.table.SetView(TableViewOf(a.st, a.cond))
	a.count.SetView(CountViewOf(a.st))
	if a.st.Confirmation != nil {
		a.confirm.SetView(ConfirmViewOf(a.st))
	}
	a.shown = nil
	a.show()
	if a.h.Language != nil {
		a.h.Language(code)
	}
	return nil
}

// TypedKey is the keyboard fallback for the buttons when there is no GPIO: B or Left for Black's
// clock, W or Right for White's, P, Space or Down to pass, L for a long pass (stop and count),
// D for the director button; Escape goes back to the game.
func (a *App) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		a.Show(ScreenGame)
		return
	}
	if p, ok := PressForKey(ev.Name, a.h.Now()); ok && a.h.Press != nil {
		a.h.Press(p)
	}
}

func (a *App) press(b clock.Button, long bool) {
	if a.h.Press == nil {
		return
	}
	p := clock.NewPress(b, a.h.Now())
	if long {
		p = clock.NewLongPress(b, a.h.Now())
	}
	a.h.Press(p)
}
