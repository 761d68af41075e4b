package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"tengen/calib"
	"tengen/demo"
	"tengen/engine"
	"tengen/referee"
	"tengen/referee/replay"
	"tengen/vision"
	"tengen/vision/observe"
)

const replayUsage = `Usage: kiosk replay SOURCE [flags]
       kiosk replay --demo [flags]

Runs the whole pipeline headless (frames, vision, clock, referee) on a recorded session and prints
one line per verdict. SOURCE is a directory of frames (images, or .txt board grids) with a press
script (presses.txt beside the frames, or --script FILE); --demo plays the built-in demo game.
Started again on the same --journal after being stopped or killed, it resumes where it was.
Photographs are read as the kiosk reads its camera: the board is found in the first frame (unless
--calibration is given) and again whenever a frame shows it moved; a frame in which no board can be
found is reported as unreadable and skipped, and the referee waits for the next readable frame.

Press script (see package tengen/referee/replay for every directive):
  size 19 | rules aga | komi 7.5 | handicap 5 [free] | time 60m+5x30s | black NAME [RANK] | ...
  <frame-file> [black|white|pass|dead D4|resign black|resume white|confirm black|-]
  <milliseconds> <action>

Flags:
`

// runReplay is `kiosk replay`.
func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, replayUsage)
		fs.PrintDefaults()
	}
	speed := fs.Float64("speed", 0, "how many times faster than real time to run (0 = as fast as possible)")
	journalDir := fs.String("journal", "", "journal directory (default: a temporary one, removed at the end); reuse it to resume")
	out := fs.String("out", "", "write the game's SGF here at the end")
	rules := fs.String("rules", "", "rules preset (overrides the script): "+strings.Join(engine.PresetNames(), ", "))
	timeControl := fs.String("time", "", "time control (overrides the script), e.g. 60m+5x30s")
	scriptPath := fs.String("script", "", "press script (default SOURCE/presses.txt)")
	labels := fs.Bool("labels", false, "read each frame's ground-truth grid (X.txt beside X.jpg) instead of running vision")
	demoFlag := fs.Bool("demo", false, "play the built-in demo game")
	calPath := fs.String("calibration", "", "calibration file for the frames (default: find the board in the first frame)")
	gtp := fs.String("gtp", "auto", "GTP engine proposing dead stones: auto (GNU Go when installed; none for --demo, whose players mark the dead stones themselves), none, or a path")
	verbose := fs.Bool("v", false, "log diagnostics to stderr")
	var source string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		if source != "" {
			return usageError(stderr, fs, "one SOURCE only (got %q and %q)", source, fs.Arg(0))
		}
		source, rest = fs.Arg(0), fs.Args()[1:]
	}
	if (source == "") == !*demoFlag && source != "demo" {
		return usageError(stderr, fs, "give a SOURCE directory or --demo")
	}
	if source == "demo" {
		*demoFlag, source = true, ""
	}
	if *speed < 0 {
		return usageError(stderr, fs, "--speed must be 0 or more")
	}
	log := slog.New(slog.DiscardHandler)
	if *verbose {
		log = slog.New(slog.NewTextHandler(stderr, nil))
	}
	cfg := replay.Config{Speed: *speed, Out: *out, Stdout: stdout, Log: log, JournalDir: *journalDir}
	switch *gtp {
	case "none", "":
	case "auto":
		if p, ok := referee.GNUGo(""); ok && !*demoFlag && source != "demo" {
			cfg.Proposer = p
		}
	default:
		p, ok := referee.GNUGo(*gtp)
		if !ok {
			return fmt.Errorf("--gtp %s: not an executable", *gtp)
		}
		cfg.Proposer = p
	}
	if cfg.JournalDir == "" {
		dir, err := os.MkdirTemp("", "tengen-replay-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		cfg.JournalDir = dir
	}
	var cleanup func()
	var err error
	if *demoFlag {
		cleanup, err = demoSession(&cfg, *labels)
	} else {
		cleanup, err = dirSession(&cfg, source, *scriptPath, *labels, *calPath)
	}
	if cleanup != nil {
		defer cleanup()
	}
	if err != nil {
		return err
	}
	if *rules != "" {
		cfg.Script.Setup.Rules = *rules
	}
	if *timeControl != "" {
		cfg.Script.Setup.TimeControl = *timeControl
	}
	res, err := replay.Run(ctx, cfg)
	if err != nil {
		return err
	}
	st := res.State
	fmt.Fprintf(stdout, "phase %s, %d moves, result %q", st.Phase, st.MoveNumber, st.Result)
	if *out != "" {
		fmt.Fprintf(stdout, ", SGF written to %s", *out)
	}
	fmt.Fprintln(stdout)
	return nil
}

func usageError(stderr io.Writer, fs *flag.FlagSet, format string, a ...any) error {
	fmt.Fprintf(stderr, "kiosk replay: "+format+"\n", a...)
	fs.Usage()
	return exitError{code: 2}
}

// dirSession reads a directory of frames and its press script.
func dirSession(cfg *replay.Config, dir, scriptPath string, labels bool, calPath string) (func(), error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, fmt.Errorf("SOURCE %q is not a directory", dir)
	}
	if scriptPath == "" {
		scriptPath = filepath.Join(dir, "presses.txt")
	}
	f, err := os.Open(scriptPath)
	if err != nil {
		return nil, fmt.Errorf("press script: %w", err)
	}
	script, err := replay.Parse(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	cfg.Script = script
	cfg.Cache = true
	if len(script.Frames) == 0 {
		frames, err := listFrames(dir)
		if err != nil {
			return nil, err
		}
		cfg.Frames = frames
	}
	size := script.Setup.Size
	if labels {
		cfg.Observe = func(_ context.Context, frame string, _ time.Duration, _ uint64) (observe.Sight, error) {
			o, err := replay.ReadLabel(filepath.Join(dir, strings.TrimSuffix(frame, filepath.Ext(frame))+".txt"))
			return observe.Reading(o), err
		}
		return nil, nil
	}
	// Photographs are taken from anywhere: one drift check that says "moved" finds the board again.
	eo := vision.EyeOptions{Size: size, MovedAfter: 1, Logger: slog.New(slog.DiscardHandler)}
	if calPath != "" {
		c, err := calib.Load(calPath)
		if err != nil {
			return nil, err
		}
		eo.Calibration, eo.Fixed = &c, true
	}
	eye, err := vision.NewEye(eo)
	if err != nil {
		return nil, err
	}
	sr := &stillReader{dir: dir, eye: eye}
	cfg.Observe = sr.observe
	return func() { eye.Close() }, nil
}

// stillReader reads a directory's photographs through the kiosk's Eye, as the kiosk reads its
// camera: the board is found in the first readable frame (or given by --calibration), every later
// frame is checked for drift (a bumped camera or board, or a photo taken from another place) and
// the board is found again when it moved. A frame in which the board cannot be found (motion
// blur, a hand) is seen as a board that moved: the referee holds play until a frame shows it.
type stillReader struct {
	dir string
	eye *vision.Eye
}

func (s *stillReader) observe(_ context.Context, frame string, at time.Duration, seq uint64) (observe.Sight, error) {
	path := filepath.Join(s.dir, frame)
	if strings.EqualFold(filepath.Ext(frame), ".txt") {
		o, err := replay.ReadLabel(path)
		return observe.Reading(o), err
	}
	img, err := vision.LoadImage(path)
	if err != nil {
		return observe.Sight{}, err
	}
	defer img.Close()
	return s.eye.Look(img, time.Unix(0, 0).Add(at), seq), nil
}

// listFrames lists a directory's images (or, without images, its .txt grids) in name order.
func listFrames(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var imgs, grids []string
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp":
			imgs = append(imgs, e.Name())
		case ".txt":
			if e.Name() != "presses.txt" {
				grids = append(grids, e.Name())
			}
		}
	}
	if len(imgs) == 0 {
		imgs = grids
	}
	if len(imgs) == 0 {
		return nil, fmt.Errorf("no frames in %s", dir)
	}
	sort.Strings(imgs)
	return imgs, nil
}

// demoSession plays the built-in demo: frames rendered by package demo and read by vision (or,
// with labels, seen by an ideal camera), presses and taps from the demo's script.
func demoSession(cfg *replay.Config, labels bool) (func(), error) {
	s, err := demo.Default()
	if err != nil {
		return nil, err
	}
	setup := demoSetup(s)
	setup.Event, setup.Date = orDefault(setup.Event, "Tengen demo"), replay.DefaultStart.Format("2006-01-02")
	script := replay.DemoScript(s, setup)
	cfg.Script = script
	cfg.Duration = s.Duration()
	cfg.Tick = 200 * time.Millisecond
	if labels {
		cfg.Observe = func(_ context.Context, _ string, at time.Duration, _ uint64) (observe.Sight, error) {
			return observe.Reading(s.SceneAt(at).Ideal()), nil
		}
		return nil, nil
	}
	const w, h = 640, 480
	r := demo.NewRenderer(1)
	cs := r.Corners(w, h)
	var corners [4]calib.Point2
	for i, c := range cs {
		corners[i] = calib.Point2{X: c[0], Y: c[1]}
	}
	cal, err := calib.FromCorners(w, h, s.Size, corners)
	if err != nil {
		return nil, fmt.Errorf("demo calibration: %w", err)
	}
	// The kiosk's Eye, drift checks included: the demo replay reads its frames as the live demo does.
	eye, err := vision.NewEye(vision.EyeOptions{Calibration: &cal, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return nil, err
	}
	cfg.Observe = func(_ context.Context, _ string, at time.Duration, seq uint64) (observe.Sight, error) {
		sc := s.SceneAt(at)
		sc.Frame = seq
		img, err := r.Render(w, h, sc)
		if err != nil {
			return observe.Sight{}, err
		}
		return eye.LookImage(img, time.Unix(0, 0).Add(at), seq)
	}
	return func() { eye.Close() }, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
