// Package wire is what the kiosks and the hall dashboard say to each other over MQTT: the topics of
// a hall and the JSON payloads on them (a table's retained state, its events, its assignment).
// Parsing a payload never panics: a bad one is an error that says why.
package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Root is the first level of every topic: tengen/HALL/...
const Root = "tengen"

// Topic kinds under tengen/HALL/table/N/.
const (
	KindState  = "state"  // retained: the table's current State
	KindEvents = "events" // one Event per journal record, QoS 1, not retained
	KindSGF    = "sgf"    // retained: the game's live SGF
)

// MaxPayload bounds what the dashboard accepts in one message (a 19x19 SGF of 400 moves with
// comments is well under it).
const MaxPayload = 1 << 20

// MaxTable is the highest table number (twice the biggest European Go Congress, with room).
const MaxTable = 9999

var hallName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

// ErrBadTopic is wrapped by ParseTopic for a topic that is not a table's.
var ErrBadTopic = errors.New("wire: not a table topic")

// ErrBadPayload is wrapped by the payload parsers.
var ErrBadPayload = errors.New("wire: bad payload")

// CheckHall returns an error unless name can be a hall's topic level (lower-case letters, digits,
// '-' and '_', at most 40, starting with a letter or digit).
func CheckHall(name string) error {
	if !hallName.MatchString(name) {
		return fmt.Errorf("hall name %q: use 1 to 40 lower-case letters, digits, '-' or '_'", name)
	}
	return nil
}

// TableTopic is the topic of one kind of a table's messages: tengen/HALL/table/N/KIND.
func TableTopic(hall string, table int, kind string) string {
	return Root + "/" + hall + "/table/" + strconv.Itoa(table) + "/" + kind
}

// TablePrefix is the topic filter of everything a table publishes: tengen/HALL/table/N/#.
func TablePrefix(hall string, table int) string {
	return Root + "/" + hall + "/table/" + strconv.Itoa(table) + "/#"
}

// AllTables is the topic filter of every table of a hall: tengen/HALL/table/+/+.
func AllTables(hall string) string { return Root + "/" + hall + "/table/+/+" }

// AssignTopic is the retained topic of a table's assignment (players, colours, handicap, komi,
// time control), which only the director publishes and only that table reads.
func AssignTopic(hall string, table int) string {
	return Root + "/" + hall + "/assign/" + strconv.Itoa(table)
}

// ParseTopic splits a table topic into its hall, table number and kind.
func ParseTopic(topic string) (hall string, table int, kind string, err error) {
	parts := strings.Split(topic, "/")
	if len(parts) != 5 || parts[0] != Root || parts[2] != "table" {
		return "", 0, "", fmt.Errorf("%w: %q", ErrBadTopic, topic)
	}
	if err := CheckHall(parts[1]); err != nil {
		return "", 0, "", fmt.Errorf("%w: %w", ErrBadTopic, err)
	}
	n, err := strconv.Atoi(parts[3])
	if err != nil || n < 1 || n > MaxTable || strconv.Itoa(n) != parts[3] {
		return "", 0, "", fmt.Errorf("%w: table %q is not a number from 1 to %d", ErrBadTopic, parts[3], MaxTable)
	}
	switch parts[4] {
	case KindState, KindEvents, KindSGF:
	default:
		return "", 0, "", fmt.Errorf("%w: unknown kind %q", ErrBadTopic, parts[4])
	}
	return parts[1], n, parts[4], nil
}

// Player is a player's name and rank.
type Player struct {
	Name string `json:"name"`
	Rank string `json:"rank,omitempty"`
}

// Side is one side's clock face.
type Side struct {
	Text       string `json:"text"`               // as the table's clock shows it: "4:59", "BY 3×0:30"
	MillisLeft int64  `json:"ms"`                 // main time, or the current period's, left at AsOf
	Overtime   bool   `json:"overtime,omitempty"` //
	Periods    int    `json:"periods,omitempty"`  // byo-yomi periods left
	Stones     int    `json:"stones,omitempty"`   // Canadian stones to play in the period
	Flagged    bool   `json:"flagged,omitempty"`  //
}

// Clock is both clocks at one instant.
type Clock struct {
	Black   Side      `json:"black"`
	White   Side      `json:"white"`
	Running string    `json:"running,omitempty"` // "B" or "W" whose clock runs; "" stopped or paused
	AsOf    time.Time `json:"asOf"`
}

// Verdict is one thing the referee said.
type Verdict struct {
	Kind       string    `json:"kind"`            // referee.VerdictKind's name: "move", "illegal", "camera", ...
	Color      string    `json:"color,omitempty"` // "B", "W" or ""
	Message    string    `json:"message"`         // in English
	MoveNumber int       `json:"moveNumber,omitempty"`
	At         time.Time `json:"at"`
}

// KindPINLocked is the kind of the alert the hall gets when a table's director PIN locks after
// repeated wrong PINs (the journal's "pin-locked" record; no referee verdict has it).
const KindPINLocked = "pin-locked"

// Alert reports whether the hall's director should see the verdict as an alert: an illegal move,
// a flag fall, a director call, a camera trouble, the director PIN locked after wrong PINs.
func (v Verdict) Alert() bool {
	switch v.Kind {
	case "illegal", "director", "camera", "flag", KindPINLocked:
		return true
	}
	return false
}

// State is a table's current state, retained on tengen/HALL/table/N/state.
type State struct {
	Hall     string    `json:"hall"`
	Table    int       `json:"table"`
	Game     string    `json:"game"` // the game's identity (its journal's first record), so a new game is told apart
	Seq      uint64    `json:"seq"`  // the last journal record this state reflects
	Phase    string    `json:"phase"`
	Event    string    `json:"event,omitempty"`
	Round    string    `json:"round,omitempty"`
	Rules    string    `json:"rules,omitempty"`
	Komi     float64   `json:"komi"`
	Handicap int       `json:"handicap,omitempty"`
	Size     int       `json:"size"`
	Black    Player    `json:"black"`
	White    Player    `json:"white"`
	Position string    `json:"position"`         // Size*Size characters '.', 'X' (black), 'O' (white), row by row from the top
	Moves    []string  `json:"moves"`            // every move in order as GTP: "D4", "pass"
	ToMove   string    `json:"toMove,omitempty"` // "B", "W" or "" when nobody may move
	Clock    *Clock    `json:"clock,omitempty"`
	Last     *Verdict  `json:"last,omitempty"`   // the latest verdict
	Alerts   []Verdict `json:"alerts,omitempty"` // the game's alert verdicts, oldest first (at most MaxAlerts)
	Result   string    `json:"result,omitempty"`
	Updated  time.Time `json:"updated"`
}

// GameIDLayout formats a game's identity, the UTC time of its journal's first record, at a fixed
// width so that a later game's identity sorts after an earlier one's.
const GameIDLayout = "20060102T150405.000000000Z"

// MaxAlerts is how many alerts a State carries.
const MaxAlerts = 20

// Event is one journal record of a table, published once on tengen/HALL/table/N/events.
type Event struct {
	Game     string    `json:"game"`
	Seq      uint64    `json:"seq"`
	Kind     string    `json:"kind"` // the journal record's kind: "setup", "press", "obs", "out", ...
	At       time.Time `json:"at"`
	Color    string    `json:"color,omitempty"`
	Moves    []string  `json:"moves,omitempty"` // moves recorded by this record, as "B D4", "W pass"
	Verdicts []Verdict `json:"verdicts,omitempty"`
	Clock    *Clock    `json:"clock,omitempty"`
}

// Assignment is a table's pairing for a round, retained on tengen/HALL/assign/N by the director.
type Assignment struct {
	Event       string  `json:"event,omitempty"`
	Round       int     `json:"round"`
	Table       int     `json:"table"`
	Black       Player  `json:"black"`
	White       Player  `json:"white"`
	Handicap    int     `json:"handicap,omitempty"`
	Komi        float64 `json:"komi"`
	TimeControl string  `json:"timeControl,omitempty"`
	Size        int     `json:"size,omitempty"`
}

// ParseState reads a State payload and checks it against the topic's hall and table.
func ParseState(b []byte, hall string, table int) (State, error) {
	var s State
	if err := decode(b, &s); err != nil {
		return State{}, err
	}
	if s.Hall != hall || s.Table != table {
		return State{}, fmt.Errorf("%w: state of %s table %d on the topic of %s table %d", ErrBadPayload, s.Hall, s.Table, hall, table)
	}
	if s.Size < 0 || s.Size > 25 {
		return State{}, fmt.Errorf("%w: board size %d", ErrBadPayload, s.Size)
	}
	if s.Position != "" && len(s.Position) != s.Size*s.Size {
		return State{}, fmt.Errorf("%w: position of %d points for a %dx%d board", ErrBadPayload, len(s.Position), s.Size, s.Size)
	}
	for i := 0; i < len(s.Position); i++ {
		if c := s.Position[i]; c != '.' && c != 'X' && c != 'O' {
			return State{}, fmt.Errorf("%w: position point %d is %q", ErrBadPayload, i, c)
		}
	}
	return s, nil
}

// ParseEvent reads an Event payload.
func ParseEvent(b []byte) (Event, error) {
	var e Event
	if err := decode(b, &e); err != nil {
		return Event{}, err
	}
	if e.Seq == 0 {
		return Event{}, fmt.Errorf("%w: event without a sequence number", ErrBadPayload)
	}
	if e.Game == "" {
		return Event{}, fmt.Errorf("%w: event without a game", ErrBadPayload)
	}
	return e, nil
}

// ParseAssignment reads an Assignment payload.
func ParseAssignment(b []byte) (Assignment, error) {
	var a Assignment
	if err := decode(b, &a); err != nil {
		return Assignment{}, err
	}
	if a.Table < 1 || a.Table > MaxTable {
		return Assignment{}, fmt.Errorf("%w: table %d", ErrBadPayload, a.Table)
	}
	return a, nil
}

func decode(b []byte, v any) error {
	if len(b) > MaxPayload {
		return fmt.Errorf("%w: %d bytes, over %d", ErrBadPayload, len(b), MaxPayload)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%w: %w", ErrBadPayload, err)
	}
	return nil
}
