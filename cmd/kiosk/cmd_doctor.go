package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"tengen/calib"
	"tengen/clock"
	"tengen/config"
	"tengen/doctor"
	"tengen/doctor/gpiocdev"
	"tengen/engine"
	"tengen/internal/errtext"
	"tengen/vision"
)

// runDoctor checks that this table is ready and prints a checklist with a fix for each problem.
// The exit status is 1 when any check fails. With -hash-pin it instead reads a director PIN from
// standard input and prints the configuration line that stores it hashed.
func runDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "the kiosk configuration file (default: where kiosk run looks: $TENGEN_CONFIG, $CONFIGURATION_DIRECTORY/kiosk.toml or "+config.DefaultPath+")")
	camTime := fs.Duration("camera-time", 3*time.Second, "how long to read frames when measuring the camera's frame rate")
	hashPIN := fs.Bool("hash-pin", false, "read a director PIN (4 to 12 digits) from standard input, print the pin_hash line for the config, and exit")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: kiosk doctor [flags]\n\nChecks camera, board and calibration, buttons, display, disk and clock; prints what to fix.\nStop the kiosk first (sudo systemctl stop tengen-kiosk): it holds the camera and buttons.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitError{code: 2}
	}
	if *hashPIN {
		return printPINHash(os.Stdin, stdout, stderr)
	}

	// The file kiosk run would read, and what run would do without it, in run's words.
	file := locateConfig(*cfgPath, os.Getenv, fileExists)
	cfg, found, err := file.load()
	opts := doctor.Options{Config: cfg, ConfigPath: file.path, ConfigErr: err, CameraTime: *camTime}
	if err != nil {
		opts.Config = config.Default()
	} else if !found {
		opts.Config = config.Default()
		opts.ConfigMissing, opts.ConfigMissingFix = file.missing(), file.missingFix()
	}
	report := doctor.Run(ctx, opts, doctorProbes(opts.Config))
	for i, r := range report.Results { // the errors in the details in words (see errorWords)
		report.Results[i].Detail = errtext.Strip(r.Detail)
	}
	if err := report.Print(stdout); err != nil {
		return err
	}
	if report.Failed() > 0 {
		return exitError{code: 1}
	}
	return nil
}

// printPINHash reads one line (the PIN) and prints `pin_hash = "..."` for the [director] table.
func printPINHash(in io.Reader, stdout, stderr io.Writer) error {
	fmt.Fprintln(stderr, "Director PIN (4 to 12 digits):")
	line, err := bufio.NewReader(io.LimitReader(in, 256)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	h, err := config.HashPIN(strings.TrimSpace(line))
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "pin_hash = %q\n", h)
	return err
}

// doctorProbes wires the real camera, calibration, GPIO, rules and clock into the doctor.
func doctorProbes(cfg config.Config) doctor.Probes {
	p := doctor.SystemProbes()
	p.HallConnect = func(ctx context.Context) error { return checkHallLogin(ctx, cfg) }
	p.OpenCamera = func(ctx context.Context, _ string, _, _, _ int) (doctor.Camera, error) {
		return openDoctorCamera(cfg.Camera.Spec())
	}
	p.LoadCalibration = func(path string) (doctor.Calibration, error) {
		c, err := calib.Load(path)
		if err != nil {
			return doctor.Calibration{}, err
		}
		d := doctor.Calibration{ImageWidth: c.ImageWidth, ImageHeight: c.ImageHeight, Size: c.Size, Confidence: c.Confidence}
		for i, q := range c.Corners {
			d.Corners[i] = doctor.Point{X: q.X, Y: q.Y}
		}
		return d, nil
	}
	p.FindBoard = func(ctx context.Context, size int) (doctor.Sighting, error) {
		return findBoard(ctx, cfg.Camera.Spec(), size)
	}
	p.OpenGPIO = func() (doctor.GPIO, error) {
		l, err := gpiocdev.Open("/dev/gpiochip*")
		if err != nil {
			return nil, err
		}
		return doctorGPIO{l}, nil
	}
	p.CheckRules = func(name string, size int) error {
		r, err := engine.Preset(name)
		if err != nil {
			return err
		}
		_, err = engine.NewGame(size, r)
		return err
	}
	p.CheckTimeControl = func(tc string) error {
		_, err := clock.ParseControlOrPreset(tc)
		return err
	}
	return p
}

// doctorCamera adapts a camera probe to doctor.Camera.
type doctorCamera struct{ p *vision.Probe }

// openDoctorCamera opens the camera for the doctor. The camera helper's lines (OpenCV's and
// GStreamer's warnings and pipelines) are not logged: the doctor's output is its checklist, and a
// camera that fails says why in its check.
func openDoctorCamera(spec string) (*doctorCamera, error) {
	p, err := vision.OpenProbeLogged(spec, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	return &doctorCamera{p: p}, nil
}

func (c *doctorCamera) Next(ctx context.Context) (doctor.Frame, error) {
	w, h, err := c.p.Next(ctx)
	if err != nil {
		return doctor.Frame{}, err
	}
	return doctor.Frame{Width: w, Height: h}, nil
}

func (c *doctorCamera) Close() error { return c.p.Close() }

// findBoard grabs a frame (after letting exposure settle) and looks for the board in it.
func findBoard(ctx context.Context, spec string, size int) (doctor.Sighting, error) {
	cam, err := openDoctorCamera(spec)
	if err != nil {
		return doctor.Sighting{}, err
	}
	defer cam.Close()
	for range 10 {
		if _, err := cam.Next(ctx); err != nil {
			return doctor.Sighting{}, err
		}
	}
	c, err := cam.p.FindBoard(ctx, size)
	if err != nil {
		return doctor.Sighting{}, err
	}
	s := doctor.Sighting{Size: c.Size, Confidence: c.Confidence}
	for i, q := range c.Corners {
		s.Corners[i] = doctor.Point{X: q.X, Y: q.Y}
	}
	return s, nil
}

// doctorGPIO adapts gpiocdev to doctor.GPIO.
type doctorGPIO struct{ l *gpiocdev.Lines }

func (g doctorGPIO) SetPull(pin string, p doctor.Pull) error {
	return g.l.SetPull(pin, p == doctor.PullUp)
}
func (g doctorGPIO) Read(pin string) (bool, error) { return g.l.Read(pin) }
func (g doctorGPIO) Close() error                  { return g.l.Close() }
