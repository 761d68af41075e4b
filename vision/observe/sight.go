package observe

import (
	"fmt"
	"time"
)

// View is the camera side's condition at one moment: whether it sees the board where the table's
// calibration puts it. The referee holds play (no verdict from a missing or misaligned picture)
// while the view is anything but ViewBoard.
type View uint8

// The views, as the camera loop reports them with every frame (and, for a lost camera, without one).
const (
	// ViewBoard: the board is in view where the calibration puts it, and read.
	ViewBoard View = iota
	// ViewNoPicture: the camera gives no picture (unplugged, its helper died, no frame for seconds).
	ViewNoPicture
	// ViewMoved: the picture no longer shows the board where the calibration puts it (the board or
	// the camera was bumped), or no board has been found yet; the camera loop is finding it again.
	ViewMoved
)

// String returns "board", "no-picture" or "moved".
func (v View) String() string {
	switch v {
	case ViewBoard:
		return "board"
	case ViewNoPicture:
		return "no-picture"
	case ViewMoved:
		return "moved"
	}
	return fmt.Sprintf("View(%d)", uint8(v))
}

// ParseView parses the names String gives.
func ParseView(s string) (View, error) {
	for _, v := range []View{ViewBoard, ViewNoPicture, ViewMoved} {
		if v.String() == s {
			return v, nil
		}
	}
	return 0, fmt.Errorf("observe: unknown view %q", s)
}

// Sight is what the camera side tells the table at one moment: the view, and with ViewBoard the
// frame's reading. It is sent for every frame (the referee acts only on changes of view), so a
// camera loop needs no memory of what it said before.
type Sight struct {
	View        View
	Observation Observation // the reading, when View is ViewBoard
	Time        time.Time   // when it was seen (the frame's time, or when the picture was missed)
	Why         string      // for the other views: what the camera loop knows ("no frame for 3s")
}

// Reading is the sight of a frame read with the board in view.
func Reading(o Observation) Sight {
	return Sight{View: ViewBoard, Observation: o, Time: o.Time}
}
