package ui

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"tengen/engine"
	"tengen/referee"
)

// rulingOnTable returns the ruling the table shows in large type and its identity (for closing it
// with a tap): the game's latest ruling (referee.State.Rulings) while no move has been made since
// it, unless the banner asks the players for something else (an alert that is not the ruling).
// ok is false when there is none to show.
func rulingOnTable(st referee.State) (v BannerView, id string, ok bool) {
	if len(st.Rulings) == 0 || st.Phase == referee.PhaseSetup || st.Phase == referee.PhaseMarking {
		return BannerView{}, "", false
	}
	r := st.Rulings[len(st.Rulings)-1]
	if st.MoveNumber > r.MoveNumber {
		return BannerView{}, "", false
	}
	if st.Banner.Kind.Alert() && !sameVerdict(st.Banner, r) {
		return BannerView{}, "", false
	}
	kind, title := verdictLook(r.Kind)
	if r.Kind == referee.VerdictIllegal && r.Color != engine.Empty {
		title += " · " + colourName(r.Color)
	}
	return BannerView{Kind: kind, Title: title, Text: saidText(r)}, rulingID(r), true
}

// rulingID names a ruling: when it was said, its kind and move number.
func rulingID(v referee.Verdict) string {
	return fmt.Sprintf("%d/%v/%d", v.At.UnixNano(), v.Kind, v.MoveNumber)
}

// sameVerdict reports whether a and b are the same saying (time, kind, move number).
func sameVerdict(a, b referee.Verdict) bool { return rulingID(a) == rulingID(b) }

// RulingRow is one line of the rulings list: when, at which move, the article cited and what was
// said (what was done), all translated.
type RulingRow struct {
	Time, Move, Rule, Title, Text string
	Kind                          BannerKind
}

// rulingRows lists the game's rulings, newest first, in the screens' language.
func rulingRows(st referee.State) []RulingRow {
	rows := make([]RulingRow, 0, len(st.Rulings))
	for i := len(st.Rulings) - 1; i >= 0; i-- {
		r := st.Rulings[i]
		kind, title := verdictLook(r.Kind)
		if r.Color != engine.Empty && r.Kind == referee.VerdictIllegal {
			title += " · " + colourName(r.Color)
		}
		rule := "—"
		if c := r.RuleCited(); c != "" {
			rule = tr(c)
		}
		rows = append(rows, RulingRow{Time: r.At.In(time.Local).Format("15:04:05"),
			Move: tr("Move {{.N}}", "N", r.MoveNumber), Rule: rule, Title: title, Text: saidText(r), Kind: kind})
	}
	return rows
}

// RulingsScreen is the list of the game's rulings, newest first, for the players and the director:
// each with its time, move, the article applied and what was done.
type RulingsScreen struct {
	rows    []RulingRow
	list    *fyne.Container
	heading *canvas.Text
	empty   *canvas.Text
	back    *widget.Button
	scroll  *container.Scroll
	content *fyne.Container
	width   float32 // the list's width (the screen's, less the scroll bar)
}

// NewRulingsScreen builds the list; onBack leaves it.
func NewRulingsScreen(onBack func()) *RulingsScreen {
	r := &RulingsScreen{list: container.NewVBox()}
	r.heading = canvas.NewText(tr("Rulings of this game"), colText)
	r.heading.TextStyle = fyne.TextStyle{Bold: true}
	r.heading.TextSize = 28
	r.empty = canvas.NewText(tr("No rulings so far."), colDimText)
	r.empty.TextSize = 24
	r.back = widget.NewButtonWithIcon(tr("Back"), theme.NavigateBackIcon(), func() {
		if onBack != nil {
			onBack()
		}
	})
	r.scroll = container.NewVScroll(r.list)
	top := container.NewBorder(nil, nil, nil, r.back, r.heading)
	inner := container.NewBorder(container.NewPadded(top), nil, nil, nil, r.scroll)
	r.content = container.New(&widthLayout{width: &r.width, inner: inner}, inner)
	return r
}

// Content is the screen's root object.
func (r *RulingsScreen) Content() fyne.CanvasObject { return r.content }

// Rows returns what the list shows.
func (r *RulingsScreen) Rows() []RulingRow { return r.rows }

// SetState shows the rulings of st.
func (r *RulingsScreen) SetState(st referee.State) {
	rows := rulingRows(st)
	if fmt.Sprint(rows) == fmt.Sprint(r.rows) && len(r.list.Objects) > 0 {
		return
	}
	r.rows = rows
	r.list.RemoveAll()
	if len(rows) == 0 {
		r.list.Add(r.empty)
	}
	for _, row := range rows {
		r.list.Add(newRulingEntry(row, &r.width))
	}
	r.list.Refresh()
}

// rulingEntry draws one ruling: a coloured strip, the time, move and article in bold, then the
// sentences wrapped to the width.
type rulingEntry struct {
	widget.BaseWidget
	row   RulingRow
	width *float32 // the list's width, set by the screen's layout (the entry's height follows it)
}

func newRulingEntry(row RulingRow, width *float32) *rulingEntry {
	e := &rulingEntry{row: row, width: width}
	e.ExtendBaseWidget(e)
	return e
}

// Sizes of the rulings list's type (px): readable at arm's length on the 7" display.
const (
	rulingHeadSize = 22
	rulingTextSize = 20
)

// CreateRenderer builds the entry.
func (e *rulingEntry) CreateRenderer() fyne.WidgetRenderer {
	bg, _ := bannerColours(e.row.Kind)
	strip := canvas.NewRectangle(bg)
	head := &textBlock{style: fyne.TextStyle{Bold: true}, col: colText}
	body := &textBlock{col: colDimText}
	return &rulingEntryRenderer{e: e, strip: strip, head: head, body: body}
}

type rulingEntryRenderer struct {
	e          *rulingEntry
	strip      *canvas.Rectangle
	head, body *textBlock
	objs       []fyne.CanvasObject
}

func (r *rulingEntryRenderer) Destroy() {}

func (r *rulingEntryRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *rulingEntryRenderer) Refresh() { r.Layout(r.e.Size()) }

func (r *rulingEntryRenderer) headText() string {
	row := r.e.row
	return row.Time + " · " + row.Move + " · " + row.Rule + " · " + row.Title
}

// lines returns how many lines the head and the body take at width w.
func (r *rulingEntryRenderer) lines(w float32) (int, int) {
	tw := max(w-24, 40)
	return len(wrapLines(r.headText(), rulingHeadSize, tw, fyne.TextStyle{Bold: true})),
		len(wrapLines(r.e.row.Text, rulingTextSize, tw, fyne.TextStyle{}))
}

func (r *rulingEntryRenderer) MinSize() fyne.Size {
	w := *r.e.width
	if w < 100 {
		w = 760
	}
	h, b := r.lines(w)
	return fyne.NewSize(100, float32(h)*rulingHeadSize*1.3+float32(b)*rulingTextSize*1.3+16)
}

func (r *rulingEntryRenderer) Layout(sz fyne.Size) {
	r.strip.Move(fyne.NewPos(0, 4))
	r.strip.Resize(fyne.NewSize(8, sz.Height-8))
	h, b := r.lines(sz.Width)
	tw := sz.Width - 24
	headH := float32(h) * rulingHeadSize * 1.3
	r.objs = append(r.objs[:0], r.strip)
	r.objs = append(r.objs, r.head.set(r.headText(), fyne.NewPos(16, 4), fyne.NewSize(tw, headH), rulingHeadSize)...)
	r.objs = append(r.objs, r.body.set(r.e.row.Text, fyne.NewPos(16, 4+headH), fyne.NewSize(tw, float32(b)*rulingTextSize*1.3), rulingTextSize)...)
}

// widthLayout fills its one child and notes the width (less a scroll bar's) for the rulings'
// entries, whose heights depend on how their text wraps.
type widthLayout struct {
	width *float32
	inner fyne.CanvasObject
}

func (l *widthLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(300, 200) }

func (l *widthLayout) Layout(_ []fyne.CanvasObject, sz fyne.Size) {
	*l.width = sz.Width - 20 // before the list is laid out below: its entries' heights follow it
	l.inner.Move(fyne.NewPos(0, 0))
	l.inner.Resize(sz)
}
