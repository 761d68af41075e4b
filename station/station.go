// Package station is the kiosk's application layer: it owns one table's effects and goroutines
// around the referee. The camera loop's sights, the buttons' presses and time reach the referee
// through it; it notices a camera that stopped giving frames, rings and flashes the alerts, and
// tells the screens what the camera sees. `kiosk run` runs it with the real camera and buttons,
// and the tests with fakes behind the same small interfaces; `kiosk replay` feeds the same
// referee entry points (Table.See, Table.Press) from recorded frames.
package station

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tengen/clock"
	"tengen/referee"
	"tengen/vision/observe"
)

// Camera is the camera side: it calls see with every frame's sight until ctx ends or its frames
// end (vision.CameraLoop).
type Camera interface {
	Run(ctx context.Context, see func(observe.Sight)) error
}

// Buttons delivers debounced presses (clock/gpio.Buttons).
type Buttons interface {
	Events() <-chan clock.Press
}

// Alarm sounds the buzzer and flashes the LED: n times on for on, off for off (clock/gpio.Buttons).
type Alarm interface {
	Flash(ctx context.Context, n int, on, off time.Duration) error
}

// Alert is a kind of event that rings.
type Alert string

// The alerts.
const (
	AlertIllegal  Alert = "illegal"  // an illegal move was flagged
	AlertFlag     Alert = "flag"     // a flag fell: the game is lost on time
	AlertByoYomi  Alert = "byo-yomi" // the last ten seconds of a byo-yomi period: one short beep a second
	AlertCamera   Alert = "camera"   // the camera gives no picture, or the board moved
	AlertDirector Alert = "director" // a player called the director
)

// Pattern is how an alert rings: Times flashes of On, Off apart.
type Pattern struct {
	Times   int
	On, Off time.Duration
}

// PatternOf is how alert a rings: an illegal move three short, a flag five long, the director
// two long, the camera two very short, byo-yomi one tick a second.
func PatternOf(a Alert) (Pattern, bool) {
	switch a {
	case AlertIllegal:
		return Pattern{3, 400 * time.Millisecond, 200 * time.Millisecond}, true
	case AlertFlag:
		return Pattern{5, 600 * time.Millisecond, 300 * time.Millisecond}, true
	case AlertDirector:
		return Pattern{2, 800 * time.Millisecond, 400 * time.Millisecond}, true
	case AlertCamera:
		return Pattern{2, 150 * time.Millisecond, 150 * time.Millisecond}, true
	case AlertByoYomi:
		return Pattern{1, 80 * time.Millisecond, 0}, true
	}
	return Pattern{}, false
}

// AllAlerts lists every alert.
func AllAlerts() []Alert {
	return []Alert{AlertIllegal, AlertFlag, AlertByoYomi, AlertCamera, AlertDirector}
}

// Options configures a Station. Table is required (its OnVerdict is chained, not replaced).
type Options struct {
	Table   referee.Options
	Camera  Camera  // nil: no camera (moves cannot be read; the table says so)
	Buttons Buttons // nil: presses come only through Press (the keyboard, a script)
	Alarm   Alarm   // nil: no buzzer or LED
	// Alerts lists the alerts that ring; nil rings none. The buzzer's own on/off switch is the
	// hardware configuration's: a silent hall wires the LED only.
	Alerts []Alert
	// LostAfter is how long without a sight counts as a lost camera; 0 = 3s.
	LostAfter time.Duration
	// Time is the time source for the station's own checks; nil = the system clock.
	Time   clock.TimeSource
	Logger *slog.Logger
}

// Conditions are what the camera sees, for the screens.
type Conditions struct {
	CameraLost bool // no picture from the camera
	BoardMoved bool // the board or the camera moved (or no board is known): it is being found again
	HandsOver  bool // the latest reading shows something over the board
}

// Station is one table's application: the referee and everything around it.
type Station struct {
	opts      Options
	log       *slog.Logger
	ts        clock.TimeSource
	tab       *referee.Table
	alerts    map[Alert]bool
	ring      chan Alert
	lastSight atomic.Int64 // UnixNano of the camera's last sight
	handsOver atomic.Bool
	camMu     sync.Mutex // orders sights: the camera loop's and the watchdog's
}

// Open opens the table's journal (referee.Open) and returns its station, not yet running.
func Open(opts Options) (*Station, error) {
	s := &Station{opts: opts, ts: opts.Time, log: opts.Logger, alerts: map[Alert]bool{}, ring: make(chan Alert, 8)}
	if s.ts == nil {
		s.ts = clock.SystemTime{}
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.opts.LostAfter <= 0 {
		s.opts.LostAfter = 3 * time.Second
	}
	for _, a := range opts.Alerts {
		if _, ok := PatternOf(a); !ok {
			return nil, fmt.Errorf("station: unknown alert %q", a)
		}
		s.alerts[a] = true
	}
	to := opts.Table
	next := to.OnVerdict
	to.OnVerdict = func(v referee.Verdict) {
		if v.Kind == referee.VerdictIllegal {
			s.alert(AlertIllegal)
		}
		if next != nil {
			next(v)
		}
	}
	tab, err := referee.Open(to)
	if err != nil {
		return nil, err
	}
	s.tab = tab
	s.lastSight.Store(s.ts.Now().UnixNano())
	return s, nil
}

// Table is the station's referee, for the screens' intents and state.
func (s *Station) Table() *referee.Table { return s.tab }

// Close closes the table's journal.
func (s *Station) Close() error { return s.tab.Close() }

// Run runs the camera loop, the buttons, the referee's timers, the camera watchdog and the alarm
// until ctx ends; it returns ctx's error.
func (s *Station) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	start := func(f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
	}
	if s.opts.Camera != nil {
		start(func() {
			if err := s.opts.Camera.Run(ctx, s.See); err != nil && ctx.Err() == nil {
				s.log.Error("camera", "err", err)
			}
		})
	}
	if s.opts.Buttons != nil {
		start(func() {
			for {
				select {
				case <-ctx.Done():
					return
				case p, ok := <-s.opts.Buttons.Events():
					if !ok {
						return
					}
					_ = s.Press(p) // logged
				}
			}
		})
	}
	start(func() { _ = s.tab.Watch(ctx) })
	start(func() { s.watch(ctx) })
	start(func() { s.sound(ctx) })
	wg.Wait()
	return ctx.Err()
}

// See hands one sight of the camera side to the referee (the camera loop calls it for every
// frame; a live source calls it with ViewNoPicture when its camera is lost).
func (s *Station) See(o observe.Sight) {
	s.camMu.Lock()
	defer s.camMu.Unlock()
	if o.Time.IsZero() {
		o.Time = s.ts.Now()
	}
	if o.View == observe.ViewBoard {
		s.lastSight.Store(s.ts.Now().UnixNano())
		s.handsOver.Store(o.Observation.AnyObscured())
	} else {
		s.handsOver.Store(false)
	}
	before := s.tab.View()
	s.tab.See(o)
	if after := s.tab.View(); after != before && after != observe.ViewBoard {
		s.alert(AlertCamera)
	}
}

// Press hands a press to the referee (the buttons, the keyboard, a script); an error (the journal
// cannot be written) is logged and returned.
func (s *Station) Press(p clock.Press) error {
	if p.At.IsZero() {
		p.At = s.ts.Now()
	}
	if p.Button == clock.DirectorButton {
		s.alert(AlertDirector)
	}
	err := s.tab.Press(p)
	if err != nil {
		s.log.Warn("press "+p.Button.String(), "err", err)
	}
	return err
}

// Conditions reports what the camera sees now.
func (s *Station) Conditions() Conditions {
	v := s.tab.View()
	return Conditions{CameraLost: v == observe.ViewNoPicture, BoardMoved: v == observe.ViewMoved, HandsOver: s.handsOver.Load()}
}

// watchEvery is how often the station looks at the camera's silence and the clocks.
const watchEvery = 250 * time.Millisecond

// watch notices a camera that stopped giving frames without saying so, a flag that fell and the
// last seconds of a byo-yomi period.
func (s *Station) watch(ctx context.Context) {
	var beeped time.Duration = -1 // the byo-yomi second last beeped
	flagged := false
	for {
		t := s.ts.NewTimer(watchEvery)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		}
		now := s.ts.Now()
		if s.opts.Camera != nil {
			if silent := now.Sub(time.Unix(0, s.lastSight.Load())); silent > s.opts.LostAfter && s.tab.View() != observe.ViewNoPicture {
				s.See(observe.Sight{View: observe.ViewNoPicture, Time: now,
					Why: fmt.Sprintf("no frame for %s", silent.Round(100*time.Millisecond))})
			}
		}
		st := s.tab.State()
		if st.Phase == referee.PhaseEnded && strings.HasSuffix(st.Result, "+T") && !flagged {
			flagged = true
			s.alert(AlertFlag)
		}
		beeped = s.byoYomi(st, beeped)
	}
}

// byoYomiCount is how many seconds before the end of a byo-yomi period the alarm counts.
const byoYomiCount = 10 * time.Second

// byoYomi beeps once for each of the last seconds of the running byo-yomi period; last is the
// second it beeped for last (-1: none), and the result the new one.
func (s *Station) byoYomi(st referee.State, last time.Duration) time.Duration {
	if st.Phase != referee.PhasePlaying || st.ClocksPaused {
		return -1
	}
	c := st.Black.Clock
	if !c.Running {
		c = st.White.Clock
	}
	if !c.Running || !c.Overtime || c.Periods == 0 || c.Remaining > byoYomiCount || c.Remaining <= 0 {
		return -1
	}
	sec := c.Remaining.Truncate(time.Second)
	if sec != last {
		s.alert(AlertByoYomi)
	}
	return sec
}

// alert queues an alert to ring, when it is configured; a full queue drops it (the alarm is
// already ringing).
func (s *Station) alert(a Alert) {
	if !s.alerts[a] || s.opts.Alarm == nil {
		return
	}
	select {
	case s.ring <- a:
	default:
	}
}

// sound rings the queued alerts one after the other.
func (s *Station) sound(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case a := <-s.ring:
			p, _ := PatternOf(a)
			if err := s.opts.Alarm.Flash(ctx, p.Times, p.On, p.Off); err != nil && ctx.Err() == nil {
				s.log.Warn("alarm", "alert", a, "err", err)
			}
		}
	}
}
