package station

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee"
	"tengen/ui"
	"tengen/vision/observe"
)

var t0 = time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)

// fakeCamera hands the test's sights to the station, one at a time, in the camera loop's goroutine.
type fakeCamera struct {
	sights chan observe.Sight
	done   chan struct{}
}

func (f *fakeCamera) Run(ctx context.Context, see func(observe.Sight)) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case s := <-f.sights:
			see(s)
			f.done <- struct{}{}
		}
	}
}

// fakeButtons are the GPIO buttons.
type fakeButtons struct{ ch chan clock.Press }

func (f *fakeButtons) Events() <-chan clock.Press { return f.ch }

// fakeAlarm records every flash as the alert whose pattern it is.
type fakeAlarm struct {
	mu    sync.Mutex
	rungs []Alert
}

func (f *fakeAlarm) Flash(_ context.Context, n int, on, off time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, a := range AllAlerts() {
		if p, _ := PatternOf(a); p == (Pattern{n, on, off}) {
			f.rungs = append(f.rungs, a)
			return nil
		}
	}
	f.rungs = append(f.rungs, "unknown")
	return nil
}

func (f *fakeAlarm) count(a Alert) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, r := range f.rungs {
		if r == a {
			n++
		}
	}
	return n
}

// table is a running station with a fake camera, buttons and alarm, on manual time.
type table struct {
	t       *testing.T
	tm      *clock.ManualTime
	st      *Station
	cam     *fakeCamera
	buttons *fakeButtons
	alarm   *fakeAlarm
	board   []byte
	size    int
	seq     uint64
	dir     string
}

func newTable(t *testing.T, alerts []Alert) *table {
	tb := &table{t: t, tm: clock.NewManualTime(t0), cam: &fakeCamera{sights: make(chan observe.Sight), done: make(chan struct{})},
		buttons: &fakeButtons{ch: make(chan clock.Press)}, alarm: &fakeAlarm{}, size: 9, dir: t.TempDir()}
	tb.board = []byte(strings.Repeat(".", 81))
	st, err := Open(Options{
		Table: referee.Options{JournalDir: tb.dir, Time: tb.tm, NoSync: true, Logger: slog.New(slog.DiscardHandler),
			Hold: 500 * time.Millisecond, PressWait: 3 * time.Second},
		Camera: tb.cam, Buttons: tb.buttons, Alarm: tb.alarm, Alerts: alerts, Time: tb.tm,
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		t.Fatal(err)
	}
	tb.st = st
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		_ = st.Run(ctx)
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		st.Close()
	})
	return tb
}

// frame shows the camera's current board.
func (tb *table) frame() {
	o := observe.New(tb.size)
	for i, r := range string(tb.board) {
		o.Stones[i], _ = observe.StoneFromRune(r)
	}
	tb.seq++
	o.Time, o.Seq = tb.tm.Now(), tb.seq
	tb.show(observe.Reading(o))
}

func (tb *table) show(s observe.Sight) {
	tb.cam.sights <- s
	<-tb.cam.done
}

// settle shows the board long enough to be still.
func (tb *table) settle() {
	tb.frame()
	tb.tm.Advance(600 * time.Millisecond)
	tb.frame()
	tb.tm.Advance(100 * time.Millisecond)
}

func (tb *table) put(c byte, v string) {
	p, err := engine.ParsePoint(v, tb.size)
	if err != nil {
		tb.t.Fatal(err)
	}
	tb.board[p.Y*tb.size+p.X] = c
}

// press presses a button and waits until the referee has it.
func (tb *table) press(b clock.Button) {
	tb.t.Helper()
	n := tb.st.Table().PressCount()
	tb.buttons.ch <- clock.Press{Button: b, At: tb.tm.Now()}
	tb.eventually("the press reaches the referee", func() bool { return tb.st.Table().PressCount() > n }, nil)
	tb.tm.Advance(100 * time.Millisecond)
}

// move places c's stone at v, shows the board and presses c's clock.
func (tb *table) move(c engine.Color, v string) {
	tb.t.Helper()
	ch, b := byte('X'), clock.BlackClock
	if c == engine.White {
		ch, b = 'O', clock.WhiteClock
	}
	tb.put(ch, v)
	tb.settle()
	tb.press(b)
}

// eventually waits (in real time) for cond, calling step between looks.
func (tb *table) eventually(what string, cond func() bool, step func()) {
	tb.t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if cond() {
			return
		}
		if step != nil {
			step()
		}
	}
	tb.t.Fatalf("timed out waiting until %s (banner %q)", what, tb.st.Table().State().Banner.Message)
}

func (tb *table) wantBanner(kind referee.VerdictKind, contains string) {
	tb.t.Helper()
	b := tb.st.Table().State().Banner
	if b.Kind != kind || !strings.Contains(b.Message, contains) {
		tb.t.Fatalf("banner %v %q, want %v containing %q", b.Kind, b.Message, kind, contains)
	}
}

// TestLiveTableThroughTrouble drives the station as the kiosk runs it, with a fake camera, fake
// buttons and a fake alarm, through a game with a bumped board, a lost camera, an illegal move, a
// call for the director and a flag fall, and checks what the table says, what rang, and the SGF.
func TestLiveTableThroughTrouble(t *testing.T) {
	tb := newTable(t, AllAlerts())
	tab := tb.st.Table()
	scr := newScreen(t)
	if err := tab.Setup(referee.Setup{Rules: "aga", Size: 9, TimeControl: "2m", Black: referee.Player{Name: "Ann"},
		White: referee.Player{Name: "Bo"}}, tb.tm.Now()); err != nil {
		t.Fatal(err)
	}
	tb.settle()
	tb.press(clock.WhiteClock) // White starts Black's clock
	tb.move(engine.Black, "E5")
	tb.move(engine.White, "G3")

	// The board is bumped: play is held, then the board is found again as it was.
	tb.show(observe.Sight{View: observe.ViewMoved, Time: tb.tm.Now(), Why: "grid off the lines"})
	tb.wantBanner(referee.VerdictCamera, "moved")
	scr.shows(tb.st, "Camera", "The board or the camera moved")
	if c := tb.st.Conditions(); !c.BoardMoved {
		t.Fatalf("conditions %+v, want the board moved", c)
	}
	tb.settle()
	tb.wantBanner(referee.VerdictInfo, "matches the game")
	scr.shows(tb.st, "The board matches the game again: Black to play.")

	// The camera stops giving frames: the station notices by itself, and a move made meanwhile
	// is read when the picture is back.
	tb.eventually("the camera is lost", func() bool { return tb.st.Conditions().CameraLost }, func() { tb.tm.Advance(500 * time.Millisecond) })
	tb.wantBanner(referee.VerdictCamera, "no picture")
	scr.shows(tb.st, "The camera gives no picture")
	if err := ui.SetLanguage("pl"); err != nil {
		t.Fatal(err)
	}
	scr.shows(tb.st, "Kamera nie daje obrazu")
	if err := ui.SetLanguage("en"); err != nil {
		t.Fatal(err)
	}
	tb.put('X', "E6")
	tb.press(clock.BlackClock)
	tb.tm.Advance(10 * time.Second) // longer than a press may wait for a clear view
	tb.settle()
	if got := moves(tab); got != "B E5 W G3 B E6" {
		t.Fatalf("moves after the camera came back: %q", got)
	}

	// An illegal move: White's suicide at A1, between Black's B1 and A2.
	tb.move(engine.White, "G7")
	tb.move(engine.Black, "B1")
	tb.move(engine.White, "J9")
	tb.move(engine.Black, "A2")
	tb.move(engine.White, "A1")
	tb.wantBanner(referee.VerdictIllegal, "suicide")
	scr.shows(tb.st, "Illegal move", "suicide")
	tb.eventually("the illegal move rings", func() bool { return tb.alarm.count(AlertIllegal) == 1 }, nil)

	// A call for the director stops the clocks; the caller withdraws it.
	tb.press(clock.DirectorButton)
	scr.shows(tb.st, "The director is called", "clocks are stopped")
	if st := tab.State(); st.ClockRunning != engine.Empty {
		t.Fatalf("%v's clock runs while the director is called", st.ClockRunning)
	}
	for range 75 { // 150 s, past the flag had the clocks run; the camera keeps sending frames
		tb.tm.Advance(2 * time.Second)
		tb.frame()
	}
	if st := tab.State(); st.Phase != referee.PhaseHalted {
		t.Fatalf("phase %v while the director is called, want halted (%s)", st.Phase, st.Banner.Message)
	}
	tb.press(clock.DirectorButton)
	scr.shows(tb.st, "The call is withdrawn")

	// The flag: nobody moves, Black's two minutes run out.
	tb.eventually("the flag falls", func() bool { return tab.State().Phase == referee.PhaseEnded }, func() { tb.tm.Advance(5 * time.Second) })
	tb.eventually("the flag rings", func() bool { return tb.alarm.count(AlertFlag) == 1 }, func() { tb.tm.Advance(250 * time.Millisecond) })

	for _, a := range []Alert{AlertCamera, AlertIllegal, AlertDirector} {
		if tb.alarm.count(a) < 1 {
			t.Errorf("the %s alert never rang (rang: %v)", a, tb.alarm.rungs)
		}
	}
	scr.shows(tb.st, "Game over", "time ran out")
	st := tab.State()
	if !strings.HasSuffix(st.Result, "+T") {
		t.Fatalf("result %q, want a win on time", st.Result)
	}
	sgf, err := os.ReadFile(filepath.Join(tb.dir, "game.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"RE[" + st.Result + "]", ";B[ee]", ";B[ed]", "PB[Ann]"} {
		if !strings.Contains(string(sgf), want) {
			t.Errorf("the SGF lacks %q:\n%s", want, sgf)
		}
	}
}

func moves(tab *referee.Table) string {
	var out []string
	for _, p := range tab.Moves() {
		out = append(out, p.Move.GTP(9))
	}
	return strings.Join(out, " ")
}

// TestByoYomiCounting rings once for each of the last ten seconds of a byo-yomi period, and not
// in main time, in Canadian overtime or with the clocks paused.
func TestByoYomiCounting(t *testing.T) {
	running := func(d referee.ClockDisplay) referee.State {
		d.Running = true
		return referee.State{Phase: referee.PhasePlaying, Black: referee.Side{Clock: d}}
	}
	tests := []struct {
		name  string
		state referee.State
		rings bool
	}{
		{"eleven seconds left", running(referee.ClockDisplay{Overtime: true, Periods: 3, Remaining: 11 * time.Second}), false},
		{"nine seconds left", running(referee.ClockDisplay{Overtime: true, Periods: 3, Remaining: 9500 * time.Millisecond}), true},
		{"main time", running(referee.ClockDisplay{Remaining: 5 * time.Second}), false},
		{"Canadian overtime", running(referee.ClockDisplay{Overtime: true, Stones: 5, Remaining: 5 * time.Second}), false},
		{"paused", func() referee.State {
			s := running(referee.ClockDisplay{Overtime: true, Periods: 1, Remaining: 5 * time.Second})
			s.ClocksPaused = true
			return s
		}(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			alarm := &fakeAlarm{}
			s := &Station{alerts: map[Alert]bool{AlertByoYomi: true}, opts: Options{Alarm: alarm}, ring: make(chan Alert, 8)}
			last := s.byoYomi(tt.state, -1)
			if again := s.byoYomi(tt.state, last); again != last {
				t.Fatalf("the same second gave %v then %v", last, again)
			}
			if got := len(s.ring) == 1; got != tt.rings {
				t.Fatalf("rang %d times, want rings=%v", len(s.ring), tt.rings)
			}
		})
	}
}

// TestAlertsOffRingNothing: an alert not configured never reaches the alarm.
func TestAlertsOffRingNothing(t *testing.T) {
	tb := newTable(t, []Alert{AlertFlag})
	tb.press(clock.DirectorButton)
	tb.show(observe.Sight{View: observe.ViewNoPicture, Time: tb.tm.Now()})
	time.Sleep(20 * time.Millisecond)
	if len(tb.alarm.rungs) != 0 {
		t.Fatalf("rang %v with only the flag alert on", tb.alarm.rungs)
	}
}
