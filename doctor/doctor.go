// Package doctor checks that a tournament table is ready: camera, board and calibration, buttons,
// display, disk space for the journal and clock synchronisation. It prints a checklist with a fix
// for every problem, so a director can get a table working without knowing its insides.
//
// The package declares small interfaces (Probes) for everything it inspects; cmd/kiosk wires the real
// camera, calibration, GPIO and system calls, and tests use fakes.
package doctor

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"tengen/config"
)

// Status is the outcome of one check.
type Status int

const (
	// OK means the check passed.
	OK Status = iota
	// Warn means the table works but something deserves attention; it does not fail the run.
	Warn
	// Fail means the table is not ready.
	Fail
)

func (s Status) String() string {
	switch s {
	case OK:
		return "ok"
	case Warn:
		return "warn"
	default:
		return "FAIL"
	}
}

// Result is one line of the checklist.
type Result struct {
	// Check names what was checked, e.g. "camera".
	Check  string
	Status Status
	// Detail says what was found ("1920x1080 at 14.9 fps").
	Detail string
	// Fix says what to do; set whenever Status is not OK.
	Fix string
}

// Report is the whole checklist, in the order the checks ran.
type Report struct {
	ConfigPath string
	Results    []Result
}

// Failed returns how many checks failed (warnings do not count).
func (r Report) Failed() int {
	n := 0
	for _, res := range r.Results {
		if res.Status == Fail {
			n++
		}
	}
	return n
}

// Find returns the result of the named check, and whether it ran.
func (r Report) Find(check string) (Result, bool) {
	for _, res := range r.Results {
		if res.Check == check {
			return res, true
		}
	}
	return Result{}, false
}

// Print writes the checklist for a person at the table.
func (r Report) Print(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Tengen doctor (configuration: %s)\n\n", r.ConfigPath)
	for _, res := range r.Results {
		fmt.Fprintf(&b, "  [%-4s] %-12s %s\n", res.Status, res.Check, res.Detail)
		if res.Status != OK && res.Fix != "" {
			for i, l := range strings.Split(res.Fix, "\n") {
				label := "fix:"
				if i > 0 {
					label = ""
				}
				fmt.Fprintf(&b, "  %6s %-12s %-4s %s\n", "", "", label, l)
			}
		}
	}
	warns := 0
	for _, res := range r.Results {
		if res.Status == Warn {
			warns++
		}
	}
	switch f := r.Failed(); {
	case f == 0 && warns == 0:
		b.WriteString("\nAll checks passed: the table is ready.\n")
	case f == 0:
		fmt.Fprintf(&b, "\nThe table is ready; %d warning(s) above.\n", warns)
	default:
		fmt.Fprintf(&b, "\n%d check(s) failed: the table is NOT ready. Fix them in order, then run `kiosk doctor` again.\n", f)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Options are the settings of one doctor run.
type Options struct {
	// Config is the configuration to check against (Default() when it could not be read).
	Config config.Config
	// ConfigPath is the file it came from; ConfigErr is why it could not be used, if so.
	ConfigPath string
	ConfigErr  error
	// ConfigMissing, when set, says that there is no configuration file and what the kiosk does
	// without it (the defaults are checked); ConfigMissingFix says what to do. A warning.
	ConfigMissing, ConfigMissingFix string
	// CameraTime is how long to read frames to measure the frame rate (default 3 s).
	CameraTime time.Duration
	// MinFreeBytes is the free space the journal needs (default 200 MiB); under 5x that warns.
	MinFreeBytes uint64
}

// Run runs every check and returns the checklist. Missing probes are reported as checks that could
// not be made, never as passes.
func Run(ctx context.Context, opts Options, p Probes) Report {
	if opts.CameraTime <= 0 {
		opts.CameraTime = 3 * time.Second
	}
	if opts.MinFreeBytes == 0 {
		opts.MinFreeBytes = 200 << 20
	}
	if p.Now == nil {
		p.Now = time.Now
	}
	r := Report{ConfigPath: opts.ConfigPath}
	add := func(res Result) { r.Results = append(r.Results, res) }

	add(checkConfig(opts))
	cfg := opts.Config
	add(checkPIN(cfg))
	for _, res := range checkGame(cfg, p) {
		add(res)
	}
	cam, frame := checkCamera(ctx, cfg, opts.CameraTime, p)
	add(cam)
	cal, calib := checkCalibration(cfg, frame, p)
	add(cal)
	add(checkBoard(ctx, cfg, calib, cal.Status != Fail && cam.Status != Fail, p))
	add(checkPins(cfg, p))
	add(checkDisplay(p))
	add(checkDisk(cfg, opts.MinFreeBytes, p))
	add(checkClock(ctx, p))
	add(checkHall(ctx, cfg, p))
	return r
}

// checkHall connects to the hall's broker when the configuration names one.
func checkHall(ctx context.Context, cfg config.Config, p Probes) Result {
	h := cfg.Hall
	if h.URL == "" {
		return Result{Check: "hall", Status: OK, Detail: "no hall broker configured ([hall] url is empty)"}
	}
	res := Result{Check: "hall", Status: OK, Detail: fmt.Sprintf("%s accepts %s (hall %s, table %d)", h.URL, cfg.HallUser(), h.Name, cfg.HallTable())}
	if p.HallConnect == nil {
		res.Status, res.Detail, res.Fix = Warn, "not checked: no MQTT client in this build", "build kiosk from a complete source tree"
		return res
	}
	if err := p.HallConnect(ctx); err != nil {
		res.Status, res.Detail = Fail, err.Error()
		res.Fix = fmt.Sprintf("compare [hall] user (%s) and the password in %s with the hall's credentials file (`hall init` wrote it on the director's machine),\nand check that the broker runs and this table reaches it (ping the host, port open)", cfg.HallUser(), h.PasswordFile)
		if strings.HasPrefix(h.URL, "mqtts://") {
			res.Fix += ";\nover TLS (mqtts://), [hall] ca_file must be the hall's CA certificate (ca.crt from the director's machine) and url the broker's TLS port (8883)"
		}
	}
	return res
}

func checkConfig(opts Options) Result {
	res := Result{Check: "config", Status: OK, Detail: opts.ConfigPath}
	if opts.ConfigMissing != "" && opts.ConfigErr == nil {
		res.Status, res.Detail, res.Fix = Warn, opts.ConfigMissing, opts.ConfigMissingFix
	}
	if opts.ConfigErr != nil {
		res.Status = Fail
		res.Detail = opts.ConfigErr.Error()
		res.Fix = fmt.Sprintf("edit %s (the key and line are named above; the defaults are in /usr/local/share/doc/tengen/kiosk.toml),\nthe other checks below use the default settings", opts.ConfigPath)
	}
	return res
}

func checkPIN(cfg config.Config) Result {
	if cfg.Director.PINHash == "" {
		return Result{Check: "director PIN", Status: Warn, Detail: "no director PIN is set: the director's actions (undo, correct a move, adjust a clock, set a result, pause, export) are disabled",
			Fix: "run `kiosk doctor -hash-pin`, type a PIN of 4 to 12 digits, and paste the printed line under [director]"}
	}
	return Result{Check: "director PIN", Status: OK, Detail: "set (stored hashed)"}
}

// checkGame checks the default rules and time control with the real parsers (Probes.CheckRules and
// Probes.CheckTimeControl), since the config package only knows their names.
func checkGame(cfg config.Config, p Probes) []Result {
	var out []Result
	res := Result{Check: "rules", Status: OK, Detail: fmt.Sprintf("%s, %dx%d", cfg.Game.Rules, cfg.Game.Size, cfg.Game.Size)}
	if p.CheckRules == nil {
		res.Status, res.Detail, res.Fix = Warn, "not checked: no rules engine in this build", "build kiosk from a complete source tree"
	} else if err := p.CheckRules(cfg.Game.Rules, cfg.Game.Size); err != nil {
		res.Status, res.Detail = Fail, err.Error()
		res.Fix = "set [game] rules to one of " + strings.Join(config.RulesPresets(), ", ") + " and size to 9, 13 or 19"
	}
	out = append(out, res)
	res = Result{Check: "time control", Status: OK, Detail: cfg.Game.TimeControl}
	if p.CheckTimeControl == nil {
		res.Status, res.Detail, res.Fix = Warn, "not checked: no clock in this build", "build kiosk from a complete source tree"
	} else if err := p.CheckTimeControl(cfg.Game.TimeControl); err != nil {
		res.Status, res.Detail = Fail, err.Error()
		res.Fix = `set [game] time_control to a form such as "60m+5x30s" (60 minutes, then 5 periods of 30 seconds)`
	}
	return append(out, res)
}
