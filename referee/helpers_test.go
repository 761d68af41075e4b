package referee

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee/journal"
	"tengen/vision/observe"
)

var t0 = time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC)

func discard() *slog.Logger { return slog.New(slog.DiscardHandler) }

// harness drives a Table with fake time, fake observations and fake presses.
type harness struct {
	tb   testing.TB
	dir  string
	tm   *clock.ManualTime
	tab  *Table
	opts Options
	seq  uint64
	// board is what the fake camera sees (size*size, '.', 'X', 'O').
	board []byte
	size  int
}

func newHarness(tb testing.TB, size int, mod func(*Options)) *harness {
	tb.Helper()
	h := &harness{tb: tb, dir: tb.TempDir(), tm: clock.NewManualTime(t0), size: size}
	h.opts = Options{JournalDir: h.dir, Time: h.tm, NoSync: true, Logger: slog.New(slog.DiscardHandler), Hold: 500 * time.Millisecond, PressWait: 3 * time.Second}
	if mod != nil {
		mod(&h.opts)
	}
	// Every verdict says phrases a screen can translate.
	onVerdict := h.opts.OnVerdict
	h.opts.OnVerdict = func(v Verdict) {
		checkVerdict(tb, v)
		if onVerdict != nil {
			onVerdict(v)
		}
	}
	h.board = []byte(strings.Repeat(".", size*size))
	h.reopen()
	return h
}

// journalRecord is one record of the table's journal, as written and decoded.
type journalRecord struct {
	raw []byte
	ev  event
}

// journaled closes the table and returns every record of its journal (reopen to go on).
func (h *harness) journaled() []journalRecord {
	h.tb.Helper()
	h.tab.Close()
	data, err := os.ReadFile(filepath.Join(h.dir, journal.FileName))
	if err != nil {
		h.tb.Fatal(err)
	}
	recs, _, err := journal.Decode(data)
	if err != nil {
		h.tb.Fatal(err)
	}
	out := make([]journalRecord, len(recs))
	for i, r := range recs {
		out[i].raw = r
		if err := json.Unmarshal(r, &out[i].ev); err != nil {
			h.tb.Fatal(err)
		}
	}
	return out
}

// reopen closes the table (if open) and opens it again on the same journal.
func (h *harness) reopen() {
	h.tb.Helper()
	if h.tab != nil {
		h.tab.Close()
	}
	tab, err := Open(h.opts)
	if err != nil {
		h.tb.Fatal(err)
	}
	h.tab = tab
	h.tb.Cleanup(func() { tab.Close() })
}

func (h *harness) now() time.Time { return h.tm.Now() }

func (h *harness) advance(d time.Duration) { h.tm.Advance(d) }

func (h *harness) setup(s Setup) {
	h.tb.Helper()
	if err := h.tab.Setup(s, h.now()); err != nil {
		h.tb.Fatal(err)
	}
}

func (h *harness) pt(v string) engine.Point {
	h.tb.Helper()
	p, err := engine.ParsePoint(v, h.size)
	if err != nil {
		h.tb.Fatal(err)
	}
	return p
}

// put places (c = 'X' or 'O') or removes (c = '.') stones on the fake board.
func (h *harness) put(c byte, vs ...string) {
	for _, v := range vs {
		p := h.pt(v)
		h.board[p.Y*h.size+p.X] = c
	}
}

func (h *harness) observation(text []byte) observe.Observation {
	o := observe.New(h.size)
	for i, r := range string(text) {
		s, _ := observe.StoneFromRune(r)
		o.Stones[i] = s
	}
	h.seq++
	o.Seq = h.seq
	o.Time = h.now()
	return o
}

// look feeds the current fake board for long enough to become stable (two frames a hold apart).
func (h *harness) look() {
	h.tab.Observe(h.observation(h.board))
	h.advance(600 * time.Millisecond)
	h.tab.Observe(h.observation(h.board))
	h.advance(100 * time.Millisecond)
}

// hand feeds one frame with a hand over the board.
func (h *harness) hand() {
	b := append([]byte(nil), h.board...)
	for i := 0; i < len(b)/3; i++ {
		b[i] = '?'
	}
	h.tab.Observe(h.observation(b))
}

func (h *harness) press(b clock.Button) {
	h.tb.Helper()
	if err := h.tab.Press(clock.Press{Button: b, At: h.now()}); err != nil {
		h.tb.Fatal(err)
	}
	h.advance(100 * time.Millisecond)
}

// move places c's stone at v, looks, and presses c's clock.
func (h *harness) move(c engine.Color, v string) State {
	h.tb.Helper()
	ch := byte('X')
	b := clock.BlackClock
	if c == engine.White {
		ch, b = 'O', clock.WhiteClock
	}
	h.put(ch, v)
	h.look()
	h.press(b)
	return h.tab.State()
}

func (h *harness) state() State { return h.tab.State() }

func (h *harness) wantBanner(kind VerdictKind, contains ...string) State {
	h.tb.Helper()
	s := h.state()
	if s.Banner.Kind != kind {
		h.tb.Fatalf("banner %v %q, want %v", s.Banner.Kind, s.Banner.Message, kind)
	}
	for _, c := range contains {
		if !strings.Contains(s.Banner.Message, c) {
			h.tb.Fatalf("banner %q does not contain %q", s.Banner.Message, c)
		}
	}
	return s
}

func (h *harness) movesGTP() string {
	var out []string
	for _, p := range h.tab.Moves() {
		out = append(out, p.Move.GTP(h.size))
	}
	return strings.Join(out, " ")
}

// fakeProposer answers with fixed dead stones (or an error), counting calls.
type fakeProposer struct {
	mu    sync.Mutex
	dead  []string
	err   error
	calls int
	gate  chan struct{} // when non-nil, waits for it
}

func (f *fakeProposer) ProposeDead(ctx context.Context, pos Position) ([]engine.Point, error) {
	f.mu.Lock()
	f.calls++
	gate := f.gate
	f.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if f.err != nil {
		return nil, f.err
	}
	var out []engine.Point
	for _, v := range f.dead {
		p, err := engine.ParsePoint(v, pos.Size)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// waitProposal waits until the table has no proposal in flight.
func (h *harness) waitProposal() {
	h.tb.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for h.state().ProposalPending {
		if time.Now().After(deadline) {
			h.tb.Fatal("proposal never arrived")
		}
		time.Sleep(time.Millisecond)
	}
}
