package wire

import (
	"errors"
	"testing"
)

func TestParseTopic(t *testing.T) {
	tests := []struct {
		topic string
		hall  string
		table int
		kind  string
		ok    bool
	}{
		{"tengen/congress/table/12/state", "congress", 12, KindState, true},
		{"tengen/congress/table/1/events", "congress", 1, KindEvents, true},
		{"tengen/congress/table/1/sgf", "congress", 1, KindSGF, true},
		{"tengen/congress/table/01/sgf", "", 0, "", false},
		{"tengen/congress/table/0/sgf", "", 0, "", false},
		{"tengen/congress/table/10000/sgf", "", 0, "", false},
		{"tengen/congress/table/1/other", "", 0, "", false},
		{"tengen/Congress/table/1/state", "", 0, "", false},
		{"tengen/congress/assign/1", "", 0, "", false},
		{"other/congress/table/1/state", "", 0, "", false},
	}
	for _, tc := range tests {
		h, n, k, err := ParseTopic(tc.topic)
		if (err == nil) != tc.ok || h != tc.hall || n != tc.table || k != tc.kind {
			t.Errorf("ParseTopic(%q) = %q %d %q %v", tc.topic, h, n, k, err)
		}
		if err != nil && !errors.Is(err, ErrBadTopic) {
			t.Errorf("ParseTopic(%q): %v does not wrap ErrBadTopic", tc.topic, err)
		}
		if tc.ok && TableTopic(h, n, k) != tc.topic {
			t.Errorf("TableTopic does not give %q back", tc.topic)
		}
	}
}

func TestParseState(t *testing.T) {
	tests := []struct {
		name    string
		payload string
		ok      bool
	}{
		{"good", `{"hall":"h","table":2,"game":"g","size":2,"position":"X.O.","moves":["B A1"]}`, true},
		{"other table", `{"hall":"h","table":3,"size":2,"position":"X.O."}`, false},
		{"short position", `{"hall":"h","table":2,"size":2,"position":"X."}`, false},
		{"bad point", `{"hall":"h","table":2,"size":2,"position":"X.Q."}`, false},
		{"huge board", `{"hall":"h","table":2,"size":99}`, false},
		{"not json", `{`, false},
	}
	for _, tc := range tests {
		_, err := ParseState([]byte(tc.payload), "h", 2)
		if (err == nil) != tc.ok {
			t.Errorf("%s: err %v", tc.name, err)
		}
		if err != nil && !errors.Is(err, ErrBadPayload) {
			t.Errorf("%s: %v does not wrap ErrBadPayload", tc.name, err)
		}
	}
}

// FuzzPayloads: any topic and payload is parsed or refused with a wrapped error, never a panic;
// what is accepted keeps the parsers' promises.
func FuzzPayloads(f *testing.F) {
	f.Add("tengen/h/table/2/state", []byte(`{"hall":"h","table":2,"size":2,"position":"X.O."}`))
	f.Add("tengen/h/table/2/events", []byte(`{"game":"g","seq":3,"kind":"out","moves":["B D4"]}`))
	f.Add("tengen/h/assign/2", []byte(`{"table":2,"round":1,"black":{"name":"A"}}`))
	f.Fuzz(func(t *testing.T, topic string, payload []byte) {
		if h, n, _, err := ParseTopic(topic); err == nil {
			if CheckHall(h) != nil || n < 1 || n > MaxTable {
				t.Fatalf("accepted topic %q: hall %q table %d", topic, h, n)
			}
		}
		if s, err := ParseState(payload, "h", 2); err == nil {
			if len(s.Position) != 0 && len(s.Position) != s.Size*s.Size {
				t.Fatalf("accepted a %d-point position for size %d", len(s.Position), s.Size)
			}
		} else if !errors.Is(err, ErrBadPayload) {
			t.Fatal(err)
		}
		if e, err := ParseEvent(payload); err == nil && (e.Seq == 0 || e.Game == "") {
			t.Fatalf("accepted event %+v", e)
		}
		if a, err := ParseAssignment(payload); err == nil && (a.Table < 1 || a.Table > MaxTable) {
			t.Fatalf("accepted assignment %+v", a)
		}
	})
}
