package gpio

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"periph.io/x/conn/v3/gpio"
	"periph.io/x/conn/v3/gpio/gpioreg"
	"periph.io/x/conn/v3/gpio/gpiotest"

	"tengen/clock"
)

const ms = time.Millisecond

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func testPin(name string, num int) *gpiotest.Pin {
	return &gpiotest.Pin{N: name, Num: num, EdgesChan: make(chan gpio.Level)}
}

// harness runs Buttons on gpiotest pins with a manual time source.
type harness struct {
	t      *testing.T
	b      *Buttons
	mt     *clock.ManualTime
	pins   map[clock.Button]*gpiotest.Pin
	cancel context.CancelFunc
	done   chan error
}

func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	h := &harness{t: t, mt: clock.NewManualTime(t0), pins: map[clock.Button]*gpiotest.Pin{
		clock.BlackClock:     testPin("GPIO17", 17),
		clock.WhiteClock:     testPin("GPIO27", 27),
		clock.PassButton:     testPin("GPIO22", 22),
		clock.DirectorButton: testPin("GPIO23", 23),
	}}
	if cfg.Poll == 0 {
		cfg.Poll = 20 * ms // real time: only bounds how long shutdown takes
	}
	b, err := New(Pins{
		Black: h.pins[clock.BlackClock], White: h.pins[clock.WhiteClock],
		Pass: h.pins[clock.PassButton], Director: h.pins[clock.DirectorButton],
	}, cfg, h.mt, quiet())
	if err != nil {
		t.Fatal(err)
	}
	b.edgeDone = make(chan struct{})
	h.b = b
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel, h.done = cancel, make(chan error, 1)
	go func() { h.done <- b.Run(ctx) }()
	t.Cleanup(h.stop)
	return h
}

func (h *harness) stop() {
	h.cancel()
	select {
	case err := <-h.done:
		if err != nil {
			h.t.Errorf("Run: %v", err)
		}
		h.done <- nil
	case <-time.After(5 * time.Second):
		h.t.Fatal("Run did not return after cancel")
	}
}

// level drives a pin as a button wired to ground: pressed = low.
func (h *harness) level(b clock.Button, at time.Duration, pressed bool) {
	h.t.Helper()
	h.mt.Set(t0.Add(at))
	select {
	case h.pins[b].EdgesChan <- gpio.Level(!pressed):
	case <-time.After(5 * time.Second):
		h.t.Fatalf("edge on %v at +%v not taken", b, at)
	}
	select {
	case <-h.b.edgeDone:
	case <-time.After(5 * time.Second):
		h.t.Fatalf("edge on %v at +%v not processed", b, at)
	}
}

// presses moves the time to until, lets the loop catch up and returns every
// press delivered so far.
func (h *harness) presses(until time.Duration) []clock.Press {
	h.mt.Set(t0.Add(until))
	done := make(chan struct{})
	h.b.sync <- done
	<-done
	var out []clock.Press
	for {
		select {
		case p := <-h.b.Events():
			out = append(out, p)
		default:
			return out
		}
	}
}

type lv struct {
	b       clock.Button
	at      time.Duration
	pressed bool
}

// bounce returns a contact bouncing from start with the given gaps (even in
// number) and ending on final.
func bounce(b clock.Button, start time.Duration, final bool, gaps ...time.Duration) []lv {
	out := []lv{{b, start, final}}
	l, at := final, start
	for _, g := range gaps {
		l, at = !l, at+g
		out = append(out, lv{b, at, l})
	}
	return out
}

func join(parts ...[]lv) []lv {
	var out []lv
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func TestChatterPatternsGiveExactPresses(t *testing.T) {
	type want struct {
		b    clock.Button
		at   time.Duration
		long bool
	}
	B, W, P, D := clock.BlackClock, clock.WhiteClock, clock.PassButton, clock.DirectorButton
	tests := []struct {
		name   string
		levels []lv
		until  time.Duration
		want   []want
	}{
		{"clean press", join(bounce(B, 100*ms, true), bounce(B, 250*ms, false)), time.Second,
			[]want{{B, 100 * ms, false}}},
		{"1-10 ms bounces on press and release", join(
			bounce(B, 100*ms, true, 1*ms, 4*ms, 2*ms, 10*ms, 3*ms, 6*ms),
			bounce(B, 300*ms, false, 2*ms, 7*ms, 1*ms, 9*ms)), time.Second,
			[]want{{B, 100 * ms, false}}},
		// A 3 ms spike on White, a 1 ms spike on Black, a burst of spikes on
		// Pass: none holds for the settle time.
		{"glitches shorter than the debounce", []lv{
			{W, 100 * ms, true}, {W, 103 * ms, false},
			{B, 300 * ms, true}, {B, 301 * ms, false},
			{P, 500 * ms, true}, {P, 505 * ms, false}, {P, 510 * ms, true}, {P, 515 * ms, false},
			{P, 519 * ms, true}, {P, 519*ms + 500*time.Microsecond, false},
		}, time.Second, nil},
		{"white after black, both bouncing", join(
			bounce(B, 100*ms, true, 2*ms, 2*ms), bounce(B, 180*ms, false, 5*ms, 5*ms),
			bounce(W, 900*ms, true, 8*ms, 1*ms), bounce(W, 1000*ms, false, 3*ms, 3*ms)), 2 * time.Second,
			[]want{{B, 100 * ms, false}, {W, 900 * ms, false}}},
		{"pass held: one long press", join(
			bounce(P, 100*ms, true, 2*ms, 3*ms), bounce(P, 3000*ms, false, 4*ms, 4*ms)), 4 * time.Second,
			[]want{{P, 100 * ms, true}}},
		{"pass tapped: one short press on release", join(
			bounce(P, 100*ms, true, 2*ms, 3*ms), bounce(P, 400*ms, false, 6*ms, 2*ms)), 2 * time.Second,
			[]want{{P, 100 * ms, false}}},
		{"director held", join(bounce(D, 50*ms, true), bounce(D, 5000*ms, false)), 6 * time.Second,
			[]want{{D, 50 * ms, true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, Config{Settle: 20 * ms})
			for _, l := range tt.levels {
				h.level(l.b, l.at, l.pressed)
			}
			got := h.presses(tt.until)
			if len(got) != len(tt.want) {
				t.Fatalf("%d presses %v, want %d", len(got), got, len(tt.want))
			}
			for i, w := range tt.want {
				if got[i].Button != w.b || !got[i].At.Equal(t0.Add(w.at)) || got[i].Long != w.long {
					t.Fatalf("press %d = %v, want %v at +%v long=%v", i, got[i], w.b, w.at, w.long)
				}
			}
		})
	}
}

// TestRandomChatter plays seeded random presses, each with 1-10 ms bounces
// on both edges, and counts exactly one press each.
func TestRandomChatter(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	h := newHarness(t, Config{Settle: 20 * ms})
	at := 100 * ms
	var wantAt []time.Duration
	for i := 0; i < 40; i++ {
		b := clock.BlackClock
		if i%2 == 1 {
			b = clock.WhiteClock
		}
		gaps := func() []time.Duration {
			n := 2 * rng.IntN(4)
			g := make([]time.Duration, n)
			for j := range g {
				g[j] = time.Duration(1+rng.IntN(10)) * ms
			}
			return g
		}
		press := bounce(b, at, true, gaps()...)
		hold := 60*ms + time.Duration(rng.IntN(300))*ms
		release := bounce(b, press[len(press)-1].at+hold, false, gaps()...)
		for _, l := range join(press, release) {
			h.level(l.b, l.at, l.pressed)
		}
		wantAt = append(wantAt, at)
		at = release[len(release)-1].at + 50*ms + time.Duration(rng.IntN(200))*ms
	}
	got := h.presses(at + time.Second)
	if len(got) != len(wantAt) {
		t.Fatalf("%d presses, want %d: %v", len(got), len(wantAt), got)
	}
	for i, p := range got {
		if !p.At.Equal(t0.Add(wantAt[i])) || p.Long {
			t.Fatalf("press %d = %v, want at +%v", i, p, wantAt[i])
		}
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	h := newHarness(t, Config{})
	h.cancel()
	select {
	case err := <-h.done:
		if err != nil {
			t.Fatal(err)
		}
		h.done <- nil
	case <-time.After(3 * time.Second):
		t.Fatal("Run did not stop")
	}
	if _, ok := <-h.b.Events(); ok {
		t.Fatal("Events not closed")
	}
}

func TestButtonHeldAtStartIsNotAPress(t *testing.T) {
	pins := map[string]*gpiotest.Pin{"b": testPin("B", 1), "w": testPin("W", 2), "p": testPin("P", 3)}
	b, err := New(Pins{Black: pins["b"], White: pins["w"], Pass: pins["p"]}, Config{Poll: 20 * ms}, clock.SystemTime{}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	_ = pins["b"].Out(gpio.Low) // held down when the kiosk starts
	ctx, cancel := context.WithTimeout(context.Background(), 300*ms)
	defer cancel()
	if err := b.Run(ctx); err != nil {
		t.Fatal(err)
	}
	for p := range b.Events() {
		t.Fatalf("unexpected press %v", p)
	}
}

// noEdgePin is a pin whose edge detection does not work: WaitForEdge returns
// false at once. The driver must sample it rather than spin.
type noEdgePin struct{ *gpiotest.Pin }

func (noEdgePin) WaitForEdge(time.Duration) bool { return false }

func TestPinWithoutEdgeDetectionIsSampled(t *testing.T) {
	black := testPin("B", 1)
	b, err := New(Pins{Black: noEdgePin{black}, White: testPin("W", 2), Pass: testPin("P", 3)},
		Config{Poll: 40 * ms, Settle: 20 * ms}, clock.SystemTime{}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = b.Run(ctx) }()
	time.Sleep(200 * ms) // let the driver notice there are no edges
	_ = black.Out(gpio.Low)
	time.Sleep(100 * ms)
	_ = black.Out(gpio.High)
	select {
	case p := <-b.Events():
		if p.Button != clock.BlackClock {
			t.Fatalf("press %v", p)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("no press from a sampled pin")
	}
	select {
	case p := <-b.Events():
		t.Fatalf("extra press %v", p)
	case <-time.After(200 * ms):
	}
}

func TestAlertOutputs(t *testing.T) {
	buzzer, led := testPin("BUZ", 5), testPin("LED", 6)
	mt := clock.NewManualTime(t0)
	b, err := New(Pins{Black: testPin("B", 1), White: testPin("W", 2), Pass: testPin("P", 3), Buzzer: buzzer, LED: led},
		Config{}, mt, quiet())
	if err != nil {
		t.Fatal(err)
	}
	if !b.HasAlert() {
		t.Fatal("no alert")
	}
	if err := b.SetAlert(true); err != nil || buzzer.Read() != gpio.High || led.Read() != gpio.High {
		t.Fatalf("alert on: %v %v %v", err, buzzer.Read(), led.Read())
	}
	_ = b.SetAlert(false)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- b.Flash(ctx, 2, 100*ms, 50*ms) }()
	var seen []gpio.Level
	for i := 0; i < 3; i++ { // on, off, on
		mt.WaitPending(1, ctx.Done())
		seen = append(seen, buzzer.Read())
		mt.Advance(100 * ms)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if seen[0] != gpio.High || seen[1] != gpio.Low || seen[2] != gpio.High || buzzer.Read() != gpio.Low || led.Read() != gpio.Low {
		t.Fatalf("flash pattern %v, final %v", seen, buzzer.Read())
	}
	// Cancelled mid-flash: the alert ends off.
	ctx2, cancel2 := context.WithCancel(context.Background())
	go func() { done <- b.Flash(ctx2, 5, time.Second, time.Second) }()
	mt.WaitPending(1, ctx.Done())
	cancel2()
	if err := <-done; !errors.Is(err, context.Canceled) || buzzer.Read() != gpio.Low {
		t.Fatalf("cancelled flash: %v, buzzer %v", err, buzzer.Read())
	}
}

func TestConfigErrors(t *testing.T) {
	if _, err := New(Pins{Black: testPin("B", 1)}, Config{}, nil, quiet()); !errors.Is(err, ErrConfig) {
		t.Fatalf("missing pins: %v", err)
	}
	p := Pins{Black: testPin("B", 1), White: testPin("W", 2), Pass: testPin("P", 3)}
	if _, err := New(p, Config{Settle: 50 * ms, PassLong: 10 * ms}, nil, quiet()); !errors.Is(err, ErrConfig) {
		t.Fatalf("long press shorter than settle: %v", err)
	}
	noEdges := &gpiotest.Pin{N: "X"} // no EdgesChan: edge detection fails
	if _, err := New(Pins{Black: noEdges, White: testPin("W", 2), Pass: testPin("P", 3)}, Config{}, nil, quiet()); err == nil || !strings.Contains(err.Error(), "black-clock") {
		t.Fatalf("pin set-up failure: %v", err)
	}
	if _, err := Open(Config{Black: "GPIO17"}, quiet()); !errors.Is(err, ErrConfig) {
		t.Fatalf("Open without pins: %v", err)
	}
}

// TestOpenFindsPinsByName registers fake pins in periph.io's registry (as
// the host drivers do on a Pi) and opens them by name; on a machine with no
// GPIO at all the same call reports ErrNoGPIO.
func TestOpenFindsPinsByName(t *testing.T) {
	if len(gpioreg.All()) == 0 {
		_, err := Open(Config{Black: "GPIO17", White: "GPIO27", Pass: "GPIO22"}, quiet())
		if len(gpioreg.All()) == 0 && !errors.Is(err, ErrNoGPIO) {
			t.Fatalf("Open without GPIO: %v, want ErrNoGPIO", err)
		}
	}
	names := []string{"TGPIO17", "TGPIO27", "TGPIO22", "TGPIO5"}
	for i, n := range names {
		if err := gpioreg.Register(testPin(n, 900+i)); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for _, n := range names {
			_ = gpioreg.Unregister(n)
		}
	})
	_, err := Open(Config{Black: "TGPIO17", White: "TGPIO99", Pass: "TGPIO22", LED: "TGPIO98"}, quiet())
	if !errors.Is(err, ErrPinNotFound) || !strings.Contains(err.Error(), `"TGPIO99"`) || !strings.Contains(err.Error(), `"TGPIO98"`) {
		t.Fatalf("missing pins: %v", err)
	}
	b, err := Open(Config{Black: "TGPIO17", White: "TGPIO27", Pass: "TGPIO22", Buzzer: "TGPIO5"}, quiet())
	if err != nil {
		t.Fatal(err)
	}
	if len(b.inputs) != 3 || !b.HasAlert() {
		t.Fatalf("inputs %d alert %v", len(b.inputs), b.HasAlert())
	}
	if gpioreg.ByName("TGPIO17").Pull() != gpio.PullUp {
		t.Fatal("pull-up not set")
	}
}

func TestLevels(t *testing.T) {
	black := testPin("GPIO17", 17)
	b, err := New(Pins{Black: black, White: testPin("GPIO27", 27), Pass: testPin("GPIO22", 22)}, Config{}, nil, quiet())
	if err != nil {
		t.Fatal(err)
	}
	_ = black.Out(gpio.Low) // stuck down
	lv := b.Levels()
	if len(lv) != 3 || lv[0] != (Level{clock.BlackClock, "GPIO17", true}) || lv[1].Pressed || lv[2].Pressed {
		t.Fatalf("levels %+v", lv)
	}
	// Active-high wiring reads the same pin level the other way round.
	hi, err := New(Pins{Black: testPin("A", 1), White: testPin("B", 2), Pass: testPin("C", 3)}, Config{ActiveHigh: true}, nil, quiet())
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range hi.Levels() {
		if l.Pressed {
			t.Fatalf("pull-down input reads pressed: %+v", l)
		}
	}
}

// The GPIO buttons and the keyboard's clock.PressChan are interchangeable
// press sources for the referee.
var (
	_ interface{ Events() <-chan clock.Press } = (*Buttons)(nil)
	_ interface{ Events() <-chan clock.Press } = (*clock.PressChan)(nil)
)
