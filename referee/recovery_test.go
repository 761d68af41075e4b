package referee

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee/journal"
)

// playSome plays a short game with a capture and a pass, and returns the journal's bytes.
func playSome(t testing.TB) (*harness, []byte) {
	h := newHarness(t, 9, nil)
	start(h, nil)
	for _, m := range []struct {
		c engine.Color
		v string
	}{{engine.Black, "D5"}, {engine.White, "E5"}, {engine.Black, "F5"}, {engine.White, "A1"}, {engine.Black, "E6"}, {engine.White, "A2"}} {
		h.move(m.c, m.v)
	}
	h.put('.', "E5")
	h.move(engine.Black, "E4")
	h.press(clock.PassButton)
	h.tab.Close()
	data, err := os.ReadFile(filepath.Join(h.dir, journal.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return h, data
}

// recordStarts returns the byte offset of every record.
func recordStarts(t testing.TB, data []byte) (starts []int, kinds []string) {
	recs, _, err := journal.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	off := len(journal.Magic)
	for _, r := range recs {
		var ev event
		if err := json.Unmarshal(r, &ev); err != nil {
			t.Fatal(err)
		}
		starts = append(starts, off)
		kinds = append(kinds, ev.Kind)
		off += 8 + len(r)
	}
	return starts, kinds
}

func openAt(t *testing.T, h *harness, data []byte) (*Table, State) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, journal.FileName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	o := h.opts
	o.JournalDir, o.SGFPath = dir, ""
	tab, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	return tab, tab.State()
}

// TestTruncatedJournal cuts the journal at every byte offset of its last record, and of its last
// input record, and checks that the table recovers the state of the records before the cut,
// reports the cut, and keeps working.
func TestTruncatedJournal(t *testing.T) {
	h, data := playSome(t)
	starts, kinds := recordStarts(t, data)
	lastInput := len(kinds) - 1
	for kinds[lastInput] == kindOutput {
		lastInput--
	}
	for _, rec := range []int{len(starts) - 1, lastInput} {
		from := starts[rec]
		refTab, ref := openAt(t, h, data[:from])
		refMoves := strings.Join(movesOf(refTab), " ")
		refTab.Close()
		for cut := from; cut < len(data); cut++ {
			if rec == len(starts)-1 || cut < starts[rec+1] {
				tab, s := openAt(t, h, data[:cut])
				got := strings.Join(movesOf(tab), " ")
				if got != refMoves || s.Phase != ref.Phase || s.ToMove != ref.ToMove || s.Black.PassStones != ref.Black.PassStones ||
					s.White.PassStones != ref.White.PassStones || s.Black.Prisoners != ref.Black.Prisoners {
					t.Fatalf("record %d (%s) cut at %d: moves %q phase %v; want %q %v", rec, kinds[rec], cut, got, s.Phase, refMoves, ref.Phase)
				}
				if cut > from && !strings.Contains(s.Recovery, "cut") {
					t.Fatalf("cut at %d not reported: %q", cut, s.Recovery)
				}
				// The table goes on: the next press is journaled and the journal reopens clean.
				if err := tab.Press(clock.Press{Button: clock.PassButton, At: h.now()}); err != nil {
					t.Fatal(err)
				}
				tab.Close()
			}
		}
	}
	// A corrupt byte in the middle keeps everything before it.
	bad := append([]byte(nil), data...)
	bad[starts[5]+12] ^= 0x55
	tab, s := openAt(t, h, bad)
	defer tab.Close()
	if !strings.Contains(s.Recovery, "checksum mismatch") || s.Phase != PhasePlaying {
		t.Fatalf("corrupt record: %q %v", s.Recovery, s.Phase)
	}
}

func movesOf(tab *Table) []string {
	var out []string
	for _, p := range tab.Moves() {
		out = append(out, p.Move.GTP(9))
	}
	return out
}

// TestReplayMatchesLive checks that every state reached live is reached again from the journal:
// the SGF, the clocks and the phase after each event equal those of a table opened on a copy of
// the journal at that point.
func TestReplayMatchesLive(t *testing.T) {
	h, data := playSome(t)
	starts, _ := recordStarts(t, data)
	for i := range starts {
		end := len(data)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		tab, _ := openAt(t, h, data[:end])
		if rec := tab.Record(); rec != nil && tab.State().MoveNumber > 0 {
			if len(rec.Moves) != tab.State().MoveNumber {
				t.Fatalf("prefix %d: %d SGF moves for %d game moves", i, len(rec.Moves), tab.State().MoveNumber)
			}
		}
		tab.Close()
	}
	tab, s := openAt(t, h, data)
	defer tab.Close()
	if got := strings.Join(movesOf(tab), " "); got != "B D5 W E5 B F5 W A1 B E6 W A2 B E4 W pass" {
		t.Fatalf("moves %q", got)
	}
	if !s.ClocksPaused || s.ToMove != engine.Black || s.Black.Prisoners != 1 || s.Black.PassStones != 1 {
		t.Fatalf("state after replay: paused %v to move %v prisoners %d pass stones %d", s.ClocksPaused, s.ToMove, s.Black.Prisoners, s.Black.PassStones)
	}
}

func TestNewGame(t *testing.T) {
	h := newHarness(t, 9, func(o *Options) { o.GamesDir = t.TempDir() })
	start(h, nil)
	if err := h.tab.NewGame(h.now()); err == nil {
		t.Fatal("new game allowed while playing")
	}
	h.move(engine.Black, "E5")
	if err := h.tab.Resign(engine.White, h.now()); err != nil {
		t.Fatal(err)
	}
	if err := h.tab.NewGame(h.now()); err != nil {
		t.Fatal(err)
	}
	s := h.state()
	if s.Phase != PhaseSetup || s.MoveNumber != 0 || s.Result != "" {
		t.Fatalf("after NewGame: %v %d %q", s.Phase, s.MoveNumber, s.Result)
	}
	done, _ := filepath.Glob(filepath.Join(h.dir, "done", "*", journal.FileName))
	if len(done) != 1 || !strings.Contains(done[0], "Spring-Open_R2_T7_Ann-vs-Bo") {
		t.Fatalf("archived journals %v", done)
	}
	// The next game is journaled afresh and survives a restart; the old one does not come back.
	h.put('.', "E5")
	start(h, nil)
	h.move(engine.Black, "C3")
	h.reopen()
	if got := h.movesGTP(); got != "B C3" {
		t.Fatalf("after restart: %q", got)
	}
}

// FuzzReplayJournal feeds journals of arbitrary (checksummed) records to Open: whatever the
// records say, opening, reading the state and writing the SGF must not panic.
func FuzzReplayJournal(f *testing.F) {
	_, data := playSome(f)
	recs, _, _ := journal.Decode(data)
	pool := make([]string, len(recs))
	for i, r := range recs {
		pool[i] = string(r)
	}
	whole := make([]byte, len(pool))
	for i := range whole {
		whole[i] = byte(i)
	}
	f.Add(whole, "")
	f.Add(whole[:len(whole)/2], "")
	f.Add([]byte{0, 1, 2, 0x83, 40, 4, 4, 5}, "")
	f.Add([]byte{0}, `{"seq":2,"k":"obs","at":"2026-01-01T00:00:01Z","board":"X"}`)
	f.Add([]byte{0, 1}, `{"seq":3,"k":"toggle","point":"Z99"}`)
	f.Add([]byte{}, `{"k":"director","director":{"kind":"undo"}}`)
	f.Add([]byte{0, 1, 2, 3}, `{"k":"press","press":{"button":"black-clock"}}`)
	f.Fuzz(func(t *testing.T, ops []byte, extra string) {
		// The input is small whatever journal it describes, so that each new input is minimized in
		// a few hundred runs (a raw 7.5 KB journal took the fuzzer minutes per input: 6 executions
		// counted in 90 s): each op byte appends a record of a real game's journal (low 7 bits,
		// modulo the records), repeated, reordered or skipped as the ops say; with the high bit
		// set, the next byte picks a byte of that record to change (a damaged record that still
		// has a good checksum). extra, if any, is one more record of any text.
		if len(ops) > 128 || len(extra) > 1024 {
			return
		}
		img := []byte(journal.Magic)
		for i := 0; i < len(ops); i++ {
			rec := []byte(pool[int(ops[i]&0x7f)%len(pool)])
			if ops[i]&0x80 != 0 && i+1 < len(ops) {
				i++
				rec[int(ops[i])*len(rec)/256] ^= ops[i] | 1
			}
			img = append(img, journal.Encode(rec)...)
		}
		if extra != "" {
			img = append(img, journal.Encode([]byte(extra))...)
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, journal.FileName), img, 0o644); err != nil {
			t.Fatal(err)
		}
		tab, err := Open(Options{JournalDir: dir, NoSync: true, Logger: discard()})
		if err != nil {
			return
		}
		defer tab.Close()
		_ = tab.State()
		if r := tab.Record(); r != nil {
			_ = r.MarshalSGF()
		}
	})
}
