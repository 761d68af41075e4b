package config

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee"
)

// MaxBCMPin is the highest GPIO line on the Raspberry Pi's 40-pin header (BCM numbering).
const MaxBCMPin = 27

var languageRe = regexp.MustCompile(`^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)

// check validates values the TOML types cannot; it returns one Problem per bad key.
func (c Config) check() []Problem {
	var ps []Problem
	bad := func(key, format string, args ...any) {
		ps = append(ps, Problem{Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	if c.Table < 0 || c.Table > 9999 {
		bad("table", "table number %d is out of range (0 for none, up to 9999)", c.Table)
	}
	for _, p := range c.Hall.check(c.HallTable()) {
		ps = append(ps, p)
	}
	if !languageRe.MatchString(c.Language) {
		bad("language", "%q is not a language tag such as \"en\", \"fr\" or \"pt-BR\"", c.Language)
	} else if !slices.Contains(Languages(), c.Language) {
		bad("language", "the screens do not speak %q: use one of %s", c.Language, strings.Join(Languages(), ", "))
	}

	if strings.TrimSpace(c.Camera.Source) == "" {
		bad("camera.source", "empty: use \"auto\", \"demo\", \"libcamera\", a device such as \"/dev/video0\" or an index such as \"0\"")
	} else if !validSource(c.Camera.Source) {
		bad("camera.source", "%q is not a camera: use \"auto\", \"demo\", \"libcamera\", a device such as \"/dev/video0\" or an index such as \"0\"", c.Camera.Source)
	}
	if c.Camera.Width < 160 || c.Camera.Width > 8192 {
		bad("camera.width", "%d pixels is out of range (160..8192)", c.Camera.Width)
	}
	if c.Camera.Height < 120 || c.Camera.Height > 8192 {
		bad("camera.height", "%d pixels is out of range (120..8192)", c.Camera.Height)
	}
	if c.Camera.FPS < 1 || c.Camera.FPS > 120 {
		bad("camera.fps", "%d frames per second is out of range (1..120)", c.Camera.FPS)
	}

	used := map[int]string{}
	for _, p := range c.Pins.list() {
		if p.Name == "" {
			continue
		}
		n, err := ParsePin(p.Name)
		if err != nil {
			bad("pins."+p.Key, "%v", err)
			continue
		}
		if other, dup := used[n]; dup {
			bad("pins."+p.Key, "%s is already used by pins.%s: every function needs its own pin", p.Name, other)
			continue
		}
		used[n] = p.Key
	}
	if c.Pins.Pull != "up" && c.Pins.Pull != "down" {
		bad("pins.pull", "%q: use \"up\" (buttons connect the pin to ground) or \"down\" (to 3.3 V)", c.Pins.Pull)
	}
	if c.Pins.Debounce < time.Millisecond || c.Pins.Debounce > 500*time.Millisecond {
		bad("pins.debounce", "%v is out of range (\"1ms\"..\"500ms\")", c.Pins.Debounce)
	}

	if p := c.Game.IllegalMove; p != "" && !slices.Contains(referee.Policies(), referee.Policy(p)) {
		bad("game.illegal_move", "%q is not a policy: use %v, or leave it out for the rules' own", p, referee.Policies())
	}
	for _, e := range c.Alerts.Events {
		if !slices.Contains(AlertEvents(), e) {
			bad("alerts.events", "%q is not an alert: use %s", e, strings.Join(AlertEvents(), ", "))
		}
	}

	if c.Display.Width < 320 || c.Display.Width > 8192 {
		bad("display.width", "%d pixels is out of range (320..8192)", c.Display.Width)
	}
	if c.Display.Height < 240 || c.Display.Height > 8192 {
		bad("display.height", "%d pixels is out of range (240..8192)", c.Display.Height)
	}

	if !slices.Contains(RulesPresets(), c.Game.Rules) {
		bad("game.rules", "%q is not a rules preset (%s)", c.Game.Rules, strings.Join(RulesPresets(), ", "))
	}
	if c.Game.Size != 9 && c.Game.Size != 13 && c.Game.Size != 19 {
		bad("game.size", "board size %d is out of range: the kiosk plays on 9, 13 or 19", c.Game.Size)
	}
	if k := c.Game.Komi; k != nil {
		if *k != *k || *k < -150 || *k > 150 || (*k)*2 != float64(int((*k)*2)) {
			bad("game.komi", "%v is not a komi (a whole or half point between -150 and 150)", *k)
		}
	}
	if c.Game.Handicap < 0 || c.Game.Handicap > 9 || c.Game.Handicap == 1 {
		bad("game.handicap", "%d handicap stones: use 0 (even game) or 2..9", c.Game.Handicap)
	}
	if tc := strings.TrimSpace(c.Game.TimeControl); tc == "" {
		bad("game.time_control", "empty: write a time control such as \"60m+5x30s\" or \"none\"")
	} else if _, err := clock.ParseControlOrPreset(tc); err != nil && tc != "none" {
		bad("game.time_control", "%q is not a time control: write main time and overtime such as \"60m+5x30s\" (byo-yomi), \"30m+20/5m\" (Canadian), \"3m+15s\" (Fischer), \"45m\", a preset (%s) or \"none\"",
			tc, strings.Join(clock.PresetNames(), ", "))
	}

	if c.Director.PINHash != "" {
		if _, err := parseHash(c.Director.PINHash); err != nil {
			bad("director.pin_hash", "%v; make a new one with `kiosk doctor -hash-pin`", err)
		}
	}

	for _, p := range []struct{ key, val string }{
		{"paths.journal_dir", c.Paths.JournalDir},
		{"paths.games_dir", c.Paths.GamesDir},
		{"paths.calibration", c.Paths.Calibration},
	} {
		if strings.TrimSpace(p.val) == "" {
			bad(p.key, "empty: give a path")
		} else if strings.ContainsRune(p.val, 0) {
			bad(p.key, "contains a NUL byte")
		}
	}
	return ps
}

// RulesPresets are the rules preset names game.rules accepts: the rules engine's presets.
func RulesPresets() []string { return engine.PresetNames() }

// Languages are the languages the kiosk's screens speak.
func Languages() []string { return []string{"en", "pl", "bg", "ru", "cs"} }

func validSource(s string) bool {
	switch s {
	case "auto", "demo", "libcamera":
		return true
	}
	if strings.HasPrefix(s, "/dev/") && len(s) > len("/dev/") {
		return true
	}
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0 && n < 64
}

// PinFunc is one wired function and its configured pin name.
type PinFunc struct {
	Key  string // the key under [pins]: "black", "white", "pass", "director", "buzzer", "led"
	Name string // e.g. "GPIO17"; empty when not wired
	// Input is true for buttons, false for outputs.
	Input bool
}

// list returns every pin function in a fixed order.
func (p Pins) list() []PinFunc {
	return []PinFunc{
		{"black", p.Black, true}, {"white", p.White, true}, {"pass", p.Pass, true},
		{"director", p.Director, true}, {"buzzer", p.Buzzer, false}, {"led", p.LED, false},
	}
}

// Functions lists the pin functions in a fixed order (buttons first), including unwired ones.
func (p Pins) Functions() []PinFunc { return p.list() }

// ParsePin returns the BCM line number of a pin name "GPIO<n>" (case-insensitive), 0..MaxBCMPin.
func ParsePin(name string) (int, error) {
	rest, ok := strings.CutPrefix(strings.ToUpper(name), "GPIO")
	if !ok || rest == "" || len(rest) > 2 {
		return 0, fmt.Errorf("%q is not a GPIO pin name: write \"GPIO17\" (BCM numbering, GPIO0..GPIO%d)", name, MaxBCMPin)
	}
	n, err := strconv.Atoi(rest)
	if err != nil || rest[0] < '0' || rest[0] > '9' || n < 0 || n > MaxBCMPin || (len(rest) == 2 && rest[0] == '0') {
		return 0, fmt.Errorf("%q is not a GPIO pin name: write \"GPIO17\" (BCM numbering, GPIO0..GPIO%d)", name, MaxBCMPin)
	}
	return n, nil
}

var hallNameRe = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

// check validates the [hall] keys; table is the table number the hall knows this table by.
func (h Hall) check(table int) []Problem {
	var ps []Problem
	bad := func(key, format string, args ...any) {
		ps = append(ps, Problem{Key: key, Msg: fmt.Sprintf(format, args...)})
	}
	if !hallNameRe.MatchString(h.Name) {
		bad("hall.name", "%q: use 1 to 40 lower-case letters, digits, '-' or '_' (the name given to `hall init --hall`)", h.Name)
	}
	if h.Table < 0 || h.Table > 9999 {
		bad("hall.table", "table number %d is out of range (0 for the top-level table, up to 9999)", h.Table)
	}
	if h.URL == "" {
		return ps
	}
	scheme, rest, ok := strings.Cut(h.URL, "://")
	if !ok || (scheme != "mqtt" && scheme != "mqtts") || rest == "" || strings.ContainsAny(rest, "/ ") {
		bad("hall.url", "%q is not a broker address: use \"mqtt://HOST:1883\" or \"mqtts://HOST:8883\"", h.URL)
	}
	if table < 1 {
		bad("hall.table", "a hall needs this table's number: set hall.table (or table)")
	}
	if h.CAFile != "" && scheme != "mqtts" {
		bad("hall.ca_file", "%q is for a TLS broker: use an mqtts:// url (the broker's TLS listener, port 8883) or leave ca_file empty", h.CAFile)
	}
	if h.PasswordFile == "" {
		bad("hall.password_file", "empty: name the file holding the broker password (`hall init` writes the hall's credentials)")
	}
	return ps
}
