package clock

import (
	"fmt"
	"sort"
	"strings"
)

// presets are common tournament settings. Sources:
//   - AGA: the US Open at the US Go Congress (90 minutes, 5x30 s byo-yomi), and
//     the AGA minimum time limits for rated games (30 min + 20 stones/5 min
//     Canadian, 30 min + 1x20 s byo-yomi, 3 min + 15 s Fischer, 45 min absolute).
//   - EGF: tournament classes A, B and C for rating (basic time at least 60, 40
//     and 25 minutes; adjusted time at least 75, 50 and 30 minutes, counting 45
//     byo-yomi moves, 60 Canadian moves or 120 Fischer moves); the Fischer
//     settings are the EGF's own examples for each class, the byo-yomi and
//     Canadian settings are the shortest usual ones that meet the class.
var presets = map[string]struct {
	text, about string
}{
	"aga-us-open":      {"90m+5x30s", "AGA US Open: 90 minutes, then 5 periods of 30 seconds"},
	"aga-min-canadian": {"30m+20/5m", "AGA minimum for rated games: 30 minutes, then 20 stones in 5 minutes"},
	"aga-min-byoyomi":  {"30m+1x20s", "AGA minimum for rated games: 30 minutes, then 1 period of 20 seconds"},
	"aga-min-fischer":  {"3m+15s", "AGA minimum for rated games: 3 minutes plus 15 seconds a move"},
	"aga-min-absolute": {"45m", "AGA minimum for rated games without overtime: 45 minutes sudden death"},
	"egf-a-byoyomi":    {"60m+5x30s", "EGF class A: 60 minutes, then 5 periods of 30 seconds (adjusted 82.5 min)"},
	"egf-a-canadian":   {"60m+15/5m", "EGF class A: 60 minutes, then 15 stones in 5 minutes (adjusted 80 min)"},
	"egf-a-fischer":    {"45m+15s", "EGF class A Fischer example: 45 minutes plus 15 seconds a move"},
	"egf-b-byoyomi":    {"40m+5x30s", "EGF class B: 40 minutes, then 5 periods of 30 seconds (adjusted 62.5 min)"},
	"egf-b-fischer":    {"30m+10s", "EGF class B Fischer example: 30 minutes plus 10 seconds a move"},
	"egf-c-canadian":   {"25m+15/3m", "EGF class C: 25 minutes, then 15 stones in 3 minutes (adjusted 37 min)"},
	"egf-c-fischer":    {"20m+5s", "EGF class C Fischer example: 20 minutes plus 5 seconds a move"},
}

// Preset returns a named tournament setting (see PresetNames; case-insensitive).
func Preset(name string) (Control, error) {
	p, ok := presets[strings.ToLower(name)]
	if !ok {
		return Control{}, fmt.Errorf("%w: unknown preset %q (known: %s)", ErrInvalidControl, name, strings.Join(PresetNames(), ", "))
	}
	return MustParseControl(p.text), nil
}

// PresetNames lists the preset names in sorted order.
func PresetNames() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// PresetAbout describes a preset in a sentence (for help texts and the UI).
func PresetAbout(name string) string {
	return presets[strings.ToLower(name)].about
}

// ParseControlOrPreset accepts either a preset name or the compact form, for
// configuration files and flags.
func ParseControlOrPreset(s string) (Control, error) {
	if _, ok := presets[strings.ToLower(s)]; ok {
		return Preset(s)
	}
	return ParseControl(s)
}
