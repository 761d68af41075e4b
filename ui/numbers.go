package ui

import (
	"strconv"
	"strings"
)

// localNumber writes a decimal number (komi, points) in the language's form, which its
// translation of "{{.Int}}.{{.Frac}}" gives (3.5 in English, 3,5 in Polish, Czech, Russian and
// Bulgarian); any other text (times, moves, names) is returned as it is.
func localNumber(s string) string {
	whole, frac, ok := strings.Cut(s, ".")
	if !ok || frac == "" || !digits(frac) || !digits(strings.TrimPrefix(strings.TrimPrefix(whole, "-"), "+")) || strings.TrimLeft(whole, "+-") == "" {
		return s
	}
	return tr("{{.Int}}.{{.Frac}}", "Int", whole, "Frac", frac)
}

// localFloat writes x as briefly as it can be read back (6.5, 7, -0.5) in the language's form.
func localFloat(x float64) string {
	return localNumber(strconv.FormatFloat(x, 'f', -1, 64))
}

// digits reports whether s is one or more ASCII digits.
func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
