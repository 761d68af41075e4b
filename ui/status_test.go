package ui

import (
	"testing"

	"fyne.io/fyne/v2"

	"tengen/engine"
	"tengen/referee"
)

func TestStatusLine(t *testing.T) {
	playing := playingState(t)
	paused := playing
	paused.ClocksPaused = true
	ended := playing
	ended.Phase, ended.ToMove, ended.Result, ended.MoveNumber = referee.PhaseEnded, engine.Empty, "B+3.5", 80
	ticking := playing
	ticking.White.Clock.Text = "0:26 (3)"
	for _, tc := range []struct {
		name string
		st   referee.State
		cond Conditions
		want string
	}{
		{"setup", referee.State{Phase: referee.PhaseSetup}, Conditions{}, "waiting for a game to be set up"},
		{"playing", playing, Conditions{}, "game: move 7, playing, white to move"},
		{"clock ticks", ticking, Conditions{HandsOver: true}, "game: move 7, playing, white to move"},
		{"paused", paused, Conditions{}, "game: move 7, playing, white to move, clocks paused"},
		{"ended", ended, Conditions{}, "game: move 80, ended, result B+3.5"},
		{"camera lost", playing, Conditions{CameraLost: true}, "game: move 7, playing, white to move; camera lost"},
	} {
		if got := StatusLine(tc.st, tc.cond); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestParseWindowSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want fyne.Size
		ok   bool
	}{
		{"1280x720", fyne.NewSize(1280, 720), true},
		{" 800X480 ", fyne.NewSize(800, 480), true},
		{"big", fyne.Size{}, false},
		{"1280x", fyne.Size{}, false},
		{"100x100", fyne.Size{}, false},
		{"9000x720", fyne.Size{}, false},
		{"-1280x720", fyne.Size{}, false},
	} {
		got, err := ParseWindowSize(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("%q: %v, %v; want %v (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func FuzzParseWindowSize(f *testing.F) {
	for _, s := range []string{"1280x720", "800x480", "x", "", "1e3x1e3", "320x240"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sz, err := ParseWindowSize(s)
		if err == nil && (sz.Width < 320 || sz.Height < 240 || sz.Width > 8192 || sz.Height > 8192) {
			t.Errorf("%q accepted as %v", s, sz)
		}
	})
}
