package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tengen/engine"
)

// maxKoButtons is how many "pass for this ko" buttons the confirmation shows at once (more kos
// than that at once are passed for by the pass button, the oldest first).
const maxKoButtons = 2

// ConfirmScreen is the game screen while a disputed group is played out after the stop (Japanese
// rules art. 7.2): the board of the confirmation (not the game's), the stones of the stop position
// it has captured (orange rings) and the kos the player to move may not retake yet (red rings), what
// the referee said, the hypothetical moves so far, a "pass for this ko" button for each banned ko,
// and the end of the confirmation.
type ConfirmScreen struct {
	Board   *Board
	title   *canvas.Text
	menu    *widget.Button
	said    *wrapText // what the referee said last, and who plays
	moves   *wrapText // the hypothetical moves so far
	bans    *wrapText // the banned kos in words
	koPass  []*bigButton
	end     *bigButton
	panel   *fyne.Container
	content *fyne.Container
	view    ConfirmView
	h       ConfirmHandlers
}

// ConfirmHandlers are what the confirmation screen asks for.
type ConfirmHandlers struct {
	PassForKo func(ko engine.Point) // the player to move passes for the ko at ko
	End       func()                // the players end the confirmation: the count follows
	Menu      func()
}

// NewConfirmScreen builds the confirmation screen.
func NewConfirmScreen(h ConfirmHandlers) *ConfirmScreen {
	c := &ConfirmScreen{Board: NewBoard(), h: h}
	c.title = canvas.NewText("", colText)
	c.title.TextStyle = fyne.TextStyle{Bold: true}
	c.menu = widget.NewButtonWithIcon(tr("Menu"), theme.MenuIcon(), func() {
		if h.Menu != nil {
			h.Menu()
		}
	})
	c.said = newWrapText(colText, 20, fyne.TextStyle{}, fyne.TextAlignLeading)
	c.moves = newWrapText(colDimText, 18, fyne.TextStyle{}, fyne.TextAlignLeading)
	c.bans = newWrapText(colToMove, 18, fyne.TextStyle{Bold: true}, fyne.TextAlignLeading)
	objs := []fyne.CanvasObject{c.title, c.menu, c.said, c.moves, c.bans}
	for i := 0; i < maxKoButtons; i++ {
		i := i
		b := newBigButton("", false, func() {
			if i < len(c.view.KoBans) && c.h.PassForKo != nil {
				c.h.PassForKo(c.view.KoBans[i])
			}
		})
		c.koPass = append(c.koPass, b)
		objs = append(objs, b)
	}
	c.end = newBigButton(tr("End confirmation"), true, func() {
		if c.h.End != nil {
			c.h.End()
		}
	})
	objs = append(objs, c.end)
	c.panel = container.New(&confirmPanelLayout{c: c}, objs...)
	c.content = container.New(&boardAndPanel{board: c.Board, panel: c.panel}, c.Board, c.panel)
	c.SetView(ConfirmView{})
	return c
}

// Content is the screen's root object.
func (c *ConfirmScreen) Content() fyne.CanvasObject { return c.content }

// SetView shows v.
func (c *ConfirmScreen) SetView(v ConfirmView) {
	c.view = v
	c.Board.SetView(v.Board)
	c.title.Text = tr("Confirmation by play")
	said := v.Said
	if v.ToMove == engine.Black || v.ToMove == engine.White {
		next := tr("{{.Color}} plays next: place a stone and press your clock, or pass.", "Color", colourName(v.ToMove))
		if said == "" {
			said = next
		} else {
			said += " " + next
		}
	}
	c.said.Set(said, colText)
	moves := tr("No moves yet: these moves are not moves of the game.")
	if v.Moves != "" {
		moves = tr("Moves (not moves of the game): {{.Moves}}", "Moves", v.Moves)
	}
	c.moves.Set(moves, colDimText)
	bans := ""
	if len(v.KoBans) > 0 {
		pts := make([]string, len(v.KoBans))
		for i, p := range v.KoBans {
			pts[i] = p.GTP(v.Board.Size)
		}
		bans = tr("{{.Color}} may retake the ko at {{.Points}} only after passing once for it.", "Color", colourName(v.ToMove), "Points", strings.Join(pts, ", "))
	}
	c.bans.Set(bans, colToMove)
	show(bans != "", c.bans)
	for i, b := range c.koPass {
		if i < len(v.KoBans) {
			b.SetText(tr("Pass for this ko ({{.Point}})", "Point", v.KoBans[i].GTP(v.Board.Size)))
			b.Show()
			continue
		}
		b.Hide()
	}
	c.content.Refresh()
}

// confirmPanelLayout lays the confirmation's panel out from the top: title and menu, what the
// referee said, the banned kos, the moves, and the buttons at the bottom (the ko passes side by
// side above "End confirmation").
type confirmPanelLayout struct{ c *ConfirmScreen }

func (l *confirmPanelLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(200, 200) }

func (l *confirmPanelLayout) Layout(_ []fyne.CanvasObject, sz fyne.Size) {
	c := l.c
	gap := float32(6)
	titleH := min(max(sz.Height*0.09, 40), 56)
	buttonH := min(max(sz.Height*0.12, 52), 72)
	menuW := min(c.menu.MinSize().Width, sz.Width*0.4)
	c.menu.Move(fyne.NewPos(sz.Width-menuW, 0))
	c.menu.Resize(fyne.NewSize(menuW, titleH))
	c.title.TextSize = fitSize(c.title.Text, titleH*0.6, sz.Width-menuW-gap, c.title.TextStyle)
	c.title.Move(fyne.NewPos(0, (titleH-c.title.TextSize*1.3)/2))
	c.title.Resize(fyne.NewSize(sz.Width-menuW-gap, c.title.TextSize*1.3))

	buttons := 1
	if c.koPass[0].Visible() {
		buttons = 2
	}
	bottom := sz.Height - float32(buttons)*(buttonH+gap) + gap
	y := titleH + gap
	free := bottom - y - gap
	bansH := float32(0)
	if c.bans.Visible() {
		bansH = free * 0.25
	}
	saidH := (free - bansH) * 0.6
	movesH := free - bansH - saidH
	c.said.Move(fyne.NewPos(0, y))
	c.said.Resize(fyne.NewSize(sz.Width, saidH-gap))
	y += saidH
	if bansH > 0 {
		c.bans.Move(fyne.NewPos(0, y))
		c.bans.Resize(fyne.NewSize(sz.Width, bansH-gap))
		y += bansH
	}
	c.moves.Move(fyne.NewPos(0, y))
	c.moves.Resize(fyne.NewSize(sz.Width, movesH-gap))

	y = bottom
	if buttons == 2 {
		n := 0
		for _, b := range c.koPass {
			if b.Visible() {
				n++
			}
		}
		w := (sz.Width - float32(n-1)*gap) / float32(n)
		i := 0
		for _, b := range c.koPass {
			if b.Visible() {
				b.Move(fyne.NewPos(float32(i)*(w+gap), y))
				b.Resize(fyne.NewSize(w, buttonH))
				i++
			}
		}
		y += buttonH + gap
	}
	c.end.Move(fyne.NewPos(0, y))
	c.end.Resize(fyne.NewSize(sz.Width, buttonH))
}
