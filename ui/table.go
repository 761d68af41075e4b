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
// above, Black below, as they sit), the move number, and the verdict banner between the clocks.
type TableScreen struct {
	Board   *Board
	White   *ClockFace
	Black   *ClockFace
	Banner  *Banner
	move    *canvas.Text
	status  *canvas.Text
	menu    *widget.Button
	content *fyne.Container
	view    TableView
}

// NewTableScreen builds the table screen; onMenu opens the menu (set-up, camera, director, language).
func NewTableScreen(onMenu func()) *TableScreen {
	t := &TableScreen{
		Board:  NewBoard(),
		White:  NewClockFace(SideView{Color: engine.White}),
		Black:  NewClockFace(SideView{Color: engine.Black}),
		Banner: NewBanner(BannerView{}),
		move:   canvas.NewText("", colText),
		status: canvas.NewText("", colDimText),
	}
	t.move.TextStyle = fyne.TextStyle{Bold: true}
	t.menu = widget.NewButtonWithIcon(tr("Menu"), theme.MenuIcon(), func() {
		if onMenu != nil {
			onMenu()
		}
	})
	t.content = container.New(&tableLayout{t: t}, t.Board, t.White, t.Black, t.Banner, t.move, t.status, t.menu)
	return t
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
	t.move.Text = tr("Move {{.N}}", "N", v.MoveNumber)
	t.status.Text = v.Status
	t.content.Refresh()
}

// tableLayout puts the board on the left (or on top on a tall display) and the clocks beside it.
type tableLayout struct{ t *TableScreen }

func (l *tableLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(400, 240) }

func (l *tableLayout) Layout(_ []fyne.CanvasObject, sz fyne.Size) {
	t := l.t
	pad := float32(8)
	var panelPos fyne.Position
	var panel fyne.Size
	if sz.Width >= sz.Height*1.2 {
		side := sz.Height
		if side > sz.Width*0.62 {
			side = sz.Width * 0.62
		}
		t.Board.Move(fyne.NewPos(0, (sz.Height-side)/2))
		t.Board.Resize(fyne.NewSize(side, side))
		panelPos = fyne.NewPos(side+pad, pad)
		panel = fyne.NewSize(sz.Width-side-2*pad, sz.Height-2*pad)
	} else {
		side := sz.Width
		if side > sz.Height*0.6 {
			side = sz.Height * 0.6
		}
		t.Board.Move(fyne.NewPos((sz.Width-side)/2, 0))
		t.Board.Resize(fyne.NewSize(side, side))
		panelPos = fyne.NewPos(pad, side+pad)
		panel = fyne.NewSize(sz.Width-2*pad, sz.Height-side-2*pad)
	}
	faceH := panel.Height * 0.31
	t.White.Move(panelPos)
	t.White.Resize(fyne.NewSize(panel.Width, faceH))
	t.Black.Move(fyne.NewPos(panelPos.X, panelPos.Y+panel.Height-faceH))
	t.Black.Resize(fyne.NewSize(panel.Width, faceH))

	midY := panelPos.Y + faceH + pad
	midH := panel.Height - 2*faceH - 2*pad
	rowH := midH * 0.3
	if rowH > 64 {
		rowH = 64
	}
	menuW := panel.Width * 0.34
	if menuW > 200 {
		menuW = 200
	}
	t.menu.Move(fyne.NewPos(panelPos.X+panel.Width-menuW, midY))
	t.menu.Resize(fyne.NewSize(menuW, rowH))
	t.move.TextSize = fitSize(t.move.Text, rowH*0.6, panel.Width-menuW-pad, t.move.TextStyle)
	t.move.Move(fyne.NewPos(panelPos.X+4, midY+(rowH-t.move.TextSize*1.3)/2))
	t.move.Resize(fyne.NewSize(panel.Width-menuW-pad, t.move.TextSize*1.3))

	bannerY := midY + rowH + pad
	bannerH := midH - rowH - pad
	if t.view.Banner.Kind == BannerNone {
		// The quiet status line takes the banner's place.
		t.status.TextSize = fitSize(t.status.Text, 20, panel.Width, fyne.TextStyle{})
		t.status.Move(fyne.NewPos(panelPos.X+4, bannerY))
		t.status.Resize(fyne.NewSize(panel.Width, t.status.TextSize*1.3))
		t.status.Show()
	} else {
		t.status.Hide()
	}
	t.Banner.Move(fyne.NewPos(panelPos.X, bannerY))
	t.Banner.Resize(fyne.NewSize(panel.Width, bannerH))
}
