// Command kiosk-camera is the kiosk's camera helper: it opens one camera or video file with
// OpenCV's videoio and writes its frames to stdout in the framepipe format. The kiosk starts it
// as a child process only when a real camera or a video file is used, so the kiosk itself never
// loads videoio and its many libraries, and a camera driver that hangs or crashes takes down
// only this process, which the kiosk kills and restarts.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"tengen/vision/capture"
)

// stopGrace is how long a stop request waits for the camera to be released before exiting anyway.
const stopGrace = 2 * time.Second

func main() {
	// A write to the closed pipe must be an error (EPIPE), not a silent death by SIGPIPE.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command; it returns the exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("kiosk-camera", flag.ContinueOnError)
	fs.SetOutput(stderr)
	timeout := fs.Duration("frame-timeout", capture.DefaultFrameTimeout, "give up (error message, exit 1) when a live camera gives no frame for this long")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: kiosk-camera [--frame-timeout D] SPEC

The kiosk's camera helper. The kiosk starts it by itself (from the directory of the kiosk
binary, or $PATH) whenever a real camera or a video file is used; there is no need to run it
by hand except to debug a camera.

SPEC is a camera as the kiosk takes it: /dev/videoN or N (V4L2), libcamera[:WxH@FPS] (the
Raspberry Pi Camera Module), gst:PIPELINE (GStreamer, ending in appsink), or a video file.

Frames go to stdout as framepipe messages (binary; redirect it), logs to stderr. A video file
ends with an end message. When the camera cannot be opened or stops giving frames, an error
message is written and the exit status is 1; the kiosk restarts the helper with backoff.
The helper exits when stdin reaches end of file (the kiosk holds it open; run it by hand with
stdin on a terminal, not /dev/null), on SIGTERM or SIGINT, or when stdout is closed.

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	spec := fs.Arg(0)
	log := slog.New(slog.NewTextHandler(stderr, nil)).With("camera", spec)

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		_, _ = io.Copy(io.Discard, stdin)
		log.Info("stdin closed: the kiosk is gone")
		cancel()
	}()
	done := make(chan error, 1)
	go func() {
		done <- capture.Serve(ctx, spec, stdout, capture.Options{FrameTimeout: *timeout, Logger: log})
	}()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		select {
		case err = <-done:
		case <-time.After(stopGrace):
			log.Warn("the camera did not stop in time; exiting anyway")
			return 1
		}
	}
	if err != nil {
		log.Error("camera helper stops", "err", err)
		return 1
	}
	return 0
}
