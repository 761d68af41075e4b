// Package replay runs a recorded session (frames and a script of button presses with their
// times, or the built-in demo) through a referee.Table headless, on a virtual clock, so that a
// whole game can be refereed, recorded and checked without a camera or buttons. A run killed at
// any moment and started again on the same journal resumes where it stopped and produces the
// same record.
//
// # Press-script format
//
// A press script is a text file (by convention presses.txt beside the frames), one item per
// line; '#' starts a comment. Directive lines set up the game:
//
//	size 19                  board size (default 19)
//	rules aga                engine preset (default aga)
//	komi 0.5                 komi (default: the preset's)
//	handicap 5 [free]        handicap stones, on the fixed points or placed freely
//	time 60m+5x30s           time control (clock.ParseControlOrPreset; default none)
//	policy retract-pass      illegal-move policy: retract-pass or director
//	black Name [rank]        players (rank = last word when it looks like 3k, 1d, 2p)
//	white Name [rank]
//	event Spring Open        event, round and table
//	round 3
//	table 12
//	date 2026-03-14          date of the game (default: that of start)
//	start 2026-03-14T10:00:00Z  virtual time of the first frame (default 2026-01-01T09:00:00Z)
//	interval 2s              how long each named frame is shown (default 2s)
//
// Every other line is an event: a frame reference followed by an optional action:
//
//	<frame> [action]
//
// <frame> is either a frame's file name relative to the session directory (images, or .txt board
// grids), or a time in milliseconds from the start (all digits). Frames named in the script are
// shown in the order they first appear, each for the interval; a script that names no frame
// shows every image of the directory in name order. An action after a frame name happens near
// the end of that frame's interval (when the board has been still long enough to be stable);
// after a time, at that time. Actions:
//
//	black | white            the player's clock button (a move, the start, or a confirmation)
//	pass                     the pass button
//	dead D4                  a tap on the counting screen: toggle the group at D4
//	resign black|white       a resignation
//	resume black|white       a request to resume play after the stop
//	confirm black|white      a confirmation of the marking (same as the clock button)
//	-                        nothing: just show the frame
package replay

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee"
)

// DefaultStart is the virtual time of a session's first frame when the script gives none.
var DefaultStart = time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)

// ActionKind is what a scripted action does.
type ActionKind int

// The scripted actions.
const (
	Press   ActionKind = iota + 1 // a button press
	Dead                          // toggle the group at Point
	Resign                        // Color resigns
	Resume                        // Color asks to resume play
	Confirm                       // Color confirms the marking
)

// Action is one scripted action.
type Action struct {
	Line   int           // line in the script (for messages)
	Frame  int           // index into Script.Frames after which it happens; -1 when timed
	At     time.Duration // from the start; set by Timeline for frame actions
	Kind   ActionKind
	Button clock.Button // Press
	Color  engine.Color // Resign, Resume, Confirm
	Point  string       // Dead: a GTP vertex
}

// Script is a parsed press script.
type Script struct {
	Setup    referee.Setup
	Start    time.Time
	Interval time.Duration
	Frames   []string // named frames in order of first appearance
	Actions  []Action // in script order
}

// SyntaxError is a script line that cannot be read.
type SyntaxError struct {
	Line int
	Msg  string
}

// Error names the line and the problem.
func (e *SyntaxError) Error() string { return fmt.Sprintf("press script line %d: %s", e.Line, e.Msg) }

// MaxScriptLine bounds a script line's length.
const MaxScriptLine = 4096

// Parse reads a press script.
func Parse(r io.Reader) (*Script, error) {
	s := &Script{Start: DefaultStart, Interval: 2 * time.Second}
	s.Setup.Rules = "aga"
	s.Setup.Size = 19
	frameIndex := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1024), MaxScriptLine)
	n := 0
	dateSet := false
	for sc.Scan() {
		n++
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		bad := func(format string, a ...any) error { return &SyntaxError{Line: n, Msg: fmt.Sprintf(format, a...)} }
		rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0]))
		arg := func() (string, error) {
			if len(f) != 2 {
				return "", bad("%s takes one value", f[0])
			}
			return f[1], nil
		}
		switch f[0] {
		case "size":
			v, err := arg()
			if err != nil {
				return nil, err
			}
			size, err := strconv.Atoi(v)
			if err != nil || size < 2 || size > 25 {
				return nil, bad("size %q: want 2..25", v)
			}
			s.Setup.Size = size
		case "rules":
			v, err := arg()
			if err != nil {
				return nil, err
			}
			if _, err := engine.Preset(v); err != nil {
				return nil, bad("%v", err)
			}
			s.Setup.Rules = v
		case "komi":
			v, err := arg()
			if err != nil {
				return nil, err
			}
			k, err := strconv.ParseFloat(v, 64)
			if err != nil || k != k || k < -1000 || k > 1000 {
				return nil, bad("komi %q is not a number", v)
			}
			s.Setup.Komi = &k
		case "handicap":
			if len(f) < 2 || len(f) > 3 || (len(f) == 3 && f[2] != "free") {
				return nil, bad("handicap N [free]")
			}
			h, err := strconv.Atoi(f[1])
			if err != nil || h < 0 || h > 361 {
				return nil, bad("handicap %q", f[1])
			}
			s.Setup.Handicap, s.Setup.FreeHandicap = h, len(f) == 3
		case "time":
			v, err := arg()
			if err != nil {
				return nil, err
			}
			if _, err := clock.ParseControlOrPreset(v); err != nil {
				return nil, bad("%v", err)
			}
			s.Setup.TimeControl = v
		case "policy":
			v, err := arg()
			if err != nil {
				return nil, err
			}
			p := referee.Policy(v)
			if p != referee.PolicyRetractPass && p != referee.PolicyDirector {
				return nil, bad("policy %q: want retract-pass or director", v)
			}
			s.Setup.Policy = p
		case "black", "white":
			if len(f) == 1 {
				return nil, bad("%s needs a player name", f[0])
			}
			p := referee.Player{Name: rest}
			if len(f) > 2 && isRank(f[len(f)-1]) {
				p.Rank = f[len(f)-1]
				p.Name = strings.TrimSpace(strings.TrimSuffix(rest, f[len(f)-1]))
			}
			if f[0] == "black" {
				s.Setup.Black = p
			} else {
				s.Setup.White = p
			}
		case "event":
			s.Setup.Event = rest
		case "round":
			s.Setup.Round = rest
		case "table":
			s.Setup.Table = rest
		case "date":
			v, err := arg()
			if err != nil {
				return nil, err
			}
			if _, err := time.Parse("2006-01-02", v); err != nil {
				return nil, bad("date %q: want YYYY-MM-DD", v)
			}
			s.Setup.Date, dateSet = v, true
		case "start":
			v, err := arg()
			if err != nil {
				return nil, err
			}
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return nil, bad("start %q: want RFC 3339 time", v)
			}
			s.Start = t
		case "interval":
			v, err := arg()
			if err != nil {
				return nil, err
			}
			d, err := time.ParseDuration(v)
			if err != nil || d < 500*time.Millisecond || d > time.Hour {
				return nil, bad("interval %q: want a duration from 500ms to 1h", v)
			}
			s.Interval = d
		default:
			a, err := parseEvent(f, n)
			if err != nil {
				return nil, err
			}
			if a.Frame >= 0 {
				name := f[0]
				idx, ok := frameIndex[name]
				if !ok {
					idx = len(s.Frames)
					frameIndex[name] = idx
					s.Frames = append(s.Frames, name)
				}
				a.Frame = idx
			}
			if a.Kind != 0 {
				s.Actions = append(s.Actions, a)
			}
			continue
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &SyntaxError{Line: n + 1, Msg: "line too long"}
		}
		return nil, fmt.Errorf("press script: %w", err)
	}
	if !dateSet {
		s.Setup.Date = s.Start.UTC().Format("2006-01-02")
	}
	return s, nil
}

func isRank(s string) bool {
	if len(s) < 2 || len(s) > 3 {
		return false
	}
	last := s[len(s)-1]
	if last != 'k' && last != 'd' && last != 'p' && last != 'K' && last != 'D' && last != 'P' {
		return false
	}
	_, err := strconv.Atoi(s[:len(s)-1])
	return err == nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func parseEvent(f []string, line int) (Action, error) {
	bad := func(format string, a ...any) error {
		return &SyntaxError{Line: line, Msg: fmt.Sprintf(format, a...)}
	}
	a := Action{Line: line, Frame: 0}
	ref := f[0]
	switch {
	case isDigits(ref):
		ms, err := strconv.ParseInt(ref, 10, 64)
		if err != nil || ms > int64(100*time.Hour/time.Millisecond) {
			return a, bad("time %q out of range", ref)
		}
		a.Frame = -1
		a.At = time.Duration(ms) * time.Millisecond
	case strings.ContainsAny(ref, "./"):
		if strings.Contains(ref, "..") || strings.HasPrefix(ref, "/") {
			return a, bad("frame %q must be a path inside the session directory", ref)
		}
	default:
		return a, bad("unknown directive or frame %q (frames are file names with an extension, or times in ms)", ref)
	}
	if len(f) == 1 || (len(f) == 2 && f[1] == "-") {
		return a, nil
	}
	color := func() (engine.Color, error) {
		if len(f) != 3 {
			return 0, bad("%s needs black or white", f[1])
		}
		switch f[2] {
		case "black":
			return engine.Black, nil
		case "white":
			return engine.White, nil
		}
		return 0, bad("%s %q: want black or white", f[1], f[2])
	}
	var err error
	switch f[1] {
	case "black", "white", "pass":
		if len(f) != 2 {
			return a, bad("%s takes no argument", f[1])
		}
		a.Kind = Press
		a.Button, _ = clock.ParseButton(f[1])
	case "dead":
		if len(f) != 3 {
			return a, bad("dead needs a point, e.g. dead D4")
		}
		if _, err := engine.ParsePoint(f[2], 25); err != nil {
			return a, bad("dead %q: %v", f[2], err)
		}
		a.Kind, a.Point = Dead, f[2]
	case "resign":
		a.Kind = Resign
		a.Color, err = color()
	case "resume":
		a.Kind = Resume
		a.Color, err = color()
	case "confirm":
		a.Kind = Confirm
		a.Color, err = color()
	default:
		return a, bad("unknown action %q (black, white, pass, dead, resign, resume, confirm, -)", f[1])
	}
	return a, err
}
