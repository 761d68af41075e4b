package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// Colours of the kiosk, chosen to read from a metre away in a bright hall.
var (
	colBackground = color.NRGBA{R: 0x1c, G: 0x1f, B: 0x24, A: 0xff}
	colPanel      = color.NRGBA{R: 0x2a, G: 0x2e, B: 0x36, A: 0xff}
	colToMove     = color.NRGBA{R: 0xf2, G: 0xc1, B: 0x2e, A: 0xff} // the side to move: warm yellow
	colText       = color.NRGBA{R: 0xf4, G: 0xf4, B: 0xf0, A: 0xff}
	colDimText    = color.NRGBA{R: 0xb8, G: 0xbc, B: 0xc4, A: 0xff}
	colDark       = color.NRGBA{R: 0x14, G: 0x14, B: 0x14, A: 0xff}
	colWood       = color.NRGBA{R: 0xdc, G: 0xb3, B: 0x5c, A: 0xff}
	colLine       = color.NRGBA{R: 0x26, G: 0x1c, B: 0x10, A: 0xff}
	colBlack      = color.NRGBA{R: 0x10, G: 0x10, B: 0x12, A: 0xff}
	colWhite      = color.NRGBA{R: 0xf6, G: 0xf4, B: 0xee, A: 0xff}
	colIllegal    = color.NRGBA{R: 0xd3, G: 0x20, B: 0x1f, A: 0xff}
	colRemove     = color.NRGBA{R: 0xf5, G: 0x7c, B: 0x00, A: 0xff}
	colDiffers    = color.NRGBA{R: 0x1a, G: 0x6c, B: 0xd4, A: 0xff}
	colCalm       = color.NRGBA{R: 0x3d, G: 0x5a, B: 0x80, A: 0xff}
	colInfo       = color.NRGBA{R: 0x2e, G: 0x7d, B: 0x32, A: 0xff}
	colLow        = color.NRGBA{R: 0xff, G: 0x52, B: 0x52, A: 0xff}
)

// kioskTheme is Fyne's dark theme with large type and large touch targets.
type kioskTheme struct{ base fyne.Theme }

// NewTheme returns the kiosk's theme (dark, large type, large touch targets).
func NewTheme() fyne.Theme { return kioskTheme{base: theme.DefaultTheme()} }

func (t kioskTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	switch n {
	case theme.ColorNameBackground:
		return colBackground
	case theme.ColorNameForeground:
		return colText
	case theme.ColorNamePrimary:
		return colToMove
	case theme.ColorNameForegroundOnPrimary:
		return colDark // dark text on the yellow of a lit button (white on it was 1.7:1)
	}
	return t.base.Color(n, theme.VariantDark)
}

func (t kioskTheme) Font(s fyne.TextStyle) fyne.Resource { return t.base.Font(s) }

func (t kioskTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base.Icon(n) }

func (t kioskTheme) Size(n fyne.ThemeSizeName) float32 {
	switch n {
	case theme.SizeNameText:
		return 20
	case theme.SizeNameHeadingText:
		return 30
	case theme.SizeNameSubHeadingText:
		return 24
	case theme.SizeNameCaptionText:
		return 16
	case theme.SizeNamePadding:
		return 6
	case theme.SizeNameInnerPadding:
		return 12
	case theme.SizeNameInlineIcon:
		return 28
	case theme.SizeNameScrollBar:
		return 14
	}
	return t.base.Size(n)
}
