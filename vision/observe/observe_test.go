package observe

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseTextRoundTrip(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"compact", "X.O\n.?.\nOOX\n", "X.O\n.?.\nOOX\n"},
		{"label file", "B . W\n. . .\nW W B\n", "X.O\n...\nOOX\n"},
		{"blank lines", "\n..\n\n.X\n", "..\n.X\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, err := ParseText(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := o.String(); got != tc.want {
				t.Errorf("got\n%swant\n%s", got, tc.want)
			}
		})
	}
}

func TestParseTextErrors(t *testing.T) {
	for _, in := range []string{"", "X", "X.\n.", "XY\n..\n", "...\n...\n"} {
		if _, err := ParseText(in); !errors.Is(err, ErrBadText) {
			t.Errorf("ParseText(%q) = %v, want ErrBadText", in, err)
		}
	}
}

func TestAtOutside(t *testing.T) {
	o := New(3)
	o.Stones[1*3+2] = White
	if o.At(2, 1) != White || o.At(-1, 0) != Obscured || o.At(3, 0) != Obscured {
		t.Fatal("At wrong")
	}
	if (Observation{Size: 3}).At(0, 0) != Obscured {
		t.Fatal("At on short slice should be Obscured")
	}
}

func board(t *testing.T, text string, at time.Duration) Observation {
	t.Helper()
	o, err := ParseText(text)
	if err != nil {
		t.Fatal(err)
	}
	o.Time = time.Unix(1000, 0).Add(at)
	return o
}

func TestStabilizer(t *testing.T) {
	const a, b, hand = "..\n..\n", "X.\n..\n", "X?\n..\n"
	type frame struct {
		text string
		at   time.Duration
		emit bool
	}
	tests := []struct {
		name   string
		hold   time.Duration
		frames []frame
	}{
		{"emits after hold", 500 * time.Millisecond, []frame{
			{a, 0, false}, {a, 300 * time.Millisecond, false}, {a, 500 * time.Millisecond, true}, {a, 900 * time.Millisecond, false},
		}},
		{"zero hold emits at once", 0, []frame{{a, 0, true}, {a, 10, false}, {b, 20, true}}},
		{"change restarts timer", 500 * time.Millisecond, []frame{
			{a, 0, false}, {b, 400 * time.Millisecond, false}, {b, 800 * time.Millisecond, false}, {b, 900 * time.Millisecond, true},
		}},
		{"obscured frames never used", 100 * time.Millisecond, []frame{
			{hand, 0, false}, {hand, time.Second, false}, {b, 1100 * time.Millisecond, false}, {b, 1200 * time.Millisecond, true},
		}},
		{"hand interrupts timing", 500 * time.Millisecond, []frame{
			{b, 0, false}, {hand, 300 * time.Millisecond, false}, {b, 600 * time.Millisecond, false}, {b, 1100 * time.Millisecond, true},
		}},
		{"same position after hand not re-emitted", 0, []frame{
			{b, 0, true}, {hand, 10, false}, {b, 20, false}, {a, 30, true}, {b, 40, true},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStabilizer(tc.hold)
			for i, f := range tc.frames {
				got, ok := s.Add(board(t, f.text, f.at))
				if ok != f.emit {
					t.Fatalf("frame %d (%q at %v): emitted %v, want %v", i, f.text, f.at, ok, f.emit)
				}
				if ok && got.String() != f.text {
					t.Fatalf("frame %d: emitted\n%s", i, got)
				}
			}
		})
	}
}

func TestStabilizerMinConfidenceAndReset(t *testing.T) {
	s := NewStabilizer(0)
	s.SetMinConfidence(0.5)
	o := board(t, "X.\n..\n", 0)
	o.Confidence[2] = 0.2
	if _, ok := s.Add(o); ok {
		t.Fatal("low-confidence frame emitted")
	}
	o.Confidence[2] = 0.9
	if _, ok := s.Add(o); !ok {
		t.Fatal("confident frame not emitted")
	}
	if _, ok := s.Add(o); ok {
		t.Fatal("re-emitted")
	}
	s.Reset()
	if _, ok := s.Add(o); !ok {
		t.Fatal("not emitted after Reset")
	}
	if _, ok := s.Add(Observation{Size: 3}); ok {
		t.Fatal("malformed observation emitted")
	}
}

func TestStabilizerReturnsCopy(t *testing.T) {
	s := NewStabilizer(0)
	o := board(t, "X.\n..\n", 0)
	got, _ := s.Add(o)
	o.Stones[0] = White
	got.Stones[1] = White
	last, _ := s.Last()
	if last.String() != "X.\n..\n" {
		t.Fatalf("stabilizer state aliased caller's slices:\n%s", last)
	}
}

func FuzzParseText(f *testing.F) {
	f.Add("X.O\n.?.\nOOX\n")
	f.Add("B . W\n. . .\nW W B\n")
	f.Add(strings.Repeat(strings.Repeat(".", 19)+"\n", 19))
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseText(s)
		if err != nil {
			return
		}
		if err := o.Valid(); err != nil {
			t.Fatalf("parsed invalid observation: %v", err)
		}
		p, err := ParseText(o.String())
		if err != nil || !p.SameStones(o) {
			t.Fatalf("round trip failed: %v", err)
		}
	})
}

func TestProbsLikeliest(t *testing.T) {
	for _, tc := range []struct {
		p    Probs
		want Stone
	}{
		{Probs{0.7, 0.1, 0.1, 0.1}, Empty},
		{Probs{0.1, 0.6, 0.3, 0}, Black},
		{Probs{0.1, 0.2, 0.69, 0.01}, White},
		{Probs{0.1, 0.1, 0.1, 0.7}, Obscured},
		{Probs{0.4, 0.4, 0.2, 0}, Empty}, // the first of equals
	} {
		if got := tc.p.Likeliest(); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.p, got, tc.want)
		}
	}
}

// TestTakeReadings: the newest frame's confidences and probabilities replace the board's, its
// stones, time and sequence number stay, and a frame without them leaves the board's as they are.
func TestTakeReadings(t *testing.T) {
	sure := Probs{0.99, 0.005, 0.005, 0}
	newer := Probs{0.2, 0, 0.8, 0}
	for _, tc := range []struct {
		name      string
		frame     Observation
		wantConf  float32
		wantProbs Probs
	}{
		{"both", Observation{Stones: []Stone{White}, Confidence: []float32{0.8}, Probs: []Probs{newer}}, 0.8, newer},
		{"probabilities only", Observation{Stones: []Stone{White}, Probs: []Probs{newer}}, 0.99, newer},
		{"neither", Observation{Stones: []Stone{White}}, 0.99, sure},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := Observation{Size: 1, Stones: []Stone{Empty}, Confidence: []float32{0.99}, Probs: []Probs{sure}, Seq: 7}
			probs := o.Probs
			o.TakeReadings(tc.frame)
			if o.Stones[0] != Empty || o.Seq != 7 {
				t.Errorf("stones %v, seq %d: want the board's own (empty, 7)", o.Stones, o.Seq)
			}
			if o.Confidence[0] != tc.wantConf || o.Probs[0] != tc.wantProbs {
				t.Errorf("confidence %v, probs %v; want %v, %v", o.Confidence[0], o.Probs[0], tc.wantConf, tc.wantProbs)
			}
			if &o.Probs[0] != &probs[0] {
				t.Error("the probabilities were not copied into the board's own buffer")
			}
			if tc.frame.Probs != nil && &tc.frame.Probs[0] == &o.Probs[0] {
				t.Error("the board shares the frame's buffer")
			}
		})
	}
}
