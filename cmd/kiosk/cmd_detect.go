package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"tengen/calib"
	"tengen/vision"
)

const detectHelp = `Usage: kiosk detect [--size N] [--calib FILE] [--json] IMAGE...

Reads the board in each photograph and prints it as text: N lines of N characters
('.' empty, 'X' black, 'O' white, '?' obscured by a hand or another object), the line
nearest the TOP of the image first, columns left to right as seen in the image; then a
line "confidence: 0.xx". Images are read as raw pixels (EXIF rotation is ignored).

With several images, each board is preceded by a header line "== PATH" (and boards are
separated by a blank line). An image that cannot be read or holds no board gets one
line "== PATH" followed by "error: ..." (the same message also goes to stderr); the
others are still read, and the exit status is 1 at the end if any image failed.

With --json, each image gives one JSON object on its own line:
  {"path":..., "size":19, "rows":["...", ...], "confidence":0.97, "corners":[...]}
or {"path":..., "error":"..."}.

Without --calib the board is found automatically in every image.

Flags:
`

// detectResult is the --json form of one image's reading.
type detectResult struct {
	Path       string         `json:"path"`
	Size       int            `json:"size,omitempty"`
	Rows       []string       `json:"rows,omitempty"`
	Confidence float64        `json:"confidence,omitempty"`
	Corners    []calib.Point2 `json:"corners,omitempty"`
	Error      string         `json:"error,omitempty"`
}

// runDetect reads the board in photographs and prints it as text.
func runDetect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("detect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	size := fs.Int("size", 0, "board size to look for (9, 13, 19); 0 = find out")
	calPath := fs.String("calib", "", "use this calibration file instead of finding the board")
	asJSON := fs.Bool("json", false, "print one JSON object per image")
	fs.Usage = func() {
		fmt.Fprint(stderr, detectHelp)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitError{code: 2}
	}
	if *size != 0 && (*size < calib.MinSize || *size > calib.MaxSize) {
		return fmt.Errorf("--size %d: must be %d..%d", *size, calib.MinSize, calib.MaxSize)
	}
	opt := vision.DetectOptions{Size: *size}
	if *calPath != "" {
		c, err := calib.Load(*calPath)
		if err != nil {
			return fmt.Errorf("calibration %s: %w", *calPath, err)
		}
		opt.Calibration = &c
	}
	failed := 0
	many := fs.NArg() > 1
	enc := json.NewEncoder(stdout)
	for i, path := range fs.Args() {
		if err := ctx.Err(); err != nil {
			return err
		}
		det, err := vision.DetectFile(path, opt)
		if *asJSON {
			res := detectResult{Path: path}
			if err != nil {
				res.Error = oneLine(err)
			} else {
				res.Size = det.Reading.Size
				res.Rows = strings.Split(strings.TrimSuffix(det.Reading.Text(), "\n"), "\n")
				res.Confidence = round2(det.Confidence)
				res.Corners = det.Calibration.Corners[:]
			}
			if e := enc.Encode(res); e != nil {
				return e
			}
		} else {
			if many {
				if i > 0 {
					fmt.Fprintln(stdout)
				}
				fmt.Fprintf(stdout, "== %s\n", path)
			}
			if err != nil {
				fmt.Fprintf(stdout, "error: %s\n", oneLine(err))
			} else {
				fmt.Fprint(stdout, det.Reading.Text())
				fmt.Fprintf(stdout, "confidence: %.2f\n", det.Confidence)
			}
		}
		if err != nil {
			failed++
			fmt.Fprintf(stderr, "kiosk detect: %s: %s\n", path, oneLine(err))
		}
	}
	if failed > 0 {
		return exitError{code: 1}
	}
	return nil
}

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// oneLine flattens an error message to one line.
func oneLine(err error) string {
	if err == nil {
		return ""
	}
	if errors.Is(err, vision.ErrNotImage) {
		return "not a readable image"
	}
	return strings.ReplaceAll(err.Error(), "\n", " ")
}
