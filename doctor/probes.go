package doctor

import (
	"context"
	"time"
)

// Frame is what the doctor needs to know about one camera frame.
type Frame struct{ Width, Height int }

// Camera is an open camera delivering frames.
type Camera interface {
	// Next blocks until the next frame arrives.
	Next(ctx context.Context) (Frame, error)
	Close() error
}

// Point is an image position in pixels.
type Point struct{ X, Y float64 }

// Calibration is what the doctor needs from a calibration file.
type Calibration struct {
	ImageWidth, ImageHeight int
	// Size is the number of lines of the calibrated board.
	Size int
	// Corners are the corner intersections TL, TR, BR, BL in image pixels.
	Corners [4]Point
	// Confidence is the board finder's certainty, 0..1 (1 for corners set by hand).
	Confidence float64
}

// Sighting is where the board is seen in a live frame.
type Sighting struct {
	Size       int
	Corners    [4]Point
	Confidence float64
}

// Pull is a GPIO input's internal bias.
type Pull int

const (
	// PullUp biases an input towards 3.3 V: an open button reads high.
	PullUp Pull = iota
	// PullDown biases an input towards ground: an open button reads low.
	PullDown
)

func (p Pull) String() string {
	if p == PullUp {
		return "pull-up"
	}
	return "pull-down"
}

// GPIO reads input lines with a chosen bias. Pins are named as in the config ("GPIO17").
type GPIO interface {
	// SetPull makes pin an input with the given bias.
	SetPull(pin string, pull Pull) error
	// Read returns pin's level (true = high).
	Read(pin string) (bool, error)
	// Close releases every line.
	Close() error
}

// Probes are the doctor's ways of looking at the table. A nil probe makes its check report that it
// could not be made.
type Probes struct {
	// OpenCamera opens the camera named by camera.source with the configured size and rate.
	OpenCamera func(ctx context.Context, source string, width, height, fps int) (Camera, error)
	// LoadCalibration reads a calibration file.
	LoadCalibration func(path string) (Calibration, error)
	// FindBoard looks for the board in a live frame.
	FindBoard func(ctx context.Context, size int) (Sighting, error)
	// OpenGPIO gives access to the GPIO lines.
	OpenGPIO func() (GPIO, error)
	// CheckRules and CheckTimeControl validate the game defaults with the real engine and clock.
	CheckRules       func(rules string, size int) error
	CheckTimeControl func(tc string) error
	// Getenv reads the environment (os.Getenv).
	Getenv func(string) string
	// DialDisplay connects to an X display such as ":0" (or a Wayland socket path) and closes again.
	DialDisplay func(ctx context.Context, display string) error
	// DRMDevices lists the GPU's display devices (/dev/dri/card*).
	DRMDevices func() ([]string, error)
	// DiskFree returns the free and total bytes of the file system holding path.
	DiskFree func(path string) (free, total uint64, err error)
	// ClockSynced reports whether the system clock is synchronised to NTP, and how it knows.
	ClockSynced func(ctx context.Context) (synced bool, how string, err error)
	// HallConnect connects to the hall's broker ([hall] url) with the table's user and password
	// once, and says why it could not.
	HallConnect func(ctx context.Context) error
	// Now is the time (time.Now); the frame rate is measured with it.
	Now func() time.Time
}
