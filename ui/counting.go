package ui

import (
	"fmt"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tengen/engine"
)

// CountScreen is the end of the game: the board with dead stones crossed and territory shaded
// (touch a group to mark it dead or alive; on a board whose points are too close together for a
// finger, the first touch zooms in on that part), what to do next in words, the count laid out so
// that it adds up under the game's rules, the figure marked provisional until both players agree,
// and each player's agreement. A player who disagrees resumes play, after confirming.
type CountScreen struct {
	Board    *Board
	view     CountView
	rows     [][3]*canvas.Text // the breakdown: label, Black, White (the first row is the heading)
	rowKinds []countRowKind
	rule     *canvas.Rectangle // the line above the total
	steps    *wrapText         // what to do now
	result   *wrapText         // the figure, provisional or final
	agreeB   *bigButton
	agreeW   *bigButton
	resumeB  *bigButton
	resumeW  *bigButton
	whole    *bigButton // back to the whole board from a zoomed part
	yes, no  *bigButton // confirming a resumption
	next     *bigButton // once the game is over: to the director, for the next game
	legend   *wrapText  // what the dame marks mean (Japanese rules art. 8)
	playOut  *bigButton // a disputed group played out (Japanese rules art. 7.2)
	firstB   *bigButton // who plays first in it
	firstW   *bigButton
	noPlay   *bigButton // not played out after all
	choosing bool       // asking who plays first in a confirmation by play
	title    *canvas.Text
	menu     *widget.Button
	panel    *fyne.Container
	content  *fyne.Container
	h        CountHandlers
	asking   engine.Color // the player whose resumption waits for confirmation (Empty: none)
}

// CountHandlers are what the counting screen asks for.
type CountHandlers struct {
	ToggleDead func(engine.Point)
	Agree      func(engine.Color) // a player agrees (the same as pressing their clock)
	Resume     func(engine.Color) // a player disagrees: play resumes
	Menu       func()             // the menu (director, set-up, language)
	NextGame   func()             // once the game is over: the director files it and sets up the next
	// StartConfirmation plays a disputed group out, first playing first (Japanese rules art. 7.2).
	StartConfirmation func(first engine.Color)
}

// countRowKind is how a row of the breakdown is drawn.
type countRowKind int8

const (
	rowHeading    countRowKind = iota
	rowCounted                 // part of the total
	rowTotal                   // the total (bold, under a line)
	rowNotCounted              // shown for reference, not part of the total (dim)
	rowNote                    // "not counted:" heading (dim)
)

// countRows are the breakdown's row labels (each translated).
var countRows = []string{"Territory", "Stones on the board", "Prisoners", "Dead stones", "Pass stones", "Komi", "Handicap bonus", "Total", "Not counted:"}

// maxCountRows is the most rows a breakdown has, the heading included.
const maxCountRows = 10

// minTapTarget is the smallest distance between points a finger hits reliably (px).
const minTapTarget = 48

// NewCountScreen builds the counting screen.
func NewCountScreen(h CountHandlers) *CountScreen {
	c := &CountScreen{Board: NewBoard(), h: h}
	c.Board.OnTapped = c.tapped
	c.title = canvas.NewText("", colText)
	c.title.TextStyle = fyne.TextStyle{Bold: true}
	objs := []fyne.CanvasObject{}
	for i := 0; i < maxCountRows; i++ {
		row := [3]*canvas.Text{canvas.NewText("", colDimText), canvas.NewText("", colText), canvas.NewText("", colText)}
		row[1].Alignment, row[2].Alignment = fyne.TextAlignTrailing, fyne.TextAlignTrailing
		c.rows = append(c.rows, row)
		objs = append(objs, row[0], row[1], row[2])
	}
	c.rule = canvas.NewRectangle(colDimText)
	c.steps = newWrapText(colText, 20, fyne.TextStyle{}, fyne.TextAlignLeading)
	c.result = newWrapText(colText, 30, fyne.TextStyle{Bold: true}, fyne.TextAlignLeading)
	c.agreeB = newBigButton("", true, func() { c.agree(engine.Black) })
	c.agreeW = newBigButton("", true, func() { c.agree(engine.White) })
	c.resumeB = newBigButton("", false, func() { c.ask(engine.Black) })
	c.resumeW = newBigButton("", false, func() { c.ask(engine.White) })
	c.whole = newBigButton(tr("Whole board"), false, func() { c.Board.Zoom(engine.Point{}, 0); c.SetView(c.view) })
	c.yes = newBigButton("", true, c.confirmResume)
	c.no = newBigButton(tr("Cancel"), false, func() { c.asking = engine.Empty; c.SetView(c.view) })
	c.next = newBigButton(tr("Next game (director)"), true, func() {
		if h.NextGame != nil {
			h.NextGame()
		}
	})
	c.menu = widget.NewButtonWithIcon(tr("Menu"), theme.MenuIcon(), func() {
		if h.Menu != nil {
			h.Menu()
		}
	})
	c.legend = newWrapText(colDimText, 16, fyne.TextStyle{}, fyne.TextAlignLeading)
	c.playOut = newBigButton(tr("Play it out (confirmation)"), false, func() { c.choosing = true; c.SetView(c.view) })
	c.firstB = newBigButton(tr("{{.Color}} plays first", "Color", colourName(engine.Black)), true, func() { c.startConfirmation(engine.Black) })
	c.firstW = newBigButton(tr("{{.Color}} plays first", "Color", colourName(engine.White)), true, func() { c.startConfirmation(engine.White) })
	c.noPlay = newBigButton(tr("Cancel"), false, func() { c.choosing = false; c.SetView(c.view) })
	objs = append(objs, c.rule, c.title, c.menu, c.steps, c.result, c.agreeB, c.agreeW, c.resumeB, c.resumeW, c.whole, c.yes, c.no, c.next,
		c.legend, c.playOut, c.firstB, c.firstW, c.noPlay)
	c.panel = container.New(&countPanelLayout{c: c}, objs...)
	c.content = container.New(&boardAndPanel{board: c.Board, panel: c.panel}, c.Board, c.panel)
	c.SetView(CountView{})
	return c
}

// Content is the screen's root object.
func (c *CountScreen) Content() fyne.CanvasObject { return c.content }

// zoomNeeded reports whether the whole board's points are too close together to tap one by one.
func (c *CountScreen) zoomNeeded() bool {
	if c.view.Board.Size < 2 || c.Board.Size().Width < 1 {
		return false
	}
	g := boardGeometry(c.Board.Size(), c.view.Board.Size)
	return g.step < 0.85*minTapTarget
}

// zoomSide is how many points a zoomed part shows so that they are minTapTarget apart.
func (c *CountScreen) zoomSide() int {
	sz := c.Board.Size()
	side := min(sz.Width, sz.Height)
	k := int(side/minTapTarget - 2*coordBand)
	return max(3, min(k, c.view.Board.Size))
}

// tapped toggles the stone at p dead or alive, or zooms in around p first when the points are too
// close together.
func (c *CountScreen) tapped(p engine.Point) {
	if c.view.Ended || c.asking != engine.Empty {
		return
	}
	if _, _, zoomed := c.Board.Zoomed(); !zoomed && c.zoomNeeded() {
		k := c.zoomSide()
		c.Board.Zoom(engine.Point{X: p.X - k/2, Y: p.Y - k/2}, k)
		c.SetView(c.view)
		return
	}
	if c.h.ToggleDead != nil && c.Board.View().At(p) != engine.Empty {
		c.h.ToggleDead(p)
	}
}

// startConfirmation starts the confirmation by play, first playing first.
func (c *CountScreen) startConfirmation(first engine.Color) {
	c.choosing = false
	c.SetView(c.view)
	if c.h.StartConfirmation != nil {
		c.h.StartConfirmation(first)
	}
}

func (c *CountScreen) agree(col engine.Color) {
	if c.h.Agree != nil {
		c.h.Agree(col)
	}
}

// ask asks the player who wants to resume play to confirm.
func (c *CountScreen) ask(col engine.Color) {
	c.asking = col
	c.SetView(c.view)
}

func (c *CountScreen) confirmResume() {
	col := c.asking
	c.asking = engine.Empty
	c.SetView(c.view)
	if col != engine.Empty && c.h.Resume != nil {
		c.h.Resume(col)
	}
}

// countRow is one row of the breakdown.
type countRow struct {
	label string
	b, w  string
	kind  countRowKind
}

// breakdown lays the count out so that it adds up under the game's scoring: area scoring counts
// stones and territory (prisoners and pass stones shown as not counted), territory scoring counts
// territory, prisoners and the dead stones taken (and pass stones where the rules use them); komi
// and any handicap bonus are added under both.
func breakdown(v CountView) []countRow {
	b, w := v.Score.Black, v.Score.White
	n := func(x int) string { return fmt.Sprint(x) }
	f := localFloat
	var counted, not []countRow
	add := func(label, bv, wv string, yes bool) {
		if yes {
			counted = append(counted, countRow{tr(label), bv, wv, rowCounted})
		} else {
			not = append(not, countRow{tr(label), bv, wv, rowNotCounted})
		}
	}
	if v.Area {
		add("Stones on the board", n(b.Stones), n(w.Stones), true)
		add("Territory", n(b.Territory), n(w.Territory), true)
		add("Prisoners", n(b.Prisoners+b.DeadCaptured), n(w.Prisoners+w.DeadCaptured), false)
		add("Pass stones", n(b.PassStones), n(w.PassStones), false)
	} else {
		add("Territory", n(b.Territory), n(w.Territory), true)
		add("Prisoners", n(b.Prisoners), n(w.Prisoners), true)
		add("Dead stones", n(b.DeadCaptured), n(w.DeadCaptured), true)
		if v.PassStonesCount || b.PassStones+w.PassStones > 0 {
			add("Pass stones", n(b.PassStones), n(w.PassStones), v.PassStonesCount)
		}
	}
	add("Komi", f(b.Komi), f(w.Komi), true)
	if b.Bonus != 0 || w.Bonus != 0 {
		add("Handicap bonus", f(b.Bonus), f(w.Bonus), true)
	}
	rows := []countRow{{"", tr("Black"), tr("White"), rowHeading}}
	rows = append(rows, counted...)
	rows = append(rows, countRow{tr("Total"), f(b.Total), f(w.Total), rowTotal})
	if len(not) > 0 {
		rows = append(rows, countRow{tr("Not counted:"), "", "", rowNote})
		rows = append(rows, not...)
	}
	if !v.HasScore {
		for i := range rows[1:] {
			if rows[i+1].kind != rowNote {
				rows[i+1].b, rows[i+1].w = "–", "–"
			}
		}
	}
	return rows
}

// stepsText says what to do now.
func (c *CountScreen) stepsText() string {
	v := c.view
	_, _, zoomed := c.Board.Zoomed()
	switch {
	case c.asking != engine.Empty:
		return tr("{{.Color}} wants to resume play: the marking is dropped and play goes on. Resume?", "Color", colourName(c.asking))
	case v.Ended:
		return tr("Both players agreed: this is the result.")
	case c.choosing:
		return tr("Play the disputed stones out on the board (Japanese rules art. 7.2): the moves are not moves of the game. Who plays first?")
	case v.Differs > 0 && v.Said != "":
		// The board disagrees with the marking: nothing counts until it agrees.
		return v.Said
	case !zoomed && c.zoomNeeded():
		return tr("Tap the part of the board with dead stones to zoom in.")
	case v.Dame.Asked && v.Dame.Open > 0:
		// The referee's own sentence (on the table's banner) is too long for this corner.
		return tr("Open dame remain: fill them (a stone on each), or both players agree again to count them as filled.")
	case v.Said != "":
		return v.Said
	case v.Dame.Applies && v.Dame.Open > 0 && !v.BlackAgreed && !v.WhiteAgreed:
		return tr("Fill the open dame (a stone on each: not a move), tap the dead stones, then both players agree.")
	case v.BlackAgreed != v.WhiteAgreed:
		who, other := engine.Black, engine.White
		if v.WhiteAgreed {
			who, other = engine.White, engine.Black
		}
		return tr("{{.Color}} agrees. Waiting for {{.Other}} to agree.", "Color", colourName(who), "Other", colourName(other))
	}
	return tr("Tap the dead stones to mark them, then both players agree.")
}

// SetView shows v.
func (c *CountScreen) SetView(v CountView) {
	if v.Board.Size != c.view.Board.Size {
		c.Board.Zoom(engine.Point{}, 0)
	}
	c.view = v
	c.Board.SetView(v.Board)
	c.title.Text = tr("Counting") + " · " + v.Rules
	if v.Ended {
		c.title.Text = tr("Game over") + " · " + v.Rules
		c.asking = engine.Empty
	}
	rows := breakdown(v)
	c.rowKinds = c.rowKinds[:0]
	for i, cells := range c.rows {
		if i >= len(rows) {
			for _, t := range cells {
				t.Hide()
			}
			continue
		}
		r := rows[i]
		c.rowKinds = append(c.rowKinds, r.kind)
		var col color.Color = colText
		bold := r.kind == rowHeading || r.kind == rowTotal
		if r.kind == rowNotCounted || r.kind == rowNote {
			col = colDimText
		}
		for j, s := range []string{r.label, r.b, r.w} {
			t := cells[j]
			t.Text, t.TextStyle = s, fyne.TextStyle{Bold: bold}
			t.Color = col
			if j == 0 && r.kind != rowTotal {
				t.Color = colDimText
			}
			t.Show()
		}
	}
	resCol := color.Color(colText)
	res := "–"
	switch {
	case v.HasScore && v.Ended:
		res, resCol = resultText(v.Score.Result), colToMove
	case v.HasScore:
		res = tr("Provisional: {{.Result}}", "Result", resultText(v.Score.Result))
	}
	c.result.Set(res, resCol)
	c.steps.Set(c.stepsText(), colText)
	c.agreeB.SetText(agreeText(engine.Black, v.BlackAgreed))
	c.agreeW.SetText(agreeText(engine.White, v.WhiteAgreed))
	c.agreeB.SetDisabled(v.BlackAgreed)
	c.agreeW.SetDisabled(v.WhiteAgreed)
	// A player who disagrees with the count resumes play (AGA 10, Japanese 9.3).
	c.resumeB.SetText(tr("Resume play ({{.Color}})", "Color", colourName(engine.Black)))
	c.resumeW.SetText(tr("Resume play ({{.Color}})", "Color", colourName(engine.White)))
	c.yes.SetText(tr("Resume play ({{.Color}})", "Color", colourName(c.asking)))
	asking := c.asking != engine.Empty
	_, _, zoomed := c.Board.Zoomed()
	show(!v.Ended && !asking, c.agreeB, c.agreeW, c.resumeB, c.resumeW)
	show(!v.Ended && asking, c.yes, c.no)
	show(zoomed, c.whole)
	show(v.Ended && c.h.NextGame != nil, c.next)
	if v.Ended || asking || !v.CanConfirm {
		c.choosing = false
	}
	show(c.choosing, c.firstB, c.firstW, c.noPlay)
	if c.choosing {
		show(false, c.agreeB, c.agreeW, c.resumeB, c.resumeW)
	}
	show(v.CanConfirm && !v.Ended && !asking && !c.choosing && !zoomed, c.playOut)
	c.legend.Set(legendText(v), colDimText)
	show(!v.Ended && legendText(v) != "", c.legend)
	c.steps.Set(c.stepsText(), colText)
	c.content.Refresh()
}

// show shows or hides objs.
func show(visible bool, objs ...fyne.CanvasObject) {
	for _, o := range objs {
		if visible {
			o.Show()
		} else {
			o.Hide()
		}
	}
}

// legendText says what the dame marks and the board's differences on the board mean ("" when
// there are none).
func legendText(v CountView) string {
	d := v.Dame
	var parts []string
	if v.Differs > 0 {
		parts = append(parts, tr("Blue square: the board differs from the marking ({{.N}})", "N", v.Differs))
	}
	if d.Open > 0 {
		parts = append(parts, tr("Magenta ring: open dame ({{.N}})", "N", d.Open))
	}
	if d.Seki > 0 {
		parts = append(parts, tr("teal square: seki, stays open ({{.N}})", "N", d.Seki))
	}
	if d.Filled > 0 {
		parts = append(parts, tr("magenta dot: dame filled ({{.N}})", "N", d.Filled))
	}
	return strings.Join(parts, " · ")
}

func agreeText(c engine.Color, agreed bool) string {
	if agreed {
		return tr("{{.Color}} agrees", "Color", colourName(c))
	}
	return tr("{{.Color}}: agree", "Color", colourName(c))
}

// countPanelLayout lays the panel out from the top: title and menu, what to do, the breakdown, the
// figure, and the buttons at the bottom (agree above resume), every text sized to fit.
type countPanelLayout struct{ c *CountScreen }

func (l *countPanelLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(200, 200) }

func (l *countPanelLayout) Layout(_ []fyne.CanvasObject, sz fyne.Size) {
	c := l.c
	c.steps.Set(c.stepsText(), colText) // it depends on the board's size (zoom or not)
	gap := float32(6)
	titleH := min(max(sz.Height*0.09, 40), 56)
	stepsH := sz.Height * 0.14
	if c.view.Said != "" || c.view.Dame.Applies || c.choosing {
		stepsH = sz.Height * 0.2
	}
	legendH := float32(0)
	if c.legend.Visible() {
		legendH = sz.Height * 0.075
	}
	resultH := sz.Height * 0.1
	agreeH := min(max(sz.Height*0.13, 52), 80)
	resumeH := min(max(sz.Height*0.11, 52), 64)
	menuW := min(c.menu.MinSize().Width, sz.Width*0.4)
	c.menu.Move(fyne.NewPos(sz.Width-menuW, 0))
	c.menu.Resize(fyne.NewSize(menuW, titleH))
	c.title.TextSize = fitSize(c.title.Text, titleH*0.6, sz.Width-menuW-gap, c.title.TextStyle)
	c.title.Move(fyne.NewPos(0, (titleH-c.title.TextSize*1.3)/2))
	c.title.Resize(fyne.NewSize(sz.Width-menuW-gap, c.title.TextSize*1.3))

	y := titleH + gap
	stepsW := sz.Width
	for _, b := range []*bigButton{c.whole, c.playOut} {
		if b.Visible() {
			ww := min(sz.Width*0.38, 150)
			if b == c.playOut {
				ww = min(sz.Width*0.5, 220)
			}
			b.Move(fyne.NewPos(sz.Width-ww, y))
			b.Resize(fyne.NewSize(ww, stepsH))
			stepsW = sz.Width - ww - gap
		}
	}
	c.steps.Move(fyne.NewPos(0, y))
	c.steps.Resize(fyne.NewSize(stepsW, stepsH))
	y += stepsH + gap
	if legendH > 0 {
		c.legend.Move(fyne.NewPos(0, y))
		c.legend.Resize(fyne.NewSize(sz.Width, legendH))
		y += legendH + gap
	}

	buttonsH := agreeH + gap + resumeH
	gridH := max(sz.Height-y-resultH-buttonsH-2*gap, 0)
	n := len(c.rowKinds)
	rowH := gridH / float32(max(n, 1))
	ts := min(rowH*0.72, 26)
	labelW := sz.Width * 0.5
	numW := (sz.Width - labelW) / 2
	for i := 0; i < n; i++ {
		cells := c.rows[i]
		cells[0].TextSize = fitSize(cells[0].Text, ts, labelW-4, cells[0].TextStyle)
		for j, t := range cells {
			if j > 0 {
				t.TextSize = ts
			}
			x, w := float32(0), labelW
			if j > 0 {
				x, w = labelW+float32(j-1)*numW, numW-4
			}
			t.Move(fyne.NewPos(x, y+float32(i)*rowH+(rowH-t.TextSize*1.3)/2))
			t.Resize(fyne.NewSize(w, t.TextSize*1.3))
		}
		if c.rowKinds[i] == rowTotal {
			c.rule.Move(fyne.NewPos(0, y+float32(i)*rowH))
			c.rule.Resize(fyne.NewSize(sz.Width, 1))
		}
	}
	y += gridH + gap
	c.result.Move(fyne.NewPos(0, y))
	c.result.Resize(fyne.NewSize(sz.Width, resultH))

	y = sz.Height - buttonsH
	half := (sz.Width - gap) / 2
	for _, p := range []struct {
		b    *bigButton
		x, y float32
		h    float32
	}{{c.agreeB, 0, y, agreeH}, {c.agreeW, half + gap, y, agreeH},
		{c.resumeB, 0, y + agreeH + gap, resumeH}, {c.resumeW, half + gap, y + agreeH + gap, resumeH},
		{c.yes, 0, y, buttonsH}, {c.no, half + gap, y, buttonsH},
		{c.firstB, 0, y, agreeH}, {c.firstW, half + gap, y, agreeH}} {
		p.b.Move(fyne.NewPos(p.x, p.y))
		p.b.Resize(fyne.NewSize(half, p.h))
	}
	c.next.Move(fyne.NewPos(0, y+agreeH+gap))
	c.next.Resize(fyne.NewSize(sz.Width, resumeH))
	c.noPlay.Move(fyne.NewPos(0, y+agreeH+gap))
	c.noPlay.Resize(fyne.NewSize(sz.Width, resumeH))
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
		side := min(sz.Height, sz.Width*0.6)
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
