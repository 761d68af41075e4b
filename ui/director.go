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

// DirectorHandlers are what the director screen asks for. The pad's PIN is checked (Check) before
// the panel opens; each action gets it again and the referee checks it too (ErrBadPIN sends the
// director back to the pad).
type DirectorHandlers struct {
	// Check tells whether pin is the director's (behind the kiosk's lockout): nil when it is,
	// referee.ErrBadPIN when not, referee.ErrNoDirector when no PIN is configured. Nil: no PIN is
	// configured, and the panel does not open.
	Check func(pin string) error
	// LockedFor, when set, says how long the PIN is refused after repeated wrong ones.
	LockedFor func() time.Duration
	Act       func(pin string, a referee.DirectorAction) error
	ExportSGF func(pin string) (string, error) // returns where the record was written
	// NextGame files the finished game (its record kept, its journal archived) and readies the
	// table for the next one.
	NextGame func(pin string) error
	Back     func()
}

// DirectorScreen is the director's panel behind a PIN pad: undo, correct the last move, adjust a
// clock, pause and resume, set the result, export the SGF. The pad and the panel stand beside the
// game's board and both clocks (SetTable), which stay in view while the director works.
type DirectorScreen struct {
	h      DirectorHandlers
	pin    string
	dots   *canvas.Text
	padMsg *widget.Label
	pad    fyne.CanvasObject
	panel  fyne.CanvasObject
	right  *fyne.Container // the pad or the panel
	// Board, White and Black are the game as the table shows it, beside the pad and the panel.
	Board        *Board
	White, Black *ClockFace
	// End sets the result and LockButton locks the panel: main actions, in view without scrolling.
	End        fyne.CanvasObject
	LockButton *widget.Button
	Message    *widget.Label
	Move       *widget.Entry
	Side       *widget.RadioGroup
	Time       *widget.Entry
	Periods    *widget.Entry
	Result     *widget.Entry
	// Scroll holds the actions; KeyboardSlot is where the on-screen keyboard's toggle goes.
	Scroll       *container.Scroll
	KeyboardSlot *fyne.Container
	content      fyne.CanvasObject
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
	d.End, d.LockButton = end, lock
	d.KeyboardSlot = container.NewStack()
	label := func(s string) fyne.CanvasObject {
		return widget.NewLabelWithStyle(s, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
	}
	labelled := func(l string, field fyne.CanvasObject) fyne.CanvasObject {
		return container.NewBorder(nil, nil, label(l), nil, field)
	}
	// The result first (the end of a game), then play, moves, the clock and the rest; every field has
	// a label (a placeholder shows only an example).
	grid := container.New(pairsLayout{wide: 1},
		labelled(tr("Result"), d.Result), end,
		pause, resume,
		labelled(tr("Move"), d.Move), correct,
		undo, play,
		labelled(tr("Time"), d.Time), labelled(tr("Periods"), d.Periods),
		d.Side, adjust,
		retract, export,
		next,
	)
	actions := grid
	title := widget.NewLabelWithStyle(tr("Director"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	d.Scroll = container.NewVScroll(actions)
	d.panel = container.NewBorder(title, container.NewVBox(d.Message, container.NewGridWithColumns(2, lock, d.KeyboardSlot)), nil, nil, d.Scroll)
	d.right = container.NewStack(d.pad)
	d.Board = NewBoard()
	d.White = NewClockFace(SideView{Color: engine.White})
	d.Black = NewClockFace(SideView{Color: engine.Black})
	// The on-screen keyboard opens across the bottom of the screen, under the board and the panel.
	d.content = withKeyboard(container.New(&directorLayout{d: d}, d.Board, d.Black, d.White, d.right), d.focused, d.KeyboardSlot, d.Scroll)
	return d
}

// pairsLayout lays its objects out in two columns, in pairs, when the width holds two of the
// widest; in one column (the same order) when it does not, as beside the board at 800x480. The
// last wide objects take a row each. Its least height is the one column's, so that a scroller
// around it reaches every object either way (in two columns the rest is left empty below).
type pairsLayout struct{ wide int }

func (pairsLayout) cell(objs []fyne.CanvasObject) fyne.Size {
	var c fyne.Size
	for _, o := range objs {
		c = c.Max(o.MinSize())
	}
	return c
}

func (l pairsLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	c := l.cell(objs)
	pad := theme.Padding()
	n := float32(len(objs))
	return fyne.NewSize(c.Width, n*c.Height+max(n-1, 0)*pad)
}

func (l pairsLayout) Layout(objs []fyne.CanvasObject, sz fyne.Size) {
	c := l.cell(objs)
	pad := theme.Padding()
	cols := 1
	if sz.Width >= 2*c.Width+pad {
		cols = 2
	}
	w := (sz.Width - float32(cols-1)*pad) / float32(cols)
	paired := max(len(objs)-l.wide, 0)
	row := 0
	for i, o := range objs {
		col := 0
		width := sz.Width
		if i < paired {
			col, width = i%cols, w
			row = i / cols
		} else {
			row = (paired+cols-1)/cols + i - paired
		}
		o.Move(fyne.NewPos(float32(col)*(w+pad), float32(row)*(c.Height+pad)))
		o.Resize(fyne.NewSize(width, c.Height))
	}
}

// focused is the field with the focus in the window showing the screen (the on-screen keyboard
// types into it).
func (d *DirectorScreen) focused() fyne.Focusable {
	app := fyne.CurrentApp()
	if app == nil {
		return nil
	}
	c := app.Driver().CanvasForObject(d.content)
	if c == nil {
		return nil
	}
	return c.Focused()
}

// SetTable shows the game's board and clocks as the table shows them.
func (d *DirectorScreen) SetTable(v TableView) {
	d.Board.SetView(v.Board)
	d.White.SetView(v.White)
	d.Black.SetView(v.Black)
}

// directorLayout puts the board, with both clocks under it, on the left of a landscape screen and
// the pad or the panel on the right. On a portrait screen, or above the open keyboard of a screen
// too low for a board worth seeing (800x480), the pad or the panel takes it all.
type directorLayout struct{ d *DirectorScreen }

// directorGlanceHeight is the least height that shows the board and clocks beside the panel.
const directorGlanceHeight = 320

func (l *directorLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	return l.d.right.MinSize()
}

// directorBoardShare is the most of a landscape screen's width the board takes beside the panel.
const directorBoardShare = 0.45

func (l *directorLayout) Layout(_ []fyne.CanvasObject, sz fyne.Size) {
	d := l.d
	pad := float32(8)
	glance := []fyne.CanvasObject{d.Board, d.White, d.Black}
	if sz.Width < sz.Height*1.2 || sz.Height < directorGlanceHeight {
		show(false, glance...)
		d.right.Move(fyne.NewPos(0, 0))
		d.right.Resize(sz)
		return
	}
	show(true, glance...)
	faceH := max(d.White.MinSize().Height, sz.Height*0.22)
	side := min(sz.Width*directorBoardShare, sz.Height-faceH-pad)
	d.Board.Move(fyne.NewPos(0, 0))
	d.Board.Resize(fyne.NewSize(side, side))
	faceW := (side - pad) / 2
	// Black on the left, White on the right, under the board.
	d.Black.Move(fyne.NewPos(0, side+pad))
	d.Black.Resize(fyne.NewSize(faceW, faceH))
	d.White.Move(fyne.NewPos(faceW+pad, side+pad))
	d.White.Resize(fyne.NewSize(faceW, faceH))
	d.right.Move(fyne.NewPos(side+pad, 0))
	d.right.Resize(fyne.NewSize(sz.Width-side-pad, sz.Height))
}

// Content is the screen's root object.
func (d *DirectorScreen) Content() fyne.CanvasObject { return d.content }

// Unlocked reports whether the panel (not the PIN pad) is showing.
func (d *DirectorScreen) Unlocked() bool {
	return len(d.right.Objects) == 1 && d.right.Objects[0] == d.panel
}

// showRight shows o (the pad or the panel) beside the board.
func (d *DirectorScreen) showRight(o fyne.CanvasObject) {
	d.right.Objects = []fyne.CanvasObject{o}
	d.right.Refresh()
}

func (d *DirectorScreen) key(k string) {
	switch k {
	case pinDelete:
		if d.pin != "" {
			d.pin = d.pin[:len(d.pin)-1]
		}
	case "OK":
		d.tryPIN()
		return
	default:
		if len(d.pin) < 12 {
			d.pin += k
		}
	}
	d.dots.Text = strings.Repeat("•", len(d.pin))
	d.dots.Refresh()
}

// tryPIN checks the PIN typed on the pad and opens the panel when it is the director's; a wrong
// one (or any while the PIN is locked after repeated wrong ones) clears the pad and says so.
func (d *DirectorScreen) tryPIN() {
	pin := d.pin
	if pin == "" {
		return
	}
	var err error = referee.ErrNoDirector
	if d.h.Check != nil {
		err = d.h.Check(pin)
	}
	if err == nil {
		d.Unlock(pin)
		return
	}
	d.pin = ""
	d.dots.Text = ""
	d.dots.Refresh()
	switch {
	case errors.Is(err, referee.ErrBadPIN):
		d.padMsg.SetText(wrongPINText(d.h.LockedFor))
	case errors.Is(err, referee.ErrNoDirector):
		d.padMsg.SetText(noDirectorText())
	default:
		d.padMsg.SetText(errorText(err))
	}
}

// Unlock shows the panel for pin, a PIN already checked (each action checks it again); an empty
// PIN does nothing.
func (d *DirectorScreen) Unlock(pin string) {
	if pin == "" {
		return
	}
	d.pin = pin
	d.showRight(d.panel)
	d.Message.SetText(tr("Unlocked. Every action checks the PIN and is recorded."))
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
	d.showRight(d.pad)
}

// report shows the outcome of an action; a wrong PIN locks the panel again.
func (d *DirectorScreen) report(err error, ok string) {
	switch {
	case errors.Is(err, referee.ErrBadPIN):
		d.pin = ""
		d.dots.Text = ""
		d.padMsg.SetText(tr("Wrong PIN"))
		d.showRight(d.pad)
	case err != nil:
		d.Message.SetText(errorText(err))
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
