package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tengen/engine"
)

// CountScreen is the end of the game: the board with dead stones crossed and territory shaded
// (touch a group to mark it dead or alive), the count broken down per player, and each player's
// agreement. A disagreement resumes play.
type CountScreen struct {
	Board   *Board
	view    CountView
	cells   [][3]*canvas.Text // rows of the breakdown: label, Black, White
	result  *canvas.Text
	agreeB  *widget.Button
	agreeW  *widget.Button
	resumeB *widget.Button
	resumeW *widget.Button
	title   *canvas.Text
	menu    *widget.Button
	grid    *fyne.Container
	content *fyne.Container
}

// CountHandlers are what the counting screen asks for.
type CountHandlers struct {
	ToggleDead func(engine.Point)
	Agree      func(engine.Color) // a player agrees (the same as pressing their clock)
	Resume     func(engine.Color) // a player disagrees: play resumes
	Menu       func()             // the menu (director, set-up, language)
}

// countRows are the breakdown's rows in order.
var countRows = []string{"Territory", "Stones on the board", "Prisoners", "Dead stones", "Pass stones", "Komi", "Handicap bonus", "Total"}

// NewCountScreen builds the counting screen.
func NewCountScreen(h CountHandlers) *CountScreen {
	c := &CountScreen{Board: NewBoard()}
	c.Board.OnTapped = func(p engine.Point) {
		if h.ToggleDead != nil && c.Board.View().At(p) != engine.Empty {
			h.ToggleDead(p)
		}
	}
	c.title = canvas.NewText("", colText)
	c.title.TextStyle = fyne.TextStyle{Bold: true}
	c.title.TextSize = 28
	grid := container.NewGridWithColumns(3)
	c.grid = grid
	head := [3]*canvas.Text{canvas.NewText("", colDimText), canvas.NewText("", colText), canvas.NewText("", colText)}
	for _, t := range head {
		t.TextStyle = fyne.TextStyle{Bold: true}
		t.TextSize = 22
		grid.Add(t)
	}
	c.cells = append(c.cells, head)
	for range countRows {
		row := [3]*canvas.Text{canvas.NewText("", colDimText), canvas.NewText("", colText), canvas.NewText("", colText)}
		for i, t := range row {
			t.TextSize = 21
			if i > 0 {
				t.Alignment = fyne.TextAlignTrailing
			}
			grid.Add(t)
		}
		c.cells = append(c.cells, row)
	}
	c.result = canvas.NewText("", colToMove)
	c.result.TextStyle = fyne.TextStyle{Bold: true}
	c.result.TextSize = 30
	agree := func(col engine.Color) func() {
		return func() {
			if h.Agree != nil {
				h.Agree(col)
			}
		}
	}
	resume := func(col engine.Color) func() {
		return func() {
			if h.Resume != nil {
				h.Resume(col)
			}
		}
	}
	c.agreeB = widget.NewButton("", agree(engine.Black))
	c.agreeW = widget.NewButton("", agree(engine.White))
	c.agreeB.Importance = widget.HighImportance
	c.agreeW.Importance = widget.HighImportance
	c.resumeB = widget.NewButtonWithIcon("", theme.MediaReplayIcon(), resume(engine.Black))
	c.resumeW = widget.NewButtonWithIcon("", theme.MediaReplayIcon(), resume(engine.White))
	c.menu = widget.NewButtonWithIcon(tr("Menu"), theme.MenuIcon(), func() {
		if h.Menu != nil {
			h.Menu()
		}
	})
	panel := container.New(&countPanelLayout{c: c}, c.title, c.menu, grid, c.result, c.agreeB, c.agreeW, c.resumeB, c.resumeW)
	c.content = container.New(&boardAndPanel{board: c.Board, panel: panel}, c.Board, panel)
	c.SetView(CountView{})
	return c
}

// Content is the screen's root object.
func (c *CountScreen) Content() fyne.CanvasObject { return c.content }

// SetView shows v.
func (c *CountScreen) SetView(v CountView) {
	c.view = v
	c.Board.SetView(v.Board)
	c.title.Text = tr("Counting") + " · " + v.Rules
	if v.Ended {
		c.title.Text = tr("Game over") + " · " + v.Rules
	}
	c.cells[0][0].Text = ""
	c.cells[0][1].Text = tr("Black")
	c.cells[0][2].Text = tr("White")
	c.cells[0][1].Alignment = fyne.TextAlignTrailing
	c.cells[0][2].Alignment = fyne.TextAlignTrailing
	num := func(x float64) string { return fmt.Sprintf("%g", x) }
	b, w := v.Score.Black, v.Score.White
	vals := [][2]string{
		{fmt.Sprint(b.Territory), fmt.Sprint(w.Territory)},
		{fmt.Sprint(b.Stones), fmt.Sprint(w.Stones)},
		{fmt.Sprint(b.Prisoners), fmt.Sprint(w.Prisoners)},
		{fmt.Sprint(b.DeadCaptured), fmt.Sprint(w.DeadCaptured)},
		{fmt.Sprint(b.PassStones), fmt.Sprint(w.PassStones)},
		{num(b.Komi), num(w.Komi)},
		{num(b.Bonus), num(w.Bonus)},
		{num(b.Total), num(w.Total)},
	}
	for i, label := range countRows {
		row := c.cells[i+1]
		row[0].Text = tr(label)
		if v.HasScore {
			row[1].Text, row[2].Text = vals[i][0], vals[i][1]
		} else {
			row[1].Text, row[2].Text = "–", "–"
		}
		if label == "Total" {
			for _, t := range row {
				t.TextStyle.Bold = true
			}
		}
	}
	c.result.Text = ""
	if v.HasScore {
		c.result.Text = resultText(v.Score.Result)
	}
	c.agreeB.SetText(agreeText(engine.Black, v.BlackAgreed))
	c.agreeW.SetText(agreeText(engine.White, v.WhiteAgreed))
	if v.BlackAgreed {
		c.agreeB.Disable()
	} else {
		c.agreeB.Enable()
	}
	if v.WhiteAgreed {
		c.agreeW.Disable()
	} else {
		c.agreeW.Enable()
	}
	// Once the game has its result there is nothing left to agree or resume.
	for _, b := range []*widget.Button{c.agreeB, c.agreeW, c.resumeB, c.resumeW} {
		if v.Ended {
			b.Hide()
		} else {
			b.Show()
		}
	}
	// A player who disagrees with the count resumes play (AGA 10, Japanese 9.3).
	c.resumeB.SetText(tr("Resume: {{.Color}}", "Color", colourName(engine.Black)))
	c.resumeW.SetText(tr("Resume: {{.Color}}", "Color", colourName(engine.White)))
	c.content.Refresh()
}

func agreeText(c engine.Color, agreed bool) string {
	if agreed {
		return tr("{{.Color}} agrees", "Color", colourName(c))
	}
	return tr("{{.Color}}: agree", "Color", colourName(c))
}

// countPanelLayout sizes the breakdown's type to the panel: title, rows, result, two rows of buttons.
type countPanelLayout struct{ c *CountScreen }

func (l *countPanelLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(200, 200) }

func (l *countPanelLayout) Layout(_ []fyne.CanvasObject, sz fyne.Size) {
	c := l.c
	rows := float32(len(c.cells))
	btnH := min(sz.Height*0.13, 70)
	titleH := sz.Height * 0.1
	resultH := sz.Height * 0.1
	gridH := sz.Height - titleH - resultH - 2*btnH - 12
	rowH := gridH / rows
	ts := min(rowH*0.62, 30)
	for _, row := range c.cells {
		for _, t := range row {
			t.TextSize = ts
		}
	}
	menuW := min(sz.Width*0.3, 160)
	c.menu.Move(fyne.NewPos(sz.Width-menuW, 0))
	c.menu.Resize(fyne.NewSize(menuW, titleH))
	c.title.TextSize = fitSize(c.title.Text, titleH*0.7, sz.Width-menuW-6, c.title.TextStyle)
	c.title.Move(fyne.NewPos(0, 0))
	c.title.Resize(fyne.NewSize(sz.Width-menuW-6, titleH))
	c.grid.Move(fyne.NewPos(0, titleH))
	c.grid.Resize(fyne.NewSize(sz.Width, gridH))
	c.result.TextSize = fitSize(c.result.Text, resultH*0.7, sz.Width, c.result.TextStyle)
	c.result.Move(fyne.NewPos(0, titleH+gridH))
	c.result.Resize(fyne.NewSize(sz.Width, resultH))
	y := sz.Height - 2*btnH - 6
	half := (sz.Width - 6) / 2
	c.agreeB.Move(fyne.NewPos(0, y))
	c.agreeB.Resize(fyne.NewSize(half, btnH))
	c.agreeW.Move(fyne.NewPos(half+6, y))
	c.agreeW.Resize(fyne.NewSize(half, btnH))
	c.resumeB.Move(fyne.NewPos(0, y+btnH+6))
	c.resumeB.Resize(fyne.NewSize(half, btnH))
	c.resumeW.Move(fyne.NewPos(half+6, y+btnH+6))
	c.resumeW.Resize(fyne.NewSize(half, btnH))
}

// boardAndPanel lays a square board on the left and a panel on the right (or below on a tall screen).
type boardAndPanel struct {
	board fyne.CanvasObject
	panel fyne.CanvasObject
}

func (l *boardAndPanel) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(400, 240) }

func (l *boardAndPanel) Layout(_ []fyne.CanvasObject, sz fyne.Size) {
	pad := float32(8)
	if sz.Width >= sz.Height*1.2 {
		side := min(sz.Height, sz.Width*0.58)
		l.board.Move(fyne.NewPos(0, (sz.Height-side)/2))
		l.board.Resize(fyne.NewSize(side, side))
		l.panel.Move(fyne.NewPos(side+pad, pad))
		l.panel.Resize(fyne.NewSize(sz.Width-side-2*pad, sz.Height-2*pad))
		return
	}
	side := min(sz.Width, sz.Height*0.55)
	l.board.Move(fyne.NewPos((sz.Width-side)/2, 0))
	l.board.Resize(fyne.NewSize(side, side))
	l.panel.Move(fyne.NewPos(pad, side+pad))
	l.panel.Resize(fyne.NewSize(sz.Width-2*pad, sz.Height-side-2*pad))
}
