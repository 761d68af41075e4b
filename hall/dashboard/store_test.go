package dashboard

import (
	"encoding/json"
	"slices"
	"testing"

	"tengen/hall/wire"
)

func msg(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStoreDedupsAndMerges: events sent twice are dropped by sequence number, a state older than
// the last is ignored, the moves are the state's and then newer events', a gap is counted and a
// new game starts the table afresh.
func TestStoreDedupsAndMerges(t *testing.T) {
	s := NewStore("h")
	ev := func(game string, seq uint64, moves ...string) {
		t.Helper()
		if err := s.Handle(wire.TableTopic("h", 1, wire.KindEvents), msg(t, wire.Event{Game: game, Seq: seq, Kind: "out", Moves: moves})); err != nil {
			t.Fatal(err)
		}
	}
	state := func(game string, seq uint64, moves ...string) {
		t.Helper()
		if err := s.Handle(wire.TableTopic("h", 1, wire.KindState), msg(t, wire.State{Hall: "h", Table: 1, Game: game, Seq: seq, Moves: moves})); err != nil {
			t.Fatal(err)
		}
	}
	ev("g1", 1)
	ev("g1", 2, "B D4")
	ev("g1", 2, "B D4") // sent again
	ev("g1", 3, "W Q16")
	state("g1", 2, "B D4") // older than event 3: its moves and event 3's
	tab, _ := s.Table(1)
	if want := []string{"B D4", "W Q16"}; !slices.Equal(tab.Moves, want) || tab.Dups != 1 || tab.Events != 3 {
		t.Fatalf("moves %v dups %d events %d", tab.Moves, tab.Dups, tab.Events)
	}
	ev("g1", 6, "B Q4") // 4 and 5 lost
	state("g1", 6, "B D4", "W Q16", "B Q4")
	state("g1", 3, "B D4", "W Q16") // a stale state sent again
	tab, _ = s.Table(1)
	if want := []string{"B D4", "W Q16", "B Q4"}; !slices.Equal(tab.Moves, want) || tab.Gaps != 2 {
		t.Fatalf("moves %v gaps %d", tab.Moves, tab.Gaps)
	}
	ev("g0", 9, "B A1") // the previous game's, late
	ev("g2", 1)
	tab, _ = s.Table(1)
	if len(tab.Moves) != 0 || tab.State.Game != "g2" || tab.Events != 1 {
		t.Fatalf("new game: moves %v game %q events %d", tab.Moves, tab.State.Game, tab.Events)
	}
	if err := s.Handle("tengen/other/table/1/state", []byte(`{}`)); err == nil {
		t.Fatal("another hall's message accepted")
	}
}

// FuzzHandle: whatever arrives, the store never panics and keeps each table's sequence rules.
func FuzzHandle(f *testing.F) {
	f.Add("tengen/h/table/1/events", []byte(`{"game":"g","seq":2,"moves":["B D4"]}`), []byte(`{"hall":"h","table":1,"game":"g","seq":1,"moves":["B D4"]}`))
	f.Add("tengen/h/table/1/sgf", []byte(`(;SZ[9])`), []byte(`{`))
	f.Fuzz(func(t *testing.T, topic string, a, b []byte) {
		s := NewStore("h")
		_ = s.Handle(topic, a)
		_ = s.Handle(wire.TableTopic("h", 1, wire.KindState), b)
		_ = s.Handle(topic, a)
		for _, tab := range s.Tables() {
			if tab.Dups < 0 || uint64(tab.Events) > tab.LastSeq {
				t.Fatalf("table %d: %d events up to seq %d", tab.Number, tab.Events, tab.LastSeq)
			}
		}
	})
}
