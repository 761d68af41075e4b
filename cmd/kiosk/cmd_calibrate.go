package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"tengen/calib"
	"tengen/vision"
)

const calibrateHelp = `Usage: kiosk calibrate [--size N] [--black-side SIDE] --out FILE (IMAGE | --camera SRC)

Finds the board in a photograph, or in a frame from a camera, and saves the calibration
(board size, the four corner intersections, Black's side) to FILE.

SRC is /dev/videoN (V4L2), libcamera[:WxH@FPS] (Raspberry Pi Camera Module),
gst:PIPELINE (a GStreamer pipeline ending in appsink), a video file or a directory of stills.
SIDE is the image edge Black sits at: bottom (default), top, left or right.

Flags:
`

// runCalibrate finds the board and saves the calibration.
func runCalibrate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("calibrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "write the calibration to this file (required)")
	camera := fs.String("camera", "", "take a frame from this camera instead of an image file")
	size := fs.Int("size", 0, "board size (9, 13, 19); 0 = find out")
	side := fs.String("black-side", "bottom", "image edge Black sits at: bottom, top, left, right")
	fs.Usage = func() {
		fmt.Fprint(stderr, calibrateHelp)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || (*camera == "") == (fs.NArg() != 1) || (*camera != "" && fs.NArg() != 0) {
		fs.Usage()
		return exitError{code: 2}
	}
	if err := checkBoardSize(*size); err != nil {
		fmt.Fprintf(stderr, "kiosk calibrate: %s\n", errorWords(err))
		return exitError{code: 2}
	}
	var blackSide calib.Side
	if err := blackSide.UnmarshalText([]byte(*side)); err != nil {
		return fmt.Errorf("--black-side: %w", err)
	}
	var c calib.Calibration
	var err error
	if *camera != "" {
		c, err = findBoardOnCamera(ctx, *camera, *size)
	} else {
		c, err = vision.FindBoardInFile(ctx, fs.Arg(0), *size)
		if errors.Is(err, vision.ErrNotImage) {
			return fmt.Errorf("%s: %s", fs.Arg(0), imageProblem(err))
		}
	}
	if err != nil {
		return err
	}
	c.BlackSide = blackSide
	if err := calib.Save(*out, c); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "saved %s: %dx%d board in a %dx%d image, confidence %.2f, Black at the %s\n",
		*out, c.Size, c.Size, c.ImageWidth, c.ImageHeight, c.Confidence, c.BlackSide)
	for i, name := range []string{"top-left", "top-right", "bottom-right", "bottom-left"} {
		fmt.Fprintf(stdout, "  %-12s (%.1f, %.1f)\n", name, c.Corners[i].X, c.Corners[i].Y)
	}
	return nil
}

// findBoardOnCamera finds the board in a frame of the camera, after five frames for its exposure
// to settle.
func findBoardOnCamera(ctx context.Context, spec string, size int) (calib.Calibration, error) {
	p, err := vision.OpenProbe(spec)
	if err != nil {
		return calib.Calibration{}, err
	}
	defer p.Close()
	for i := range 6 {
		if _, _, err := p.Next(ctx); err != nil {
			if errors.Is(err, vision.ErrEnd) && i > 0 { // a directory of stills or a short video
				break
			}
			return calib.Calibration{}, fmt.Errorf("camera %s: %w", spec, err)
		}
	}
	return p.FindBoard(ctx, size)
}
