package doctor

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"tengen/config"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fakeClock advances only when a fake frame arrives.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// fakeCamera delivers frames of one size at a fixed rate on the fake clock, failing after failAfter frames.
type fakeCamera struct {
	clock     *fakeClock
	frame     Frame
	every     time.Duration
	n         int
	failAfter int // fail once this many frames were delivered; < 0 never
	closed    bool
}

func (c *fakeCamera) Next(context.Context) (Frame, error) {
	if c.failAfter >= 0 && c.n >= c.failAfter {
		return Frame{}, errors.New("VIDIOC_DQBUF: no such device")
	}
	c.n++
	c.clock.t = c.clock.t.Add(c.every)
	return c.frame, nil
}
func (c *fakeCamera) Close() error { c.closed = true; return nil }

// net is a simulated button wiring: each pin belongs to a net; a net may be tied to ground or 3.3 V
// (a held button, a short), and otherwise reads the level its pulls agree on, or low when they fight.
type fakeGPIO struct {
	net    map[string]string // pin -> net name (default: its own)
	tie    map[string]bool   // net -> level it is tied to
	pull   map[string]Pull
	broken map[string]bool
}

func newFakeGPIO() *fakeGPIO {
	return &fakeGPIO{net: map[string]string{}, tie: map[string]bool{}, pull: map[string]Pull{}, broken: map[string]bool{}}
}

func (g *fakeGPIO) netOf(pin string) string {
	if n, ok := g.net[pin]; ok {
		return n
	}
	return pin
}
func (g *fakeGPIO) SetPull(pin string, p Pull) error {
	if g.broken[pin] {
		return errors.New("line busy")
	}
	g.pull[pin] = p
	return nil
}
func (g *fakeGPIO) Read(pin string) (bool, error) {
	if g.broken[pin] {
		return false, errors.New("line busy")
	}
	n := g.netOf(pin)
	if v, ok := g.tie[n]; ok {
		return v, nil
	}
	ups, downs := 0, 0
	for p, pull := range g.pull {
		if g.netOf(p) == n {
			if pull == PullUp {
				ups++
			} else {
				downs++
			}
		}
	}
	return ups > 0 && downs == 0, nil
}
func (g *fakeGPIO) Close() error { return nil }

var pinOnce = sync.OnceValues(func() (string, error) { return config.HashPIN("2468") })

func pinHash(t *testing.T) string {
	h, err := pinOnce()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// healthy returns a configuration and probes for a table where everything works.
func healthy(t *testing.T) (Options, Probes, *fakeGPIO) {
	cfg := config.Default()
	cfg.Director.PINHash = pinHash(t)
	clock := &fakeClock{t: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)}
	gpio := newFakeGPIO()
	cal := Calibration{ImageWidth: 1920, ImageHeight: 1080, Size: 19, Confidence: 0.93,
		Corners: [4]Point{{560, 140}, {1360, 140}, {1400, 940}, {520, 940}}}
	p := Probes{
		OpenCamera: func(_ context.Context, src string, w, h, fps int) (Camera, error) {
			return &fakeCamera{clock: clock, frame: Frame{w, h}, every: time.Second / time.Duration(fps), failAfter: -1}, nil
		},
		LoadCalibration: func(path string) (Calibration, error) { return cal, nil },
		FindBoard: func(context.Context, int) (Sighting, error) {
			s := Sighting{Size: 19, Corners: cal.Corners, Confidence: 0.9}
			s.Corners[2].X += 3 // a few pixels of noise
			return s, nil
		},
		OpenGPIO:         func() (GPIO, error) { return gpio, nil },
		CheckRules:       func(string, int) error { return nil },
		CheckTimeControl: func(string) error { return nil },
		Getenv:           func(k string) string { return map[string]string{"DISPLAY": ":0"}[k] },
		DialDisplay:      func(context.Context, string) error { return nil },
		DRMDevices:       func() ([]string, error) { return []string{"/dev/dri/card1"}, nil },
		DiskFree:         func(string) (uint64, uint64, error) { return 20 << 30, 30 << 30, nil },
		ClockSynced:      func(context.Context) (bool, string, error) { return true, "kernel NTP state 0", nil },
		Now:              clock.now,
	}
	return Options{Config: cfg, ConfigPath: "/etc/tengen/kiosk.toml"}, p, gpio
}

func TestHealthyTable(t *testing.T) {
	opts, p, _ := healthy(t)
	r := Run(context.Background(), opts, p)
	for _, res := range r.Results {
		if res.Status != OK {
			t.Errorf("%s: %s %s (fix: %s)", res.Check, res.Status, res.Detail, res.Fix)
		}
	}
	golden(t, "healthy.txt", r)
}

// TestFailures: every failure the doctor reports, each with its fix, and nothing else failing.
// withCamera returns a TestFailures breakage that lets the probes open the healthy fake camera
// and then changes it with set.
func withCamera(set func(*fakeCamera)) func(*Options, *Probes, *fakeGPIO) {
	return func(_ *Options, p *Probes, _ *fakeGPIO) {
		open := p.OpenCamera
		p.OpenCamera = func(ctx context.Context, s string, w, h, f int) (Camera, error) {
			c, err := open(ctx, s, w, h, f)
			set(c.(*fakeCamera))
			return c, err
		}
	}
}

func TestFailures(t *testing.T) {
	tests := []struct {
		name   string
		break_ func(*Options, *Probes, *fakeGPIO)
		check  string
		status Status
		detail string
		fix    string
	}{
		{"camera missing", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.OpenCamera = func(context.Context, string, int, int, int) (Camera, error) {
				return nil, errors.New("open /dev/video0: no such file or directory")
			}
		}, "camera", Fail, "does not open", "ls /dev/video*"},
		{"camera without frames", withCamera(func(c *fakeCamera) { c.failAfter = 0 }), "camera", Fail, "gives no frames", "camera cable"},
		{"camera unplugged mid-run", withCamera(func(c *fakeCamera) { c.failAfter = 5 }), "camera", Fail, "stopped after", "camera cable"},
		{"camera too slow", withCamera(func(c *fakeCamera) { c.every = time.Second }), "camera", Fail, "1.0 fps", "too slow"},
		{"camera tiny", func(o *Options, p *Probes, _ *fakeGPIO) {
			o.Config.Camera.Width, o.Config.Camera.Height = 320, 240
		}, "camera", Fail, "320x240", "smaller than 640x480"},
		{"no pins", func(o *Options, p *Probes, _ *fakeGPIO) {
			o.Config.Pins.Black, o.Config.Pins.White, o.Config.Pins.Pass = "", "", ""
		}, "buttons", Fail, "no pins", "black = \"GPIO17\""},
		{"no GPIO access", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.OpenGPIO = func() (GPIO, error) { return nil, errors.New("open /dev/gpiochip0: permission denied") }
		}, "buttons", Fail, "permission denied", "group gpio"},
		{"button held", func(o *Options, p *Probes, g *fakeGPIO) { g.tie["GPIO27"] = false }, "buttons", Fail,
			"white (GPIO27) reads low even with its pull-up", "release every button"},
		{"pin on 3.3V", func(o *Options, p *Probes, g *fakeGPIO) { g.tie["GPIO22"] = true }, "buttons", Fail,
			"pass (GPIO22) reads high even with its pull-down", "check the wiring"},
		{"pins shorted", func(o *Options, p *Probes, g *fakeGPIO) { g.net["GPIO17"], g.net["GPIO23"] = "n", "n" }, "buttons", Fail,
			"black (GPIO17) and director (GPIO23) are shorted together", "check the wiring"},
		{"line busy", func(o *Options, p *Probes, g *fakeGPIO) { g.broken["GPIO17"] = true }, "buttons", Fail,
			"cannot be read: line busy", ""},
		{"full disk", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.DiskFree = func(string) (uint64, uint64, error) { return 12 << 20, 30 << 30, nil }
		}, "disk", Fail, "12 MiB free", "delete them"},
		{"disk getting short", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.DiskFree = func(string) (uint64, uint64, error) { return 500 << 20, 30 << 30, nil }
		}, "disk", Warn, "500 MiB free", "getting short"},
		{"journal dir missing", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.DiskFree = func(d string) (uint64, uint64, error) {
				return 0, 0, fmt.Errorf("stat %s: no such file or directory", d)
			}
		}, "disk", Fail, "/var/lib/tengen/journal", "install-pi"},
		{"no calibration", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.LoadCalibration = func(string) (Calibration, error) { return Calibration{}, errors.New("no such file or directory") }
		}, "calibration", Fail, "no such file", "Menu > Camera and board: Find the board, then Save"}, // screens that exist (ui/app.go, ui/camera.go)
		{"bad calibration corners", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.LoadCalibration = func(string) (Calibration, error) {
				return Calibration{ImageWidth: 1920, ImageHeight: 1080, Size: 19, Confidence: 1,
					Corners: [4]Point{{10, 10}, {2500, 10}, {2500, 900}, {10, 900}}}, nil
			}
		}, "calibration", Fail, "outside the 1920x1080 frame", "kiosk calibrate"},
		{"degenerate calibration", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.LoadCalibration = func(string) (Calibration, error) {
				return Calibration{ImageWidth: 1920, ImageHeight: 1080, Size: 19, Confidence: 1,
					Corners: [4]Point{{10, 10}, {20, 10}, {20, 20}, {10, 20}}}, nil
			}
		}, "calibration", Fail, "under 2%", "kiosk calibrate"},
		{"calibration for another resolution", func(o *Options, p *Probes, _ *fakeGPIO) {
			o.Config.Camera.Width, o.Config.Camera.Height = 1280, 720
		}, "calibration", Fail, "camera now gives 1280x720", "resolution changed"},
		{"calibration unsure", func(o *Options, p *Probes, _ *fakeGPIO) {
			load := p.LoadCalibration
			p.LoadCalibration = func(s string) (Calibration, error) { c, err := load(s); c.Confidence = 0.3; return c, err }
		}, "calibration", Fail, "confidence 0.30", "light the board"},
		{"board size differs from game", func(o *Options, p *Probes, _ *fakeGPIO) { o.Config.Game.Size = 13 }, "calibration", Warn,
			"19x19 board", "size = 19"},
		{"board not in view", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.FindBoard = func(context.Context, int) (Sighting, error) { return Sighting{}, errors.New("no grid found") }
		}, "board", Fail, "no board in view", "whole board is in view"},
		{"board moved", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.FindBoard = func(context.Context, int) (Sighting, error) {
				return Sighting{Size: 19, Corners: [4]Point{{600, 140}, {1400, 140}, {1440, 940}, {560, 940}}}, nil
			}
		}, "board", Fail, "moved 0.9 lines", "kiosk calibrate"},
		{"no display", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.DialDisplay = func(context.Context, string) error { return errors.New("connection refused") }
		}, "display", Fail, "display :0 is not running", "systemctl restart tengen-display"},
		{"no GPU", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.DRMDevices = func() ([]string, error) { return nil, nil }
		}, "display", Fail, "no GPU display device", "vc4-kms-v3d"},
		{"clock not synchronised", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.ClockSynced = func(context.Context) (bool, string, error) { return false, "kernel NTP state 5", nil }
		}, "clock", Fail, "not synchronised", "set-ntp true"},
		{"bad config", func(o *Options, p *Probes, _ *fakeGPIO) {
			_, err := config.Parse([]byte("[pins]\nblak = \"GPIO5\"\n"), "/etc/tengen/kiosk.toml")
			o.ConfigErr = err
		}, "config", Fail, "line 2: pins.blak: unknown key", "edit /etc/tengen/kiosk.toml"},
		{"no PIN", func(o *Options, p *Probes, _ *fakeGPIO) { o.Config.Director.PINHash = "" }, "director PIN", Warn,
			"no director PIN", "-hash-pin"},
		{"bad rules", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.CheckRules = func(string, int) error { return errors.New(`unknown rules "x"`) }
		}, "rules", Fail, "unknown rules", "set [game] rules"},
		{"bad time control", func(o *Options, p *Probes, _ *fakeGPIO) {
			p.CheckTimeControl = func(string) error { return errors.New("bad period") }
		}, "time control", Fail, "bad period", "60m+5x30s"},
		{"demo camera", func(o *Options, p *Probes, _ *fakeGPIO) { o.Config.Camera.Source = "demo" }, "camera", Warn,
			"demo", `source = "auto"`},
		{"no camera support", func(o *Options, p *Probes, _ *fakeGPIO) { p.OpenCamera = nil }, "camera", Fail,
			"no camera support", "OpenCV"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, p, g := healthy(t)
			tt.break_(&opts, &p, g)
			r := Run(context.Background(), opts, p)
			res, ok := r.Find(tt.check)
			if !ok {
				t.Fatalf("no %q check in the report", tt.check)
			}
			if res.Status != tt.status || !strings.Contains(res.Detail, tt.detail) || !strings.Contains(res.Fix, tt.fix) {
				t.Errorf("%s = %s %q (fix %q); want %s with %q, fix containing %q", tt.check, res.Status, res.Detail, res.Fix, tt.status, tt.detail, tt.fix)
			}
			if res.Status != OK && res.Fix == "" && tt.fix != "" {
				t.Error("a problem without a fix")
			}
			if (r.Failed() > 0) != (tt.status == Fail) {
				t.Errorf("Failed() = %d with %s", r.Failed(), tt.status)
			}
			var out bytes.Buffer
			if err := r.Print(&out); err != nil {
				t.Fatal(err)
			}
			if tt.status == Fail && !strings.Contains(out.String(), "NOT ready") {
				t.Errorf("the printout does not say the table is not ready:\n%s", out.String())
			}
		})
	}
}

// TestPinsRestored: the doctor leaves every button pin with the configured pull when done.
func TestPinsRestored(t *testing.T) {
	opts, p, g := healthy(t)
	Run(context.Background(), opts, p)
	for _, pin := range []string{"GPIO17", "GPIO27", "GPIO22", "GPIO23"} {
		if g.pull[pin] != PullUp {
			t.Errorf("%s left with %s", pin, g.pull[pin])
		}
	}
}

func TestFailingPrintout(t *testing.T) {
	opts, p, g := healthy(t)
	opts.Config.Director.PINHash = ""
	p.OpenCamera = func(context.Context, string, int, int, int) (Camera, error) {
		return nil, errors.New("open /dev/video0: no such file or directory")
	}
	g.tie["GPIO27"] = false
	p.DiskFree = func(string) (uint64, uint64, error) { return 12 << 20, 30 << 30, nil }
	r := Run(context.Background(), opts, p)
	if r.Failed() != 4 { // camera, board (needs camera), buttons, disk
		t.Errorf("Failed() = %d, want 4", r.Failed())
	}
	golden(t, "failing.txt", r)
}

func golden(t *testing.T, name string, r Report) {
	t.Helper()
	var b bytes.Buffer
	if err := r.Print(&b); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("printout differs from %s:\n%s", path, b.String())
	}
}

// TestHallCheck: no hall is fine; a hall the table cannot log in to fails with the broker's words
// and the fix; a hall that accepts the table passes.
func TestHallCheck(t *testing.T) {
	withHall := config.Default()
	withHall.Table = 4
	withHall.Hall.URL, withHall.Hall.PasswordFile = "mqtt://hall.lan:1883", "/etc/tengen/hall.pw"
	withTLS := withHall
	withTLS.Hall.URL, withTLS.Hall.CAFile = "mqtts://hall.lan:8883", "/etc/tengen/hall-ca.crt"
	untrusted := errors.New("the broker at mqtts://hall.lan:8883: its TLS certificate is not signed by the certificate authority in /etc/tengen/hall-ca.crt")
	refused := errors.New("the broker refused the connection: the broker at mqtt://hall.lan:1883 refused user \"table-4\": not authorized: a wrong user name or password")
	tests := []struct {
		name   string
		cfg    config.Config
		probe  func(context.Context) error
		status Status
		want   string
	}{
		{"no hall", config.Default(), nil, OK, "no hall broker configured"},
		{"accepted", withHall, func(context.Context) error { return nil }, OK, "mqtt://hall.lan:1883 accepts table-4"},
		{"refused", withHall, func(context.Context) error { return refused }, Fail, "wrong user name or password"},
		{"no client", withHall, nil, Warn, "not checked"},
		{"untrusted certificate", withTLS, func(context.Context) error { return untrusted }, Fail, "not signed by the certificate authority"},
	}
	for _, tc := range tests {
		res := checkHall(context.Background(), tc.cfg, Probes{HallConnect: tc.probe})
		if res.Status != tc.status || !strings.Contains(res.Detail, tc.want) {
			t.Errorf("%s: %v %q", tc.name, res.Status, res.Detail)
		}
		if res.Status == Fail && !strings.Contains(res.Fix, "/etc/tengen/hall.pw") {
			t.Errorf("%s: the fix does not name the password file: %q", tc.name, res.Fix)
		}
		if tls := strings.HasPrefix(tc.cfg.Hall.URL, "mqtts://"); res.Status == Fail && strings.Contains(res.Fix, "ca_file") != tls {
			t.Errorf("%s: the fix names ca_file %v, want %v: %q", tc.name, !tls, tls, res.Fix)
		}
	}
}
