package clock

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

func TestDecide(t *testing.T) {
	ctl := MustParseControl("10m")
	base := State{Control: ctl, Black: freshSide(ctl), White: freshSide(ctl), ToMove: Black}
	notStarted := base
	running := base
	running.Started, running.Running = true, true
	runningW := running
	runningW.ToMove = White
	paused := base
	paused.Started = true
	flagged := paused
	flagged.Black.Flagged, flagged.Black.FlaggedAt = true, t0

	short := func(b Button) Press { return NewPress(b, t0) }
	long := func(b Button) Press { return NewLongPress(b, t0) }
	tests := []struct {
		name   string
		st     State
		p      Press
		action Action
		side   Side
		reason IgnoreReason
	}{
		{"running: own clock is a move", running, short(BlackClock), Move, Black, NotIgnored},
		{"running: other clock ignored", running, short(WhiteClock), Ignore, Black, NotToMove},
		{"running white: black clock ignored", runningW, short(BlackClock), Ignore, White, NotToMove},
		{"running white: white clock moves", runningW, short(WhiteClock), Move, White, NotIgnored},
		{"running: long clock press is still a move", running, long(BlackClock), Move, Black, NotIgnored},
		{"running: pass", running, short(PassButton), Pass, Black, NotIgnored},
		{"running: long pass asks to stop", runningW, long(PassButton), StopRequest, White, NotIgnored},
		{"running: director pauses", running, short(DirectorButton), Pause, Black, NotIgnored},
		{"running: director long calls", running, long(DirectorButton), DirectorCall, Black, NotIgnored},
		{"not started: white starts black's clock", notStarted, short(WhiteClock), Start, Black, NotIgnored},
		{"not started: black's own press ignored", notStarted, short(BlackClock), Ignore, Black, NotStarted},
		{"not started: pass ignored", notStarted, short(PassButton), Ignore, Black, NotStarted},
		{"not started: long pass ignored", notStarted, long(PassButton), Ignore, Black, NotStarted},
		{"not started: director starts", notStarted, short(DirectorButton), Start, Black, NotIgnored},
		{"paused: opponent resumes", paused, short(WhiteClock), Resume, Black, NotIgnored},
		{"paused: own press ignored", paused, short(BlackClock), Ignore, Black, ClockPaused},
		{"paused: pass ignored", paused, short(PassButton), Ignore, Black, ClockPaused},
		{"paused: long pass asks to stop", paused, long(PassButton), StopRequest, Black, NotIgnored},
		{"paused: director resumes", paused, short(DirectorButton), Resume, Black, NotIgnored},
		{"flagged: clock ignored", flagged, short(WhiteClock), Ignore, Black, FlagDown},
		{"flagged: pass ignored", flagged, long(PassButton), Ignore, Black, FlagDown},
		{"flagged: director short ignored", flagged, short(DirectorButton), Ignore, Black, FlagDown},
		{"flagged: director long calls", flagged, long(DirectorButton), DirectorCall, Black, NotIgnored},
		{"unknown button", running, Press{Button: 42, At: t0}, Ignore, Black, UnknownButton},
		{"zero press", running, Press{}, Ignore, Black, UnknownButton},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(tt.st, tt.p)
			if d.Action != tt.action || d.Side != tt.side || d.Reason != tt.reason || d.Press != tt.p {
				t.Fatalf("Decide = %+v (%v), want %v %v %v", d, d, tt.action, tt.side, tt.reason)
			}
			if d.String() == "" {
				t.Fatal("empty description")
			}
		})
	}
}

func TestHandleGame(t *testing.T) {
	mt := NewManualTime(t0)
	c, _ := New(MustParseControl("5m"), mt)
	if err := c.SetToMove(White); err != nil { // a handicap game
		t.Fatal(err)
	}
	press := func(b Button, long bool) Decision {
		t.Helper()
		p := Press{Button: b, Long: long, At: mt.Now()}
		d, err := c.Handle(p)
		if err != nil {
			t.Fatalf("Handle(%v): %v", p, err)
		}
		return d
	}
	if d := press(BlackClock, false); d.Action != Start || d.Side != White {
		t.Fatalf("black starts white's clock: %v", d)
	}
	if err := c.SetToMove(Black); err == nil {
		t.Fatal("SetToMove after start")
	}
	mt.Advance(10 * time.Second)
	if d := press(BlackClock, false); d.Action != Ignore || d.Reason != NotToMove {
		t.Fatalf("black presses on white's time: %v", d)
	}
	if d := press(WhiteClock, false); d.Action != Move || d.Side != White {
		t.Fatalf("white moves: %v", d)
	}
	mt.Advance(3 * time.Second)
	if d := press(PassButton, false); d.Action != Pass || d.Side != Black {
		t.Fatalf("black passes: %v", d)
	}
	if d := press(PassButton, true); d.Action != StopRequest || d.Side != White {
		t.Fatalf("white asks to stop: %v", d)
	}
	st := c.State()
	if st.White.Moves != 1 || st.Black.Moves != 1 || st.ToMove != White {
		t.Fatalf("state %+v", st)
	}
	if c.Display(White).Text != "4:50" || c.Display(Black).Text != "4:57" {
		t.Fatalf("faces %v %v", c.Display(White), c.Display(Black))
	}
	if d := press(DirectorButton, false); d.Action != Pause {
		t.Fatalf("director pauses: %v", d)
	}
	mt.Advance(time.Minute)
	if d := press(DirectorButton, false); d.Action != Resume {
		t.Fatalf("director resumes: %v", d)
	}
	if c.Display(White).Text != "4:50" {
		t.Fatalf("pause charged time: %v", c.Display(White))
	}
}

// jsonRoundTrip checks v survives JSON encoding and decoding unchanged.
func jsonRoundTrip[T comparable](t *testing.T, what string, v T) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back T
	if err := json.Unmarshal(b, &back); err != nil || back != v {
		t.Fatalf("%s round trip %s -> %+v %v", what, b, back, err)
	}
}

func TestPressJSONAndNames(t *testing.T) {
	for _, b := range Buttons() {
		got, err := ParseButton(b.String())
		if err != nil || got != b {
			t.Fatalf("ParseButton(%v) = %v, %v", b, got, err)
		}
	}
	if _, err := ParseButton("elevator"); err == nil {
		t.Fatal("unknown button parsed")
	}
	jsonRoundTrip(t, "press", NewLongPress(PassButton, t0))
	if _, err := json.Marshal(Press{}); err == nil {
		t.Fatal("zero button marshalled")
	}
	for _, s := range []Side{Black, White, NoSide} {
		if got, err := ParseSide(s.String()); err != nil || got != s {
			t.Fatalf("ParseSide(%v) = %v %v", s, got, err)
		}
	}
	if Black.Opponent() != White || White.Opponent() != Black || NoSide.Opponent() != NoSide {
		t.Fatal("Opponent")
	}
}

func TestPressChan(t *testing.T) {
	pc := NewPressChan(1)
	ctx, cancel := context.WithCancel(context.Background())
	if err := pc.Send(ctx, NewPress(BlackClock, t0)); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := pc.Send(ctx, NewPress(WhiteClock, t0)); err == nil {
		t.Fatal("send on a full channel with a cancelled context succeeded")
	}
	if p := <-pc.Events(); p.Button != BlackClock {
		t.Fatalf("got %v", p)
	}
}

func TestDecisionAndEventJSON(t *testing.T) {
	for _, d := range []Decision{
		{Press: NewPress(WhiteClock, t0), Action: Ignore, Side: Black, Reason: NotToMove},
		{Press: NewLongPress(PassButton, t0), Action: StopRequest, Side: White},
		{Press: NewPress(DirectorButton, t0), Action: Pause, Side: Black},
	} {
		jsonRoundTrip(t, "decision", d)
	}
	for _, k := range []EventKind{OvertimeStarted, PeriodUsed, FlagFell} {
		jsonRoundTrip(t, "event", Event{Kind: k, Side: White, At: t0, Periods: 2})
	}
	var d Decision
	for _, bad := range []string{`{"action":"jump"}`, `{"reason":"bored"}`, `{"press":{"button":"x"}}`, `{"side":"red"}`} {
		if err := json.Unmarshal([]byte(bad), &d); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	var e Event
	if err := json.Unmarshal([]byte(`{"kind":"boom"}`), &e); err == nil {
		t.Error("unknown event kind accepted")
	}
}
