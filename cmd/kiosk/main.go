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
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// command is one subcommand of kiosk.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// exitError carries a specific exit status out of a subcommand.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// commands lists every subcommand in the order --help shows them.
func commands() []command {
	return []command{
		{"run", "start the kiosk window (camera, buttons, clock, referee); the built-in demo without a camera", runKiosk},
		{"detect", "read the board in photographs and print it as text", runDetect},
		{"calibrate", "find the board in a photograph or camera frame and save the calibration", runCalibrate},
		{"replay", "run the whole pipeline headless on recorded frames and presses, or the demo", runReplay},
		{"gtp", "speak GTP v2 on stdin/stdout (a rules referee, not a player)", runGTP},
		{"score", "count the final position of an SGF game record", runScore},
		{"check", "audit SGF game records: report every illegal move", runCheck},
		{"doctor", "check camera, board, buttons, display, disk and clock; print what to fix", runDoctor},
		{"version", "print the version", runVersion},
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
		err := c.run(ctx, args[1:], stdout, stderr)
		var ee exitError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, flag.ErrHelp):
			return 0
		case errors.As(err, &ee):
			return ee.code
		default:
			fmt.Fprintf(stderr, "kiosk %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "kiosk: unknown command %q\n\n", args[0])
	usage(stderr)
	return 2
}

func runVersion(_ context.Context, _ []string, stdout, _ io.Writer) error {
	fmt.Fprintf(stdout, "kiosk %s\n", version)
	return nil
}
