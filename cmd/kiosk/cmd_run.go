package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"tengen/calib"
	"tengen/clock"
	"tengen/clock/gpio"
	"tengen/config"
	"tengen/demo"
	"tengen/engine"
	"tengen/internal/gomem"
	"tengen/internal/mtrim"
	"tengen/internal/sdnotify"
	"tengen/referee"
	"tengen/station"
	"tengen/ui"
	"tengen/vision"
	"tengen/vision/observe"
)

// Demo camera settings: a modest frame is plenty for a 9x9 board and keeps the idle CPU low.
const (
	demoWidth, demoHeight = 640, 480
	demoFPS               = 4
	demoPIN               = "0000" // the director PIN of the built-in demo (no real game is at stake)
	uiTick                = 250 * time.Millisecond
	// The Go heap is collected when it grows 10% past what is live (the default is 100%), with a
	// soft ceiling: the kiosk allocates little per frame, so the extra collections cost well under
	// 1% of a core, and they keep about 12 MB off the table's resident memory.
	goGCPercent   = 10
	heapTrimEvery = 20 * time.Second
	// C blocks of 16 KiB and more (a 64x64 text texture and up) are mapped on their own: over the
	// demo game this keeps the C heap flat at 12 MB (it grew 15 to 17 MB at 64 KiB) for no CPU
	// that scripts/measure-demo can tell apart.
	mmapAbove     = 16 << 10 // bytes
	goMemoryLimit = 48 << 20
	// The Go runtime's soft memory limit follows what it uses (gomem.Limit), re-set every
	// memLimitEvery at least goMemHeadroom above the use (a fifth of the heap goal when that is
	// more), never under goMemFloor nor over goMemoryLimit. Over the demo game this took about
	// 1 MB off the peak (a ruling's burst of allocation no longer leaves its heap pages resident)
	// for no CPU the game's total shows. Less headroom starves the collector: 1 MiB, like a fixed
	// 16 MiB limit, made it run without pause (the game's CPU time up by half).
	memLimitEvery = 2 * time.Second
	goMemHeadroom = 2 << 20
	goMemFloor    = 12 << 20
	// The UI thread beats every heartbeatEvery; the systemd watchdog is fed only while the last beat
	// is younger than heartbeatStale (the unit's WatchdogSec=15s then restarts a frozen kiosk).
	heartbeatEvery = 2 * time.Second
	heartbeatStale = 10 * time.Second
	// exitConfig is the exit status after showing a configuration problem (EX_CONFIG of sysexits.h).
	exitConfig = 78
)

// runOptions are the run command's flags.
type runOptions struct {
	configPath string
	camera     string
	demo       bool
	fullscreen bool
	lang       string
	size       string
	quitAfter  time.Duration
	demoIdle   bool
}

// runKiosk starts the kiosk window: camera (or the built-in demo), buttons (or the keyboard),
// referee, clock and screens.
func runKiosk(ctx context.Context, args []string, _, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o runOptions
	fs.StringVar(&o.configPath, "config", "", "configuration file (default: $TENGEN_CONFIG, $CONFIGURATION_DIRECTORY/kiosk.toml or "+config.DefaultPath+")")
	fs.StringVar(&o.camera, "camera", "", `camera: "/dev/video0", "0", "libcamera", "gst:PIPELINE", a video file or a directory of stills, or "demo"`)
	fs.BoolVar(&o.demo, "demo", false, "run the built-in demo game instead of a camera (director PIN "+demoPIN+")")
	fs.BoolVar(&o.fullscreen, "fullscreen", false, "cover the whole screen")
	fs.StringVar(&o.lang, "lang", "", "interface language: en, pl, bg, ru or cs (default: the configuration's)")
	fs.StringVar(&o.size, "size", "", "window size WIDTHxHEIGHT when not full screen (default: the configuration's, 1280x720 for the demo)")
	fs.DurationVar(&o.quitAfter, "quit-after", 0, "close the window after this long (for tests and measurements)")
	fs.BoolVar(&o.demoIdle, "demo-idle", false, "with --demo: stop the demo once Black's clock runs (an idle board, for measurements)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: kiosk run [--config FILE] [--camera SRC] [--demo] [--fullscreen] [--lang L] [--size WxH]")
		fmt.Fprintln(stderr, "\nStarts the kiosk. Without a configuration file or a camera it plays the built-in demo game.")
		fmt.Fprintln(stderr, "Keyboard (when there are no GPIO buttons): B or Left = Black's clock, W or Right = White's clock,")
		fmt.Fprintln(stderr, "P, Space or Down = pass, L = long pass (stop and count), D = director, Esc = back to the game.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return exitError{code: 2} // the flag package has said what is wrong, once
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitError{code: 2}
	}
	if o.lang != "" && !slices.Contains(config.Languages(), o.lang) {
		fmt.Fprintf(stderr, "kiosk run: --lang %q: the screens speak %s\n", o.lang, strings.Join(config.Languages(), ", "))
		return exitError{code: 2}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	k, fault, err := startKiosk(o, log)
	switch {
	case err != nil:
		return err
	case fault != nil:
		return showConfigFault(ctx, o, fault, log)
	}
	err = k.run(ctx)
	if errors.As(err, &fault) {
		// The journal could not be opened: the same calm screen says what to do, instead of an
		// exit that systemd would turn into a blank screen restarting every few seconds; the
		// players keep the game clock beside it.
		logFault(log, fault)
		return k.showJournalFault(ctx, fault)
	}
	return err
}

// logFault logs a configuration or state-directory problem the kiosk shows on screen.
func logFault(log *slog.Logger, fault *config.Error) {
	log.Error("configuration problem: the kiosk shows it on screen and waits for a fix", "file", fault.Path, "title", fault.Title())
	if fault.Err != nil {
		log.Error("configuration problem", "file", fault.Path, "err", fault.Err)
	}
	for _, p := range fault.Problems {
		log.Error("configuration problem", "file", fault.Path, "line", p.Line, "key", p.Key, "problem", p.Msg)
	}
}

// stateFault is the fault screen's account of a directory the kiosk cannot write its journal or
// games into (key is its configuration key): what failed and what the director can do.
func stateFault(dir, key string, err error) *config.Error {
	return &config.Error{Path: dir, Problems: []config.Problem{{Key: key,
		Msg: fmt.Sprintf("%s. The kiosk cannot keep the game safe here: free space on the disk, make the directory writable "+
			"by the kiosk's user, stop any other kiosk or tool using it, or move a damaged journal aside (the kiosk never deletes it); "+
			"then restart the kiosk", errorWords(err))}}}
}

// startKiosk decides what `kiosk run` shows. A bad flag is an error (nothing is shown); a
// configuration file the kiosk cannot use is returned as fault, to be shown on screen (and logged
// here) instead of exiting: under systemd an exit would restart the kiosk in a loop behind a blank
// screen, and the director would never learn which key to fix.
func startKiosk(o runOptions, log *slog.Logger) (k *kiosk, fault *config.Error, err error) {
	if o.size != "" {
		if _, err := ui.ParseWindowSize(o.size); err != nil {
			return nil, nil, fmt.Errorf("--size: %w", err)
		}
	}
	k, err = newKiosk(o, log)
	if errors.As(err, &fault) {
		logFault(log, fault)
		return nil, fault, nil
	}
	return k, nil, err
}

// showConfigFault shows the configuration problem screen until the window is closed (or ctx ends),
// telling systemd the kiosk is up so it does not restart it in a loop, and then reports exitConfig.
func showConfigFault(ctx context.Context, o runOptions, fault *config.Error, log *slog.Logger) error {
	return showFault(ctx, o, fault, log, func(fyne.App, fyne.Window) fyne.CanvasObject { return ui.NewConfigFaultScreen(fault) })
}

// showFault shows the screen content makes in the kiosk's window until it is closed (or ctx ends),
// telling systemd the kiosk is up so that it does not restart it in a loop, then reports exitConfig.
func showFault(ctx context.Context, o runOptions, fault *config.Error, log *slog.Logger, content func(fyne.App, fyne.Window) fyne.CanvasObject) error {
	size, full, err := windowPlan(o, config.Default().Display, false)
	if err != nil {
		return err
	}
	code := o.lang
	if code == "" {
		code = "en"
	}
	a, win, _, err := openWindow(code, size, full, config.Default().Display.SystemFonts, log)
	if err != nil {
		return err
	}
	win.SetContent(content(a, win))
	if err := sdnotify.Status("configuration problem: " + fault.Title()); err != nil {
		log.Warn("systemd status", "err", err)
	}
	serveWindow(ctx, a, win, o.quitAfter, log)
	return exitError{code: exitConfig}
}

// showJournalFault shows the fault of a journal that cannot be opened with the game's clock beside
// it (the configured time control): the buttons, or the keyboard without them, press it as at the
// table (faultClock). Nothing is recorded.
func (k *kiosk) showJournalFault(ctx context.Context, fault *config.Error) error {
	ctl, err := clock.ParseControlOrPreset(k.cfg.Game.TimeControl)
	if err != nil {
		k.log.Warn("the fault screen's clock: no usable time control", "err", err)
		return showConfigFault(ctx, k.opts, fault, k.log)
	}
	clk, err := clock.New(ctl, clock.SystemTime{})
	if err != nil {
		return showConfigFault(ctx, k.opts, fault, k.log)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var presses <-chan clock.Press
	if !k.demo {
		if b := k.openButtons(ctx); b != nil {
			presses = b.Events()
		}
	}
	return showFault(ctx, k.opts, fault, k.log, func(_ fyne.App, win fyne.Window) fyne.CanvasObject {
		screen := ui.NewFaultClockScreen(fault)
		screen.SetClock(clk.State())
		press := func(p clock.Press) {
			if d, err := clk.Handle(p); err != nil || d.Action == clock.Ignore {
				k.log.Info("fault screen clock press", "press", p, "decision", d, "err", err)
			}
		}
		win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
			if p, ok := ui.PressForKey(ev.Name, time.Now()); ok {
				press(p)
			}
		})
		go faultClock(ctx, clk, presses, press, func(st clock.State) { fyne.Do(func() { screen.SetClock(st) }) })
		return screen.Content()
	})
}

// faultClock runs the fault screen's clock until ctx ends: each press from the buttons is handled,
// and show is given the clock's state at every change and every uiTick while it runs.
func faultClock(ctx context.Context, clk *clock.Clock, presses <-chan clock.Press, press func(clock.Press), show func(clock.State)) {
	t := time.NewTicker(uiTick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case p, ok := <-presses:
			if !ok {
				presses = nil
				continue
			}
			press(p)
		case <-clk.Changed():
		case <-t.C:
		}
		show(clk.State())
	}
}

// errNoDisplay means there is no display to open the kiosk's window on.
var errNoDisplay = errors.New("no display to draw on: the kiosk opens an X11 window; run it in a desktop session or set DISPLAY " +
	"(on a table, tengen-display.service provides :0)")

// haveDisplay checks that a window can be opened before Fyne tries (GLFW panics without one).
func haveDisplay() error {
	if runtime.GOOS == "linux" && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return errNoDisplay
	}
	return nil
}

// openWindow starts the Fyne app with the kiosk's theme and a window in language code (English
// when code is unknown, which it logs); it returns the language in use. Unless systemFonts is set,
// text is drawn in the theme's fonts only (see ui.ThemeFontsOnly). The theme's fonts are trimmed to
// the screens' characters (ui.TrimThemeFonts).
func openWindow(code string, size fyne.Size, fullscreen, systemFonts bool, log *slog.Logger) (fyne.App, fyne.Window, string, error) {
	if err := ui.TrimThemeFonts(); err != nil {
		log.Warn("fonts", "err", err)
	}
	if !systemFonts {
		if err := ui.ThemeFontsOnly(); err != nil {
			log.Warn("fonts", "err", err)
		}
	}
	if err := haveDisplay(); err != nil {
		return nil, nil, "", err
	}
	a := fyneapp.NewWithID("org.tengen.kiosk")
	a.Settings().SetTheme(ui.NewTheme())
	if err := ui.LoadTranslations(); err != nil {
		return nil, nil, "", err
	}
	if err := ui.SetLanguage(code); err != nil {
		log.Warn("language", "err", err)
		code = "en"
		_ = ui.SetLanguage(code)
	}
	win := a.NewWindow("Tengen")
	if fullscreen {
		win.SetFullScreen(true)
	}
	win.Resize(size)
	win.SetPadded(false)
	return a, win, code, nil
}

// serveWindow runs the window until it is closed, ctx ends or quitAfter (if > 0) passes. Once the
// event loop turns it tells systemd the kiosk is ready and feeds the watchdog for as long as the UI
// thread keeps beating: a frozen screen stops the petting and systemd restarts the kiosk.
func serveWindow(ctx context.Context, a fyne.App, win fyne.Window, quitAfter time.Duration, log *slog.Logger) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var hb sdnotify.Heartbeat
	a.Lifecycle().SetOnStarted(func() {
		hb.Beat()
		go func() {
			if _, err := sdnotify.Start(ctx, hb.Alive(heartbeatStale)); err != nil {
				log.Error("systemd notification", "err", err)
			}
		}()
		go every(ctx, heartbeatEvery, func() { fyne.Do(hb.Beat) })
	})
	closed := make(chan struct{})
	go func() {
		var quit <-chan time.Time
		if quitAfter > 0 {
			quit = time.After(quitAfter)
		}
		select {
		case <-ctx.Done(): // SIGTERM from systemd, or the window already closed
		case <-quit:
		}
		select {
		case <-closed:
			return
		default:
			fyne.Do(func() { quitWindow(a, log) })
		}
		// Fyne 2.7.1 can deadlock while it shuts down: its lifecycle queue may hand the main loop a
		// call just after the loop has stopped taking them, and wait for it forever (1 stop in 10 to
		// 20 under load, caught with a goroutine dump). Every record is already on disk, so the
		// kiosk then exits anyway rather than hang until systemd kills it.
		select {
		case <-closed:
		case <-time.After(quitGrace):
			log.Error("the window did not close after quitting: exiting without it", "after", quitGrace)
			os.Exit(0)
		}
	}()
	win.ShowAndRun()
	close(closed)
}

// quitWindow asks the app to quit. Fyne quits on SIGTERM by itself as well, and a Quit that
// comes after its loop has stopped runs on a terminated GLFW and panics ("The GLFW library is
// not initialized": seen once when systemd stopped the kiosk on one busy core). That late Quit is
// let go: the window is closing anyway, and every record is on disk.
func quitWindow(a fyne.App, log *slog.Logger) {
	defer func() {
		if r := recover(); r != nil {
			log.Info("the window had already quit", "detail", r)
		}
	}()
	a.Quit()
}

// quitGrace is how long the window may take to close once asked to.
const quitGrace = 5 * time.Second

// kiosk is one running kiosk: its configuration, referee, camera loop and window.
type kiosk struct {
	opts   runOptions
	log    *slog.Logger
	cfg    config.Config
	demo   bool
	script *demo.Script
	st     *station.Station
	tab    *referee.Table // st's referee
	cam    *vision.CameraLoop
	camSrc vision.Source // cam's source, closed here only if the station never runs the loop
	// pinCheck checks a director PIN (behind the lockout) and pinLockedFor says how long it is
	// locked; both nil when no PIN is set. Made once in run.
	pinCheck     func(string) bool
	pinLockedFor func() time.Duration
	tmpDir       string      // the demo's journal, removed at exit
	board        *boardFound // the demo's start: when the camera loop first saw the board
	calPath      string
}

func newKiosk(o runOptions, log *slog.Logger) (*kiosk, error) {
	k := &kiosk{opts: o, log: log, board: newBoardFound()}
	file := locateConfig(o.configPath, os.Getenv, fileExists)
	found := false
	var err error
	k.cfg, found, err = file.load()
	if err != nil {
		return nil, err
	}
	source := k.cfg.Camera.Source
	if o.camera != "" {
		source = o.camera
	}
	// An installed table whose file is missing is not a demo: it starts with the defaults at the
	// set-up screen, and says so (in kiosk doctor's words: configFile.missing).
	installed := file.installed
	switch {
	case !found && installed:
		log.Warn(file.missing(), "fix", file.missingFix())
	case !found:
		log.Info(file.missing())
	}
	if !found && installed {
		if sd, _, _ := strings.Cut(os.Getenv("STATE_DIRECTORY"), ":"); sd != "" {
			k.cfg.Paths = config.Paths{JournalDir: filepath.Join(sd, "journal"), GamesDir: filepath.Join(sd, "games"),
				Calibration: filepath.Join(sd, "calibration.json")}
		}
	}
	// The demo: asked for, configured, or a machine with neither a configuration nor a camera flag
	// that is not an installed table.
	k.demo = o.demo || source == "demo" || (!found && o.camera == "" && !installed)
	if k.demo {
		if k.script, err = demo.Default(); err != nil {
			return nil, err
		}
		if o.demoIdle {
			// Keep the picture from just after White starts Black's clock.
			k.script = k.script.Until(k.script.Actions()[0].At + 500*time.Millisecond)
		}
		if k.tmpDir, err = os.MkdirTemp("", "tengen-demo-"); err != nil {
			return nil, fmt.Errorf("demo journal: %w", err)
		}
		k.cfg.Paths.JournalDir = filepath.Join(k.tmpDir, "journal")
		k.cfg.Paths.GamesDir = filepath.Join(k.tmpDir, "games")
		k.cfg.Paths.Calibration = filepath.Join(k.tmpDir, "calibration.json")
		log.Info("playing the built-in demo game", "journal", k.cfg.Paths.JournalDir, "director PIN", demoPIN)
	} else {
		k.cfg.Camera.Source = source
	}
	k.calPath = k.cfg.Paths.Calibration
	for _, d := range []struct{ dir, key string }{{k.cfg.Paths.JournalDir, "paths.journal_dir"}, {k.cfg.Paths.GamesDir, "paths.games_dir"}} {
		if d.dir == "" {
			continue
		}
		if err := os.MkdirAll(d.dir, 0o755); err != nil {
			k.cleanup()
			return nil, stateFault(d.dir, d.key, fmt.Errorf("creating %s: %w", d.dir, err))
		}
	}
	return k, nil
}

func (k *kiosk) cleanup() {
	if k.tmpDir != "" {
		if err := os.RemoveAll(k.tmpDir); err != nil {
			k.log.Warn("removing the demo journal", "err", err)
		}
	}
}

// checkPIN is the director PIN check: the configured hash behind a lockout (with how long it is
// still locked), or the demo's PIN.
func (k *kiosk) checkPIN() (check func(string) bool, lockedFor func() time.Duration) {
	switch {
	case k.demo:
		return func(p string) bool { return p == demoPIN }, nil
	case k.cfg.Director.PINHash != "":
		// Five wrong PINs lock the director screens for a minute, doubling up to an hour: the
		// 10,000 four-digit PINs cannot be tried in a tournament's time.
		hash := k.cfg.Director.PINHash
		g := config.NewPINGuard(func(p string) bool { return config.CheckPIN(hash, p) }, time.Now, k.log)
		g.OnLock(k.pinLocked)
		return g.Check, g.LockedFor
	}
	return nil, nil
}

// pinLocked journals a lock of the director PIN (the moment it locks), so that the hall's
// dashboard shows it as an alert. k.tab is set before any PIN can be typed.
func (k *kiosk) pinLocked(l config.PINLock) {
	if k.tab == nil {
		return
	}
	if err := k.tab.PINLocked(l.At, l.For, l.Wrong); err != nil {
		k.log.Warn("journaling the director PIN's lock", "err", err)
	}
}

// pinOK tells whether pin is the director's: referee.ErrNoDirector when no PIN is configured,
// referee.ErrBadPIN when it is not the right one.
func (k *kiosk) pinOK(pin string) error {
	check := k.pinCheck // behind the lockout: every PIN typed anywhere counts
	switch {
	case check == nil:
		return referee.ErrNoDirector
	case !check(pin):
		k.log.Warn("a wrong director PIN was typed at a locked screen")
		return referee.ErrBadPIN
	}
	return nil
}

// demoSetup is the referee set-up of the demo game, from its record.
func demoSetup(s *demo.Script) referee.Setup {
	rec := s.Record
	komi := rec.Komi
	return referee.Setup{Rules: "aga", Komi: &komi, Size: s.Size, TimeControl: "10m+3x30s",
		Black: referee.Player{Name: rec.BlackName, Rank: rec.BlackRank},
		White: referee.Player{Name: rec.WhiteName, Rank: rec.WhiteRank},
		Event: rec.Event, Round: rec.Round, Table: "demo", Policy: referee.PolicyRetractPass}
}

// windowPlan picks the window size (the flag, the demo's 1280x720, or the display configuration's)
// and whether the window covers the screen (asked for, or configured when no size is given).
func windowPlan(o runOptions, d config.Display, demo bool) (size fyne.Size, fullscreen bool, err error) {
	fullscreen = o.fullscreen || (!demo && d.Fullscreen && o.size == "")
	switch {
	case o.size != "":
		size, err = ui.ParseWindowSize(o.size)
		if err != nil {
			return fyne.Size{}, false, fmt.Errorf("--size: %w", err)
		}
	case demo:
		size = fyne.NewSize(1280, 720)
	default:
		size = fyne.NewSize(float32(d.Width), float32(d.Height))
	}
	return size, fullscreen, nil
}

func (k *kiosk) run(parent context.Context) error {
	defer k.cleanup()
	// Collect often and keep a soft ceiling: see goGCPercent. Texture-sized C blocks are mapped
	// on their own, so a freed texture is given back at once (see heapTrimEvery for the rest).
	debug.SetGCPercent(goGCPercent)
	debug.SetMemoryLimit(goMemoryLimit)
	mtrim.MmapAbove(mmapAbove)
	wsize, fullscreen, err := windowPlan(k.opts, k.cfg.Display, k.demo)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	// One guard for the kiosk's life: every way in (director actions, the export, the next game)
	// counts towards the same lockout.
	k.pinCheck, k.pinLockedFor = k.checkPIN()
	opts := station.Options{Table: referee.Options{JournalDir: k.cfg.Paths.JournalDir, GamesDir: k.cfg.Paths.GamesDir,
		CheckPIN: k.pinCheck, PINLockedFor: k.pinLockedFor, Logger: k.log, Application: "Tengen:" + version,
		ButtonSettle: k.cfg.Pins.Debounce}, Logger: k.log}
	if !k.demo {
		if p, ok := referee.GNUGo(""); ok {
			opts.Table.Proposer = p
		}
		for _, e := range k.cfg.Alerts.Events {
			opts.Alerts = append(opts.Alerts, station.Alert(e))
		}
		if b := k.openButtons(ctx); b != nil {
			opts.Buttons = b
			if b.HasAlert() {
				opts.Alarm = b
			}
		}
	}
	cam, err := k.openCamera()
	if err != nil {
		k.log.Error("camera", "err", err)
	} else {
		k.cam = cam
		opts.Camera = cam
		if k.demo {
			// The demo's game starts when the camera loop has found the board (boardFound).
			opts.Camera = watchedCamera{Camera: cam, board: k.board}
		}
	}
	k.st, err = station.Open(opts)
	if err != nil {
		if k.camSrc != nil {
			_ = k.camSrc.Close()
		}
		return stateFault(k.cfg.Paths.JournalDir, "paths.journal_dir", err)
	}
	defer k.st.Close()
	k.tab = k.st.Table()
	if st := k.tab.State(); st.Recovery != "" {
		k.log.Info("journal recovered", "what", st.Recovery)
	}

	lang := k.opts.lang
	if lang == "" {
		lang = k.cfg.Language
	}
	if lang == "" {
		lang = "en"
	}
	a, win, lang, err := openWindow(lang, wsize, fullscreen, k.cfg.Display.SystemFonts, k.log)
	if err != nil {
		return err
	}

	var wg sync.WaitGroup
	handlers := k.handlers()
	app := ui.NewApp(win, handlers)
	if lang != "en" {
		_ = app.SetLanguage(lang)
	}

	if k.demo {
		if err := k.tab.Setup(demoSetup(k.script), time.Now()); err != nil && !errors.Is(err, referee.ErrPhase) {
			return fmt.Errorf("demo set-up: %w", err)
		}
	}
	// Off unless kiosk.toml names the hall's broker; a pairing arriving while the kiosk runs is
	// offered on the set-up screen (now, or for the next game when one is being played).
	startHall(ctx, &wg, k.cfg, k.log, assignmentOffer(k.configSetup(), handlers.SetupDefaults, func(s referee.Setup) {
		k.log.Info("the set-up offers the hall's new assignment", "round", s.Round, "black", s.Black.Name, "white", s.White.Name)
		fyne.Do(func() { app.OfferSetup(s) })
	}))
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = k.st.Run(ctx) // camera loop, buttons, the referee's timers, alerts; ends with ctx
	}()
	if k.demo {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k.playDemo(ctx)
		}()
	}
	wg.Add(2)
	go func() {
		defer wg.Done()
		k.refresh(ctx, app)
	}()
	go func() {
		defer wg.Done()
		// Give the C heap's free memory back to the system now and then: the texts of banners and
		// move numbers become Mesa textures that Fyne frees a minute later, and without a trim the
		// heap keeps their pages (2 to 3 MB by the end of the demo game).
		every(ctx, heapTrimEvery, func() { mtrim.Trim() })
	}()
	wg.Add(1)
	go func() {
		defer wg.Done()
		every(ctx, memLimitEvery, func() {
			debug.SetMemoryLimit(gomem.Limit(gomem.Read(), goMemHeadroom, goMemFloor, goMemoryLimit))
		})
	}()
	serveWindow(ctx, a, win, k.opts.quitAfter, k.log)
	cancel()
	wg.Wait()
	return nil
}

// every calls f each interval until ctx ends.
func every(ctx context.Context, interval time.Duration, f func()) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}

// handlers connect the screens to the referee and the camera.
func (k *kiosk) handlers() ui.Handlers {
	return ui.Handlers{
		Press: func(p clock.Press) { k.press(p) },
		ToggleDead: func(p engine.Point) error {
			err := k.tab.ToggleDead(p, time.Now())
			k.logErr("toggle dead", err)
			return err
		},
		Resume: func(c engine.Color) error {
			err := k.tab.Resume(c, time.Now())
			k.logErr("resume", err)
			return err
		},
		AgreeVoid: func(c engine.Color) error {
			err := k.tab.AgreeVoid(c, time.Now())
			k.logErr("agree void", err)
			return err
		},
		StartConfirmation: func(first engine.Color) error {
			err := k.tab.StartConfirmation(first, time.Now())
			k.logErr("start confirmation", err)
			return err
		},
		PassForKo: func(ko engine.Point) error {
			err := k.tab.PassForKo(ko, time.Now())
			k.logErr("pass for ko", err)
			return err
		},
		EndConfirmation: func() error {
			err := k.tab.EndConfirmation(time.Now())
			k.logErr("end confirmation", err)
			return err
		},
		Setup: func(s referee.Setup) error {
			if s.Event == "" {
				s.Event = k.cfg.Event
			}
			if s.Table == "" && k.cfg.Table > 0 {
				s.Table = strconv.Itoa(k.cfg.Table)
			}
			// After a game is over, setting up the next one files it first.
			if k.tab.State().Phase == referee.PhaseEnded {
				if err := k.nextGame(); err != nil {
					return err
				}
			}
			return k.tab.Setup(s, time.Now())
		},
		NextGame: func(pin string) error {
			if err := k.pinOK(pin); err != nil {
				return err
			}
			return k.nextGame()
		},
		CheckPIN:     k.pinOK,
		PINLockedFor: k.pinLockedFor,
		Director: func(pin string, a referee.DirectorAction) error {
			return k.tab.Director(pin, a, time.Now())
		},
		ExportSGF: k.exportSGF,
		Camera: ui.CameraHandlers{
			Grab: k.grabView,
			Frame: func() (image.Image, error) {
				g, err := k.snapshot(false)
				return g.Frame, err
			},
			Save: k.saveCalibration,
		},
		Language:      func(code string) { k.log.Info("language", "code", code) },
		SetupDefaults: k.setupDefaults(),
	}
}

// nextGame files the finished game and readies the table for the next (the game's record stays
// in the games directory; its journal and SGF go to the journal's done/<time>_<game>/ folder).
func (k *kiosk) nextGame() error {
	if err := k.tab.NewGame(time.Now()); err != nil {
		k.logErr("next game", err)
		return err
	}
	k.log.Info("the finished game is filed; the table is ready for the next")
	return nil
}

// setupDefaults are the table's configured game settings, offered on the set-up screen, with the
// hall's assignment kept beside the journal over them.
func (k *kiosk) setupDefaults() referee.Setup {
	return hallSetup(k.cfg, k.configSetup(), k.log)
}

// configSetup are the table's configured game settings.
func (k *kiosk) configSetup() referee.Setup {
	g := k.cfg.Game
	s := referee.Setup{Rules: g.Rules, Size: g.Size, Komi: g.Komi, Handicap: g.Handicap, TimeControl: g.TimeControl,
		Event: k.cfg.Event, Policy: referee.Policy(g.IllegalMove)}
	if k.cfg.Table > 0 {
		s.Table = strconv.Itoa(k.cfg.Table)
	}
	return s
}

func (k *kiosk) logErr(what string, err error) {
	if err != nil {
		k.log.Warn(what, "err", err)
	}
}

func (k *kiosk) press(p clock.Press) { _ = k.st.Press(p) } // logged by the station

// exportSGF writes the game record next to the finished games after checking the director PIN.
func (k *kiosk) exportSGF(pin string) (string, error) {
	dir := k.cfg.Paths.GamesDir
	if dir == "" {
		dir = k.cfg.Paths.JournalDir
	}
	return k.tab.ExportSGF(pin, dir, time.Now())
}

// refresh feeds the screens the referee's state at every change and a few times a second (the
// clocks). Time passing (flags, press timeouts) is the referee's own Watch loop.
func (k *kiosk) refresh(ctx context.Context, app *ui.App) {
	t := time.NewTicker(uiTick)
	defer t.Stop()
	var lastSeq uint64
	var lastText, lastStatus string
	var lastCond ui.Conditions
	for {
		changed := k.tab.Changed()
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-t.C:
		}
		st := k.tab.State()
		c := k.st.Conditions()
		// A camera that could not be opened at all is as lost as one that stopped giving frames.
		lost := c.CameraLost || k.cam == nil && !k.demo
		cond := ui.Conditions{CameraLost: lost, BoardMoved: c.BoardMoved, HandsOver: c.HandsOver}
		// Skip the UI when nothing it shows changed (the clock texts change once a second).
		text := st.Black.Clock.Text + "|" + st.White.Clock.Text
		if st.Seq == lastSeq && text == lastText && cond == lastCond {
			continue
		}
		if st.Seq != lastSeq || cond != lastCond {
			if line := ui.StatusLine(st, cond); line != lastStatus {
				lastStatus = line
				if err := sdnotify.Status(line); err != nil {
					k.log.Debug("systemd status", "err", err)
				}
			}
		}
		lastSeq, lastText, lastCond = st.Seq, text, cond
		fyne.Do(func() { app.Update(st, cond) })
	}
}

// playDemo performs the demo's presses and taps at their times, counted from the moment the camera
// loop first saw the board (boardFound): on a loaded machine, finding it may take seconds.
func (k *kiosk) playDemo(ctx context.Context) {
	err := runDemoScript(ctx, k.script, k.board, func(a demo.Action) error {
		k.log.Info("demo", "at", a.At.Round(100*time.Millisecond), "action", a.Note)
		switch a.Kind {
		case demo.PressButton:
			k.press(clock.NewPress(a.Button, time.Now()))
		case demo.ToggleDead:
			k.logErr("demo toggle dead", k.tab.ToggleDead(a.Point, time.Now()))
		}
		return nil
	})
	if err != nil && ctx.Err() == nil {
		k.log.Warn("demo", "err", err)
	}
}

// openButtons opens the GPIO buttons (and the alert outputs: the buzzer only when the
// configuration turns it on) and runs them until ctx ends; nil without GPIO (the keyboard stands in).
func (k *kiosk) openButtons(ctx context.Context) *gpio.Buttons {
	p := k.cfg.Pins
	cfg := gpio.Config{Black: p.Black, White: p.White, Pass: p.Pass, Director: p.Director,
		LED: p.LED, ActiveHigh: p.Pull == "down", Settle: p.Debounce}
	if k.cfg.Alerts.Buzzer {
		cfg.Buzzer = p.Buzzer
	}
	b, err := gpio.Open(cfg, k.log)
	if err != nil {
		k.log.Info("no GPIO buttons: use the keyboard (B, W, P)", "err", err)
		return nil
	}
	go func() {
		if err := b.Run(ctx); err != nil && ctx.Err() == nil {
			k.log.Error("buttons", "err", err)
		}
	}()
	return b
}

// openSource opens the demo camera or the configured one.
func (k *kiosk) openSource() (vision.Source, error) {
	if k.demo {
		// The demo draws every frame straight into the Mat vision reads: no frame buffer of its own.
		// Its game starts when the board is found (demoFrames).
		frames := &demoFrames{script: k.script, render: demo.NewRenderer(1), board: k.board, w: demoWidth, h: demoHeight, fps: demoFPS}
		return vision.NewDrawSource(demoWidth, demoHeight, frames.next)
	}
	spec := k.cfg.Camera.Spec()
	k.log.Info("camera", "source", spec)
	return vision.OpenCamera(spec, vision.LiveOptions{Logger: k.log, Name: spec, OnEvent: func(e vision.Event) {
		if e.Kind == vision.Lost && k.st != nil {
			why := ""
			if e.Err != nil {
				why = e.Err.Error()
			}
			k.st.See(observe.Sight{View: observe.ViewNoPicture, Time: e.Time, Why: why})
		}
	}})
}

// openCamera opens the camera (or the demo's) and its loop: the board's calibration from the
// file (the Eye finds the board when there is none, or when it moved).
func (k *kiosk) openCamera() (*vision.CameraLoop, error) {
	src, err := k.openSource()
	if err != nil {
		return nil, err
	}
	eo := vision.EyeOptions{Logger: k.log}
	if !k.demo {
		eo.Size = k.cfg.Game.Size
		if c, err := calib.Load(k.calPath); err == nil {
			eo.Calibration = &c
		} else {
			k.log.Info("no usable calibration file; finding the board", "err", err)
		}
	}
	eye, err := vision.NewEye(eo)
	if err != nil {
		src.Close()
		return nil, err
	}
	k.camSrc = src
	return vision.NewCameraLoop(src, eye), nil
}

// snapshot asks the camera loop for its next frame (and the board in it, with find).
func (k *kiosk) snapshot(find bool) (vision.Snapshot, error) {
	if k.cam == nil {
		return vision.Snapshot{}, vision.ErrNoPicture
	}
	return k.cam.Snapshot(context.Background(), find)
}

// grabView asks the camera loop for a frame and the board found in it.
func (k *kiosk) grabView() (ui.CameraView, error) {
	g, err := k.snapshot(true)
	if err != nil {
		return ui.CameraView{}, err
	}
	v := ui.CameraView{Frame: g.Frame, Size: 19, BlackSide: "bottom"}
	if g.Calibration != nil {
		c := g.Calibration
		v.Size, v.HasGrid, v.Confidence, v.BlackSide = c.Size, true, c.Confidence, c.BlackSide.String()
		for i, p := range c.Corners {
			v.Corners[i] = [2]float64{p.X, p.Y}
		}
	}
	return v, nil
}

// saveCalibration stores corners placed on the camera screen and switches the camera loop to them.
func (k *kiosk) saveCalibration(corners [4][2]float64, size int, blackSide string) error {
	g, err := k.snapshot(false)
	if err != nil {
		return err
	}
	b := g.Frame.Bounds()
	var cs [4]calib.Point2
	for i, c := range corners {
		cs[i] = calib.Point2{X: c[0], Y: c[1]}
	}
	c, err := calib.FromCorners(b.Dx(), b.Dy(), size, cs)
	if err != nil {
		return err
	}
	if err := c.BlackSide.UnmarshalText([]byte(blackSide)); err != nil {
		return err
	}
	c.Confidence = 1
	// The lines between the placed corners bow as the camera's lens bends them.
	if bent, err := vision.FitLensImage(g.Frame, c); err == nil {
		c = bent
	} else {
		k.log.Warn("calibration: lens term not fitted", "err", err)
	}
	if err := calib.Save(k.calPath, c); err != nil {
		return err
	}
	k.cam.Use(c)
	return nil
}
