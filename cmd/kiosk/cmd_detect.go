package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"tengen/calib"
	"tengen/vision"
	"tengen/vision/imagefile"
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
  {"path":..., "size":19, "rows":["...", ...], "confidence":0.97, "corners":[...], "lens":0.05,
   "probabilities":[[p_empty, p_black, p_white, p_obscured], ...]}
(one probability row per point, row-major in the order of "rows"), or
  {"path":..., "error":"...", "no_board":true, "reason":"..."}
where "no_board" and "reason" say why a board was refused.

With --debug OUT.png, the found grid and the reading are drawn over the photo and saved
(with several images, OUT-1.png, OUT-2.png, ... in their order): a red ring on each black
stone, a blue ring on each white one, a yellow cross on each obscured point, a magenta dot
where the reader is unsure.

Without --calib the board is found automatically in every image, and with it how the
camera's lens bends the lines between the corners ("lens" in --json, 0 when straight). A
--calib file without a lens term has one fitted to each image.

Flags:
`

// detectResult is the --json form of one image's reading.
type detectResult struct {
	Path       string         `json:"path"`
	Size       int            `json:"size,omitempty"`
	Rows       []string       `json:"rows,omitempty"`
	Confidence float64        `json:"confidence,omitempty"`
	Corners    []calib.Point2 `json:"corners,omitempty"`
	// Lens is the calibration's lens term (calib.Calibration.Lens): 0 for straight lines.
	Lens float64 `json:"lens,omitempty"`
	// Probabilities holds each point's probability of empty, black, white and obscured.
	Probabilities [][4]float64 `json:"probabilities,omitempty"`
	Error         string       `json:"error,omitempty"`
	NoBoard       bool         `json:"no_board,omitempty"`
	Reason        string       `json:"reason,omitempty"`
}

// refusalReason returns why no board was found, without the packages' prefixes.
func refusalReason(err error) string {
	msg := oneLine(err)
	if i := strings.LastIndex(msg, "no board found: "); i >= 0 {
		return msg[i+len("no board found: "):]
	}
	return msg
}

// debugPath names the --debug picture of the i-th of n images.
func debugPath(out string, i, n int) string {
	if n == 1 {
		return out
	}
	ext := filepath.Ext(out)
	return fmt.Sprintf("%s-%d%s", strings.TrimSuffix(out, ext), i+1, ext)
}

// checkBoardSize refuses a --size the kiosk does not play: 0 (find out), 9, 13 or 19.
func checkBoardSize(n int) error {
	switch n {
	case 0, 9, 13, 19:
		return nil
	}
	return fmt.Errorf("--size %d: the kiosk plays on 9, 13 or 19 lines (0 finds out)", n)
}

// runDetect reads the board in photographs and prints it as text.
func runDetect(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("detect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	size := fs.Int("size", 0, "board size to look for (9, 13, 19); 0 = find out")
	calPath := fs.String("calib", "", "use this calibration file instead of finding the board")
	asJSON := fs.Bool("json", false, "print one JSON object per image")
	debug := fs.String("debug", "", "draw the grid and the reading over the photo into this PNG file")
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
	if err := checkBoardSize(*size); err != nil {
		fmt.Fprintf(stderr, "kiosk detect: %v\n", err)
		return exitError{code: 2}
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
		if err == nil && *debug != "" {
			if e := saveDebug(path, debugPath(*debug, i, fs.NArg()), det); e != nil {
				fmt.Fprintf(stderr, "kiosk detect: %s: --debug: %s\n", path, oneLine(e))
				failed++
			}
		}
		if *asJSON {
			res := detectResult{Path: path}
			if err != nil {
				res.Error = oneLine(err)
				if errors.Is(err, vision.ErrNoBoard) {
					res.NoBoard, res.Reason = true, refusalReason(err)
				}
			} else {
				for _, p := range det.Reading.Probs {
					res.Probabilities = append(res.Probabilities, [4]float64{round3(p[0]), round3(p[1]), round3(p[2]), round3(p[3])})
				}
				res.Size = det.Reading.Size
				res.Rows = strings.Split(strings.TrimSuffix(det.Reading.Text(), "\n"), "\n")
				res.Confidence = round2(det.Confidence)
				res.Corners = det.Calibration.Corners[:]
				res.Lens = det.Calibration.Lens
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
		return imageProblem(err)
	}
	return errorWords(err)
}

// imageProblem says why an image could not be read: "not a readable image", followed by what is
// wrong when the decoder knows (too many megapixels, a truncated file).
func imageProblem(err error) string {
	msg := errorWords(err)
	if errors.Is(err, imagefile.ErrTooLarge) || errors.Is(err, imagefile.ErrTruncated) {
		if i := strings.Index(msg, errorWords(imagefile.ErrNotImage)); i >= 0 {
			return "not a readable image" + msg[i+len(errorWords(imagefile.ErrNotImage)):]
		}
	}
	return "not a readable image"
}

// round3 rounds a probability to three decimals for --json.
func round3(p float32) float64 { return math.Round(float64(p)*1000) / 1000 }

// saveDebug draws the reading over the photo and saves it as a PNG.
func saveDebug(photo, out string, det vision.Detection) error {
	img, err := vision.LoadImage(photo)
	if err != nil {
		return err
	}
	defer img.Close()
	ov := vision.Overlay(img, det.Calibration, det.Reading)
	defer ov.Close()
	return imagefile.SavePNG(out, ov)
}
