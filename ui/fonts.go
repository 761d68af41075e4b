package ui

import (
	"errors"
	"fmt"
	"os"

	"github.com/go-text/typesetting/fontscan"
)

// ErrSystemFontsLoaded means ThemeFontsOnly came too late: the machine's fonts were already
// indexed in this process, so Fyne will keep falling back to them.
var ErrSystemFontsLoaded = errors.New("ui: the system fonts were already loaded")

// ThemeFontsOnly stops Fyne from putting the machine's installed fonts behind the theme's fonts.
// Fyne otherwise parses one system font (DejaVu Sans on Debian) for each text style the screens use,
// about 5 MB of the kiosk's memory, and draws any character the theme lacks in whatever the machine
// has installed. The theme's Noto Sans covers every string of the five screen languages
// (TestThemeFontsCoverEveryString), so without the fallback the screens look the same on every
// machine; a character outside Latin, Greek and Cyrillic (a player's name in Japanese, say) is drawn
// as a replacement mark instead. It must be called before the first text is measured or drawn,
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
