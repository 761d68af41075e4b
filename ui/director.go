package ui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tengen/engine"
	"tengen/referee"
)

// DirectorHandlers are what the director screen asks for. Each gets the PIN typed on the pad; the
// referee checks it (ErrBadPIN sends the director back to the pad).
type DirectorHandlers struct {
	Act       func(pin string, a referee.DirectorAction) error
	ExportSGF func(pin string) (string, error) // returns where the record was written
	// NextGame files the finished game (its record kept, its journal archived) and readies the
	// table for the next one.
	NextGame func(pin string) error
	Back     func()
}

// DirectorScreen is the director's panel behind a PIN pad: undo, correct the last move, adjust a
// clock, pause and resume, set the result, export the SGF.
type DirectorScreen struct {
	h       DirectorHandlers
	pin     string
	dots    *canvas.Text
	padMsg  *widget.Label
	pad     fyne.CanvasObject
	panel   fyne.CanvasObject
	Message *widget.Label
	Move    *widget.Entry
	Side    *widget.RadioGroup
	Time    *widget.Entry
	Periods *widget.Entry
	Result  *widget.Entry
	// Scroll holds the actions; KeyboardSlot is where the on-screen keyboard's toggle goes.
	Scroll       *container.Scroll
	KeyboardSlot *fyne.Container
	content      *fyne.Container
}

// pinDelete is the PIN pad's key that deletes the last digit.
const pinDelete = "delete"

// NewDirectorScreen builds the PIN pad and the panel (shown once a PIN is typed).
func NewDirectorScreen(h DirectorHandlers) *DirectorScreen {
	d := &DirectorScreen{h: h}
	d.dots = canvas.NewText("", colText)
	d.dots.TextSize = 40
	d.dots.Alignment = fyne.TextAlignCenter
	d.padMsg = widget.NewLabelWithStyle(tr("Director PIN"), fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	keys := container.NewGridWithColumns(3)
	for _, k := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", pinDelete, "0", "OK"} {
		k := k
		b := widget.NewButton(k, func() { d.key(k) })
		switch k {
		case "OK":
			b.Importance = widget.HighImportance
		case pinDelete: // an icon: the theme font has no backspace sign
			b.SetText("")
			b.SetIcon(theme.NavigateBackIcon())
		}
		keys.Add(b)
	}
	back := widget.NewButton(tr("Back"), d.back)
	d.pad = container.NewBorder(container.NewVBox(d.padMsg, d.dots), back, nil, nil, keys)

	d.Message = widget.NewLabel("")
	d.Message.Wrapping = fyne.TextWrapWord
	d.Move = widget.NewEntry()
	d.Move.SetPlaceHolder("D4 / pass")
	d.Side = widget.NewRadioGroup([]string{tr("Black"), tr("White")}, nil)
	d.Side.Horizontal = true
	d.Side.SetSelected(tr("Black"))
	d.Time = widget.NewEntry()
	d.Time.SetPlaceHolder("m:ss")
	d.Periods = widget.NewEntry()
	d.Result = widget.NewEntry()
	d.Result.SetPlaceHolder("B+R, W+3.5, 0, Void")
	act := func(a func() (referee.DirectorAction, error)) func() {
		return func() {
			action, err := a()
			if err == nil {
				err = d.h.Act(d.pin, action)
			}
			d.report(err, tr("Done."))
		}
	}
	simple := func(k referee.DirectorKind) func() (referee.DirectorAction, error) {
		return func() (referee.DirectorAction, error) { return referee.DirectorAction{Kind: k}, nil }
	}
	undo := newBigButton(tr("Undo the last move"), false, act(simple(referee.DirectorUndo)))
	pause := newBigButton(tr("Pause"), false, act(simple(referee.DirectorPause)))
	resume := newBigButton(tr("Resume"), false, act(simple(referee.DirectorResume)))
	retract := newBigButton(tr("Illegal move: retract and pass"), false, act(simple(referee.DirectorRetractPass)))
	correct := newBigButton(tr("Correct the last move"), false, act(func() (referee.DirectorAction, error) {
		m := strings.TrimSpace(d.Move.Text)
		if m == "" {
			return referee.DirectorAction{}, errors.New(tr("Type the move, e.g. D4 or pass"))
		}
		return referee.DirectorAction{Kind: referee.DirectorCorrect, Move: m}, nil
	}))
	play := newBigButton(tr("Play this move (no camera)"), false, act(func() (referee.DirectorAction, error) {
		m := strings.TrimSpace(d.Move.Text)
		if m == "" {
			return referee.DirectorAction{}, errors.New(tr("Type the move, e.g. D4 or pass"))
		}
		return referee.DirectorAction{Kind: referee.DirectorPlay, Move: m}, nil
	}))
	adjust := newBigButton(tr("Set the clock"), false, act(d.adjustAction))
	end := newBigButton(tr("Set the result"), false, act(func() (referee.DirectorAction, error) {
		r := strings.TrimSpace(d.Result.Text)
		if r == "" {
			return referee.DirectorAction{}, errors.New(tr("Type the result, e.g. B+R"))
		}
		return referee.DirectorAction{Kind: referee.DirectorEnd, Result: r}, nil
	}))
	export := newBigButton(tr("Export the SGF"), false, func() {
		if d.h.ExportSGF == nil {
			return
		}
		path, err := d.h.ExportSGF(d.pin)
		d.report(err, tr("Saved: {{.Path}}", "Path", path))
	})
	next := newBigButton(tr("File this game, set up the next"), false, func() {
		if d.h.NextGame == nil {
			return
		}
		err := d.h.NextGame(d.pin)
		if errors.Is(err, referee.ErrPhase) {
			err = errors.New(tr("The game is not over yet: set the result first."))
		}
		d.report(err, tr("Done."))
	})
	lock := widget.NewButton(tr("Lock"), d.back)
	d.KeyboardSlot = container.NewStack()
	label := func(s string) fyne.CanvasObject {
		return widget.NewLabelWithStyle(s, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
	}
	labelled := func(l string, field fyne.CanvasObject) fyne.CanvasObject {
		return container.NewBorder(nil, nil, label(l), nil, field)
	}
	// The result first (the end of a game), then play, moves, the clock and the rest; every field has
	// a label (a placeholder shows only an example).
	grid := container.NewGridWithColumns(2,
		labelled(tr("Result"), d.Result), end,
		pause, resume,
		labelled(tr("Move"), d.Move), correct,
		undo, play,
		labelled(tr("Time"), d.Time), labelled(tr("Periods"), d.Periods),
		d.Side, adjust,
		retract, export,
	)
	actions := container.NewVBox(grid, next)
	title := widget.NewLabelWithStyle(tr("Director"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	d.Scroll = container.NewVScroll(actions)
	d.panel = container.NewBorder(title, container.NewVBox(d.Message, container.NewGridWithColumns(2, lock, d.KeyboardSlot)), nil, nil, d.Scroll)
	d.content = container.NewStack(d.pad)
	return d
}

// Content is the screen's root object.
func (d *DirectorScreen) Content() fyne.CanvasObject { return d.content }

// Unlocked reports whether the panel (not the PIN pad) is showing.
func (d *DirectorScreen) Unlocked() bool {
	return len(d.content.Objects) == 1 && d.content.Objects[0] == d.panel
}

func (d *DirectorScreen) key(k string) {
	switch k {
	case pinDelete:
		if d.pin != "" {
			d.pin = d.pin[:len(d.pin)-1]
		}
	case "OK":
		d.Unlock(d.pin)
		return
	default:
		if len(d.pin) < 12 {
			d.pin += k
		}
	}
	d.dots.Text = strings.Repeat("•", len(d.pin))
	d.dots.Refresh()
}

// Unlock shows the panel for pin (each action then checks it); an empty PIN does nothing.
func (d *DirectorScreen) Unlock(pin string) {
	if pin == "" {
		return
	}
	d.pin = pin
	d.content.Objects = []fyne.CanvasObject{d.panel}
	d.Message.SetText(tr("Unlocked. Every action checks the PIN and is recorded."))
	d.content.Refresh()
}

func (d *DirectorScreen) back() {
	d.Lock()
	if d.h.Back != nil {
		d.h.Back()
	}
}

// Lock forgets the PIN and shows the PIN pad again (the panel is left by any route).
func (d *DirectorScreen) Lock() {
	d.pin = ""
	d.dots.Text = ""
	d.dots.Refresh()
	d.padMsg.SetText(tr("Director PIN"))
	d.content.Objects = []fyne.CanvasObject{d.pad}
	d.content.Refresh()
}

// report shows the outcome of an action; a wrong PIN locks the panel again.
func (d *DirectorScreen) report(err error, ok string) {
	switch {
	case errors.Is(err, referee.ErrBadPIN):
		d.pin = ""
		d.dots.Text = ""
		d.padMsg.SetText(tr("Wrong PIN"))
		d.content.Objects = []fyne.CanvasObject{d.pad}
		d.content.Refresh()
	case err != nil:
		d.Message.SetText(err.Error())
	default:
		d.Message.SetText(ok)
	}
}

// adjustAction reads the clock fields: m:ss or h:mm:ss, and optional periods.
func (d *DirectorScreen) adjustAction() (referee.DirectorAction, error) {
	rem, err := parseClock(d.Time.Text)
	if err != nil {
		return referee.DirectorAction{}, err
	}
	a := referee.DirectorAction{Kind: referee.DirectorAdjustClock, Color: engine.Black, Remaining: rem}
	if d.Side.Selected == tr("White") {
		a.Color = engine.White
	}
	if p := strings.TrimSpace(d.Periods.Text); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 100 {
			return referee.DirectorAction{}, errors.New(tr("Periods must be a whole number"))
		}
		a.Periods = n
	}
	return a, nil
}

// maxClock is the most time the director can put on a clock.
const maxClock = 24 * time.Hour

// parseClock reads "m:ss", "h:mm:ss" or whole minutes (at most a day).
func parseClock(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	bad := fmt.Errorf("%s", tr("Type the time as m:ss, e.g. 12:30"))
	if s == "" {
		return 0, bad
	}
	parts := strings.Split(s, ":")
	if len(parts) > 3 {
		return 0, bad
	}
	var total time.Duration
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 6000 || (i > 0 && n >= 60) {
			return 0, bad
		}
		total = total*60 + time.Duration(n)
	}
	unit := time.Second
	if len(parts) == 1 {
		unit = time.Minute
	}
	if total*unit > maxClock {
		return 0, bad
	}
	return total * unit, nil
}
