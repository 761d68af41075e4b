package ui

import (
	"errors"
	"fmt"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/go-text/typesetting/fontscan"

	"tengen/internal/fonttrim"
)

// ErrSystemFontsLoaded means ThemeFontsOnly came too late: the machine's fonts were already
// indexed in this process, so Fyne will keep falling back to them.
var ErrSystemFontsLoaded = errors.New("ui: the system fonts were already loaded")

// ThemeFontsOnly stops Fyne from putting the machine's installed fonts behind the theme's fonts.
// Fyne otherwise parses one system font (DejaVu Sans on Debian) for each text style the screens use,
// about 5 MB of the kiosk's memory, and draws any character the theme lacks in whatever the machine
// has installed. The theme's Noto Sans covers every string of the five screen languages
// (TestThemeFontsCoverEveryString), so without the fallback the screens look the same on every
// machine; a character outside the theme's fonts (a player's name in Japanese, say, or in Greek
// once TrimThemeFonts has run) is drawn as a missing character instead. It must be called before the first text is measured or drawn,
// since the index is built once per process; later it returns ErrSystemFontsLoaded.
func ThemeFontsOnly() error {
	// Fyne builds its fallback from go-text's fontscan, which scans the system fonts once per
	// process. When that one scan fails, every later request sees an empty set of system fonts.
	// The scan fails when it has nowhere to keep its index: no cache directory passed, and neither
	// XDG_CACHE_HOME nor HOME set. So make the first request here with both unset, then put them back.
	restore, err := unsetEnv("XDG_CACHE_HOME", "HOME")
	if err != nil {
		return err
	}
	scanErr := fontscan.NewFontMap(nil).UseSystemFonts("")
	if err := restore(); err != nil {
		return err
	}
	if scanErr == nil {
		return ErrSystemFontsLoaded
	}
	return nil
}

// unsetEnv removes the named environment variables and returns a function that sets them back.
func unsetEnv(names ...string) (restore func() error, err error) {
	saved := map[string]string{}
	for _, n := range names {
		if v, ok := os.LookupEnv(n); ok {
			saved[n] = v
		}
	}
	restore = func() error {
		for n, v := range saved {
			if err := os.Setenv(n, v); err != nil {
				return fmt.Errorf("ui: restoring %s: %w", n, err)
			}
		}
		return nil
	}
	for _, n := range names {
		if err := os.Unsetenv(n); err != nil {
			_ = restore()
			return nil, fmt.Errorf("ui: unsetting %s: %w", n, err)
		}
	}
	return restore, nil
}

// TrimThemeFonts replaces the content of Fyne's built-in regular and bold fonts, the two styles the
// screens use, with copies that keep only the glyphs of the characters a screen can show
// (screenRune): Fyne holds every glyph's outline of a font it draws with, and the trimmed fonts
// take about 1.1 MB less of the kiosk's memory. The kept characters look exactly as before; any
// other is drawn as a missing character, or from the machine's fonts when those are allowed. Fyne
// keeps the built-in fonts as process-wide resources, which is why this changes them in place: it
// must run once, before the first text is measured or drawn, and before any other goroutine uses
// Fyne.
func TrimThemeFonts() error {
	for _, r := range []fyne.Resource{theme.DefaultTextFont(), theme.DefaultTextBoldFont()} {
		res, ok := r.(*fyne.StaticResource)
		if !ok {
			return fmt.Errorf("ui: the built-in font %s is a %T, not a static resource", r.Name(), r)
		}
		trimmed, err := fonttrim.Trim(res.StaticContent, screenRune)
		if err != nil {
			return fmt.Errorf("ui: trimming %s: %w", r.Name(), err)
		}
		res.StaticContent = trimmed
	}
	return nil
}

// screenRune reports whether a screen may have to show r: the Latin letters (with Vietnamese's,
// for players' names), Cyrillic, combining accents, and the punctuation, arrows and symbols
// blocks. The theme's Greek, IPA and rarer extensions are left out.
func screenRune(r rune) bool {
	switch {
	case r < 0x250: // Basic Latin to Latin Extended-B
	case r >= 0x2B0 && r < 0x370: // spacing modifiers and combining accents
	case r >= 0x400 && r < 0x530: // Cyrillic and its supplement
	case r >= 0x1E00 && r < 0x1F00: // Latin Extended Additional (Vietnamese, Welsh)
	case r >= 0x2000 && r < 0x2C00: // punctuation, currency, letterlike, arrows, maths, shapes, symbols
	case r >= 0xFB00 && r < 0xFB07: // Latin ligatures
	case r == 0xFFFD: // the replacement mark
	default:
		return false
	}
	return true
}
