// Package dashboard is the hall dashboard's logic: it keeps every table's state from what the
// tables publish (a retained state, events with sequence numbers, the live SGF), drops what
// arrives twice by its sequence number, and serves the hall's web page (every table at a glance,
// one table in full, the round's results, live updates by server-sent events, a director's login
// for acknowledging alerts). cmd/hall wires it to the broker.
package dashboard

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"sync"
	"time"

	"tengen/hall/wire"
)

// Table is what the dashboard knows of one table. Snapshots are copies.
type Table struct {
	Number int
	State  wire.State // the latest retained state
	// Moves is every move of the game once, in order ("B D4", "W pass"): the state's, then those
	// of events newer than the state.
	Moves   []string
	LastSeq uint64 // the highest event sequence number applied
	Events  int    // events applied (each sequence number once)
	Dups    int    // events dropped because their sequence number was already applied
	Gaps    uint64 // sequence numbers skipped (events the broker lost; the retained state covers them)
	Clock   *wire.Clock
	// ClockSeen is when the dashboard received Clock: a running clock counts down from then, so
	// that the kiosks' and the dashboard's clocks need not agree.
	ClockSeen time.Time
	Last      *wire.Verdict
	SGF       []byte
	Updated   time.Time
	// Acked holds the alerts the director acknowledged (by AlertKey).
	Acked map[string]bool
	// DirectorResult is a result the director set on the dashboard for this game; it stands over
	// the table's own.
	DirectorResult string
	// eventMoves are the moves of events newer than the state, by sequence number.
	eventMoves map[uint64][]string
}

// Result is the game's result: the director's when set, else the table's ("" while it plays).
func (t *Table) Result() string {
	if t.DirectorResult != "" {
		return t.DirectorResult
	}
	return t.State.Result
}

// resultRe is what a director may set: a win by points, resignation, time or forfeit, a jigo
// ("0") or a void game.
var resultRe = regexp.MustCompile(`^([BW]\+([RTF]|[0-9]{1,3}(\.5)?)|0|Void)$`)

// ErrBadResult is returned by SetResult for a result it does not take.
var ErrBadResult = errors.New("dashboard: a result is B+R, W+T, B+F, W+3.5, 0 (jigo) or Void")

// SetResult records the director's result for table n's game ("" takes it back).
func (s *Store) SetResult(n int, result string) error {
	if result != "" && !resultRe.MatchString(result) {
		return fmt.Errorf("%w: not %q", ErrBadResult, result)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[n]
	if !ok {
		return fmt.Errorf("dashboard: no table %d", n)
	}
	t.DirectorResult = result
	s.notify(n)
	return nil
}

// AlertKey names one alert for acknowledging it.
func AlertKey(v wire.Verdict) string { return v.At.UTC().Format(time.RFC3339Nano) + "/" + v.Kind }

// OpenAlerts are the game's alerts the director has not acknowledged, oldest first.
func (t *Table) OpenAlerts() []wire.Verdict {
	var out []wire.Verdict
	for _, v := range t.State.Alerts {
		if !t.Acked[AlertKey(v)] {
			out = append(out, v)
		}
	}
	return out
}

// Store holds every table of one hall. It is safe for concurrent use.
type Store struct {
	hall   string
	mu     sync.Mutex
	tables map[int]*Table
	subs   map[chan int]struct{}
}

// NewStore returns an empty store for hall.
func NewStore(hall string) *Store {
	return &Store{hall: hall, tables: map[int]*Table{}, subs: map[chan int]struct{}{}}
}

// Hall is the store's hall name.
func (s *Store) Hall() string { return s.hall }

// Handle takes one received message. A message of another hall, an unknown topic or a bad
// payload is an error (the caller logs it); nothing is changed then.
func (s *Store) Handle(topic string, payload []byte) error {
	hall, n, kind, err := wire.ParseTopic(topic)
	if err != nil {
		return err
	}
	if hall != s.hall {
		return fmt.Errorf("%w: hall %q, this dashboard shows %q", wire.ErrBadTopic, hall, s.hall)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.tables[n]
	if t == nil {
		t = &Table{Number: n, Acked: map[string]bool{}, eventMoves: map[uint64][]string{}}
	}
	switch kind {
	case wire.KindState:
		st, err := wire.ParseState(payload, hall, n)
		if err != nil {
			return err
		}
		switch {
		case st.Game < t.State.Game:
			return nil // the table's previous game, delivered late
		case st.Game > t.State.Game:
			t.newGame()
		case st.Seq < t.State.Seq:
			return nil // an older state (sent again after a reconnection): the newer one stands
		}
		t.State = st
		for seq := range t.eventMoves {
			if seq <= st.Seq {
				delete(t.eventMoves, seq)
			}
		}
		if st.Seq > t.LastSeq || t.Clock == nil {
			t.Clock, t.ClockSeen, t.Last = st.Clock, time.Now(), st.Last
		}
	case wire.KindEvents:
		e, err := wire.ParseEvent(payload)
		if err != nil {
			return err
		}
		switch {
		case e.Game < t.State.Game:
			return nil // a late event of the table's previous game
		case e.Game > t.State.Game:
			t.newGame()
			t.State = wire.State{Hall: hall, Table: n, Game: e.Game}
		}
		if e.Seq <= t.LastSeq {
			t.Dups++
			return nil
		}
		if t.LastSeq > 0 && e.Seq > t.LastSeq+1 {
			t.Gaps += e.Seq - t.LastSeq - 1
		}
		t.LastSeq = e.Seq
		t.Events++
		if len(e.Moves) > 0 && e.Seq > t.State.Seq {
			t.eventMoves[e.Seq] = slices.Clone(e.Moves)
		}
		if e.Clock != nil {
			t.Clock, t.ClockSeen = e.Clock, time.Now()
		}
		if len(e.Verdicts) > 0 {
			v := e.Verdicts[len(e.Verdicts)-1]
			t.Last = &v
		}
	case wire.KindSGF:
		if len(payload) > wire.MaxPayload {
			return fmt.Errorf("%w: SGF of %d bytes", wire.ErrBadPayload, len(payload))
		}
		t.SGF = slices.Clone(payload)
	}
	t.Moves = t.moves()
	t.Updated = time.Now()
	s.tables[n] = t
	s.notify(n)
	return nil
}

func (t *Table) newGame() {
	t.State, t.Moves, t.LastSeq, t.Events, t.Dups, t.Gaps = wire.State{}, nil, 0, 0, 0, 0
	t.Clock, t.Last, t.SGF = nil, nil, nil
	t.Acked = map[string]bool{}
	t.DirectorResult = ""
	t.eventMoves = map[uint64][]string{}
}

func (t *Table) moves() []string {
	out := slices.Clone(t.State.Moves)
	seqs := make([]uint64, 0, len(t.eventMoves))
	for seq := range t.eventMoves {
		seqs = append(seqs, seq)
	}
	slices.Sort(seqs)
	for _, seq := range seqs {
		out = append(out, t.eventMoves[seq]...)
	}
	return out
}

func (s *Store) notify(n int) {
	for ch := range s.subs {
		select {
		case ch <- n:
		default: // a slow page misses a nudge; the next one brings it up to date
		}
	}
}

// Subscribe returns a channel of the numbers of tables that changed, and a function ending the
// subscription.
func (s *Store) Subscribe() (<-chan int, func()) {
	ch := make(chan int, 64)
	s.mu.Lock()
	s.subs[ch] = struct{}{}
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		delete(s.subs, ch)
		s.mu.Unlock()
	}
}

// Table returns a copy of table n.
func (s *Store) Table(n int) (Table, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[n]
	if !ok {
		return Table{}, false
	}
	return t.copy(), true
}

// Tables returns copies of every table, by number.
func (s *Store) Tables() []Table {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Table, 0, len(s.tables))
	for _, t := range s.tables {
		out = append(out, t.copy())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Number < out[j].Number })
	return out
}

// Acknowledge marks an alert of table n as seen by the director. It reports whether there was
// such an open alert.
func (s *Store) Acknowledge(n int, key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.tables[n]
	if !ok {
		return false
	}
	for _, v := range t.State.Alerts {
		if AlertKey(v) == key && !t.Acked[key] {
			t.Acked[key] = true
			s.notify(n)
			return true
		}
	}
	return false
}

func (t *Table) copy() Table {
	c := *t
	c.Moves = slices.Clone(t.Moves)
	c.SGF = slices.Clone(t.SGF)
	c.Acked = make(map[string]bool, len(t.Acked))
	for k, v := range t.Acked {
		c.Acked[k] = v
	}
	c.eventMoves = nil
	return c
}
