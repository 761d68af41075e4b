package clock

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzRestoreState feeds arbitrary journal bytes to the State decoder and
// Restore, then plays a few moves: bad input must be an error, never a
// panic, and a restored clock must never show negative time.
func FuzzRestoreState(f *testing.F) {
	mt := NewManualTime(t0)
	c, _ := New(MustParseControl("1m+3x10s"), mt)
	_ = c.Start(time.Time{})
	mt.Advance(65 * time.Second)
	_ = c.Switch(time.Time{})
	seed, _ := json.Marshal(c.State())
	f.Add(seed, int64(3*time.Second))
	f.Add([]byte(`{"control":"30m+20s<=40m","black":{"main":1800000000000},"white":{"main":5},"to_move":"white","started":true,"running":true}`), int64(time.Minute))
	f.Add([]byte(`{"control":"0+25/5m","black":{"in_overtime":true,"stones":1,"period_left":1},"white":{},"to_move":"black","started":true}`), int64(time.Second))
	f.Add([]byte(`{"control":"90m","black":{"main":-5},"to_move":"black"}`), int64(0))
	f.Add([]byte(`{"control":"90m","black":{"flagged":true},"to_move":"black"}`), int64(0))
	f.Fuzz(func(t *testing.T, data []byte, step int64) {
		var st State
		if err := json.Unmarshal(data, &st); err != nil {
			return
		}
		mt := NewManualTime(t0)
		c, err := Restore(st, mt)
		if err != nil {
			return
		}
		d := time.Duration(step)
		if d < 0 {
			d = -d
		}
		d %= 10 * MaxDuration
		if c.Resume(time.Time{}) != nil {
			_ = c.Start(time.Time{})
		}
		for i := 0; i < 4; i++ {
			mt.Advance(d)
			_, _ = c.Handle(NewPress(ClockButton(c.State().ToMove), mt.Now()))
			_ = c.Poll()
			for _, s := range []Side{Black, White} {
				if disp := c.Display(s); disp.Remaining < 0 || disp.Text == "" {
					t.Fatalf("display %+v", disp)
				}
			}
		}
		_ = c.Adjust(Black, d)
		_ = c.Adjust(White, -d)
		if _, err := json.Marshal(c.State()); err != nil {
			t.Fatalf("state no longer marshals: %v", err)
		}
	})
}

// FuzzDebouncer plays arbitrary level sequences: never more presses than
// button-downs, presses in time order and never before the first edge.
func FuzzDebouncer(f *testing.F) {
	f.Add([]byte{1, 0, 3, 1, 2, 0, 40, 1, 200, 0}, int64(20*time.Millisecond), int64(0))
	f.Add([]byte{1, 1, 255, 1, 255, 0}, int64(-1), int64(time.Second))
	f.Fuzz(func(t *testing.T, script []byte, settle, long int64) {
		cfg := DebounceConfig{Settle: time.Duration(settle % int64(time.Second)), LongPress: time.Duration(long % int64(10*time.Second))}
		d, err := NewDebouncer(PassButton, cfg)
		if err != nil {
			return
		}
		var out []Press
		at := t0
		downs := 0
		level := false
		for i := 0; i+1 < len(script); i += 2 {
			at = at.Add(time.Duration(script[i]) * time.Millisecond)
			pressed := script[i+1]&1 == 1
			if pressed && !level {
				downs++
			}
			level = pressed
			out = d.Edge(pressed, at, out)
		}
		out = d.Advance(at.Add(time.Hour), out)
		if len(out) > downs {
			t.Fatalf("%d presses from %d downs", len(out), downs)
		}
		for i, p := range out {
			if p.At.Before(t0) || (i > 0 && p.At.Before(out[i-1].At)) {
				t.Fatalf("press %d at %v out of order: %v", i, p.At, out)
			}
		}
	})
}
