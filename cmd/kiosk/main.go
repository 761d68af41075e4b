// Command kiosk is Tengen: the referee kiosk for physical Go boards.
//
// Each subcommand lives in its own cmd_<name>.go file; this file only dispatches.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"tengen/internal/errtext"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// command is one subcommand of kiosk.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
	// stopAtOnce ends the process stopGrace after SIGTERM or SIGINT if the command has not
	// returned by then: a command that holds no journal and writes nothing that a cut could
	// damage, which may be blocked reading a file or deep in a computation.
	stopAtOnce bool
}

// stopGrace is how long a stopAtOnce command has to return by itself after a signal.
const stopGrace = time.Second

// exitError carries a specific exit status out of a subcommand.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// commands lists every subcommand in the order --help shows them.
func commands() []command {
	return []command{
		{"run", "start the kiosk window (camera, buttons, clock, referee); the built-in demo without a camera", runKiosk, false},
		{"detect", "read the board in photographs and print it as text", runDetect, true},
		{"calibrate", "find the board in a photograph or camera frame and save the calibration", runCalibrate, false},
		{"replay", "run the whole pipeline headless on recorded frames and presses, or the demo", runReplay, false},
		{"gtp", "speak GTP v2 on stdin/stdout (a rules referee, not a player)", runGTP, true},
		{"score", "count the final position of an SGF game record", runScore, true},
		{"check", "audit SGF game records: report every illegal move", runCheck, true},
		{"doctor", "check camera, board, buttons, display, disk and clock; print what to fix", runDoctor, true},
		{"version", "print the version", runVersion, false},
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Tengen: the referee kiosk for physical Go boards.")
	fmt.Fprintln(w, "\nUsage: kiosk <command> [flags] [args]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'kiosk <command> --help' for a command's flags.")
}

func main() {
	// Nothing in the kiosk profiles memory. Left at its default, the runtime samples allocations
	// and keeps their call stacks for the life of the process: 1.4 MB by the time the demo is idle.
	runtime.MemProfileRate = 0
	if len(os.Args) > 1 && os.Args[1] == "run" {
		if err := withFyneCache(); err != nil {
			fmt.Fprintln(os.Stderr, "kiosk: keeping Fyne's own cache lifetime:", err)
		}
	}
	os.Exit(dispatch(os.Args[1:], os.Stdout, os.Stderr))
}

// dispatch runs the subcommand named by args[0] and returns the process exit status.
func dispatch(args []string, stdout, stderr io.Writer) int {
	switch {
	case len(args) > 0 && (args[0] == "--version" || args[0] == "-version"):
		args[0] = "version"
	case len(args) > 1 && args[0] == "help": // kiosk help run = kiosk run -h
		args = []string{args[1], "-h"}
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	for _, c := range commands() {
		if c.name != args[0] {
			continue
		}
		done := make(chan struct{})
		if c.stopAtOnce {
			go stopOnSignal(ctx, done, c.name, stderr)
		}
		err := c.run(ctx, args[1:], stdout, stderr)
		close(done)
		var ee exitError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &ee):
			return ee.code
		default:
			fmt.Fprintf(stderr, "kiosk %s: %s\n", c.name, errorWords(err))
			return 1
		}
	}
	fmt.Fprintf(stderr, "kiosk: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

// stopOnSignal ends the process when ctx is cancelled by a signal and the command has not
// returned (closed done) stopGrace later: SIGTERM is honoured even while the command is blocked
// in a read or a long computation that does not look at its context.
func stopOnSignal(ctx context.Context, done <-chan struct{}, name string, stderr io.Writer) {
	select {
	case <-done:
		return
	case <-ctx.Done():
	}
	select {
	case <-done:
	case <-time.After(stopGrace):
		fmt.Fprintf(stderr, "kiosk %s: stopped by a signal\n", name)
		os.Exit(exitSignalled)
	}
}

// exitSignalled is the exit status of a command stopped by a signal (128 + SIGTERM, as a shell
// reports a process the signal killed).
const exitSignalled = 128 + 15

// errorWords is err as the commands print it for a person: on one line, without the Go package
// prefixes of its wrapped messages ("referee: ", "config: "; see internal/errtext). The error
// itself keeps its chain for errors.Is and errors.As; only the printed words change.
func errorWords(err error) string {
	return strings.ReplaceAll(errtext.Text(err), "\n", " ")
}

func runVersion(_ context.Context, _ []string, stdout, _ io.Writer) error {
	fmt.Fprintf(stdout, "kiosk %s\n", version)
	return nil
}
