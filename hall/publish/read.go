package publish

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/engine/sgf"
	"tengen/hall/wire"
	"tengen/referee"
	"tengen/referee/journal"
)

// record is the part of a referee journal record the hall publishes (the referee's own record
// type is internal; its JSON field names are the journal's file format). Boards, probabilities
// and presses' details stay at the table.
type record struct {
	Seq      uint64            `json:"seq"`
	Kind     string            `json:"k"`
	At       time.Time         `json:"at"`
	Setup    *referee.Setup    `json:"setup,omitempty"`
	Color    engine.Color      `json:"color,omitzero"`
	Verdicts []referee.Verdict `json:"verdicts,omitempty"`
	Moves    []string          `json:"moves,omitempty"`
	Clock    *clock.State      `json:"clock,omitempty"`
	Lockout  time.Duration     `json:"lockout,omitempty"` // "pin-locked": how long every PIN is refused
	Wrong    int               `json:"wrong,omitempty"`   // "pin-locked": the wrong PINs that locked it
}

// ErrBadRecord is wrapped by parseRecord.
var ErrBadRecord = errors.New("publish: unreadable journal record")

// parseRecord reads one journal payload.
func parseRecord(b []byte) (record, error) {
	var r record
	if err := json.Unmarshal(b, &r); err != nil {
		return record{}, fmt.Errorf("%w: %w", ErrBadRecord, err)
	}
	if r.Seq == 0 {
		return record{}, fmt.Errorf("%w: no sequence number", ErrBadRecord)
	}
	return r, nil
}

// tail reads a journal file as it grows: each call returns the whole records appended since the
// last, and starts again from the top when the file was replaced (a new game) or shrank.
type tail struct {
	path string
	info os.FileInfo
	off  int64 // the good prefix read so far, header included
}

// next returns the records appended since the last call; reset says the file is another one
// (its records start from the first).
func (t *tail) next() (recs []record, reset bool, err error) {
	f, err := os.Open(t.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	if t.info == nil || !os.SameFile(t.info, st) || st.Size() < t.off {
		reset = t.info != nil
		t.info, t.off = st, 0
	}
	t.info = st
	from := max(t.off, int64(len(journal.Magic)))
	if st.Size() <= from {
		return nil, reset, nil
	}
	buf := make([]byte, st.Size()-from)
	n, err := f.ReadAt(buf, from)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, reset, err
	}
	if t.off == 0 {
		head := make([]byte, len(journal.Magic))
		if _, err := f.ReadAt(head, 0); err != nil || string(head) != journal.Magic {
			return nil, reset, fmt.Errorf("%s: %w", t.path, journal.ErrNotJournal)
		}
	}
	image := append([]byte(journal.Magic), buf[:n]...)
	payloads, good, _ := journal.Decode(image) // a torn tail is a record still being written: read next time
	t.off = from + good - int64(len(journal.Magic))
	for _, p := range payloads {
		r, err := parseRecord(p)
		if err != nil {
			return recs, reset, err
		}
		recs = append(recs, r)
	}
	return recs, reset, nil
}

// game folds a game's journal records into what the hall sees of it.
type game struct {
	id     string // the first record's time: a new game's journal starts a new id
	seq    uint64 // the last record folded in
	setup  *referee.Setup
	clock  *clock.State
	last   *wire.Verdict
	alerts []wire.Verdict
	result string
}

func (g *game) add(r record) {
	if g.id == "" {
		g.id = r.At.UTC().Format(wire.GameIDLayout)
	}
	g.seq = r.Seq
	if r.Setup != nil {
		s := *r.Setup
		g.setup = &s
	}
	if r.Clock != nil {
		c := *r.Clock
		g.clock = &c
	}
	if r.Kind == "flag" {
		g.alert(wire.Verdict{Kind: "flag", Color: colorLetter(r.Color), Message: colorName(r.Color) + "'s flag fell", At: r.At})
	}
	if r.Kind == "pin-locked" {
		g.alert(wire.Verdict{Kind: wire.KindPINLocked, Message: pinLockedMessage(r.Wrong, r.Lockout), At: r.At})
	}
	for _, v := range r.Verdicts {
		w := verdict(v)
		g.last = &w
		if w.Alert() {
			g.alert(w)
		}
	}
}

// pinLockedMessage is the hall's alert for a lock of the table's director PIN (in English, like
// the dashboard's other alerts): "Director PIN locked for 1 min after 5 wrong PINs".
func pinLockedMessage(wrong int, lockout time.Duration) string {
	msg := "Director PIN locked"
	if lockout > 0 {
		if lockout < time.Minute {
			msg += fmt.Sprintf(" for %d s", int(lockout.Round(time.Second)/time.Second))
		} else {
			msg += fmt.Sprintf(" for %d min", int((lockout+time.Minute-1)/time.Minute))
		}
	}
	switch {
	case wrong == 1:
		msg += " after 1 wrong PIN"
	case wrong > 1:
		msg += fmt.Sprintf(" after %d wrong PINs", wrong)
	}
	return msg
}

func (g *game) alert(v wire.Verdict) {
	g.alerts = append(g.alerts, v)
	if len(g.alerts) > wire.MaxAlerts {
		g.alerts = g.alerts[len(g.alerts)-wire.MaxAlerts:]
	}
}

func verdict(v referee.Verdict) wire.Verdict {
	return wire.Verdict{Kind: v.Kind.String(), Color: colorLetter(v.Color), Message: v.Message, MoveNumber: v.MoveNumber, At: v.At}
}

func colorLetter(c engine.Color) string {
	switch c {
	case engine.Black:
		return "B"
	case engine.White:
		return "W"
	}
	return ""
}

func colorName(c engine.Color) string {
	switch c {
	case engine.Black:
		return "Black"
	case engine.White:
		return "White"
	}
	return "?"
}

func wireClock(st *clock.State) *wire.Clock {
	if st == nil {
		return nil
	}
	side := func(s clock.Side) wire.Side {
		d := clock.DisplayOf(*st, s)
		return wire.Side{Text: d.Text, MillisLeft: d.Remaining.Milliseconds(), Overtime: d.InOvertime,
			Periods: d.Periods, Stones: d.Stones, Flagged: d.Flagged}
	}
	c := &wire.Clock{Black: side(clock.Black), White: side(clock.White), AsOf: st.AsOf}
	if st.Running {
		if st.ToMove == clock.White {
			c.Running = "W"
		} else {
			c.Running = "B"
		}
	}
	return c
}

// event is the record as the hall's events topic carries it.
func (g *game) event(r record) wire.Event {
	e := wire.Event{Game: g.id, Seq: r.Seq, Kind: r.Kind, At: r.At, Color: colorLetter(r.Color), Moves: r.Moves, Clock: wireClock(r.Clock)}
	for _, v := range r.Verdicts {
		e.Verdicts = append(e.Verdicts, verdict(v))
	}
	return e
}

// state is the table's retained state: the journal's fold, and the position and moves of the
// game's SGF (what the referee recorded, director's corrections included).
func (g *game) state(hall string, table int, sgfData []byte) wire.State {
	s := wire.State{Hall: hall, Table: table, Game: g.id, Seq: g.seq, Phase: "setup", Clock: wireClock(g.clock),
		Last: g.last, Alerts: g.alerts, Moves: []string{}, Updated: time.Now().UTC()}
	if g.setup != nil {
		su := g.setup
		s.Phase = "playing"
		s.Event, s.Round, s.Rules, s.Handicap, s.Size = su.Event, su.Round, su.Rules, su.Handicap, su.Size
		if s.Size == 0 {
			s.Size = 19
		}
		s.Black = wire.Player{Name: su.Black.Name, Rank: su.Black.Rank}
		s.White = wire.Player{Name: su.White.Name, Rank: su.White.Rank}
		if su.Komi != nil {
			s.Komi = *su.Komi
		}
		s.Position = string(bytes.Repeat([]byte{'.'}, s.Size*s.Size))
	}
	if len(sgfData) == 0 {
		return s
	}
	rec, err := sgf.ReadRecord(sgfData)
	if err != nil || rec.Size != s.Size && g.setup != nil {
		return s // the SGF is being rewritten, or is the last game's: the next look has it
	}
	rules, err := engine.Preset(orDefault(s.Rules, "aga"))
	if err != nil {
		rules, _ = engine.Preset("aga")
	}
	rp, err := sgf.ReplayRecord(rec, rules)
	if err != nil {
		return s
	}
	s.Size, s.Komi, s.Handicap, s.Result = rec.Size, rp.Game.Komi(), rec.Handicap, rec.Result
	if s.Black.Name == "" {
		s.Black = wire.Player{Name: rec.BlackName, Rank: rec.BlackRank}
		s.White = wire.Player{Name: rec.WhiteName, Rank: rec.WhiteRank}
	}
	b := make([]byte, 0, s.Size*s.Size)
	for _, c := range rp.Game.Board() {
		switch c {
		case engine.Black:
			b = append(b, 'X')
		case engine.White:
			b = append(b, 'O')
		default:
			b = append(b, '.')
		}
	}
	s.Position = string(b)
	for _, m := range rec.Moves {
		if m.IsMove() {
			s.Moves = append(s.Moves, m.Engine().GTP(s.Size))
		}
	}
	s.ToMove = colorLetter(rp.Game.ToMove())
	if s.Result != "" {
		s.Phase, s.ToMove = "ended", ""
	}
	return s
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// JournalRecords counts the good records of a journal file (the last record's sequence number:
// the referee numbers them from 1).
func JournalRecords(path string) (int, error) {
	t := &tail{path: path}
	recs, _, err := t.next()
	return len(recs), err
}
