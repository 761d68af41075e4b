package replay

import (
	"errors"
	"strings"
	"testing"
	"time"

	"tengen/clock"
	"tengen/engine"
)

func TestParse(t *testing.T) {
	s, err := Parse(strings.NewReader(`# a session
size 9
rules japanese
komi 6.5
handicap 3 free
time 60m+5x30s
policy director
black Ann Lee 3k
white Bo
event Spring Open
round 2
table 7
start 2026-03-14T10:00:00Z
interval 3s
a.png white
b.png black   # Black's move
b.png pass
c.txt -
12000 dead D4
13000 resign white
14000 resume black
15000 confirm white
`))
	if err != nil {
		t.Fatal(err)
	}
	su := s.Setup
	if su.Size != 9 || su.Rules != "japanese" || *su.Komi != 6.5 || su.Handicap != 3 || !su.FreeHandicap ||
		su.TimeControl != "60m+5x30s" || su.Policy != "director" || su.Black.Name != "Ann Lee" || su.Black.Rank != "3k" ||
		su.White.Name != "Bo" || su.Event != "Spring Open" || su.Round != "2" || su.Table != "7" || su.Date != "2026-03-14" {
		t.Errorf("setup %+v", su)
	}
	if s.Interval != 3*time.Second || strings.Join(s.Frames, ",") != "a.png,b.png,c.txt" {
		t.Errorf("interval %v frames %v", s.Interval, s.Frames)
	}
	want := []Action{
		{Line: 15, Frame: 0, Kind: Press, Button: clock.WhiteClock},
		{Line: 16, Frame: 1, Kind: Press, Button: clock.BlackClock},
		{Line: 17, Frame: 1, Kind: Press, Button: clock.PassButton},
		{Line: 19, Frame: -1, At: 12 * time.Second, Kind: Dead, Point: "D4"},
		{Line: 20, Frame: -1, At: 13 * time.Second, Kind: Resign, Color: engine.White},
		{Line: 21, Frame: -1, At: 14 * time.Second, Kind: Resume, Color: engine.Black},
		{Line: 22, Frame: -1, At: 15 * time.Second, Kind: Confirm, Color: engine.White},
	}
	if len(s.Actions) != len(want) {
		t.Fatalf("%d actions: %+v", len(s.Actions), s.Actions)
	}
	for i := range want {
		if s.Actions[i] != want[i] {
			t.Errorf("action %d: %+v, want %+v", i, s.Actions[i], want[i])
		}
	}
	tl := timeline(s, s.Frames)
	if tl[0].At != 2250*time.Millisecond || tl[1].At != 5250*time.Millisecond || tl[2].At != 5300*time.Millisecond {
		t.Errorf("timeline %v %v %v", tl[0].At, tl[1].At, tl[2].At)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ in, msg string }{
		{"size 99", "line 1: size"},
		{"\nrules nonsense", "line 2"},
		{"komi x", "komi"},
		{"handicap 3 fixed", "handicap N [free]"},
		{"time 5 apples", "line 1"},
		{"a.png jump", "unknown action"},
		{"hello", "unknown directive or frame"},
		{"../x.png black", "inside the session directory"},
		{"a.png dead Z99", "dead"},
		{"a.png resign", "needs black or white"},
		{"black", "needs a player name"},
		{"interval 1ms", "interval"},
		{"a.png black now", "takes no argument"},
	} {
		_, err := Parse(strings.NewReader(tc.in))
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%q: %v, want a SyntaxError with %q", tc.in, err, tc.msg)
		}
	}
	if _, err := Parse(strings.NewReader(strings.Repeat("x", MaxScriptLine+10))); err == nil {
		t.Error("overlong line accepted")
	}
}

func FuzzParse(f *testing.F) {
	f.Add("size 9\na.png white\nb.png black\n1000 pass\n")
	f.Add("handicap 5 free\nblack A B 3k\n")
	f.Add("12 dead D4\n13 resign white\n")
	f.Fuzz(func(t *testing.T, in string) {
		s, err := Parse(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, a := range timeline(s, s.Frames) {
			if a.Frame >= len(s.Frames) {
				t.Fatalf("action refers to frame %d of %d", a.Frame, len(s.Frames))
			}
		}
	})
}
