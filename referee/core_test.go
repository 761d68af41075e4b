package referee

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/vision/observe"
)

// coreEvents turns fuzz bytes into a game's events after a set-up: presses, board readings (the
// game's board with a stone added, removed or changed), press timeouts, dead-stone toggles,
// confirmations, resumptions, flags, the camera's view, director pauses, each a few hundred
// milliseconds after the last.
func coreEvents(c *core, data []byte, at time.Time) []*event {
	var evs []*event
	for i := 0; i+2 < len(data); i += 3 {
		kind, a, b := data[i], data[i+1], data[i+2]
		at = at.Add(time.Duration(50+int(b)*20) * time.Millisecond)
		ev := &event{At: at}
		size := 9
		if c.game != nil {
			size = c.game.Size()
		}
		p := engine.Point{X: int(a) % size, Y: int(a/16) % size}
		switch kind % 12 {
		case 0, 1, 2:
			ev.Kind, ev.Press = kindPress, clock.Press{Button: clock.Button(1 + kind%3), At: at}
			ev.Moving = ev.Press.Button == clock.PassButton && b%5 == 0 // pressed while the board was not still
		case 3, 4, 5:
			board := strings.Repeat(".", size*size)
			if c.game != nil {
				var sb strings.Builder
				for _, col := range c.game.Board() {
					sb.WriteByte(".XO"[col])
				}
				board = sb.String()
			}
			r := []byte(board)
			r[p.Y*size+p.X] = ".XO?"[b%4]
			ev.Kind, ev.Board = kindObs, string(r)
		case 6:
			ev.Kind = kindTimeout
		case 7:
			ev.Kind, ev.Point = kindToggle, p.GTP(size)
		case 8:
			ev.Kind, ev.Color = kindConfirm, engine.Color(1+a%2)
		case 9:
			ev.Kind, ev.Color = kindResume, engine.Color(1+a%2)
		case 10:
			ev.Kind, ev.View = kindSight, observe.View(a%3).String()
		case 11:
			if a%2 == 0 {
				ev.Kind, ev.Color = kindFlag, engine.Color(1+b%2)
			} else {
				ev.Kind, ev.Director = kindDirector, &DirectorAction{Kind: DirectorPause}
			}
		}
		evs = append(evs, ev)
	}
	return evs
}

// coreSummary is what two cores that applied the same events must agree on.
func coreSummary(c *core) string {
	if c.game == nil {
		return "no game"
	}
	var moves []string
	for _, m := range c.game.Moves() {
		moves = append(moves, m.Move.GTP(c.game.Size()))
	}
	return fmt.Sprintf("%v %s | %s | %d queued | %v | %s", c.phase, c.result, strings.Join(moves, " "), len(c.queue), c.view, c.banner.Message)
}

// FuzzCoreApply drives the referee's core with arbitrary event sequences after a set-up: it must
// never panic, every verdict it says must be said in phrases (the screens translate them) with
// its English message, and applying the same events to a second core must give the same table
// (the journal's replay depends on it).
func FuzzCoreApply(f *testing.F) {
	f.Add([]byte{1, 0, 0, 3, 0x44, 1, 0, 0, 0, 2, 0, 0, 2, 0, 0})
	f.Add([]byte{10, 0, 0, 1, 0, 0, 4, 0x22, 2, 10, 1, 0, 11, 0, 200})
	f.Add([]byte{2, 0, 0, 2, 0, 0, 7, 0x33, 0, 8, 0, 0, 8, 1, 0, 9, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 600 {
			return
		}
		run := func() (*core, []Effect) {
			c := newCore(coreConfig{PressWait: 3 * time.Second, FlagGrace: time.Second}, clock.NewManualTime(t0), 500*time.Millisecond)
			s := Setup{Rules: "aga", Size: 9, TimeControl: "1m"}
			if err := c.apply(&event{Kind: kindSetup, At: t0, Setup: &s}); err != nil {
				t.Fatal(err)
			}
			start := &event{Kind: kindPress, At: t0.Add(time.Second), Press: clock.Press{Button: clock.WhiteClock}}
			_ = c.apply(start)
			_ = c.apply(&event{Kind: kindObs, At: t0.Add(1500 * time.Millisecond), Board: strings.Repeat(".", 81)})
			for _, ev := range coreEvents(c, data, t0.Add(2*time.Second)) {
				_ = c.apply(ev)
			}
			return c, c.takeEffects()
		}
		c1, effects := run()
		for _, e := range effects {
			if s, ok := e.(Said); ok {
				v := s.Verdict
				if len(v.Says) == 0 || v.Message == "" {
					t.Fatalf("a %v verdict without phrases or message: %+v", v.Kind, v)
				}
			}
		}
		c2, _ := run()
		if a, b := coreSummary(c1), coreSummary(c2); a != b {
			t.Fatalf("the same events gave two tables:\n%s\n%s", a, b)
		}
	})
}
