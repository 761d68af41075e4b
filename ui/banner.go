package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// Banner is the table's verdict: a coloured panel with a title and a sentence. Illegal moves are red,
// stones to remove orange, a board that differs from the game blue; a lost camera or hands over the
// board are shown calmly.
// SetView shows a BannerView (redrawing only when it changed) and View returns it.
type Banner struct {
	viewWidget[BannerView]
	// OnTapped, when set, is called on a tap on the banner (the ruling panel closes on a tap).
	OnTapped func()
	// ruling: the banner is the table's ruling panel, in large type (readable at 1 m at 800x480).
	ruling bool
}

// NewRulingPanel returns the banner that shows a ruling in large type until the next move or a tap.
func NewRulingPanel(onTapped func()) *Banner {
	b := &Banner{OnTapped: onTapped, ruling: true}
	b.ExtendBaseWidget(b)
	return b
}

// Tapped calls OnTapped.
func (b *Banner) Tapped(*fyne.PointEvent) {
	if b.OnTapped != nil {
		b.OnTapped()
	}
}

// NewBanner returns a banner showing v.
func NewBanner(v BannerView) *Banner {
	b := &Banner{}
	b.view = v
	b.ExtendBaseWidget(b)
	return b
}

// CreateRenderer builds the banner.
func (b *Banner) CreateRenderer() fyne.WidgetRenderer {
	r := &bannerRenderer{b: b, bg: canvas.NewRectangle(color.Transparent),
		title: &textBlock{style: fyne.TextStyle{Bold: true}, align: fyne.TextAlignCenter},
		body:  &textBlock{align: fyne.TextAlignCenter},
		hint:  &textBlock{align: fyne.TextAlignTrailing}}
	r.bg.CornerRadius = 10
	return r
}

type bannerRenderer struct {
	b           *Banner
	bg          *canvas.Rectangle
	title, body *textBlock
	hint        *textBlock // the ruling panel's "tap to close"
	objs        []fyne.CanvasObject
}

func (r *bannerRenderer) Destroy() {}

func (r *bannerRenderer) MinSize() fyne.Size { return fyne.NewSize(120, 60) }

func (r *bannerRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *bannerRenderer) Refresh() {
	r.Layout(r.b.Size())
	canvas.Refresh(r.b)
}

// bannerColours returns the background and text colours of a kind.
func bannerColours(k BannerKind) (bg, fg color.Color) {
	switch k {
	case BannerIllegal:
		return colIllegal, colText
	case BannerRemove:
		return colRemove, colDark
	case BannerDiffers:
		return colDiffers, colText
	case BannerCalm:
		return colCalm, colText
	case BannerInfo:
		return colInfo, colText
	}
	return color.Transparent, colText
}

func (r *bannerRenderer) Layout(sz fyne.Size) {
	v := r.b.view
	r.objs = r.objs[:0]
	if v.Kind == BannerNone {
		return
	}
	bg, fg := bannerColours(v.Kind)
	r.bg.FillColor = bg
	r.bg.Move(fyne.NewPos(0, 0))
	r.bg.Resize(sz)
	r.objs = append(r.objs, r.bg)
	pad := float32(10)
	r.title.col, r.body.col = fg, fg
	maxTitle := float32(34)
	maxBody := float32(26)
	if v.Kind == BannerCalm {
		maxTitle, maxBody = 26, 20
	}
	inner := fyne.NewSize(sz.Width-2*pad, sz.Height-2*pad)
	if r.b.ruling {
		r.layoutRuling(v, pad, inner)
		return
	}
	if v.Text == "" {
		r.objs = append(r.objs, r.title.set(v.Title, fyne.NewPos(pad, pad), inner, maxTitle)...)
		return
	}
	titleH := inner.Height * 0.32
	r.objs = append(r.objs, r.title.set(v.Title, fyne.NewPos(pad, pad), fyne.NewSize(inner.Width, titleH), maxTitle)...)
	r.objs = append(r.objs, r.body.set(v.Text, fyne.NewPos(pad, pad+titleH), fyne.NewSize(inner.Width, inner.Height-titleH), maxBody)...)
}

// rulingPanelHeight800 is about the inner height of the ruling panel at 800x480: the type grows
// with the panel above it.
const rulingPanelHeight800 = 240

// layoutRuling lays the ruling panel out in large type: the title on the left of its top row with
// "tap to close" small on the right, and the sentences below, as large as they fit (up to 34 px at
// 800x480, and as much larger as the panel is taller there: about 70 px at 1920x1080, so that a
// large display is read from as far as the small one).
func (r *bannerRenderer) layoutRuling(v BannerView, pad float32, inner fyne.Size) {
	scale := max(1, inner.Height/rulingPanelHeight800)
	titleSize, bodySize, hintSize := 30*scale, 34*scale, 17*min(scale, 1.5)
	titleH := min(inner.Height*0.25, titleSize*1.32)
	hint := tr("Tap to close")
	hintW := measureText(hint, hintSize, fyne.TextStyle{}).Width + 4
	r.hint.col = r.title.col
	r.objs = append(r.objs, r.hint.set(hint, fyne.NewPos(pad+inner.Width-hintW, pad), fyne.NewSize(hintW, titleH), hintSize)...)
	r.title.align = fyne.TextAlignLeading
	r.objs = append(r.objs, r.title.set(v.Title, fyne.NewPos(pad, pad), fyne.NewSize(inner.Width-hintW-pad, titleH), titleSize)...)
	r.objs = append(r.objs, r.body.set(v.Text, fyne.NewPos(pad, pad+titleH), fyne.NewSize(inner.Width, inner.Height-titleH), bodySize)...)
}
