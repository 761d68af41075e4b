package doctor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"tengen/config"
)

// MinCameraWidth and MinCameraHeight are the smallest frames that still show a 19x19 board's stones
// clearly enough to read.
const (
	MinCameraWidth  = 640
	MinCameraHeight = 480
	// MinFPS is the slowest frame rate the referee can work with.
	MinFPS = 2.0
	// MinCalibrationConfidence is the lowest finder confidence the doctor accepts.
	MinCalibrationConfidence = 0.6
	// MaxDrift is how far (in grid spacings) a corner may be from its calibrated place.
	MaxDrift = 0.5
)

const cameraFix = `check the camera cable (ribbon contacts towards the board on a Pi camera) or USB plug;
list cameras with: ls /dev/video* ; libcamera-hello --list-cameras
set [camera] source in the config ("auto", "libcamera", "/dev/video0", ...)`

func checkCamera(ctx context.Context, cfg config.Config, dur time.Duration, p Probes) (Result, *Frame) {
	res := Result{Check: "camera"}
	c := cfg.Camera
	if c.Source == "demo" {
		res.Status, res.Detail = Warn, `camera.source is "demo": the kiosk shows the built-in demo game, not the board`
		res.Fix = `set [camera] source = "auto" for a real table`
		return res, nil
	}
	if p.OpenCamera == nil {
		res.Status, res.Detail, res.Fix = Fail, "not checked: this build has no camera support", "build kiosk with OpenCV (make build)"
		return res, nil
	}
	cam, err := p.OpenCamera(ctx, c.Source, c.Width, c.Height, c.FPS)
	if err != nil {
		res.Status, res.Detail, res.Fix = Fail, fmt.Sprintf("camera %q does not open: %v", c.Source, err), cameraFix
		return res, nil
	}
	defer cam.Close()

	// The first frame is not timed: cameras take a while to start streaming.
	first, err := cam.Next(ctx)
	if err != nil {
		res.Status, res.Detail, res.Fix = Fail, fmt.Sprintf("camera %q gives no frames: %v", c.Source, err), cameraFix
		return res, nil
	}
	start := p.Now()
	frames, last := 0, start
	for last.Sub(start) < dur {
		f, err := cam.Next(ctx)
		if err != nil {
			res.Status, res.Detail, res.Fix = Fail, fmt.Sprintf("camera %q stopped after %d frames: %v", c.Source, frames+1, err), cameraFix
			return res, nil
		}
		if f != first {
			res.Status = Fail
			res.Detail = fmt.Sprintf("frame size changes: %dx%d then %dx%d", first.Width, first.Height, f.Width, f.Height)
			res.Fix = "use a fixed [camera] width and height the camera supports"
			return res, nil
		}
		frames++
		last = p.Now()
	}
	fps := float64(frames) / last.Sub(start).Seconds()
	res.Detail = fmt.Sprintf("%q: %dx%d at %.1f fps", c.Source, first.Width, first.Height, fps)
	var fixes []string
	res.Status = OK
	switch {
	case first.Width < MinCameraWidth || first.Height < MinCameraHeight:
		res.Status = Fail
		fixes = append(fixes, fmt.Sprintf("the frames are smaller than %dx%d: set a larger [camera] width and height, or use a better camera", MinCameraWidth, MinCameraHeight))
	case first.Width != c.Width || first.Height != c.Height:
		res.Status = Warn
		fixes = append(fixes, fmt.Sprintf("the camera gives %dx%d, not the configured %dx%d: set [camera] width and height to a size it supports", first.Width, first.Height, c.Width, c.Height))
	}
	switch {
	case fps < MinFPS:
		res.Status = Fail
		fixes = append(fixes, fmt.Sprintf("%.1f fps is too slow to follow play (need %.0f): lower the resolution, improve the light (long exposure slows cameras), or use USB 3 / the camera port", fps, MinFPS))
	case fps < 0.6*float64(c.FPS):
		res.Status = max(res.Status, Warn)
		fixes = append(fixes, fmt.Sprintf("%.1f fps is well under the configured %d: more light usually helps; or lower [camera] fps", fps, c.FPS))
	}
	res.Fix = strings.Join(fixes, "\n")
	return res, &first
}

func checkCalibration(cfg config.Config, frame *Frame, p Probes) (Result, *Calibration) {
	res := Result{Check: "calibration"}
	path := cfg.Paths.Calibration
	recal := "put the empty board under the camera and run: kiosk calibrate (or, on the kiosk's screen, Menu > Camera and board: Find the board, then Save)"
	if p.LoadCalibration == nil {
		res.Status, res.Detail, res.Fix = Fail, "not checked: this build cannot read calibrations", "build kiosk from a complete source tree"
		return res, nil
	}
	c, err := p.LoadCalibration(path)
	if err != nil {
		res.Status, res.Fix = Fail, recal
		res.Detail = fmt.Sprintf("%s: %v", path, err)
		return res, nil
	}
	res.Detail = fmt.Sprintf("%s: %dx%d board in %dx%d frames, confidence %.2f", path, c.Size, c.Size, c.ImageWidth, c.ImageHeight, c.Confidence)
	if msg := badCorners(c); msg != "" {
		res.Status, res.Detail, res.Fix = Fail, fmt.Sprintf("%s: %s", path, msg), recal
		return res, nil
	}
	if frame != nil && (frame.Width != c.ImageWidth || frame.Height != c.ImageHeight) {
		res.Status = Fail
		res.Detail += fmt.Sprintf("; the camera now gives %dx%d", frame.Width, frame.Height)
		res.Fix = "the camera resolution changed since calibrating: " + recal
		return res, &c
	}
	if c.Confidence < MinCalibrationConfidence {
		res.Status = Fail
		res.Fix = fmt.Sprintf("confidence under %.1f: light the board evenly, clear it, and %s", MinCalibrationConfidence, recal)
		return res, &c
	}
	res.Status = OK
	if c.Size != cfg.Game.Size {
		res.Status = Warn
		res.Fix = fmt.Sprintf("the calibrated board is %dx%d but [game] size is %d: set size = %d, or recalibrate on the right board", c.Size, c.Size, cfg.Game.Size, c.Size)
	}
	return res, &c
}

// badCorners describes what is impossible about a calibration's corners, or returns "".
func badCorners(c Calibration) string {
	if c.Size < 2 || c.ImageWidth <= 0 || c.ImageHeight <= 0 {
		return fmt.Sprintf("impossible sizes (board %d, frames %dx%d)", c.Size, c.ImageWidth, c.ImageHeight)
	}
	for i, q := range c.Corners {
		if math.IsNaN(q.X) || math.IsNaN(q.Y) || q.X < 0 || q.Y < 0 || q.X > float64(c.ImageWidth) || q.Y > float64(c.ImageHeight) {
			return fmt.Sprintf("corner %d (%.0f, %.0f) is outside the %dx%d frame", i+1, q.X, q.Y, c.ImageWidth, c.ImageHeight)
		}
	}
	if a := quadArea(c.Corners); a < 0.02*float64(c.ImageWidth*c.ImageHeight) {
		return "the board covers under 2% of the frame: the corners are wrong or the camera is far too high"
	}
	return ""
}

func quadArea(q [4]Point) float64 {
	s := 0.0
	for i := range q {
		j := (i + 1) % 4
		s += q[i].X*q[j].Y - q[j].X*q[i].Y
	}
	return math.Abs(s) / 2
}

func checkBoard(ctx context.Context, cfg config.Config, cal *Calibration, ready bool, p Probes) Result {
	res := Result{Check: "board"}
	switch {
	case cfg.Camera.Source == "demo":
		res.Status, res.Detail = Warn, "not checked: demo mode"
		res.Fix = `set [camera] source = "auto" for a real table`
		return res
	case !ready || cal == nil:
		res.Status, res.Detail = Fail, "not checked: needs a working camera and calibration (see above)"
		res.Fix = "fix the camera and calibration first"
		return res
	case p.FindBoard == nil:
		res.Status, res.Detail = Warn, "not checked: this build cannot look for the board in a live frame"
		res.Fix = "check by eye that the whole board is in view"
		return res
	}
	s, err := p.FindBoard(ctx, cal.Size)
	if err != nil {
		res.Status, res.Detail = Fail, fmt.Sprintf("no board in view: %v", err)
		res.Fix = "make sure the whole board is in view, not covered, and evenly lit; then run kiosk doctor again"
		return res
	}
	if s.Size != cal.Size {
		res.Status = Fail
		res.Detail = fmt.Sprintf("a %dx%d board is in view but %dx%d was calibrated", s.Size, s.Size, cal.Size, cal.Size)
		res.Fix = "put the calibrated board back, or recalibrate: kiosk calibrate"
		return res
	}
	spacing := math.Hypot(cal.Corners[1].X-cal.Corners[0].X, cal.Corners[1].Y-cal.Corners[0].Y) / float64(cal.Size-1)
	worst := 0.0
	for i := range s.Corners {
		worst = max(worst, math.Hypot(s.Corners[i].X-cal.Corners[i].X, s.Corners[i].Y-cal.Corners[i].Y))
	}
	drift := worst / spacing
	res.Detail = fmt.Sprintf("%dx%d board in view, corners within %.2f lines of the calibration", s.Size, s.Size, drift)
	if drift > MaxDrift {
		res.Status = Fail
		res.Detail = fmt.Sprintf("the board moved %.1f lines since calibrating", drift)
		res.Fix = "fix the board and camera in place (tape the board's feet), then: kiosk calibrate"
		return res
	}
	res.Status = OK
	return res
}

func checkPins(cfg config.Config, p Probes) Result {
	res := Result{Check: "buttons"}
	var inputs []config.PinFunc
	for _, f := range cfg.Pins.Functions() {
		if f.Input && f.Name != "" {
			inputs = append(inputs, f)
		}
	}
	wired := map[string]bool{}
	for _, f := range inputs {
		wired[f.Key] = true
	}
	if !wired["black"] || !wired["white"] || !wired["pass"] {
		res.Status = Fail
		res.Detail = "no pins for the clock buttons: [pins] black, white and pass must all be set"
		res.Fix = `set them to the GPIO lines the buttons are wired to, e.g. black = "GPIO17", white = "GPIO27", pass = "GPIO22"`
		return res
	}
	if p.OpenGPIO == nil {
		res.Status, res.Detail, res.Fix = Fail, "not checked: this build has no GPIO support", "build kiosk for the Raspberry Pi (make pi)"
		return res
	}
	g, err := p.OpenGPIO()
	if err != nil {
		res.Status, res.Detail = Fail, fmt.Sprintf("cannot use the GPIO lines: %v", err)
		res.Fix = "run as a user in group gpio (sudo adduser $USER gpio), and stop the kiosk first: sudo systemctl stop tengen-kiosk"
		return res
	}
	defer g.Close()
	rest := Pull(PullUp)
	if cfg.Pins.Pull == "down" {
		rest = PullDown
	}
	defer func() {
		for _, f := range inputs {
			g.SetPull(f.Name, rest)
		}
	}()

	read := func(pin string, pull Pull) (bool, error) {
		if err := g.SetPull(pin, pull); err != nil {
			return false, err
		}
		return g.Read(pin)
	}
	var problems []string
	for _, f := range inputs {
		up, err := read(f.Name, PullUp)
		if err == nil {
			var down bool
			down, err = read(f.Name, PullDown)
			if err == nil {
				switch {
				case !up && !down:
					problems = append(problems, fmt.Sprintf("%s (%s) reads low even with its pull-up: the button is held down or the pin is wired to ground", f.Key, f.Name))
				case up && down:
					problems = append(problems, fmt.Sprintf("%s (%s) reads high even with its pull-down: the pin is wired to 3.3 V", f.Key, f.Name))
				}
			}
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s (%s) cannot be read: %v", f.Key, f.Name, err))
		}
		g.SetPull(f.Name, rest)
	}
	if len(problems) == 0 {
		// Two lines pulled opposite ways that read the same level are connected to each other.
		for i := range inputs {
			for j := i + 1; j < len(inputs); j++ {
				a, b := inputs[i], inputs[j]
				if err := errors.Join(g.SetPull(a.Name, PullUp), g.SetPull(b.Name, PullDown)); err != nil {
					problems = append(problems, fmt.Sprintf("%s and %s: %v", a.Name, b.Name, err))
					continue
				}
				va, ea := g.Read(a.Name)
				vb, eb := g.Read(b.Name)
				if ea == nil && eb == nil && va == vb {
					problems = append(problems, fmt.Sprintf("%s (%s) and %s (%s) are shorted together", a.Key, a.Name, b.Key, b.Name))
				}
				g.SetPull(a.Name, rest)
				g.SetPull(b.Name, rest)
			}
		}
	}
	var names []string
	for _, f := range inputs {
		names = append(names, f.Key+"="+f.Name)
	}
	if len(problems) > 0 {
		res.Status = Fail
		res.Detail = strings.Join(problems, "; ")
		res.Fix = "release every button and run again; otherwise check the wiring: each button goes between its pin and ground (pull = \"up\")\nsee 'Setting up a tournament table' in the README for the pin table"
		return res
	}
	res.Status = OK
	res.Detail = strings.Join(names, " ") + ": readable, none stuck, none shorted"
	return res
}

func checkDisplay(p Probes) Result {
	res := Result{Check: "display"}
	if p.Getenv == nil || p.DialDisplay == nil || p.DRMDevices == nil {
		res.Status, res.Detail, res.Fix = Fail, "not checked: no display probes", "build kiosk from a complete source tree"
		return res
	}
	devs, err := p.DRMDevices()
	if err != nil || len(devs) == 0 {
		res.Status = Fail
		res.Detail = "no GPU display device (/dev/dri/card*)"
		res.Fix = "enable the KMS driver: dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt, then reboot"
		return res
	}
	ctx := context.Background()
	var target string
	switch {
	case p.Getenv("WAYLAND_DISPLAY") != "":
		target = p.Getenv("WAYLAND_DISPLAY")
		if !filepath.IsAbs(target) {
			target = filepath.Join(p.Getenv("XDG_RUNTIME_DIR"), target)
		}
	case p.Getenv("DISPLAY") != "":
		target = p.Getenv("DISPLAY")
	default:
		target = ":0" // tengen-display.service's X server, when doctor runs from a console or ssh
	}
	if err := p.DialDisplay(ctx, target); err != nil {
		res.Status = Fail
		res.Detail = fmt.Sprintf("display %s is not running: %v (GPU: %s)", target, err, strings.Join(devs, " "))
		res.Fix = "start it: sudo systemctl restart tengen-display; see why: journalctl -u tengen-display -b"
		return res
	}
	res.Status = OK
	res.Detail = fmt.Sprintf("display %s accepts connections (GPU: %s)", target, strings.Join(devs, " "))
	return res
}

func checkDisk(cfg config.Config, minFree uint64, p Probes) Result {
	res := Result{Check: "disk"}
	if p.DiskFree == nil {
		res.Status, res.Detail, res.Fix = Fail, "not checked: no disk probe", "build kiosk from a complete source tree"
		return res
	}
	worst := ""
	var worstFree uint64 = math.MaxUint64
	for _, dir := range []string{cfg.Paths.JournalDir, cfg.Paths.GamesDir} {
		free, _, err := p.DiskFree(dir)
		if err != nil {
			res.Status = Fail
			res.Detail = fmt.Sprintf("%s: %v", dir, err)
			res.Fix = "create it (scripts/install-pi does) or fix [paths] in the config; the kiosk user must be able to write it"
			return res
		}
		if free < worstFree {
			worst, worstFree = dir, free
		}
	}
	res.Detail = fmt.Sprintf("%s free for %s", bytesText(worstFree), worst)
	switch {
	case worstFree < minFree:
		res.Status = Fail
		res.Fix = fmt.Sprintf("the journal needs at least %s: copy old games off (%s) and delete them, or use a larger SD card", bytesText(minFree), cfg.Paths.GamesDir)
	case worstFree < 5*minFree:
		res.Status = Warn
		res.Fix = "space is getting short: copy old games off and delete them"
	default:
		res.Status = OK
	}
	return res
}

func bytesText(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
	default:
		return fmt.Sprintf("%d KiB", n>>10)
	}
}

func checkClock(ctx context.Context, p Probes) Result {
	res := Result{Check: "clock"}
	if p.ClockSynced == nil {
		res.Status, res.Detail, res.Fix = Fail, "not checked: no clock probe", "build kiosk from a complete source tree"
		return res
	}
	ok, how, err := p.ClockSynced(ctx)
	switch {
	case err != nil:
		res.Status, res.Detail = Fail, fmt.Sprintf("cannot tell whether the clock is synchronised: %v", err)
		res.Fix = "check with: timedatectl"
	case !ok:
		res.Status, res.Detail = Fail, "the system clock is not synchronised ("+how+")"
		res.Fix = "connect the table to a network once so NTP can set the clock (the Pi 4 has no battery clock),\nthen: sudo timedatectl set-ntp true ; timedatectl  (game records and the journal carry timestamps)"
	default:
		res.Status, res.Detail = OK, "synchronised ("+how+")"
	}
	return res
}
