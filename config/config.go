// Package config reads the kiosk's configuration file, /etc/tengen/kiosk.toml on a tournament table.
//
// Every setting has a default (Default), so an empty or missing file is a working configuration.
// Decoding is strict: an unknown key, a value of the wrong type or an out-of-range value is an *Error
// naming the key and, where it can be found, the line, so the kiosk can show the director exactly what
// to fix instead of running with a setting silently ignored.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// DefaultPath is where the kiosk looks for its configuration on a table (systemd's
// ConfigurationDirectory=tengen).
const DefaultPath = "/etc/tengen/kiosk.toml"

// DefaultStateDir is where the kiosk keeps its journal, games and calibration (systemd's
// StateDirectory=tengen).
const DefaultStateDir = "/var/lib/tengen"

// MaxFileSize bounds how much of a configuration file is read; a real one is a few kilobytes.
const MaxFileSize = 1 << 20

// Config is the whole kiosk configuration.
type Config struct {
	// Table is the table number shown on screen and written into game records (0 = none).
	Table int `toml:"table"`
	// Event is the tournament name written into game records (SGF EV).
	Event string `toml:"event"`
	// Language is the interface language: "en", "pl", "bg", "ru" or "cs" (another falls back to English).
	Language string `toml:"language"`

	Camera   Camera   `toml:"camera"`
	Pins     Pins     `toml:"pins"`
	Display  Display  `toml:"display"`
	Game     Game     `toml:"game"`
	Director Director `toml:"director"`
	Alerts   Alerts   `toml:"alerts"`
	Paths    Paths    `toml:"paths"`
	Hall     Hall     `toml:"hall"`
}

// DefaultHallName is the hall's name (its MQTT topic level) when neither `hall init` nor the
// file names one.
const DefaultHallName = "hall"

// Hall connects the table to a tournament hall's MQTT broker, for the hall dashboard: off while
// URL is empty.
type Hall struct {
	// URL is the hall's broker, "mqtt://HOST:1883" or "mqtts://HOST:8883"; "" = no hall.
	URL string `toml:"url"`
	// Name is the hall's name as `hall init --hall` set it (its topic level).
	Name string `toml:"name"`
	// Table is the table number in the hall; 0 = the top-level table.
	Table int `toml:"table"`
	// User is the broker user; "" = "table-N".
	User string `toml:"user"`
	// PasswordFile holds the user's password: the hall's credentials file or a copy of its line.
	PasswordFile string `toml:"password_file"`
	// CAFile is the PEM certificate of the authority that signed the broker's TLS certificate,
	// for an mqtts:// url: the table trusts it (and the system's authorities no longer); "" = the
	// system's authorities.
	CAFile string `toml:"ca_file"`
}

// HallTable is the table number the hall knows this table by.
func (c Config) HallTable() int {
	if c.Hall.Table != 0 {
		return c.Hall.Table
	}
	return c.Table
}

// HallUser is the broker user of this table.
func (c Config) HallUser() string {
	if c.Hall.User != "" {
		return c.Hall.User
	}
	return "table-" + strconv.Itoa(c.HallTable())
}

// AlertEvents returns the events that can ring the buzzer and flash the LED.
func AlertEvents() []string { return []string{"illegal", "flag", "byo-yomi", "camera", "director"} }

// Alerts says what rings the buzzer and flashes the LED (pins.buzzer, pins.led).
type Alerts struct {
	// Buzzer sounds the buzzer too; off, only the LED flashes (a tournament hall is silent).
	Buzzer bool `toml:"buzzer"`
	// Events lists the events that alert: "illegal" (an illegal move), "flag" (a flag fell),
	// "byo-yomi" (each of the last ten seconds of a period), "camera" (no picture, or the board
	// moved), "director" (a player called the director).
	Events []string `toml:"events"`
}

// Camera says which camera watches the board and what it should deliver.
type Camera struct {
	// Source is "auto" (the Pi camera module through libcamera if present, else the first USB
	// webcam), "demo" (the built-in demo game), "libcamera", a V4L2 device such as "/dev/video0",
	// or a device index such as "0".
	Source string `toml:"source"`
	// Width and Height are the requested frame size in pixels.
	Width  int `toml:"width"`
	Height int `toml:"height"`
	// FPS is the requested frame rate.
	FPS int `toml:"fps"`
}

// Pins names the GPIO lines (BCM numbering, "GPIO17") of the buttons and outputs. An empty name
// means the function is not wired.
type Pins struct {
	Black    string `toml:"black"`    // Black's clock button
	White    string `toml:"white"`    // White's clock button
	Pass     string `toml:"pass"`     // the pass button
	Director string `toml:"director"` // optional director call button
	Buzzer   string `toml:"buzzer"`   // optional buzzer output (time trouble, illegal move)
	LED      string `toml:"led"`      // optional LED output
	// Pull is "up" (buttons connect the pin to ground, the usual wiring) or "down".
	Pull string `toml:"pull"`
	// Debounce is how long a button level must be stable to count as a press.
	Debounce time.Duration `toml:"debounce"`
}

// Display configures the kiosk window.
type Display struct {
	// Fullscreen makes the kiosk cover the whole screen (the table setting); false opens a window.
	Fullscreen bool `toml:"fullscreen"`
	// Width and Height are the window size when not full screen.
	Width  int `toml:"width"`
	Height int `toml:"height"`
	// SystemFonts lets text fall back to the fonts installed on the machine for characters the
	// kiosk's own font lacks (it covers Latin, Greek and Cyrillic). Off, every screen looks the same
	// on every machine and the kiosk needs about 5 MB less memory.
	SystemFonts bool `toml:"system_fonts"`
}

// Game holds the defaults for a new game at this table; the director can change them per game.
type Game struct {
	// Rules is a rules preset name: "aga", "aga-territory", "japanese", "chinese", "tromp-taylor",
	// "new-zealand", "basic".
	Rules string `toml:"rules"`
	// Size is the board size (9, 13 or 19 on a real table; 2..25 allowed).
	Size int `toml:"size"`
	// Komi overrides the preset's komi when set.
	Komi *float64 `toml:"komi"`
	// Handicap is the default number of handicap stones (0 = even game).
	Handicap int `toml:"handicap"`
	// TimeControl is a time control such as "60m+5x30s" (main time plus byo-yomi periods).
	TimeControl string `toml:"time_control"`
	// IllegalMove is what an illegal move costs: "retract-pass" (AGA rule 8), "loss" (Japanese
	// rules art. 14), "warning" (the stone is taken back and the offender plays again) or
	// "director" (play halts for the director); "" = the rules preset's own (loss under Japanese
	// rules, retract-pass under the others).
	IllegalMove string `toml:"illegal_move"`
}

// Director protects the director's screens.
type Director struct {
	// PINHash is the director PIN hashed with HashPIN; empty means no PIN has been set yet.
	PINHash string `toml:"pin_hash"`
}

// Paths says where the kiosk writes.
type Paths struct {
	// JournalDir holds the event journal that lets a restarted kiosk resume the game.
	JournalDir string `toml:"journal_dir"`
	// GamesDir receives the finished games as SGF.
	GamesDir string `toml:"games_dir"`
	// Calibration is the board calibration file written by `kiosk calibrate`.
	Calibration string `toml:"calibration"`
}

// Default returns the configuration used for every key the file leaves out.
func Default() Config {
	return Config{
		Language: "en",
		Camera:   Camera{Source: "auto", Width: 1920, Height: 1080, FPS: 15},
		Pins: Pins{
			Black: "GPIO17", White: "GPIO27", Pass: "GPIO22", Director: "GPIO23",
			Buzzer: "GPIO24", LED: "GPIO25", Pull: "up", Debounce: 20 * time.Millisecond,
		},
		Display: Display{Fullscreen: true, Width: 1280, Height: 800},
		Game:    Game{Rules: "japanese", Size: 19, TimeControl: "60m+5x30s"},
		Alerts:  Alerts{Events: AlertEvents()},
		Hall:    Hall{Name: DefaultHallName},
		Paths: Paths{
			JournalDir:  filepath.Join(DefaultStateDir, "journal"),
			GamesDir:    filepath.Join(DefaultStateDir, "games"),
			Calibration: filepath.Join(DefaultStateDir, "calibration.json"),
		},
	}
}

// Problem is one thing wrong with a configuration file.
type Problem struct {
	// Key is the dotted TOML key, e.g. "pins.black"; empty for a syntax error before any key.
	Key string
	// Line is the 1-based line of the key or error, 0 when it is not known.
	Line int
	// Msg says what is wrong and what is expected, in plain language.
	Msg string
}

func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", p.Line)
	}
	if p.Key != "" {
		fmt.Fprintf(&b, "%s: ", p.Key)
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Error is a configuration file the kiosk cannot use. It lists every problem found so the director
// can fix them all in one go; the kiosk shows it on screen (Title and Problems) instead of starting.
type Error struct {
	// Path is the file read ("" when parsed from memory without a name).
	Path string
	// Problems are sorted by line.
	Problems []Problem
	// Err is an underlying error (reading the file), if any.
	Err error
}

// Title is a one-line heading for the on-screen error.
func (e *Error) Title() string {
	name := e.Path
	if name == "" {
		name = "the configuration"
	}
	if e.Err != nil {
		return "Cannot read " + name
	}
	return fmt.Sprintf("%s has %d problem(s)", name, len(e.Problems))
}

func (e *Error) Error() string {
	var b strings.Builder
	name := e.Path
	if name == "" {
		name = "config"
	}
	if e.Err != nil {
		fmt.Fprintf(&b, "%s: %v", name, e.Err)
	}
	for i, p := range e.Problems {
		if i > 0 || e.Err != nil {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s", name, p)
	}
	return b.String()
}

// Unwrap returns the underlying read error, so errors.Is(err, fs.ErrNotExist) works.
func (e *Error) Unwrap() error { return e.Err }

// Load reads and checks the configuration file at path. Every failure is an *Error.
func Load(path string) (Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return Config{}, &Error{Path: path, Err: err}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return Config{}, &Error{Path: path, Err: err}
	}
	if len(data) > MaxFileSize {
		return Config{}, &Error{Path: path, Err: fmt.Errorf("larger than %d bytes: not a configuration file", MaxFileSize)}
	}
	return Parse(data, path)
}

// LoadIfExists is Load, except that a missing file yields Default() and found=false: a development
// machine has no /etc/tengen.
func LoadIfExists(path string) (c Config, found bool, err error) {
	c, err = Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), false, nil
	}
	return c, err == nil, err
}

// Locate returns the configuration path: $TENGEN_CONFIG, else kiosk.toml in systemd's
// $CONFIGURATION_DIRECTORY, else DefaultPath. getenv is os.Getenv outside tests.
func Locate(getenv func(string) string) string {
	if p := getenv("TENGEN_CONFIG"); p != "" {
		return p
	}
	if d := getenv("CONFIGURATION_DIRECTORY"); d != "" {
		// systemd passes a colon-separated list; ours has one entry.
		d, _, _ = strings.Cut(d, ":")
		return filepath.Join(d, "kiosk.toml")
	}
	return DefaultPath
}

// Parse decodes and checks a configuration file's contents; name is used in error messages.
// Keys the file leaves out keep their Default() values. Every failure is an *Error.
func Parse(data []byte, name string) (Config, error) {
	if !utf8Valid(data) {
		return Config{}, &Error{Path: name, Problems: []Problem{{Msg: "the file is not UTF-8 text"}}}
	}
	if p := checkNesting(data); p != nil {
		return Config{}, &Error{Path: name, Problems: []Problem{*p}}
	}
	c, md, data, probs, ok := decodeAll(data)
	if !ok {
		sortProblems(probs)
		return Config{}, &Error{Path: name, Problems: probs}
	}
	lines := keyLines(data)
	for _, k := range md.Undecoded() {
		key := k.String()
		probs = append(probs, Problem{Key: key, Line: lines.find(key), Msg: "unknown key" + suggest(key)})
	}
	for _, p := range c.check() {
		p.Line = lines.find(p.Key)
		probs = append(probs, p)
	}
	if len(probs) > 0 {
		sortProblems(probs)
		return Config{}, &Error{Path: name, Problems: probs}
	}
	return c, nil
}

func utf8Valid(b []byte) bool { return strings.ToValidUTF8(string(b), "\uFFFD") == string(b) }

var lastKeyRe = regexp.MustCompile(`last key "([^"]*)"`)
var lineRe = regexp.MustCompile(`line (\d+)`)

// maxTypeProblems bounds how many wrong-type values decodeAll looks for.
const maxTypeProblems = 20

// decodeAll decodes data over the defaults. The decoder stops at the first value of the wrong
// type; so that the director can fix them all in one go, the line of each such value is blanked
// and the file decoded again, and the values found are returned as problems with the
// configuration decoded without them (and the data it was decoded from), to be checked for the
// file's other problems. ok is false when the file cannot be read past a problem (a syntax error,
// or too many wrong types): probs are then all that can be said.
func decodeAll(data []byte) (c Config, md toml.MetaData, decoded []byte, probs []Problem, ok bool) {
	for {
		c = Default()
		var err error
		md, err = toml.NewDecoder(bytes.NewReader(data)).Decode(&c)
		if err == nil {
			return c, md, data, probs, true
		}
		p := decodeProblem(err, data)
		if !isTypeError(err) {
			if len(probs) == 0 {
				probs = append(probs, p) // a blanked line that was part of a longer value says nothing
			}
			return c, md, data, probs, false
		}
		probs = append(probs, p)
		if p.Line <= 0 || len(probs) >= maxTypeProblems {
			return c, md, data, probs, false
		}
		data = blankLine(data, p.Line)
	}
}

// isTypeError tells a value of the wrong type (the decoder goes on after it once its line is
// blanked) from a syntax error (what follows cannot be read).
func isTypeError(err error) bool { return strings.Contains(err.Error(), "incompatible types") }

// blankLine returns a copy of data with the 1-based line's text replaced by spaces (its newline
// kept, so every other line keeps its number).
func blankLine(data []byte, line int) []byte {
	out := bytes.Clone(data)
	start := 0
	for n := 1; n < line; n++ {
		i := bytes.IndexByte(out[start:], '\n')
		if i < 0 {
			return out
		}
		start += i + 1
	}
	for i := start; i < len(out) && out[i] != '\n'; i++ {
		out[i] = ' '
	}
	return out
}

// decodeProblem turns a TOML syntax or type error into a Problem with its key and line.
func decodeProblem(err error, data []byte) Problem {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		line := pe.Position.Line
		if st := pe.Position.Start; st >= 0 && st < len(data) {
			// The lexer counts the newline that ends a bad line as the next line; count ourselves.
			line = bytes.Count(data[:st], []byte("\n")) + 1
		}
		return Problem{Key: pe.LastKey, Line: line, Msg: pe.Message}
	}
	// Type mismatches come as plain errors: "toml: line 3 (last key "pins.black"): incompatible types: ...".
	msg := err.Error()
	p := Problem{}
	if m := lastKeyRe.FindStringSubmatch(msg); m != nil {
		p.Key = m[1]
	}
	if m := lineRe.FindStringSubmatch(msg); m != nil {
		p.Line, _ = strconv.Atoi(m[1])
	} else if p.Key != "" {
		p.Line = keyLines(data).find(p.Key)
	}
	if i := strings.LastIndex(msg, "): "); i >= 0 {
		msg = msg[i+3:]
	}
	p.Msg = typeWords(strings.TrimPrefix(msg, "toml: "))
	return p
}

var typeRe = regexp.MustCompile(`TOML value has type (\w+); destination has type (\w+)`)

// typeWords says a TOML type mismatch in people's words: "should be a whole number, not text".
func typeWords(msg string) string {
	m := typeRe.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	kind := func(t string) string {
		switch t {
		case "string":
			return "text in quotes"
		case "integer", "int", "int64", "uint", "uint8", "int8", "int16", "int32", "uint16", "uint32", "uint64":
			return "a whole number"
		case "float", "float64", "float32":
			return "a number"
		case "bool", "boolean":
			return "true or false"
		case "slice", "array":
			return "a list in [ ]"
		case "map", "struct", "table":
			return "a table"
		}
		return t
	}
	return "should be " + kind(m[2]) + ", not " + kind(m[1])
}

// suggest names the known key closest to an unknown one ("did you mean pins.black?").
func suggest(key string) string {
	best, bestD := "", 3
	for _, k := range knownKeys {
		if d := editDistance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + best + "?)"
}

// knownKeys lists every key the file may contain, for suggestions.
var knownKeys = []string{
	"table", "event", "language",
	"camera", "camera.source", "camera.width", "camera.height", "camera.fps",
	"pins", "pins.black", "pins.white", "pins.pass", "pins.director", "pins.buzzer", "pins.led", "pins.pull", "pins.debounce",
	"display", "display.fullscreen", "display.width", "display.height", "display.system_fonts",
	"game", "game.rules", "game.size", "game.komi", "game.handicap", "game.time_control",
	"director", "director.pin_hash",
	"paths", "paths.journal_dir", "paths.games_dir", "paths.calibration",
	"hall", "hall.url", "hall.name", "hall.table", "hall.user", "hall.password_file", "hall.ca_file",
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func sortProblems(ps []Problem) {
	// Insertion sort by line (stable); lists are short. Unknown lines (0) go last.
	less := func(a, b Problem) bool {
		if a.Line == 0 || b.Line == 0 {
			return a.Line != 0 && b.Line == 0
		}
		return a.Line < b.Line
	}
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0 && less(ps[j], ps[j-1]); j-- {
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}
