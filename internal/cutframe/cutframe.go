// Package cutframe makes the frame the board finder's refusal tests and benchmarks share: a
// labelled photo whose board the picture cuts, as a camera aimed off a table shows it. It lives
// apart from calib and vision so that both packages' tests can use it.
package cutframe

import (
	"image"
	"testing"

	"gocv.io/x/gocv"

	"tengen/internal/shareddata"
	"tengen/vision/imagefile"
)

// Gomrade returns the gomrade photo testing_sequence/10.jpg (a 19x19 board in the middle of the
// picture) with all but its left num/den cut off, scaled to 1920x1080. The caller closes it. It
// skips tb when ../shared is absent.
func Gomrade(tb testing.TB, num, den int) gocv.Mat {
	tb.Helper()
	src, err := imagefile.Load(shareddata.Path(tb, "vision-eval", "gomrade-sample", "testing_sequence", "10.jpg"))
	if err != nil {
		tb.Fatal(err)
	}
	defer src.Close()
	part := src.Region(image.Rect(0, 0, src.Cols()*num/den, src.Rows()))
	defer part.Close()
	frame := gocv.NewMat()
	gocv.Resize(part, &frame, image.Pt(1920, 1080), 0, 0, gocv.InterpolationLinear)
	return frame
}
