package replay

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"time"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee"
	"tengen/station"
	"tengen/vision/observe"
)

// ObserveFunc reads the board of one frame: the named frame, or (frame == "") whatever the
// session shows at time at (the demo). seq numbers the frames fed to the referee.
// It returns what the camera side sees, as the live kiosk's camera loop does: a reading, or the
// board moved or not found (the referee then holds play until the board is seen again).
type ObserveFunc func(ctx context.Context, frame string, at time.Duration, seq uint64) (observe.Sight, error)

// ErrUnreadable is wrapped by an ObserveFunc for a frame in which the board cannot be read at all
// (no board found: motion blur, a hand, a bumped camera). Run feeds nothing for such a frame, as
// the kiosk feeds nothing for a camera frame it cannot read, and says so once on Stdout; the
// referee waits for the next readable frame. Any other error ends the run.
var ErrUnreadable = errors.New("replay: frame unreadable")

// Config is one replay run.
type Config struct {
	Script *Script
	// Frames is the frame sequence when the script names none (a directory's images in name
	// order). Ignored when the script names frames.
	Frames []string
	// Observe reads frames. Cache says a named frame always reads the same (stills): it is read
	// once.
	Observe ObserveFunc
	Cache   bool
	// Duration is the length of a session without named frames (the demo); with named frames it
	// is the number of frames times the interval.
	Duration time.Duration
	// Tick is the virtual time between frames fed to the referee (default 200ms).
	Tick time.Duration
	// Speed is how many times faster than real time the session runs; 0 = as fast as possible.
	Speed float64
	// JournalDir holds the referee's journal: a run started again on it resumes. Required.
	JournalDir string
	// Out, when set, receives the game's SGF at the end (written atomically).
	Out string
	// Proposer proposes dead stones at the stop (nil: none).
	Proposer referee.DeadProposer
	// Stdout gets one line per verdict; Log gets diagnostics.
	Stdout io.Writer
	Log    *slog.Logger
	// NoSync skips fsync (tests of logic only).
	NoSync bool
}

// Result is the outcome of a run.
type Result struct {
	State   referee.State
	Resumed bool // the journal already held events: the run continued an earlier one
	Skipped int  // scripted actions already in the journal
	Frames  int  // frames fed this run
}

// lookback is how far before the last journaled event a resumed run starts feeding frames again,
// so that the referee sees a stable board before the next scripted action. It must stay below the
// referee's window for frames already accounted for (5s), so those frames are only learnt from.
const lookback = 3 * time.Second

// Run replays the session. It returns when the session's time is over, the game has ended and
// no scripted action is left, or ctx ends.
func Run(ctx context.Context, cfg Config) (Result, error) {
	var res Result
	s := cfg.Script
	if s == nil || cfg.Observe == nil || cfg.JournalDir == "" {
		return res, errors.New("replay: script, frame reader and journal directory are required")
	}
	if cfg.Tick <= 0 {
		cfg.Tick = 200 * time.Millisecond
	}
	if cfg.Stdout == nil {
		cfg.Stdout = io.Discard
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	frames := s.Frames
	if len(frames) == 0 {
		frames = cfg.Frames
	}
	end := cfg.Duration
	if len(frames) > 0 {
		end = time.Duration(len(frames)) * s.Interval
	}
	if end <= 0 {
		return res, errors.New("replay: the session has no frames")
	}
	actions := timeline(s, frames)
	for _, a := range actions {
		if a.Frame >= len(frames) && len(frames) > 0 {
			return res, fmt.Errorf("replay: line %d: frame index out of range", a.Line)
		}
	}

	tm := clock.NewManualTime(s.Start)
	t0 := s.Start
	out := cfg.Stdout
	// The kiosk's own application layer, fed the recorded frames and presses at their times.
	stn, err := station.Open(station.Options{Table: referee.Options{
		JournalDir: cfg.JournalDir, Time: tm, Proposer: cfg.Proposer, Logger: cfg.Log, NoSync: cfg.NoSync,
		OnVerdict: func(v referee.Verdict) {
			fmt.Fprintf(out, "%9.3fs %-15s %s\n", v.At.Sub(t0).Seconds(), v.Kind, v.Message)
		},
	}, Time: tm, Logger: cfg.Log})
	if err != nil {
		return res, err
	}
	defer stn.Close()
	tab := stn.Table()

	st := tab.State()
	start := time.Duration(0)
	done := time.Duration(-1) // actions at or before this are already in the journal
	if st.Phase == referee.PhaseSetup {
		if err := tab.Setup(s.Setup, t0); err != nil {
			return res, err
		}
	} else {
		res.Resumed = true
		last := tab.LastEventTime()
		done = last.Sub(t0)
		fmt.Fprintf(out, "%9.3fs %-15s %s\n", done.Seconds(), "resumed", st.Recovery)
		tm.Set(last)
		if st.ClocksPaused && st.Phase == referee.PhasePlaying {
			if err := tab.ResumeClocks(last); err != nil && !errors.Is(err, referee.ErrPhase) {
				return res, err
			}
		}
		start = max(done-lookback, 0)
		if len(frames) > 0 {
			start = start / s.Interval * s.Interval
		}
		start = start / cfg.Tick * cfg.Tick
	}

	cache := map[int]observe.Sight{}
	unreadable := map[int]bool{} // frames whose board could not be read (said once, then skipped)
	wallStart := time.Now()
	paceFrom := max(start, done)
	next := 0
	for next < len(actions) && actions[next].At <= done {
		next++
		res.Skipped++
	}
	for t := start; t <= end; t += cfg.Tick {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if t == paceFrom {
			wallStart = time.Now()
		}
		if cfg.Speed > 0 && t > paceFrom {
			// Frames seen again after a restart (up to the last journaled event) run at full speed.
			if wait := time.Duration(float64(t-paceFrom)/cfg.Speed) - time.Since(wallStart); wait > 0 {
				select {
				case <-ctx.Done():
					return res, ctx.Err()
				case <-time.After(wait):
				}
			}
		}
		for next < len(actions) && actions[next].At <= t {
			a := actions[next]
			next++
			tm.Set(t0.Add(a.At))
			if err := do(stn, a, t0.Add(a.At)); err != nil {
				fmt.Fprintf(out, "%9.3fs %-15s line %d: %v\n", a.At.Seconds(), "refused", a.Line, err)
			}
			if err := waitProposal(ctx, tab); err != nil {
				return res, err
			}
		}
		tm.Set(t0.Add(t))
		seq := uint64(t/cfg.Tick) + 1
		var sg observe.Sight
		if len(frames) > 0 {
			i := min(int(t/s.Interval), len(frames)-1)
			c, ok := cache[i]
			if !ok && !unreadable[i] {
				c, err = cfg.Observe(ctx, frames[i], t, seq)
				switch {
				case errors.Is(err, ErrUnreadable):
					fmt.Fprintf(out, "%9.3fs %-15s %s: %v\n", t.Seconds(), "unreadable", frames[i], err)
					unreadable[i] = true
				case err != nil:
					return res, fmt.Errorf("replay: frame %s: %w", frames[i], err)
				case cfg.Cache:
					cache[i] = c
				}
			}
			if unreadable[i] {
				tab.Tick(t0.Add(t))
				continue
			}
			sg = c
			sg.Observation = c.Observation.Clone()
		} else {
			sg, err = cfg.Observe(ctx, "", t, seq)
			if err != nil {
				return res, fmt.Errorf("replay: frame at %v: %w", t, err)
			}
		}
		sg.Time = t0.Add(t)
		if sg.View == observe.ViewBoard {
			sg.Observation.Time, sg.Observation.Seq = sg.Time, seq
		}
		stn.See(sg)
		res.Frames++
		tab.Tick(t0.Add(t))
		if err := waitProposal(ctx, tab); err != nil {
			return res, err
		}
		if next == len(actions) && tab.State().Phase == referee.PhaseEnded {
			break
		}
	}
	res.State = tab.State()
	if cfg.Out != "" {
		rec := tab.Record()
		if rec == nil {
			return res, errors.New("replay: no game to write")
		}
		if err := referee.WriteFileAtomic(cfg.Out, rec.MarshalSGF(), !cfg.NoSync); err != nil {
			return res, fmt.Errorf("replay: writing %s: %w", cfg.Out, err)
		}
	}
	return res, nil
}

// timeline gives every frame action its time: near the end of its frame's interval, 50ms apart.
func timeline(s *Script, frames []string) []Action {
	acts := slices.Clone(s.Actions)
	perFrame := map[int]int{}
	for i := range acts {
		a := &acts[i]
		if a.Frame < 0 {
			continue
		}
		k := perFrame[a.Frame]
		perFrame[a.Frame]++
		a.At = time.Duration(a.Frame)*s.Interval + s.Interval*3/4 + time.Duration(k)*50*time.Millisecond
	}
	slices.SortStableFunc(acts, func(a, b Action) int {
		switch {
		case a.At < b.At:
			return -1
		case a.At > b.At:
			return 1
		}
		return 0
	})
	return acts
}

func do(st *station.Station, a Action, at time.Time) error {
	tab := st.Table()
	switch a.Kind {
	case Press:
		return st.Press(clock.Press{Button: a.Button, At: at})
	case Dead:
		st := tab.State()
		p, err := engine.ParsePoint(a.Point, st.Size)
		if err != nil {
			return err
		}
		return tab.ToggleDead(p, at)
	case Resign:
		return tab.Resign(a.Color, at)
	case Resume:
		return tab.Resume(a.Color, at)
	case Confirm:
		return tab.Confirm(a.Color, at)
	}
	return fmt.Errorf("unknown action %d", a.Kind)
}

// waitProposal waits (in real time) for a dead-stone proposal in flight, so that what follows
// does not depend on how fast the engine answers.
func waitProposal(ctx context.Context, tab *referee.Table) error {
	for tab.State().ProposalPending {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tab.Changed():
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil
}

// ReadLabel reads a board grid file (the vision-eval label format, or the kiosk's detect output).
func ReadLabel(path string) (observe.Observation, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return observe.Observation{}, err
	}
	return observe.ParseText(string(b))
}
