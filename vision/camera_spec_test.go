package vision

import (
	"strings"
	"testing"
)

func TestParseCameraSpec(t *testing.T) {
	tests := []struct {
		in   string
		want CameraSpec
		bad  bool
	}{
		{in: "/dev/video0", want: CameraSpec{Kind: CameraDevice, Target: "/dev/video0"}},
		{in: "2", want: CameraSpec{Kind: CameraDevice, Target: "2"}},
		{in: "libcamera", want: CameraSpec{Kind: CameraLibcamera, Width: 1920, Height: 1080, FPS: 15}},
		{in: "libcamera:1280x720@30", want: CameraSpec{Kind: CameraLibcamera, Width: 1280, Height: 720, FPS: 30}},
		{in: "gst:videotestsrc ! appsink", want: CameraSpec{Kind: CameraPipeline, Target: "videotestsrc ! appsink"}},
		{in: "frames/", want: CameraSpec{Kind: CameraPath, Target: "frames/"}},
		{in: "", bad: true},
		{in: "  ", bad: true},
		{in: "gst:", bad: true},
		{in: "libcamera:1280x720", bad: true},
		{in: "libcamera:0x0@0", bad: true},
		{in: "libcamera:1280x720@30fps", bad: true},
	}
	for _, tc := range tests {
		got, err := ParseCameraSpec(tc.in)
		if tc.bad {
			if err == nil {
				t.Errorf("%q: accepted as %+v", tc.in, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: got %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func FuzzParseCameraSpec(f *testing.F) {
	for _, s := range []string{"/dev/video0", "0", "libcamera", "libcamera:640x480@10", "gst:a ! appsink", "dir", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := ParseCameraSpec(s)
		if err != nil {
			return
		}
		switch cs.Kind {
		case CameraLibcamera:
			if cs.Width < 16 || cs.Height < 16 || cs.FPS < 1 {
				t.Fatalf("%q: bad libcamera spec %+v", s, cs)
			}
			if p := LibcameraPipeline(cs.Width, cs.Height, cs.FPS); !strings.HasPrefix(p, "libcamerasrc") {
				t.Fatalf("pipeline %q", p)
			}
		case CameraDevice, CameraPipeline, CameraPath:
			if cs.Target == "" {
				t.Fatalf("%q: empty target", s)
			}
		default:
			t.Fatalf("%q: unknown kind %v", s, cs.Kind)
		}
	})
}
