package ui

import (
	"reflect"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tengen/engine"
)

// TableScreen is the screen players see during the game: the recorded board beside both clocks (White
// above, Black below, as they sit), the move number, and the verdict banner between the clocks. A
// ruling (an illegal move and its penalty, a director's decision) is shown in large type across the
// bottom of the screen until the next move or a tap; the game's rulings are one tap away.
type TableScreen struct {
	Board   *Board
	White   *ClockFace
	Black   *ClockFace
	Banner  *Banner
	Ruling  *Banner // the latest ruling in large type (see TableView.Ruling)
	move    *canvas.Text
	status  *canvas.Text
	menu    *widget.Button
	rulings *widget.Button
	content *fyne.Container
	view    TableView
	closed  string // the ruling closed by a tap (its RulingID)
	// voidB and voidW agree to end the game with no result when a whole-board position repeated
	// (Japanese rules art. 12).
	voidB, voidW *bigButton
	// OnAgreeVoid is told that a player agrees to end the game with no result (art. 12).
	OnAgreeVoid func(engine.Color)
}

// NewTableScreen builds the table screen; onMenu opens the menu (set-up, camera, director,
// language), onRulings the list of the game's rulings.
func NewTableScreen(onMenu, onRulings func()) *TableScreen {
	t := &TableScreen{
		Board:  NewBoard(),
		White:  NewClockFace(SideView{Color: engine.White}),
		Black:  NewClockFace(SideView{Color: engine.Black}),
		Banner: NewBanner(BannerView{}),
		move:   canvas.NewText("", colText),
		status: canvas.NewText("", colDimText),
	}
	t.Ruling = NewRulingPanel(t.CloseRuling)
	t.move.TextStyle = fyne.TextStyle{Bold: true}
	t.menu = widget.NewButtonWithIcon(tr("Menu"), theme.MenuIcon(), func() {
		if onMenu != nil {
			onMenu()
		}
	})
	t.rulings = widget.NewButtonWithIcon(tr("Rulings"), theme.ListIcon(), func() {
		if onRulings != nil {
			onRulings()
		}
	})
	agreeVoid := func(c engine.Color) func() {
		return func() {
			if t.OnAgreeVoid != nil {
				t.OnAgreeVoid(c)
			}
		}
	}
	t.voidB = newBigButton("", true, agreeVoid(engine.Black))
	t.voidW = newBigButton("", true, agreeVoid(engine.White))
	t.content = container.New(&tableLayout{t: t}, t.Board, t.White, t.Black, t.Banner, t.move, t.status, t.menu, t.rulings, t.voidB, t.voidW, t.Ruling)
	return t
}

// CloseRuling closes the ruling shown in large type (it stays in the rulings list).
func (t *TableScreen) CloseRuling() {
	t.closed = t.view.RulingID
	t.showRuling()
	t.content.Refresh()
}

// RulingShown reports whether a ruling is shown in large type.
func (t *TableScreen) RulingShown() bool {
	return t.view.Ruling.Kind != BannerNone && t.view.RulingID != t.closed
}

// showRuling shows or hides the ruling panel.
func (t *TableScreen) showRuling() {
	if t.RulingShown() {
		t.Ruling.SetView(t.view.Ruling)
		t.Ruling.Show()
		return
	}
	t.Ruling.Hide()
}

// Content is the screen's root object.
func (t *TableScreen) Content() fyne.CanvasObject { return t.content }

// SetView shows v.
func (t *TableScreen) SetView(v TableView) {
	if reflect.DeepEqual(t.view, v) && t.move.Text != "" {
		return
	}
	t.view = v
	t.Board.SetView(v.Board)
	t.White.SetView(v.White)
	t.Black.SetView(v.Black)
	t.Banner.SetView(v.Banner)
	t.showRuling()
	t.move.Text = tr("Move {{.N}}", "N", v.MoveNumber)
	t.status.Text = v.Status
	if r := v.Repetition; r != nil {
		t.voidB.SetText(voidText(engine.Black, r.Agreed[engine.Black]))
		t.voidW.SetText(voidText(engine.White, r.Agreed[engine.White]))
		t.voidB.SetDisabled(r.Agreed[engine.Black])
		t.voidW.SetDisabled(r.Agreed[engine.White])
	}
	show(v.Repetition != nil, t.voidB, t.voidW)
	t.content.Refresh()
}

// tableLayout puts the board on the left (or on top on a tall display) and the clocks beside it;
// with a ruling to show, the ruling takes the bottom of the screen and the rest shrinks above it.
type tableLayout struct{ t *TableScreen }

func (l *tableLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(400, 240) }

// rulingShare is the part of the screen's height the ruling panel takes.
const rulingShare = 0.48

func (l *tableLayout) Layout(_ []fyne.CanvasObject, sz fyne.Size) {
	t := l.t
	pad := float32(8)
	area := sz
	if t.RulingShown() {
		h := sz.Height * rulingShare
		area.Height = sz.Height - h - pad
		t.Ruling.Move(fyne.NewPos(pad, area.Height+pad))
		t.Ruling.Resize(fyne.NewSize(sz.Width-2*pad, h-pad))
	}
	var panelPos fyne.Position
	var panel fyne.Size
	if area.Width >= area.Height*1.2 {
		side := area.Height
		if side > area.Width*0.62 {
			side = area.Width * 0.62
		}
		t.Board.Move(fyne.NewPos(0, (area.Height-side)/2))
		t.Board.Resize(fyne.NewSize(side, side))
		panelPos = fyne.NewPos(side+pad, pad)
		panel = fyne.NewSize(area.Width-side-2*pad, area.Height-2*pad)
	} else {
		side := area.Width
		if side > area.Height*0.6 {
			side = area.Height * 0.6
		}
		t.Board.Move(fyne.NewPos((area.Width-side)/2, 0))
		t.Board.Resize(fyne.NewSize(side, side))
		panelPos = fyne.NewPos(pad, side+pad)
		panel = fyne.NewSize(area.Width-2*pad, area.Height-side-2*pad)
	}
	faceH := panel.Height * 0.31
	repeat := t.view.Repetition != nil
	switch {
	case t.RulingShown() && repeat:
		faceH = panel.Height * 0.2
	case t.RulingShown():
		faceH = panel.Height * 0.36
	case repeat:
		faceH = panel.Height * 0.2
	}
	t.White.Move(panelPos)
	t.White.Resize(fyne.NewSize(panel.Width, faceH))
	t.Black.Move(fyne.NewPos(panelPos.X, panelPos.Y+panel.Height-faceH))
	t.Black.Resize(fyne.NewSize(panel.Width, faceH))

	midY := panelPos.Y + faceH + pad
	midH := panel.Height - 2*faceH - 2*pad
	rowH := min(midH*0.3, 64)
	if t.RulingShown() {
		rowH = min(midH, 64)
	}
	rowH = max(rowH, min(midH, 44)) // a button a finger can hit
	// The rulings and menu buttons at their natural widths; the menu's label goes (its icon is
	// the usual one) when the move number would be left too little room.
	l.menuLabel(tr("Menu"))
	if panel.Width-t.rulings.MinSize().Width-t.menu.MinSize().Width-2*pad < panel.Width*0.3 {
		l.menuLabel("")
	}
	rulW, menuW := t.rulings.MinSize().Width, t.menu.MinSize().Width
	t.menu.Move(fyne.NewPos(panelPos.X+panel.Width-menuW, midY))
	t.menu.Resize(fyne.NewSize(menuW, rowH))
	t.rulings.Move(fyne.NewPos(panelPos.X+panel.Width-menuW-pad-rulW, midY))
	t.rulings.Resize(fyne.NewSize(rulW, rowH))
	moveW := panel.Width - rulW - menuW - 2*pad - 4
	t.move.TextSize = fitSize(t.move.Text, rowH*0.6, moveW, t.move.TextStyle)
	t.move.Move(fyne.NewPos(panelPos.X+4, midY+(rowH-t.move.TextSize*1.3)/2))
	t.move.Resize(fyne.NewSize(moveW, t.move.TextSize*1.3))

	bannerY := midY + rowH + pad
	bannerH := midH - rowH - pad
	if repeat {
		// The players' "Agree: no result" under the banner that says why (art. 12).
		voidH := min(max(bannerH*0.4, 44), 64)
		bannerH -= voidH + pad
		half := (panel.Width - pad) / 2
		vy := bannerY + bannerH + pad
		t.voidB.Move(fyne.NewPos(panelPos.X, vy))
		t.voidB.Resize(fyne.NewSize(half, voidH))
		t.voidW.Move(fyne.NewPos(panelPos.X+half+pad, vy))
		t.voidW.Resize(fyne.NewSize(half, voidH))
	}
	if t.view.Banner.Kind == BannerNone && bannerH > 12 {
		// The quiet status line takes the banner's place.
		t.status.TextSize = fitSize(t.status.Text, 20, panel.Width, fyne.TextStyle{})
		t.status.Move(fyne.NewPos(panelPos.X+4, bannerY))
		t.status.Resize(fyne.NewSize(panel.Width, t.status.TextSize*1.3))
		t.status.Show()
	} else {
		t.status.Hide()
	}
	// The ruling's own banner gives way to the ruling panel, which says the same in large type.
	if bannerH < 30 || t.RulingShown() && t.view.Banner.Kind == t.view.Ruling.Kind && t.view.Banner.Text == t.view.Ruling.Text {
		t.Banner.Hide()
	} else {
		t.Banner.Show()
	}
	t.Banner.Move(fyne.NewPos(panelPos.X, bannerY))
	t.Banner.Resize(fyne.NewSize(panel.Width, bannerH))
}

// voidText is a player's "agree: no result" label (art. 12).
func voidText(c engine.Color, agreed bool) string {
	if agreed {
		return tr("{{.Color}} agrees: no result", "Color", colourName(c))
	}
	return tr("{{.Color}}: agree, no result", "Color", colourName(c))
}

// menuLabel sets the menu button's label ("" for its icon alone).
func (l *tableLayout) menuLabel(s string) {
	if l.t.menu.Text != s {
		l.t.menu.SetText(s)
	}
}
