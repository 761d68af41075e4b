package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// keyCap is one key of the on-screen keyboard. It is tappable but not focusable, so tapping it
// leaves the focus in the field being typed into.
type keyCap struct {
	widget.BaseWidget
	label  string
	symbol bool // the label is drawn in the theme's symbol font (arrows and the like)
	tap    func()
}

func newKeyCap(label string, tap func()) *keyCap {
	k := &keyCap{label: label, tap: tap}
	k.ExtendBaseWidget(k)
	return k
}

// newSymbolKeyCap is a key labelled with a sign from the theme's symbol font, such as an arrow.
func newSymbolKeyCap(label string, tap func()) *keyCap {
	k := newKeyCap(label, tap)
	k.symbol = true
	return k
}

// Tapped types the key.
func (k *keyCap) Tapped(*fyne.PointEvent) {
	if k.tap != nil {
		k.tap()
	}
}

// CreateRenderer draws the key: a rounded panel with its label.
func (k *keyCap) CreateRenderer() fyne.WidgetRenderer {
	bg := canvas.NewRectangle(colPanel)
	bg.CornerRadius = 6
	txt := canvas.NewText(k.label, colText)
	txt.Alignment = fyne.TextAlignCenter
	txt.TextSize = 22
	txt.TextStyle.Symbol = k.symbol
	return &keyRenderer{k: k, bg: bg, txt: txt}
}

type keyRenderer struct {
	k   *keyCap
	bg  *canvas.Rectangle
	txt *canvas.Text
}

func (r *keyRenderer) Destroy()                     {}
func (r *keyRenderer) MinSize() fyne.Size           { return fyne.NewSize(36, 44) }
func (r *keyRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.bg, r.txt} }
func (r *keyRenderer) Refresh() {
	r.txt.Text = r.k.label
	r.txt.Refresh()
	r.Layout(r.k.Size())
}

func (r *keyRenderer) Layout(sz fyne.Size) {
	r.bg.Move(fyne.NewPos(2, 2))
	r.bg.Resize(fyne.NewSize(sz.Width-4, sz.Height-4))
	r.txt.TextSize = min(22, sz.Height*0.5)
	r.txt.Move(fyne.NewPos(0, (sz.Height-r.txt.TextSize*1.3)/2))
	r.txt.Resize(fyne.NewSize(sz.Width, r.txt.TextSize*1.3))
}

// Keyboard is an on-screen keyboard for touch displays without a keyboard: it types into whatever
// field has the focus (names, ranks, komi, the director's entries).
type Keyboard struct {
	content *fyne.Container
	caps    []*keyCap
	shift   bool
	focused func() fyne.Focusable
}

// keyRows are the keyboard's character rows (lower case; shift gives upper case).
var keyRows = []string{"1234567890", "qwertyuiop", "asdfghjkl:", "zxcvbnm.+-"}

// NewKeyboard returns a keyboard typing into the object focused() returns (usually the window
// canvas's Focused).
func NewKeyboard(focused func() fyne.Focusable) *Keyboard {
	kb := &Keyboard{focused: focused}
	rows := container.NewVBox()
	for _, row := range keyRows {
		line := container.NewGridWithColumns(len([]rune(row)))
		for _, r := range row {
			r := r
			c := newKeyCap(string(r), nil)
			c.tap = func() { kb.typeRune(r) }
			kb.caps = append(kb.caps, c)
			line.Add(c)
		}
		rows.Add(line)
	}
	shift := newSymbolKeyCap("⇧", kb.toggleShift)
	space := newKeyCap(tr("space"), func() { kb.typeRune(' ') })
	back := newSymbolKeyCap("←", func() { kb.typeKey(fyne.KeyBackspace) })
	enter := newSymbolKeyCap("↵", func() { kb.typeKey(fyne.KeyReturn) })
	rows.Add(container.NewBorder(nil, nil, sized(shift, 90), container.NewHBox(sized(back, 90), sized(enter, 90)), space))
	kb.content = rows
	return kb
}

// Content is the keyboard's root object.
func (kb *Keyboard) Content() fyne.CanvasObject { return kb.content }

func (kb *Keyboard) toggleShift() {
	kb.shift = !kb.shift
	for _, c := range kb.caps {
		if kb.shift {
			c.label = strings.ToUpper(c.label)
		} else {
			c.label = strings.ToLower(c.label)
		}
		c.Refresh()
	}
}

func (kb *Keyboard) typeRune(r rune) {
	f := kb.focused()
	if f == nil {
		return
	}
	if kb.shift {
		r = []rune(strings.ToUpper(string(r)))[0]
	}
	f.TypedRune(r)
}

func (kb *Keyboard) typeKey(k fyne.KeyName) {
	if f := kb.focused(); f != nil {
		f.TypedKey(&fyne.KeyEvent{Name: k})
	}
}

// withKeyboard puts an on-screen keyboard under content. Its toggle goes into slot (a row of the
// screen's own buttons) or, when slot is nil, under the keyboard. Opening it scrolls the field being
// typed into view in scroll (when not nil); the screen's size does not change when it opens or
// closes.
func withKeyboard(content fyne.CanvasObject, focused func() fyne.Focusable, slot *fyne.Container, scroll *container.Scroll) fyne.CanvasObject {
	kb := NewKeyboard(focused)
	kbc := kb.Content()
	kbc.Hide()
	var toggle *widget.Button
	var outer *fyne.Container
	toggle = widget.NewButton(tr("Keyboard"), func() {
		if kbc.Visible() {
			kbc.Hide()
		} else {
			kbc.Show()
		}
		toggle.Refresh()
		outer.Refresh()
		if scroll != nil {
			scrollToFocused(scroll, focused())
		}
	})
	if slot != nil {
		slot.Objects = []fyne.CanvasObject{toggle}
		slot.Refresh()
		outer = container.NewBorder(nil, kbc, nil, nil, content)
		return outer
	}
	outer = container.NewBorder(nil, container.NewVBox(kbc, toggle), nil, nil, content)
	return outer
}

// scrollToFocused scrolls s so that the focused field (when it is in s) is in view.
func scrollToFocused(s *container.Scroll, f fyne.Focusable) {
	o, ok := f.(fyne.CanvasObject)
	if !ok || o == nil || s.Content == nil {
		return
	}
	d := fyne.CurrentApp().Driver()
	top := d.AbsolutePositionForObject(o).Y - d.AbsolutePositionForObject(s.Content).Y
	if top < 0 || top > s.Content.Size().Height {
		return // not in this scroller
	}
	view := s.Size().Height
	off := s.Offset.Y
	switch {
	case top < off:
		off = top
	case top+o.Size().Height > off+view:
		off = top + o.Size().Height - view
	}
	s.ScrollToOffset(fyne.NewPos(0, off))
}
