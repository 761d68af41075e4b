package ui

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tengen/referee"
)

// PINGate is the PIN pad in front of the screens that change a game being played (set-up, camera
// and board): the director's PIN opens the screen until it is left by any route.
type PINGate struct {
	check     func(pin string) error // nil: no director PIN is configured
	lockedFor func() time.Duration   // nil: no lockout is known
	opened    func()                 // told when the right PIN was typed
	pin       string
	dots      *canvas.Text
	msg       *widget.Label
	content   fyne.CanvasObject
}

// newPINGate builds the pad. check tells whether a PIN is the director's (referee.ErrBadPIN when
// not, referee.ErrNoDirector when no PIN is configured); back leaves without opening.
func newPINGate(check func(pin string) error, lockedFor func() time.Duration, opened, back func()) *PINGate {
	g := &PINGate{check: check, lockedFor: lockedFor, opened: opened}
	g.dots = canvas.NewText("", colText)
	g.dots.TextSize = 32
	g.dots.Alignment = fyne.TextAlignCenter
	g.msg = widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	g.msg.Wrapping = fyne.TextWrapWord
	keys := container.NewGridWithColumns(3)
	for _, k := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", pinDelete, "0", "OK"} {
		k := k
		b := widget.NewButton(k, func() { g.key(k) })
		switch k {
		case "OK":
			b.Importance = widget.HighImportance
		case pinDelete:
			b.SetText("")
			b.SetIcon(theme.NavigateBackIcon())
		}
		keys.Add(b)
	}
	backB := widget.NewButtonWithIcon(tr("Back"), theme.NavigateBackIcon(), back)
	g.content = container.NewBorder(container.NewVBox(g.msg, g.dots), backB, nil, nil, keys)
	g.Lock()
	return g
}

// Content is the pad's root object.
func (g *PINGate) Content() fyne.CanvasObject { return g.content }

// Lock forgets the digits typed and asks for the PIN again.
func (g *PINGate) Lock() {
	g.pin = ""
	g.dots.Text = ""
	g.dots.Refresh()
	if g.check == nil {
		g.msg.SetText(noPINText())
		return
	}
	g.msg.SetText(tr("A game is being played: the director's PIN is needed to change it."))
}

// Open types pin on the pad and presses OK (as the director would).
func (g *PINGate) Open(pin string) {
	g.pin = pin
	g.key("OK")
}

func (g *PINGate) key(k string) {
	switch k {
	case pinDelete:
		if g.pin != "" {
			g.pin = g.pin[:len(g.pin)-1]
		}
	case "OK":
		if g.pin == "" || g.check == nil {
			return
		}
		err := g.check(g.pin)
		g.pin = ""
		switch {
		case err == nil:
			g.dots.Text = ""
			g.dots.Refresh()
			if g.opened != nil {
				g.opened()
			}
			return
		case errors.Is(err, referee.ErrBadPIN):
			g.msg.SetText(wrongPINText(g.lockedFor))
		case errors.Is(err, referee.ErrNoDirector):
			g.msg.SetText(noPINText())
		default:
			g.msg.SetText(errorText(err))
		}
	default:
		if len(g.pin) < 12 {
			g.pin += k
		}
	}
	g.dots.Text = strings.Repeat("•", len(g.pin))
	g.dots.Refresh()
}

// wrongPINText says that a PIN typed on a pad was refused: wrong, or refused unchecked while the
// PIN is locked after repeated wrong ones (lockedFor, when set, says how long).
func wrongPINText(lockedFor func() time.Duration) string {
	if lockedFor != nil {
		if d := lockedFor(); d > 0 {
			return tr("The director PIN is locked after repeated wrong PINs: try again in {{.Minutes}} min. Nothing was changed.",
				"Minutes", strconv.Itoa(int((d+time.Minute-1)/time.Minute)))
		}
	}
	return tr("Wrong PIN")
}

// noPINText says why a gated screen cannot be opened at all.
func noPINText() string {
	return tr("A game is being played and no director PIN is configured: this cannot be changed until the game is over.")
}

// screenNone is no screen (the gate opened for none).
const screenNone Screen = -1

// gameOn reports whether a game is being played (set up and not over): its settings then need the
// director's PIN.
func (a *App) gameOn() bool {
	switch a.st.Phase {
	case referee.PhaseReady, referee.PhasePlaying, referee.PhaseHalted, referee.PhaseMarking:
		return true
	}
	return false
}

// gated is content, or the PIN pad in front of it while a game is being played and the director
// has not opened it.
func (a *App) gated(content fyne.CanvasObject) fyne.CanvasObject {
	if !a.gameOn() || a.opened == a.screen {
		return content
	}
	return a.gate.Content()
}

// lock closes what the director opened (the PIN gate, the director's panel) when the screen is
// left, by any route: Back, Escape, the game pulling the screen away.
func (a *App) lock() {
	a.opened = screenNone
	a.gate.Lock()
	a.director.Lock()
}

// Gate returns the PIN pad in front of the set-up and the camera screens during a game.
func (a *App) Gate() *PINGate { return a.gate }
