// Package locale is Tengen's stand-in for github.com/jeandeaual/go-locale, the module Fyne's lang
// package asks for the user's locales while it initializes (before main runs). The original
// passes the POSIX locales "C" and "POSIX" through, and Fyne then logs "Fyne error: Error parsing
// user locale C" on every start under Debian's default LANG=C.UTF-8, even for subcommands that
// draw nothing. This one reads the same environment variables and maps C and POSIX to English,
// quietly. go.mod replaces the original with it; it implements only what Fyne calls.
package locale

import (
	"os"
	"strings"
)

// english is what the C and POSIX locales mean to a person reading the screen.
const english = "en-US"

// GetLocales returns the user's locales as BCP 47 tags, most preferred first: LANGUAGE's list
// (when a locale is set at all, as gettext does), then LC_ALL, LC_MESSAGES and LANG. C and POSIX
// become en-US; with nothing set the answer is en-US.
func GetLocales() ([]string, error) {
	return locales(os.Getenv), nil
}

// GetLocale returns the user's most preferred locale as a BCP 47 tag (see GetLocales).
func GetLocale() (string, error) {
	return locales(os.Getenv)[0], nil
}

// GetLanguage returns the language part of the most preferred locale ("en").
func GetLanguage() (string, error) {
	l, _ := GetLocale()
	lang, _, _ := strings.Cut(l, "-")
	return lang, nil
}

// GetRegion returns the region part of the most preferred locale ("US"), or "" without one.
func GetRegion() (string, error) {
	l, _ := GetLocale()
	_, region, _ := strings.Cut(l, "-")
	return region, nil
}

// locales is GetLocales reading the environment through getenv. Never empty.
func locales(getenv func(string) string) []string {
	var main string
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			main = v
			break
		}
	}
	var out []string
	add := func(v string) {
		tag := toTag(v)
		if tag == "" {
			return
		}
		for _, o := range out {
			if o == tag {
				return
			}
		}
		out = append(out, tag)
	}
	// gettext ignores LANGUAGE under the C locale; so does this.
	if list := getenv("LANGUAGE"); list != "" && toTag(main) != english {
		for _, v := range strings.Split(list, ":") {
			add(v)
		}
	}
	add(main)
	if len(out) == 0 {
		out = []string{english}
	}
	return out
}

// toTag turns a POSIX locale name ("pl_PL.UTF-8@euro", "C.UTF-8") into a BCP 47 tag ("pl-PL",
// "en-US"); "" for an empty name.
func toTag(v string) string {
	v, _, _ = strings.Cut(v, "@")
	v, _, _ = strings.Cut(v, ".")
	switch v {
	case "":
		return ""
	case "C", "POSIX":
		return english
	}
	return strings.ReplaceAll(v, "_", "-")
}
