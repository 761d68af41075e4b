package clock

import (
	"fmt"
	"testing"
	"time"
)

const ms = time.Millisecond

// level is a raw level change at an offset from t0.
type level struct {
	at      time.Duration
	pressed bool
}

// chatter returns the edges of a contact bouncing from start: levels
// alternate from final at the given gaps (an even number of them, so the
// burst ends on final).
func chatter(start time.Duration, final bool, gaps ...time.Duration) []level {
	if len(gaps)%2 != 0 {
		panic("chatter needs an even number of gaps")
	}
	out := []level{{start, final}}
	l, at := final, start
	for _, g := range gaps {
		l, at = !l, at+g
		out = append(out, level{at, l})
	}
	return out
}

func concat(parts ...[]level) []level {
	var out []level
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func feed(t *testing.T, d *Debouncer, edges []level, until time.Duration) []Press {
	t.Helper()
	var out []Press
	for _, e := range edges {
		out = d.Edge(e.pressed, t0.Add(e.at), out)
	}
	return d.Advance(t0.Add(until), out)
}

func TestChatterHelper(t *testing.T) {
	got := chatter(100*ms, true, 2*ms, 3*ms)
	want := []level{{100 * ms, true}, {102 * ms, false}, {105 * ms, true}}
	if len(chatter(0, false)) != 1 {
		t.Fatal("a clean edge is one level")
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("chatter = %v, want %v", got, want)
	}
}

func TestDebouncer(t *testing.T) {
	type want struct {
		at   time.Duration
		long bool
	}
	clockCfg := DebounceConfig{Settle: 20 * ms}
	passCfg := DebounceConfig{Settle: 20 * ms, LongPress: 1500 * ms}
	tests := []struct {
		name  string
		cfg   DebounceConfig
		edges []level
		until time.Duration
		want  []want
	}{
		{"clean press and release", clockCfg, []level{{100 * ms, true}, {300 * ms, false}}, 2 * time.Second,
			[]want{{100 * ms, false}}},
		{"press with 1-10 ms bounces, release with bounces", clockCfg, concat(
			chatter(100*ms, true, 1*ms, 3*ms, 2*ms, 10*ms, 4*ms, 7*ms),
			chatter(400*ms, false, 2*ms, 5*ms, 9*ms, 1*ms)), 2 * time.Second,
			[]want{{100 * ms, false}}},
		{"glitch shorter than the debounce", clockCfg, []level{{100 * ms, true}, {105 * ms, false}}, 2 * time.Second, nil},
		{"glitch burst of 19 ms total", clockCfg, []level{{100 * ms, true}, {105 * ms, false}, {110 * ms, true}, {115 * ms, false}, {119 * ms, true}, {119*ms + 500*time.Microsecond, false}}, time.Second, nil},
		{"glitch just shorter than settle", clockCfg, []level{{100 * ms, true}, {120*ms - 1, false}}, time.Second, nil},
		{"pulse exactly as long as settle counts", clockCfg, []level{{100 * ms, true}, {120 * ms, false}}, time.Second,
			[]want{{100 * ms, false}}},
		{"three quick presses", clockCfg, concat(
			chatter(100*ms, true, 2*ms, 2*ms), chatter(150*ms, false, 3*ms, 3*ms),
			chatter(300*ms, true, 1*ms, 1*ms), chatter(350*ms, false),
			chatter(500*ms, true), chatter(560*ms, false, 8*ms, 8*ms)), time.Second,
			[]want{{100 * ms, false}, {300 * ms, false}, {500 * ms, false}}},
		{"duplicate levels are harmless", clockCfg, []level{{100 * ms, true}, {101 * ms, true}, {130 * ms, true}, {200 * ms, false}, {210 * ms, false}}, time.Second,
			[]want{{100 * ms, false}}},
		{"pass short press reports on release", passCfg, concat(chatter(100*ms, true, 3*ms, 2*ms), chatter(600*ms, false, 4*ms, 4*ms)), 3 * time.Second,
			[]want{{100 * ms, false}}},
		{"pass held is one long press", passCfg, concat(chatter(100*ms, true, 3*ms, 2*ms), chatter(4000*ms, false, 4*ms, 4*ms)), 5 * time.Second,
			[]want{{100 * ms, true}}},
		{"pass held with a glitch in the middle", passCfg, concat(chatter(100*ms, true, 3*ms, 3*ms), []level{{800 * ms, false}, {805 * ms, true}}, chatter(3000*ms, false)), 5 * time.Second,
			[]want{{100 * ms, true}}},
		{"pass released just before long", passCfg, concat(chatter(100*ms, true), chatter(1599*ms, false, 2*ms, 2*ms)), 5 * time.Second,
			[]want{{100 * ms, false}}},
		{"pass release bouncing across the long threshold", passCfg, concat(chatter(100*ms, true), chatter(1590*ms, false, 5*ms, 5*ms, 5*ms, 5*ms)), 5 * time.Second,
			[]want{{100 * ms, false}}},
		{"pass still held at the end", passCfg, chatter(100*ms, true, 1*ms, 1*ms), 1602 * ms,
			[]want{{100 * ms, true}}},
		{"pass held but not yet long", passCfg, chatter(100*ms, true, 1*ms, 1*ms), 1599 * ms, nil},
		{"no debounce (keyboard)", DebounceConfig{Settle: -1}, []level{{100 * ms, true}, {100 * ms, true}, {150 * ms, false}, {200 * ms, true}}, time.Second,
			[]want{{100 * ms, false}, {200 * ms, false}}},
		{"keyboard long press", DebounceConfig{Settle: -1, LongPress: time.Second}, []level{{100 * ms, true}, {1200 * ms, false}, {1300 * ms, true}, {1400 * ms, false}}, 2 * time.Second,
			[]want{{100 * ms, true}, {1300 * ms, false}}},
		{"edges out of order are clamped", clockCfg, []level{{100 * ms, true}, {90 * ms, false}, {200 * ms, true}}, time.Second,
			[]want{{200 * ms, false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := NewDebouncer(PassButton, tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := feed(t, d, tt.edges, tt.until)
			if len(got) != len(tt.want) {
				t.Fatalf("%d presses %v, want %v", len(got), got, tt.want)
			}
			for i, w := range tt.want {
				if got[i].Button != PassButton || !got[i].At.Equal(t0.Add(w.at)) || got[i].Long != w.long {
					t.Fatalf("press %d = %v, want at +%v long=%v", i, got[i], w.at, w.long)
				}
			}
		})
	}
}

// TestDebouncerIncremental checks that driving the debouncer by its own
// deadlines (as the GPIO driver does) gives the presses at the same moments.
func TestDebouncerIncremental(t *testing.T) {
	d, _ := NewDebouncer(BlackClock, DebounceConfig{Settle: 20 * ms})
	var out []Press
	out = d.Edge(true, t0.Add(100*ms), out)
	out = d.Edge(false, t0.Add(102*ms), out)
	out = d.Edge(true, t0.Add(104*ms), out)
	dl, ok := d.NextDeadline()
	if !ok || !dl.Equal(t0.Add(124*ms)) {
		t.Fatalf("deadline %v %v", dl, ok)
	}
	if out = d.Advance(dl.Add(-1), out); len(out) != 0 {
		t.Fatalf("early press %v", out)
	}
	if out = d.Advance(dl, out); len(out) != 1 || !out[0].At.Equal(t0.Add(100*ms)) {
		t.Fatalf("press %v", out)
	}
	if _, ok := d.NextDeadline(); ok {
		t.Fatal("deadline while settled")
	}
	if !d.Pressed() {
		t.Fatal("not pressed")
	}
}

func TestDebouncerHeldAtStart(t *testing.T) {
	d, _ := NewDebouncer(PassButton, DebounceConfig{LongPress: time.Second})
	d.Reset(true, t0)
	out := d.Advance(t0.Add(5*time.Second), nil)
	out = d.Edge(false, t0.Add(6*time.Second), out)
	out = d.Advance(t0.Add(7*time.Second), out)
	if len(out) != 0 {
		t.Fatalf("a button held at start-up reported %v", out)
	}
	out = d.Edge(true, t0.Add(8*time.Second), out)
	out = d.Edge(false, t0.Add(8200*ms), out)
	out = d.Advance(t0.Add(9*time.Second), out)
	if len(out) != 1 || out[0].Long {
		t.Fatalf("after release %v", out)
	}
}

func TestDebounceConfigValidate(t *testing.T) {
	for _, c := range []DebounceConfig{{LongPress: -1}, {Settle: 50 * ms, LongPress: 40 * ms}, {LongPress: DefaultSettle}} {
		if _, err := NewDebouncer(PassButton, c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}
