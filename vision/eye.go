package vision

import (
	"fmt"
	"log/slog"
	"time"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/vision/observe"
)

// EyeOptions tunes an Eye. The zero value finds the board and watches it for drift.
type EyeOptions struct {
	// Size is the board size to find (9, 13, 19); 0 finds any.
	Size int
	// Calibration, when set, is where the board is at the start (a calibration file, or corners
	// placed on the camera screen); nil finds the board in the first frames.
	Calibration *calib.Calibration
	// Fixed never checks the calibration against the frames (a calibration given for a replay).
	Fixed bool
	// CheckEvery is the frame time between drift checks (calib.CheckPast); 0 = 1s.
	CheckEvery time.Duration
	// MovedAfter is how many drift checks in a row must say "moved" before the board is found
	// again (a hand over the board also upsets one check); 0 = 2. Stills taken from other places
	// use 1.
	MovedAfter int
	// FindEvery is the frame time between attempts to find a board that is not known; 0 = 2s.
	FindEvery time.Duration
	// Params tunes the reader.
	Params Params
	// Logger gets calibration news; nil = slog.Default().
	Logger *slog.Logger
}

// Eye is the camera side of one table: it turns each frame into what the table sees
// (observe.Sight). It reads the stones where the calibration puts the board, checks now and then
// that the grid still lies on the board's lines, and when the board or the camera was bumped (or
// no board is known yet) reports ViewMoved and finds the board again, keeping which side Black
// sits on. The kiosk's camera loop and `kiosk replay` both read frames through an Eye. An Eye is
// not safe for concurrent use.
type Eye struct {
	opt       EyeOptions
	log       *slog.Logger
	cal       calib.Calibration
	reader    *Reader
	lastCheck time.Time // frame time of the last drift check
	lastFind  time.Time // frame time of the last attempt to find the board
	tried     bool      // an attempt to find the board was made
	moved     int       // drift checks in a row that said moved
	obscured  bool      // the last reading had something over the board (drift checks wait)
	// obscuredSince is the frame time of the first of the readings in a row that had something over
	// the board: drift checks wait for a hand to pass, but not longer than maxObscuredWait.
	obscuredSince time.Time
	why           string // why the board is not known
	// known are the drift tests the frame the board was found in already failed (a board's edge
	// against a dark table can read as a line beyond the grid): the checks pass over them. A
	// calibration given to Use (a file, corners placed by a person) has none until the board is
	// found again after a check fails, but for a board whose lines do not stand out (byHand).
	known calib.DriftTests
	// given is true while the calibration is one given to Use, not one the Eye found.
	given bool
}

// NewEye returns an Eye; with opt.Calibration it starts reading at once.
func NewEye(opt EyeOptions) (*Eye, error) {
	if opt.CheckEvery <= 0 {
		opt.CheckEvery = time.Second
	}
	if opt.MovedAfter <= 0 {
		opt.MovedAfter = 2
	}
	if opt.FindEvery <= 0 {
		opt.FindEvery = 2 * time.Second
	}
	e := &Eye{opt: opt, log: opt.Logger, why: "no board found yet"}
	if e.log == nil {
		e.log = slog.Default()
	}
	if opt.Calibration != nil {
		if err := e.Use(*opt.Calibration); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// Use makes c the board's calibration from now on (corners placed by a person, or a board found
// elsewhere).
func (e *Eye) Use(c calib.Calibration) error {
	if err := e.use(c); err != nil {
		return err
	}
	e.given = true
	return nil
}

// use makes c the calibration, given or found.
func (e *Eye) use(c calib.Calibration) error {
	r, err := NewReader(c, e.opt.Params)
	if err != nil {
		return fmt.Errorf("vision: calibration: %w", err)
	}
	e.drop("")
	e.reader, e.cal, e.moved, e.obscured, e.known, e.given = r, c, 0, false, 0, false
	e.log.Info("board calibrated", "size", c.Size, "confidence", fmt.Sprintf("%.2f", c.Confidence))
	return nil
}

// byHand is the drift report on a calibration given to Use (corners a person placed, most often
// because the board could not be found) when its lines do not stand out in frame (rep says
// DriftNoLines): finding the board again would most likely fail and lose the person's corners.
// The board's stones are watched instead from now on when they sit on the grid, and while there
// are too few of them to judge it by (an opening on a dim board) the corners stand unjudged.
// Otherwise rep stands: the stones say the grid is off.
func (e *Eye) byHand(frame gocv.Mat, rep calib.DriftReport) calib.DriftReport {
	fit, err := calib.FitStones(frame, e.cal)
	switch {
	case err != nil:
		return rep
	case fit.Holds():
		e.log.Info("the board's lines do not stand out: its stones are watched instead", "contrast", fmt.Sprintf("%.2f", rep.Contrast), "stones", fit.String())
		e.known = calib.DriftTests(0).With(calib.DriftNoLines)
		return calib.DriftReport{}
	case !fit.Judges():
		return calib.DriftReport{}
	}
	return rep
}

// signsFromTheStart are the drift tests that frame, the one the board was just found in, already
// fails: the board has not moved since, so what they see is the scene's, and a check that counted
// them would find the board again every few seconds all game. A frame whose lines barely stand
// out (DriftNoLines) is watched by its stones when they sit on the grid (a dim board found by
// them: calib.CheckPast then asks the stones), and is otherwise left to fail, as is one that fails
// more than maxSignsFromTheStart tests: its grid is more likely off than its scene odd.
func (e *Eye) signsFromTheStart(frame gocv.Mat) calib.DriftTests {
	var known calib.DriftTests
	for range maxSignsFromTheStart + 1 {
		rep, err := calib.CheckPast(frame, e.cal, known)
		if err != nil {
			return 0
		}
		if rep.Test == calib.DriftNoLines {
			if fit, err := calib.FitStones(frame, e.cal); err == nil && fit.Holds() {
				e.log.Info("the board's lines do not stand out: its stones are watched instead", "contrast", fmt.Sprintf("%.2f", rep.Contrast), "stones", fit.String())
				return calib.DriftTests(0).With(calib.DriftNoLines)
			}
			return 0
		}
		if !rep.Moved {
			if known != 0 {
				e.log.Info("the frame the board was found in fails drift tests: passed over from now on", "tests", fmt.Sprintf("%b", known))
			}
			return known
		}
		known = known.With(rep.Test)
	}
	return 0
}

// maxSignsFromTheStart is the most drift tests a board's own frame may fail and still be watched
// past them: of 264 rendered boards found right, the three whose frames failed a test other than
// the lines' contrast failed one (an edge line faint under the light).
const maxSignsFromTheStart = 3

// maxObscuredWait is the longest drift checks wait for something over the board to pass. A hand
// making a move passes in a second or two; a grid knocked off the board by a bumped camera reads
// points as obscured for as long as it stays off, and must still be checked.
const maxObscuredWait = 5 * time.Second

// Calibration returns the calibration in use, if the board is known.
func (e *Eye) Calibration() (calib.Calibration, bool) {
	return e.cal, e.reader != nil
}

// Close frees the reader.
func (e *Eye) Close() error {
	e.drop("closed")
	return nil
}

func (e *Eye) drop(why string) {
	if e.reader != nil {
		e.reader.Close()
		e.reader = nil
	}
	e.why = why
}

// Look turns frame (BGR), seen at at, into a sight: the reading of the board, or ViewMoved with
// the reason when the board is not where the calibration puts it and cannot be found again yet.
func (e *Eye) Look(frame gocv.Mat, at time.Time, seq uint64) observe.Sight {
	waiting := e.obscured && at.Sub(e.obscuredSince) < maxObscuredWait
	if e.reader != nil && !e.opt.Fixed && !waiting && (e.lastCheck.IsZero() || at.Sub(e.lastCheck) >= e.opt.CheckEvery) {
		e.lastCheck = at
		rep, err := calib.CheckPast(frame, e.cal, e.known)
		if err == nil && e.given && rep.Test == calib.DriftNoLines && !e.known.Has(calib.DriftNoLines) {
			rep = e.byHand(frame, rep)
		}
		switch {
		case err != nil:
			e.moved++
			rep.Reason = err.Error()
		case rep.Moved:
			e.moved++
		default:
			e.moved = 0
		}
		if e.moved >= e.opt.MovedAfter {
			e.log.Info("the board or the camera moved: finding the board again", "why", rep.Reason)
			side := e.cal.BlackSide
			e.drop("the board moved: " + rep.Reason)
			e.cal.BlackSide = side
			e.lastFind, e.tried = time.Time{}, false
		}
	}
	if e.reader == nil && (!e.tried || at.Sub(e.lastFind) >= e.opt.FindEvery) {
		e.tried, e.lastFind = true, at
		size := e.opt.Size
		if size == 0 && e.cal.Size != 0 {
			size = e.cal.Size
		}
		c, err := FindBoard(frame, size, e.opt.Params)
		if err == nil {
			if e.cal.Size != 0 { // found again: Black still sits where they sat
				c.BlackSide = e.cal.BlackSide
			}
			err = e.use(c)
		}
		if err != nil {
			e.why = err.Error()
		} else {
			e.known = e.signsFromTheStart(frame)
		}
	}
	if e.reader == nil {
		return observe.Sight{View: observe.ViewMoved, Time: at, Why: e.why}
	}
	rd, err := e.reader.Read(frame)
	if err != nil {
		e.drop(err.Error())
		return observe.Sight{View: observe.ViewMoved, Time: at, Why: e.why}
	}
	o := rd.Observation(e.cal, at, seq)
	if obscured := o.AnyObscured(); obscured != e.obscured {
		e.obscured, e.obscuredSince = obscured, at
	}
	return observe.Reading(o)
}
