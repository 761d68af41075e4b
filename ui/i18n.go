package ui

import (
	"embed"
	"fmt"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"
)

//go:embed translations
var translations embed.FS

// Language is one language the screens speak.
type Language struct {
	Code string // ISO 639-1: "en", "pl", "bg", "ru", "cs"
	Name string // in the language itself
}

// Languages lists the languages of the screens, English first.
func Languages() []Language {
	return []Language{{"en", "English"}, {"pl", "Polski"}, {"bg", "Български"}, {"ru", "Русский"}, {"cs", "Čeština"}}
}

// LoadTranslations adds English, every screen's fallback, to Fyne's translation bundle; the
// other languages are added when SetLanguage first asks for them. All five parsed at once held
// about a megabyte of the kiosk's memory for languages no one at the table reads.
func LoadTranslations() error {
	data, err := translations.ReadFile("translations/en.json")
	if err != nil {
		return fmt.Errorf("ui: loading translations: %w", err)
	}
	if err := lang.AddTranslationsForLocale(data, fyne.Locale("en")); err != nil {
		return fmt.Errorf("ui: loading translations: %w", err)
	}
	return nil
}

// SetLanguage switches every string the screens look up (lang.L) to code. Fyne 2.7 picks its
// language from the environment's locale (LANGUAGE, LC_ALL, ...) when translations are added, so this
// sets the locale variables for this process and re-adds the language's file. Screens built after the
// call speak the new language; App rebuilds the visible screen.
func SetLanguage(code string) error {
	code = strings.ToLower(strings.TrimSpace(code))
	known := false
	for _, l := range Languages() {
		known = known || l.Code == code
	}
	if !known {
		return fmt.Errorf("ui: unknown language %q (known: en, pl, bg, ru, cs)", code)
	}
	data, err := translations.ReadFile("translations/" + code + ".json")
	if err != nil {
		return fmt.Errorf("ui: no translation file for %q: %w", code, err)
	}
	for _, k := range []string{"LANGUAGE", "LC_ALL", "LC_MESSAGES"} {
		if err := os.Setenv(k, code); err != nil {
			return fmt.Errorf("ui: setting %s: %w", k, err)
		}
	}
	if err := lang.AddTranslationsForLocale(data, fyne.Locale(code)); err != nil {
		return fmt.Errorf("ui: switching to %q: %w", code, err)
	}
	return nil
}

// tr translates s through Fyne's bundle; kv are template key/value pairs ("N", 3 fills {{.N}});
// decimal numbers among the values are written in the language's form (3,5 in Polish).
func tr(s string, kv ...any) string {
	if len(kv) == 0 {
		return lang.L(s)
	}
	m := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		if k, ok := kv[i].(string); ok {
			switch v := kv[i+1].(type) {
			case string: // decimal numbers in the language's form
				m[k] = localNumber(v)
			case float64:
				m[k] = localFloat(v)
			default:
				m[k] = v
			}
		}
	}
	return lang.L(s, m)
}
