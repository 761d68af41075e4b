package vision

import (
	"context"
	"strings"
	"testing"
	"time"

	"gocv.io/x/gocv"
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

// Every live camera spec ParseCameraSpec accepts reaches the camera helper unchanged, with the
// frame timeout, and the spec names the camera in events.
func TestOpenCameraPassesSpecToHelper(t *testing.T) {
	for _, spec := range []string{"/dev/video0", "2", "libcamera", "libcamera:1280x720@30", "gst:videotestsrc ! appsink", "-1"} {
		var events []Event
		opt := fakeHelperOptions(t, "args", &events, &syncBuffer{})
		opt.FrameTimeout = 2 * time.Second
		if spec == "-1" { // not a camera: a file path, which must exist
			if _, err := OpenCamera(spec, opt); err == nil {
				t.Errorf("%q: opened", spec)
			}
			continue
		}
		src, err := OpenCamera(spec, opt)
		if err != nil {
			t.Fatalf("%q: %v", spec, err)
		}
		m := gocv.NewMat()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		onEvent := opt.OnEvent
		src.(*LiveSource).opt.OnEvent = func(e Event) { onEvent(e); cancel() }
		src.Next(ctx, &m)
		cancel()
		m.Close()
		src.Close()
		want := "args --frame-timeout|2s|--|" + spec
		if len(events) == 0 || events[0].Kind != Lost || !strings.Contains(events[0].Err.Error(), want) ||
			!strings.HasPrefix(events[0].Err.Error(), "vision: "+spec+":") {
			t.Errorf("%q: events %v, want a Lost error containing %q", spec, events, want)
		}
	}
}
