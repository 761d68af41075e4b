package clock

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// step is one line of a scripted game on a ManualTime.
type step struct {
	think   time.Duration // advance the time first
	do      string        // "move", "start", "pause", "resume", "adjust", "periods", "none"
	side    Side          // for adjust/periods
	delta   time.Duration // for adjust
	count   int           // for periods
	wantErr error         // expected error of the action (errors.Is)
	black   string        // expected face of Black after the step ("" = not checked)
	white   string        // expected face of White
	events  []Event       // expected events from Poll after the step (At relative to t0 via at())
}

func at(d time.Duration) time.Time { return t0.Add(d) }

func runScript(t *testing.T, control string, steps []step) *Clock {
	t.Helper()
	mt := NewManualTime(t0)
	c, err := New(MustParseControl(control), mt)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range steps {
		mt.Advance(s.think)
		var err error
		switch s.do {
		case "start":
			err = c.Start(time.Time{})
		case "move":
			err = c.Switch(time.Time{})
		case "pause":
			err = c.Pause(time.Time{})
		case "resume":
			err = c.Resume(time.Time{})
		case "adjust":
			err = c.Adjust(s.side, s.delta)
		case "periods":
			err = c.SetOvertime(s.side, s.count)
		case "none", "":
		default:
			t.Fatalf("step %d: unknown action %q", i, s.do)
		}
		if !errors.Is(err, s.wantErr) || (err == nil) != (s.wantErr == nil) {
			t.Fatalf("step %d (%s at +%v): error %v, want %v", i, s.do, mt.Now().Sub(t0), err, s.wantErr)
		}
		if s.black != "" {
			if got := c.Display(Black).Text; got != s.black {
				t.Fatalf("step %d (%s at +%v): black shows %q, want %q", i, s.do, mt.Now().Sub(t0), got, s.black)
			}
		}
		if s.white != "" {
			if got := c.Display(White).Text; got != s.white {
				t.Fatalf("step %d (%s at +%v): white shows %q, want %q", i, s.do, mt.Now().Sub(t0), got, s.white)
			}
		}
		evs := c.Poll()
		if fmt.Sprint(evs) != fmt.Sprint(s.events) || !sameEvents(evs, s.events) {
			t.Fatalf("step %d (%s at +%v): events %+v, want %+v", i, s.do, mt.Now().Sub(t0), evs, s.events)
		}
	}
	return c
}

func sameEvents(a, b []Event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].Side != b[i].Side || !a[i].At.Equal(b[i].At) || a[i].Periods != b[i].Periods {
			return false
		}
	}
	return true
}

func TestScriptedGames(t *testing.T) {
	sec, min := time.Second, time.Minute
	tests := []struct {
		name    string
		control string
		steps   []step
	}{
		{"absolute flag at the exact boundary", "10m", []step{
			{do: "start", black: "10:00", white: "10:00"},
			{think: 4 * min, do: "move", black: "6:00"},
			{think: 3 * min, do: "move", white: "7:00"},
			{think: 6*min - 1, do: "none", black: "0.0"},
			{think: 1, do: "move", wantErr: ErrFlagged, black: "0.0",
				events: []Event{{Kind: FlagFell, Side: Black, At: at(13 * min)}}},
			{think: sec, do: "move", wantErr: ErrFlagged},
		}},
		{"absolute move one nanosecond before the flag", "10m", []step{
			{do: "start"},
			{think: 10*min - 1, do: "move", black: "0.0", white: "10:00"},
			{think: 9 * min, do: "move", white: "1:00"},
		}},
		{"absolute flag noticed late keeps the exact time", "1m", []step{
			{do: "start"},
			{think: 5 * min, do: "none", black: "0.0",
				events: []Event{{Kind: FlagFell, Side: Black, At: at(1 * min)}}},
			{think: sec, do: "move", wantErr: ErrFlagged},
		}},
		{"byo-yomi period kept, several used at once, then flag", "1m+3x10s", []step{
			{do: "start", black: "1:00", white: "1:00"},
			{think: 65 * sec, do: "move", black: "BY 3×0:10",
				events: []Event{{Kind: OvertimeStarted, Side: Black, At: at(60 * sec), Periods: 3}}},
			{think: 30 * sec, do: "move", white: "0:30"},
			{think: 9900 * time.Millisecond, do: "move", black: "BY 3×0:10"}, // period saved
			{think: 5 * sec, do: "move", white: "0:25"},
			{think: 25 * sec, do: "move", black: "BY 1×0:10", events: []Event{
				{Kind: PeriodUsed, Side: Black, At: at(110*sec + 9900*time.Millisecond), Periods: 2},
				{Kind: PeriodUsed, Side: Black, At: at(120*sec + 9900*time.Millisecond), Periods: 1},
			}},
			{think: 20 * sec, do: "move", white: "5.0"},
			{think: 3 * sec, do: "none", black: "BY 1×7.0"},
			{think: 7 * sec, do: "move", wantErr: ErrFlagged, black: "BY 0×0.0",
				events: []Event{{Kind: FlagFell, Side: Black, At: at(164*sec + 900*time.Millisecond)}}},
		}},
		{"byo-yomi without main time", "0+2x30s", []step{
			{do: "start", black: "BY 2×0:30"},
			{think: 29 * sec, do: "move", black: "BY 2×0:30"},
			{think: 31 * sec, do: "move", white: "BY 1×0:30",
				events: []Event{{Kind: PeriodUsed, Side: White, At: at(59 * sec), Periods: 1}}},
		}},
		{"Canadian stones count down and reset", "1m+3/30s", []step{
			{do: "start"},
			{think: 60 * sec, do: "move", black: "CAN 2/0:30", // exactly at the end of main: first stone of overtime
				events: []Event{{Kind: OvertimeStarted, Side: Black, At: at(60 * sec), Stones: 3}}},
			{think: 10 * sec, do: "move"},
			{think: 10 * sec, do: "move", black: "CAN 1/0:20"},
			{think: 10 * sec, do: "move"},
			{think: 10 * sec, do: "move", black: "CAN 3/0:30"}, // 3 stones in 30 s: fresh period
			{think: 5 * sec, do: "move"},
			{think: 29 * sec, do: "move", black: "CAN 2/1.0"},
			{think: 5 * sec, do: "move"},
			{think: 500 * time.Millisecond, do: "none", black: "CAN 2/0.5"},
			{think: 500 * time.Millisecond, do: "move", wantErr: ErrFlagged, black: "CAN 2/0.0",
				events: []Event{{Kind: FlagFell, Side: Black, At: at(60*sec + 10*sec + 10*sec + 10*sec + 10*sec + 5*sec + 29*sec + 5*sec + sec)}}},
		}},
		{"Fischer increment and cap", "1m+10s<=1m10s", []step{
			{do: "start"},
			{think: 5 * sec, do: "move", black: "1:05"},
			{think: 20 * sec, do: "move", white: "0:50"},
			{think: 1 * sec, do: "move", black: "1:10"}, // 64 + 10 capped at 70
			{think: 50 * sec, do: "none", white: "0.0",
				events: []Event{{Kind: FlagFell, Side: White, At: at(76 * sec)}}},
		}},
		{"Fischer without cap grows", "1m+10s", []step{
			{do: "start"},
			{think: sec, do: "move", black: "1:09"},
			{think: sec, do: "move"},
			{think: sec, do: "move", black: "1:18"},
		}},
		{"pause and resume", "10m", []step{
			{do: "start"},
			{think: 10 * sec, do: "pause", black: "9:50"},
			{think: 5 * min, do: "none", black: "9:50"},
			{do: "move", wantErr: ErrNotRunning},
			{do: "pause", wantErr: ErrNotRunning},
			{think: sec, do: "resume"},
			{do: "resume", wantErr: ErrNotPaused},
			{think: 10 * sec, do: "move", black: "9:40", white: "10:00"},
		}},
		{"director adjustments", "10m+5x30s", []step{
			{do: "start"},
			{think: 1 * min, do: "adjust", side: White, delta: 30 * sec, black: "9:00", white: "10:30"},
			{do: "adjust", side: Black, delta: -2 * min, black: "7:00"},
			{do: "adjust", side: Black, delta: -7 * min, wantErr: ErrBadAdjustment, black: "7:00"},
			{do: "adjust", side: NoSide, delta: sec, wantErr: ErrBadAdjustment},
			{think: 7 * min, do: "none", black: "BY 5×0:30",
				events: []Event{{Kind: OvertimeStarted, Side: Black, At: at(8 * min), Periods: 5}}},
			{do: "adjust", side: Black, delta: 15 * sec, black: "BY 5×0:45"},
			{do: "periods", side: Black, count: 2, black: "BY 2×0:45"},
			{think: 45 * sec, do: "none", black: "BY 1×0:30",
				events: []Event{{Kind: PeriodUsed, Side: Black, At: at(8*min + 45*sec), Periods: 1}}},
			{think: 30 * sec, do: "none", black: "BY 0×0.0",
				events: []Event{{Kind: FlagFell, Side: Black, At: at(9*min + 15*sec)}}},
			{do: "resume", wantErr: ErrFlagged},
			{do: "adjust", side: Black, delta: -sec, wantErr: ErrBadAdjustment},
			{think: sec, do: "adjust", side: Black, delta: 20 * sec, black: "BY 1×0:20"}, // the flag is lifted
			{think: sec, do: "resume"},
			{think: 5 * sec, do: "move", black: "BY 1×0:30"},
		}},
		{"pause after an unnoticed flag reports it", "1m", []step{
			{do: "start"},
			{think: 2 * time.Minute, do: "pause", wantErr: ErrFlagged, events: []Event{{Kind: FlagFell, Side: Black, At: at(min)}}},
			{do: "resume", wantErr: ErrFlagged},
		}},
		{"absolute flag lifted by the director", "1m", []step{
			{do: "start"},
			{think: 2 * min, do: "none", events: []Event{{Kind: FlagFell, Side: Black, At: at(min)}}},
			{do: "adjust", side: Black, delta: min, black: "1:00"},
			{do: "resume"},
			{think: sec, do: "move", black: "0:59"},
		}},
		{"not started", "10m", []step{
			{think: min, do: "move", wantErr: ErrNotRunning, black: "10:00"},
			{do: "resume", wantErr: ErrNotPaused},
			{do: "start"},
			{do: "start", wantErr: ErrAlreadyStarted},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runScript(t, tt.control, tt.steps) })
	}
}

func TestRestoreAfterPowerCut(t *testing.T) {
	c := runScript(t, "1m+3x10s", []step{
		{do: "start"},
		{think: 65 * time.Second, do: "move", events: []Event{{Kind: OvertimeStarted, Side: Black, At: at(time.Minute), Periods: 3}}}, // Black into overtime
		{think: 20 * time.Second, do: "none"},
	})
	// The power is cut now, with White's clock running 20 s into its move.
	cut := c.State()
	b, err := json.MarshalIndent(cut, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "state-at-cut.golden.json")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(b) {
		t.Fatalf("journaled state differs from %s:\n%s", golden, b)
	}
	var st State
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	// Power comes back ten minutes later.
	mt := NewManualTime(t0.Add(100 * time.Minute))
	r, err := Restore(st, mt)
	if err != nil {
		t.Fatal(err)
	}
	rs := r.State()
	if !rs.Paused() || rs.Running || rs.ToMove != White {
		t.Fatalf("restored clock should be paused with White to move: %+v", rs)
	}
	if rs.Black != cut.Black || rs.White != cut.White {
		t.Fatalf("restored sides differ:\n%+v\n%+v", rs, cut)
	}
	if got := r.Display(White).Text; got != "0:40" {
		t.Fatalf("white shows %q after restore, want 0:40", got)
	}
	if got := r.Display(Black); got.Text != "BY 3×0:10" || !got.InOvertime || got.Periods != 3 {
		t.Fatalf("black shows %+v after restore", got)
	}
	mt.Advance(time.Hour)
	if got := r.Display(White).Text; got != "0:40" {
		t.Fatalf("paused clock moved: white shows %q", got)
	}
	// Pressing White's own clock does nothing (White is to move); Black's
	// button restarts White's clock, as a player would.
	if d, err := r.Handle(NewPress(WhiteClock, mt.Now())); err != nil || d.Action != Ignore || d.Reason != ClockPaused {
		t.Fatalf("white's press while paused: %v, %v", d, err)
	}
	if d, err := r.Handle(NewPress(BlackClock, mt.Now())); err != nil || d.Action != Resume {
		t.Fatalf("black's press while paused: %v, %v", d, err)
	}
	mt.Advance(10 * time.Second)
	if got := r.Display(White).Text; got != "0:30" {
		t.Fatalf("white shows %q after resuming, want 0:30", got)
	}
}

func TestRestoreRejectsCorruptState(t *testing.T) {
	good := State{Control: MustParseControl("10m"), Black: freshSide(MustParseControl("10m")), White: freshSide(MustParseControl("10m")), ToMove: Black}
	bad := []func(*State){
		func(s *State) { s.ToMove = NoSide },
		func(s *State) { s.Control = Control{} },
		func(s *State) { s.Black.Main = -1 },
		func(s *State) { s.White.InOvertime = true },
		func(s *State) { s.White.Flagged = true },
	}
	for i, f := range bad {
		s := good
		f(&s)
		if _, err := Restore(s, nil); err == nil {
			t.Errorf("case %d: corrupt state restored", i)
		}
	}
	if _, err := Restore(good, nil); err != nil {
		t.Fatal(err)
	}
	var st State
	if err := json.Unmarshal([]byte(`{"control":"60m+5x","to_move":"black"}`), &st); err == nil {
		t.Error("corrupt control accepted from JSON")
	}
	if err := json.Unmarshal([]byte(`{"control":"60m","to_move":"purple"}`), &st); err == nil {
		t.Error("unknown side accepted from JSON")
	}
}

func TestWaitReportsFlagAtExactTime(t *testing.T) {
	mt := NewManualTime(t0)
	c, _ := New(MustParseControl("1m"), mt)
	if d, ok := c.NextDeadline(); ok {
		t.Fatalf("deadline %v before start", d)
	}
	_ = c.Start(time.Time{})
	if d, ok := c.NextDeadline(); !ok || !d.Equal(at(time.Minute)) {
		t.Fatalf("deadline %v %v", d, ok)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		evs []Event
		err error
	}
	res := make(chan result, 1)
	go func() {
		evs, err := c.Wait(ctx)
		res <- result{evs, err}
	}()
	mt.WaitPending(1, ctx.Done())
	mt.Advance(30 * time.Second)
	// A move moves the deadline: the waiter must re-arm for White's minute.
	if err := c.Switch(time.Time{}); err != nil {
		t.Fatal(err)
	}
	mt.WaitPending(1, ctx.Done())
	mt.Advance(59 * time.Second)
	select {
	case r := <-res:
		t.Fatalf("Wait returned early: %+v", r)
	default:
	}
	mt.Advance(5 * time.Second) // noticed 4 s late
	r := <-res
	if r.err != nil || len(r.evs) != 1 || r.evs[0].Kind != FlagFell || r.evs[0].Side != White || !r.evs[0].At.Equal(at(90*time.Second)) {
		t.Fatalf("Wait = %+v", r)
	}
	// Cancelled while nothing runs.
	ctx2, cancel2 := context.WithCancel(context.Background())
	go func() {
		_, err := c.Wait(ctx2)
		res <- result{nil, err}
	}()
	cancel2()
	if r := <-res; !errors.Is(r.err, context.Canceled) {
		t.Fatalf("cancelled Wait: %v", r.err)
	}
	if n := mt.Pending(); n != 0 {
		t.Fatalf("%d timers left behind", n)
	}
}

func TestReportDelayKeepsPressMadeInTime(t *testing.T) {
	mt := NewManualTime(t0)
	c, _ := New(MustParseControl("1m"), mt)
	c.SetReportDelay(50 * time.Millisecond)
	_ = c.Start(time.Time{})
	// The press went down 5 ms before the flag, reaches the clock 20 ms after it.
	mt.Advance(time.Minute + 20*time.Millisecond)
	if evs := c.Poll(); len(evs) != 0 {
		t.Fatalf("flag reported within the report delay: %v", evs)
	}
	d, err := c.Handle(NewPress(BlackClock, at(time.Minute-5*time.Millisecond)))
	if err != nil || d.Action != Move {
		t.Fatalf("press in time: %v %v", d, err)
	}
	if got := c.Display(Black).Text; got != "0.0" {
		t.Fatalf("black shows %q", got)
	}
	// White now loses on time; the report comes 50 ms after the flag.
	mt.Advance(time.Minute)
	if evs := c.Poll(); len(evs) != 0 {
		t.Fatalf("early report %v", evs)
	}
	mt.Advance(50 * time.Millisecond)
	evs := c.Poll()
	if len(evs) != 1 || evs[0].Side != White || !evs[0].At.Equal(at(2*time.Minute-5*time.Millisecond)) {
		t.Fatalf("events %v", evs)
	}
	// Too late now: the flag stands even for a press dated before it.
	d, err = c.Handle(NewPress(WhiteClock, at(2*time.Minute-10*time.Millisecond)))
	if d.Action != Ignore || d.Reason != FlagDown {
		t.Fatalf("late press: %v %v", d, err)
	}
}

func TestFormatRemaining(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0.0"},
		{-time.Second, "0.0"},
		{99 * time.Millisecond, "0.0"},
		{9700 * time.Millisecond, "9.7"},
		{9999 * time.Millisecond, "9.9"},
		{10 * time.Second, "0:10"},
		{30 * time.Second, "0:30"},
		{4*time.Minute + 59*time.Second + 999*time.Millisecond, "4:59"},
		{59*time.Minute + 59*time.Second, "59:59"},
		{time.Hour, "1:00:00"},
		{time.Hour + 2*time.Minute + 3*time.Second, "1:02:03"},
		{12 * time.Hour, "12:00:00"},
	}
	for _, tt := range tests {
		if got := FormatRemaining(tt.d); got != tt.want {
			t.Errorf("FormatRemaining(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestDisplayParts(t *testing.T) {
	mt := NewManualTime(t0)
	c, _ := New(MustParseControl("10s+25/5m"), mt)
	_ = c.Start(time.Time{})
	mt.Advance(300 * time.Millisecond)
	d := c.Display(Black)
	if d.Text != "9.7" || !d.Low || !d.Running || d.InOvertime || d.Paused || d.Flagged {
		t.Fatalf("black %+v", d)
	}
	if w := c.Display(White); w.Running || w.Low || w.Text != "0:10" {
		t.Fatalf("white %+v", w)
	}
	mt.Advance(10 * time.Second)
	d = c.Display(Black)
	if d.Text != "CAN 25/4:59" || !d.InOvertime || d.Stones != 25 || d.Low {
		t.Fatalf("black in overtime %+v", d)
	}
	_ = c.Pause(time.Time{})
	if d := c.Display(Black); !d.Paused || d.Running {
		t.Fatalf("paused %+v", d)
	}
}

// TestConcurrentUse drives a clock from one goroutine while others read it
// (run with -race).
func TestConcurrentUse(t *testing.T) {
	mt := NewManualTime(t0)
	c, _ := New(MustParseControl("10m+5x30s"), mt)
	_ = c.Start(time.Time{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	for i := 0; i < 3; i++ {
		go func() {
			for ctx.Err() == nil {
				_ = c.Display(Black)
				_ = c.State()
				_ = c.Control()
				_, _ = c.NextDeadline()
			}
			done <- struct{}{}
		}()
	}
	go func() {
		for ctx.Err() == nil {
			if _, err := c.Wait(ctx); err != nil {
				break
			}
		}
		done <- struct{}{}
	}()
	for i := 0; i < 200; i++ {
		mt.Advance(7 * time.Second)
		_ = c.Switch(time.Time{})
	}
	cancel()
	for i := 0; i < 4; i++ {
		<-done
	}
	if st := c.State(); st.Black.Moves+st.White.Moves == 0 {
		t.Fatalf("no moves booked: %+v", st)
	}
}
