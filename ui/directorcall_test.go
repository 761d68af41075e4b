package ui

import (
	"strings"
	"testing"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee"
	"tengen/vision/observe"
)

// Calling the director on a real referee, as the table shows it in every language: the clocks stop
// and the clock of the player to move says it is paused for as long as the call stands, the banner
// says the director is called, a clock press meanwhile says the game is paused (not "Play is
// halted"), and a second press of the director button sets the clocks running again.
func TestDirectorCallOnTheTable(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 5, 1, 14, 0, 0, 0, time.UTC)
		tm := clock.NewManualTime(now)
		tab, err := referee.Open(referee.Options{JournalDir: t.TempDir(), GamesDir: t.TempDir(), NoSync: true, Time: tm,
			Hold: 500 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		advance := func(d time.Duration) {
			now = now.Add(d)
			tm.Set(now)
			tab.Tick(now)
		}
		a, _ := appWindow(t, allDisplays[0], Handlers{})
		if err := a.SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		act := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
			a.Update(tab.State(), Conditions{})
		}
		act(tab.Setup(referee.Setup{Rules: "aga", Size: 9, TimeControl: "10m", Black: referee.Player{Name: "Ann"}, White: referee.Player{Name: "Bo"}}, now))
		// The camera sees the empty board; White presses to start Black's clock.
		for range 2 {
			o := observe.New(9)
			o.Time = now
			tab.Observe(o)
			advance(600 * time.Millisecond)
		}
		act(tab.Press(clock.Press{Button: clock.WhiteClock, At: now}))
		if st := tab.State(); st.Phase != referee.PhasePlaying || st.ClockRunning != engine.Black {
			t.Fatalf("%s: phase %v, clock running for %v", l.Code, st.Phase, st.ClockRunning)
		}
		advance(10 * time.Second)
		act(tab.Press(clock.Press{Button: clock.DirectorButton, At: now}))
		st := tab.State()
		left := st.Black.Clock.Remaining
		if st.Phase != referee.PhaseHalted || st.ClockRunning != engine.Empty || !st.ClocksPaused {
			t.Fatalf("%s: after the call: phase %v, clock running for %v, paused %v", l.Code, st.Phase, st.ClockRunning, st.ClocksPaused)
		}
		said := func() string {
			var b strings.Builder
			for _, p := range textsIn(a.Current()) {
				b.WriteString(p.t.Text + " ")
			}
			return b.String()
		}
		wantOnScreen := func(when string, texts ...string) {
			t.Helper()
			got := said()
			for _, s := range texts {
				if !strings.Contains(got, s) {
					t.Errorf("%s %s: %q is not on the screen: %s", l.Code, when, s, got)
				}
			}
		}
		paused := tr("Paused")
		// A wrapped banner puts its words on several lines: look for the first words of the sentence.
		called := strings.Join(strings.Fields(phraseText(st.Banner.Says[0]))[:3], " ")
		wantOnScreen("after the call", paused, called)
		if n := strings.Count(said(), paused); n != 2 {
			t.Errorf("%s: %q on %d clocks during the call, want both", l.Code, paused, n)
		}
		// Time passes, a player presses a clock: the game is paused, the clocks stay stopped.
		for range 3 {
			advance(time.Minute)
			a.Update(tab.State(), Conditions{})
		}
		act(tab.Press(clock.Press{Button: clock.BlackClock, At: now}))
		st = tab.State()
		if got := st.Black.Clock.Remaining; got != left {
			t.Errorf("%s: Black's clock ran during the call: %v, then %v", l.Code, left, got)
		}
		pausedSays := strings.Join(strings.Fields(phraseText(st.Banner.Says[0]))[:3], " ")
		if l.Code == "en" && pausedSays != "The game is" {
			t.Errorf("a press during the call says %q", phraseText(st.Banner.Says[0]))
		}
		wantOnScreen("a press during the call", paused, pausedSays)
		if st.Banner.Says[0].Text == "Play is halted: the director must rule before play continues." || strings.Contains(said(), tr("Call the director.")) {
			t.Errorf("%s: a press during the call says the play is halted: %s", l.Code, said())
		}
		// The call withdrawn: the clocks run again and the pause is gone from the screen.
		advance(time.Second)
		act(tab.Press(clock.Press{Button: clock.DirectorButton, At: now}))
		if st := tab.State(); st.Phase != referee.PhasePlaying || st.ClockRunning != engine.Black || st.ClocksPaused {
			t.Errorf("%s: after withdrawing: phase %v, clock running for %v, paused %v", l.Code, st.Phase, st.ClockRunning, st.ClocksPaused)
		}
		if strings.Contains(said(), paused) {
			t.Errorf("%s: the clock still says %q after the call was withdrawn", l.Code, paused)
		}
		tab.Close()
	}
}

// The clock faces say overtime without the referee's abbreviations ("BY", "CAN"), in no language:
// the periods or stones left beside the time.
func TestClockFaceText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"BY 3×0:30", "0:30 (3)"},
		{"BY 1×9.8", "9.8 (1)"},
		{"BY 0×0.0", "0.0 (0)"},
		{"CAN 7/4:10", "4:10 / 7"},
		{"CAN 15/10:00", "10:00 / 15"},
		{"9:41", "9:41"},
		{"1:00:00", "1:00:00"},
		{"", ""},
		{"BY x×0:30", "BY x×0:30"},
		{"BY 3-0:30", "BY 3-0:30"},
	} {
		if got := faceText(tc.in); got != tc.want {
			t.Errorf("faceText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// As the referee gives it, on the table.
	st := playingState(t)
	st.White.Clock.Text = "BY 3×0:27"
	if got := TableViewOf(st, Conditions{}).White.Clock.Text; got != "0:27 (3)" {
		t.Errorf("the table shows White's clock as %q", got)
	}
}
