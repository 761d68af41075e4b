// Package gpio reads the table's buttons (Black's clock, White's clock, pass,
// and optionally the director's) from GPIO pins with periph.io, debounces them
// with clock.Debouncer, and delivers clock.Press events on a channel. It also
// drives the optional buzzer and LED of the illegal-move alert. It is the only
// package of Tengen that imports periph.io; the referee sees only
// Events() <-chan clock.Press.
package gpio

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/host/v3"

	"tengen/clock"
)

// Errors from Open, checked with errors.Is.
var (
	// ErrNoGPIO: this machine has no GPIO (a laptop); use the keyboard instead.
	ErrNoGPIO = errors.New("no GPIO on this machine")
	// ErrPinNotFound: a configured pin name does not exist on this machine.
	ErrPinNotFound = errors.New("GPIO pin not found")
	// ErrConfig: the configuration is incomplete or contradictory.
	ErrConfig = errors.New("bad GPIO button configuration")
)

// Config names the pins and tunes the buttons. Pin names are what periph.io
// registers, e.g. "GPIO17" (BCM numbering on a Raspberry Pi) or "17".
type Config struct {
	Black, White, Pass string // required inputs
	Director           string // optional input
	Buzzer, LED        string // optional outputs of the illegal-move alert

	// ActiveHigh is for buttons that pull the pin up to 3.3 V when pressed
	// (with a pull-down). The default is the usual wiring: button to ground,
	// internal pull-up, pressed = low.
	ActiveHigh bool
	// NoPull disables the internal pull resistor (external resistors fitted).
	NoPull bool

	// Settle is the debounce time (0 = clock.DefaultSettle).
	Settle time.Duration
	// PassLong and DirectorLong are the hold times of a long press
	// (0 = clock.DefaultLongPress; negative = no long press on that button).
	PassLong, DirectorLong time.Duration
	// Poll bounds each wait for an edge so that cancellation is noticed
	// (0 = 250 ms); it is not a polling interval unless the pin has no edge
	// detection, in which case levels are sampled every PollFallback.
	Poll time.Duration
	// PollFallback is the sampling interval for pins without edge detection
	// (0 = 2 ms).
	PollFallback time.Duration
}

func (c Config) withDefaults() Config {
	if c.Poll <= 0 {
		c.Poll = 250 * time.Millisecond
	}
	if c.PollFallback <= 0 {
		c.PollFallback = 2 * time.Millisecond
	}
	return c
}

func longPress(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return clock.DefaultLongPress
	case d < 0:
		return 0
	}
	return d
}

// Pins are the opened periph.io pins; nil for an absent optional one. Tests
// pass gpiotest pins here.
type Pins struct {
	Black, White, Pass, Director gpio.PinIn
	Buzzer, LED                  gpio.PinOut
}

// Open initialises periph.io's host drivers (character-device GPIO where the
// kernel has it), finds the configured pins by name and sets them up. On a
// machine without GPIO it returns ErrNoGPIO; a missing pin is ErrPinNotFound
// with its name.
func Open(cfg Config, log *slog.Logger) (*Buttons, error) {
	if cfg.Black == "" || cfg.White == "" || cfg.Pass == "" {
		return nil, fmt.Errorf("%w: the black, white and pass pins are required", ErrConfig)
	}
	st, err := host.Init()
	if err != nil {
		return nil, fmt.Errorf("%w: periph.io host init: %v", ErrNoGPIO, err)
	}
	if len(gpioreg.All()) == 0 {
		var failed []string
		if st != nil {
			for _, f := range st.Failed {
				failed = append(failed, f.String())
			}
		}
		return nil, fmt.Errorf("%w: no pins registered (%s); use the keyboard", ErrNoGPIO, strings.Join(failed, "; "))
	}
	var p Pins
	var errs []error
	find := func(role, name string) gpio.PinIO {
		if name == "" {
			return nil
		}
		pin := gpioreg.ByName(name)
		if pin == nil {
			errs = append(errs, fmt.Errorf("%w: %s button/output pin %q (known pins look like %q)", ErrPinNotFound, role, name, gpioreg.All()[0].Name()))
		}
		return pin
	}
	in := func(role, name string) gpio.PinIn {
		if pin := find(role, name); pin != nil {
			return pin
		}
		return nil
	}
	out := func(role, name string) gpio.PinOut {
		if pin := find(role, name); pin != nil {
			return pin
		}
		return nil
	}
	p.Black, p.White, p.Pass = in("black", cfg.Black), in("white", cfg.White), in("pass", cfg.Pass)
	p.Director = in("director", cfg.Director)
	p.Buzzer, p.LED = out("buzzer", cfg.Buzzer), out("led", cfg.LED)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return New(p, cfg, clock.SystemTime{}, log)
}

// input is one button's pin and its debouncer.
type input struct {
	button clock.Button
	pin    gpio.PinIn
	deb    *clock.Debouncer
}

// edge is a raw level change seen on an input at a time.
type edge struct {
	idx     int
	pressed bool
	at      time.Time
}

// Buttons is the set of table buttons on GPIO. Run reads them; Events
// delivers the debounced presses.
type Buttons struct {
	cfg     Config
	ts      clock.TimeSource
	log     *slog.Logger
	inputs  []input
	outputs []gpio.PinOut
	events  chan clock.Press

	outMu sync.Mutex // serialises alert output changes

	// test hooks (nil in production): edgeDone gets a value after each edge
	// is fed to its debouncer; sync asks the loop to catch up to now.
	edgeDone chan struct{}
	sync     chan chan struct{}
}

// New sets up already opened pins (Open does this for real hardware; tests
// pass gpiotest pins and a clock.ManualTime).
func New(p Pins, cfg Config, ts clock.TimeSource, log *slog.Logger) (*Buttons, error) {
	cfg = cfg.withDefaults()
	if ts == nil {
		ts = clock.SystemTime{}
	}
	if log == nil {
		log = slog.Default()
	}
	if p.Black == nil || p.White == nil || p.Pass == nil {
		return nil, fmt.Errorf("%w: the black, white and pass pins are required", ErrConfig)
	}
	b := &Buttons{cfg: cfg, ts: ts, log: log, events: make(chan clock.Press, 64), sync: make(chan chan struct{})}
	pull := gpio.PullUp
	if cfg.ActiveHigh {
		pull = gpio.PullDown
	}
	if cfg.NoPull {
		pull = gpio.Float
	}
	add := func(btn clock.Button, pin gpio.PinIn, long time.Duration) error {
		if pin == nil {
			return nil
		}
		deb, err := clock.NewDebouncer(btn, clock.DebounceConfig{Settle: cfg.Settle, LongPress: long})
		if err != nil {
			return fmt.Errorf("%w: %v button: %v", ErrConfig, btn, err)
		}
		if err := pin.In(pull, gpio.BothEdges); err != nil {
			return fmt.Errorf("gpio: set up %v button on %s: %w", btn, pin.Name(), err)
		}
		b.inputs = append(b.inputs, input{button: btn, pin: pin, deb: deb})
		return nil
	}
	if err := errors.Join(
		add(clock.BlackClock, p.Black, 0),
		add(clock.WhiteClock, p.White, 0),
		add(clock.PassButton, p.Pass, longPress(cfg.PassLong)),
		add(clock.DirectorButton, p.Director, longPress(cfg.DirectorLong)),
	); err != nil {
		return nil, err
	}
	for _, o := range []gpio.PinOut{p.Buzzer, p.LED} {
		if o == nil {
			continue
		}
		if err := o.Out(gpio.Low); err != nil {
			return nil, fmt.Errorf("gpio: set up alert output %s: %w", o.Name(), err)
		}
		b.outputs = append(b.outputs, o)
	}
	return b, nil
}

// Events delivers the debounced presses; it is closed when Run returns.
func (b *Buttons) Events() <-chan clock.Press { return b.events }

// pressed turns a pin level into "button down" according to the wiring.
func (b *Buttons) pressed(l gpio.Level) bool { return bool(l) == b.cfg.ActiveHigh }

// Run reads the buttons until ctx is done, then closes Events; call it once. Each input has
// a goroutine blocked in WaitForEdge (bounded by Config.Poll so that
// cancellation is noticed, and interrupted with Halt); one loop feeds the
// debouncers and sleeps until their next deadline. Nothing spins.
func (b *Buttons) Run(ctx context.Context) error {
	defer close(b.events)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	edges := make(chan edge, 16)
	var wg sync.WaitGroup
	now := b.ts.Now()
	for i := range b.inputs {
		in := &b.inputs[i]
		in.deb.Reset(b.pressed(in.pin.Read()), now)
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.read(ctx, i, in.pin, edges)
		}()
	}
	stop := context.AfterFunc(ctx, func() {
		for _, in := range b.inputs {
			if err := in.pin.Halt(); err != nil {
				b.log.Debug("gpio: halt", "pin", in.pin.Name(), "err", err)
			}
		}
	})
	defer stop()
	defer wg.Wait()
	err := b.loop(ctx, edges)
	cancel()
	return err
}

// read waits for edges on one pin and forwards its level with a timestamp.
func (b *Buttons) read(ctx context.Context, idx int, pin gpio.PinIn, edges chan<- edge) {
	quick := 0
	last := b.pressed(pin.Read())
	for ctx.Err() == nil {
		start := time.Now()
		got := pin.WaitForEdge(b.cfg.Poll)
		at := b.ts.Now()
		if !got {
			// A wait that returns at once without an edge means the pin has
			// no edge detection: sample it instead of spinning.
			if time.Since(start) < b.cfg.Poll/4 {
				quick++
			} else {
				quick = 0
			}
			if quick < 3 {
				continue
			}
			if quick == 3 {
				b.log.Warn("gpio: no edge detection; sampling the pin", "pin", pin.Name(), "every", b.cfg.PollFallback)
			}
			if !sleep(ctx, b.cfg.PollFallback) {
				return
			}
			at = b.ts.Now()
			if p := b.pressed(pin.Read()); p != last {
				last = p
				if !send(ctx, edges, edge{idx, p, at}) {
					return
				}
			}
			continue
		}
		quick = 0
		last = b.pressed(pin.Read())
		if !send(ctx, edges, edge{idx, last, at}) {
			return
		}
	}
}

func send(ctx context.Context, c chan<- edge, e edge) bool {
	select {
	case c <- e:
		return true
	case <-ctx.Done():
		return false
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// loop feeds the debouncers and emits presses.
func (b *Buttons) loop(ctx context.Context, edges <-chan edge) error {
	var out []clock.Press
	for {
		var timer clock.Timer
		var fire <-chan time.Time
		if t, ok := b.nextDeadline(); ok {
			timer = b.ts.NewTimer(t.Sub(b.ts.Now()))
			fire = timer.C()
		}
		out = out[:0]
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return nil
		case e := <-edges:
			out = b.inputs[e.idx].deb.Edge(e.pressed, e.at, out)
			if b.edgeDone != nil {
				b.edgeDone <- struct{}{}
			}
		case <-fire:
			out = b.advance(out)
		case done := <-b.sync:
			out = b.advance(out)
			for _, p := range out {
				b.emit(ctx, p)
			}
			out = out[:0]
			close(done)
		}
		if timer != nil {
			timer.Stop()
		}
		for _, p := range out {
			b.emit(ctx, p)
		}
	}
}

func (b *Buttons) advance(out []clock.Press) []clock.Press {
	now := b.ts.Now()
	for i := range b.inputs {
		out = b.inputs[i].deb.Advance(now, out)
	}
	return out
}

func (b *Buttons) nextDeadline() (time.Time, bool) {
	var next time.Time
	found := false
	for i := range b.inputs {
		if t, ok := b.inputs[i].deb.NextDeadline(); ok && (!found || t.Before(next)) {
			next, found = t, true
		}
	}
	return next, found
}

func (b *Buttons) emit(ctx context.Context, p clock.Press) {
	b.log.Debug("gpio: press", "press", p.String())
	select {
	case b.events <- p:
	case <-ctx.Done():
	}
}

// SetAlert switches the buzzer and LED of the illegal-move alert on or off.
// Without alert outputs it does nothing.
func (b *Buttons) SetAlert(on bool) error {
	b.outMu.Lock()
	defer b.outMu.Unlock()
	var errs []error
	for _, o := range b.outputs {
		if err := o.Out(gpio.Level(on)); err != nil {
			errs = append(errs, fmt.Errorf("gpio: alert output %s: %w", o.Name(), err))
		}
	}
	return errors.Join(errs...)
}

// HasAlert reports whether a buzzer or LED is configured.
func (b *Buttons) HasAlert() bool { return len(b.outputs) > 0 }

// Flash sounds the alert n times (on for on, off for off), leaving it off;
// it returns early, alert off, when ctx is done.
func (b *Buttons) Flash(ctx context.Context, n int, on, off time.Duration) error {
	defer func() { _ = b.SetAlert(false) }()
	for i := 0; i < n; i++ {
		if err := b.SetAlert(true); err != nil {
			return err
		}
		if !b.wait(ctx, on) {
			return ctx.Err()
		}
		if err := b.SetAlert(false); err != nil {
			return err
		}
		if i < n-1 && !b.wait(ctx, off) {
			return ctx.Err()
		}
	}
	return nil
}

func (b *Buttons) wait(ctx context.Context, d time.Duration) bool {
	t := b.ts.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C():
		return true
	case <-ctx.Done():
		return false
	}
}

// Level is one input's current raw reading, for diagnostics (`kiosk doctor`
// reports a button that reads pressed while nobody touches it as stuck or
// shorted).
type Level struct {
	Button  clock.Button
	Pin     string
	Pressed bool
}

// Levels reads every configured input now, without debouncing.
func (b *Buttons) Levels() []Level {
	out := make([]Level, 0, len(b.inputs))
	for _, in := range b.inputs {
		out = append(out, Level{Button: in.button, Pin: in.pin.Name(), Pressed: b.pressed(in.pin.Read())})
	}
	return out
}
