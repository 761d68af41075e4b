package config

import (
	"fmt"
	"path/filepath"
)

// usbCameraGlob matches the first video node of every USB camera (udev's stable names).
const usbCameraGlob = "/dev/v4l/by-id/usb-*-video-index0"

// Spec turns camera.source into the camera description vision.OpenCamera takes: "auto" becomes the
// first USB webcam's /dev/videoN if one is plugged in, else the Pi camera module
// ("libcamera:WxH@FPS"); "libcamera" gets the configured size and rate; a device or index is
// passed through. "demo" is returned as is: the caller runs the built-in demo instead of a camera.
func (c Camera) Spec() string {
	return c.spec(filepath.Glob, filepath.EvalSymlinks)
}

func (c Camera) spec(glob func(string) ([]string, error), eval func(string) (string, error)) string {
	libcamera := fmt.Sprintf("libcamera:%dx%d@%d", c.Width, c.Height, c.FPS)
	switch c.Source {
	case "libcamera":
		return libcamera
	case "auto":
		if usb, err := glob(usbCameraGlob); err == nil {
			for _, link := range usb {
				if dev, err := eval(link); err == nil {
					return dev
				}
			}
		}
		return libcamera
	}
	return c.Source
}
