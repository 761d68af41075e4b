package calib

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gocv.io/x/gocv"

	"tengen/internal/cutframe"
	"tengen/internal/shareddata"
)

// gomradeSeq returns frame 0 of gomrade's webcam sequence and its verified calibration.
func gomradeSeq(t testing.TB) (gocv.Mat, Calibration) {
	t.Helper()
	dir := shareddata.Path(t, "vision-eval", "gomrade-sample", "testing_sequence")
	img := loadRaw(t, filepath.Join(dir, "0.jpg"))
	truth, err := FromCorners(img.Cols(), img.Rows(), 19, [4]Point2{{407, 45}, {939, 55}, {991, 643}, {329, 621}})
	if err != nil {
		t.Fatal(err)
	}
	// Calibrate as the kiosk does (Find), and make sure that agrees with the verified corners.
	cal, err := Find(img, FindOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if e := cornerError(cal.Corners, truth.Corners); e > truth.Spacing()/4 {
		t.Fatalf("Find is %.1f px from the verified corners", e)
	}
	return img, cal
}

// moveFrame applies a rotation (degrees, about the image centre) and a shift to img, as a bumped
// camera would, and returns the moved frame and the same motion applied to the corners.
func moveFrame(img gocv.Mat, cal Calibration, deg, dx, dy float64) (gocv.Mat, Calibration) {
	c := image.Pt(img.Cols()/2, img.Rows()/2)
	m := gocv.GetRotationMatrix2D(c, deg, 1)
	defer m.Close()
	m.SetDoubleAt(0, 2, m.GetDoubleAt(0, 2)+dx)
	m.SetDoubleAt(1, 2, m.GetDoubleAt(1, 2)+dy)
	out := gocv.NewMat()
	gocv.WarpAffineWithParams(img, &out, m, image.Pt(img.Cols(), img.Rows()), gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	moved := cal
	for i, p := range cal.Corners {
		moved.Corners[i] = Point2{
			m.GetDoubleAt(0, 0)*p.X + m.GetDoubleAt(0, 1)*p.Y + m.GetDoubleAt(0, 2),
			m.GetDoubleAt(1, 0)*p.X + m.GetDoubleAt(1, 1)*p.Y + m.GetDoubleAt(1, 2),
		}
	}
	return out, moved
}

func TestCheckAndRefind(t *testing.T) {
	img, cal := gomradeSeq(t)
	defer img.Close()
	rep, err := Check(img, cal)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("unmoved: %+v", rep)
	if rep.Moved {
		t.Fatalf("unmoved frame reported as moved: %+v", rep)
	}
	sp := cal.Spacing()
	tests := []struct {
		name        string
		deg, dx, dy float64
	}{
		{"shift right 1/2 spacing", 0, sp / 2, 0},
		{"shift down 1/3 spacing", 0, 0, sp / 3},
		{"shift one spacing", 0, sp, 0},
		{"shift diagonal", 0, -sp * 0.4, sp * 0.4},
		{"rotate 2 degrees", 2, 0, 0},
		{"rotate -3 degrees and shift", -3, 10, -6},
		{"shift 60 px", 0, 60, 25},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			moved, want := moveFrame(img, cal, tc.deg, tc.dx, tc.dy)
			defer moved.Close()
			rep, err := Check(moved, cal)
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Moved {
				t.Errorf("Check did not notice the move: %+v", rep)
			}
			got, err := Refind(moved, cal)
			if err != nil {
				t.Fatalf("Refind: %v", err)
			}
			e := cornerError(got.Corners, want.Corners)
			t.Logf("check %+v; refind worst corner %.1f px = %.3f spacing", rep, e, e/sp)
			if e > sp/4 {
				t.Errorf("Refind corners off by %.1f px (> quarter spacing %.1f): got %v want %v", e, sp/4, got.Corners, want.Corners)
			}
			if rep2, _ := Check(moved, got); rep2.Moved {
				t.Errorf("refound calibration still reported moved: %+v", rep2)
			}
		})
	}
}

// TestCheckSequence: stones being played are not drift. The calibration found on frame 0 must
// pass Check on every later frame of the same fixed-camera game.
func TestCheckSequence(t *testing.T) {
	img, cal := gomradeSeq(t)
	img.Close()
	dir := shareddata.Path(t, "vision-eval", "gomrade-sample", "testing_sequence")
	for i := 1; i <= 11; i++ {
		f := loadRaw(t, filepath.Join(dir, fmt.Sprintf("%d.jpg", i)))
		rep, err := Check(f, cal)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if rep.Moved {
			t.Errorf("frame %d: reported moved: %+v", i, rep)
		}
	}
}

func TestCheckRejectsMismatch(t *testing.T) {
	img := gocv.NewMatWithSize(480, 640, gocv.MatTypeCV8UC3)
	defer img.Close()
	cal, err := FromCorners(1280, 720, 19, [4]Point2{{407, 45}, {939, 55}, {991, 643}, {329, 621}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Check(img, cal); !errors.Is(err, ErrImageSize) {
		t.Fatalf("Check with wrong frame size: %v", err)
	}
	if _, err := Refind(img, cal); !errors.Is(err, ErrImageSize) {
		t.Fatalf("Refind with wrong frame size: %v", err)
	}
	if _, err := Check(img, Calibration{}); !errors.Is(err, ErrVersion) {
		t.Fatalf("Check with zero calibration: %v", err)
	}
}

// TestFindNoBoard: frames without a board give ErrNoBoard (or ErrBadImage), quickly, never a panic.
func TestFindNoBoard(t *testing.T) {
	black := gocv.NewMatWithSize(1080, 1920, gocv.MatTypeCV8UC3)
	defer black.Close()
	noise := gocv.NewMatWithSize(1080, 1920, gocv.MatTypeCV8UC3)
	defer noise.Close()
	gocv.RandU(&noise, gocv.NewScalar(0, 0, 0, 0), gocv.NewScalar(255, 255, 255, 0))
	gray := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(128, 128, 128, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer gray.Close()
	// An empty table: a real photo's corner without the board, blurred wood-like texture.
	table := gocv.NewMatWithSize(720, 1280, gocv.MatTypeCV8UC3)
	defer table.Close()
	gocv.RandN(&table, gocv.NewScalar(120, 140, 170, 0), gocv.NewScalar(30, 30, 30, 0))
	gocv.GaussianBlur(table, &table, image.Pt(31, 3), 10, 1, gocv.BorderReflect)
	// A few random straight lines (cables, table edges) that do not form a lattice.
	gocv.Line(&table, image.Pt(0, 100), image.Pt(1280, 300), color.RGBA{20, 20, 20, 0}, 3)
	gocv.Line(&table, image.Pt(400, 0), image.Pt(600, 720), color.RGBA{20, 20, 20, 0}, 3)
	empty := gocv.NewMat()
	defer empty.Close()
	tiny := gocv.NewMatWithSize(3, 3, gocv.MatTypeCV8UC3)
	defer tiny.Close()
	tests := []struct {
		name string
		img  gocv.Mat
	}{{"black", black}, {"noise", noise}, {"flat grey", gray}, {"table with lines", table}, {"empty Mat", empty}, {"tiny", tiny}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			c, err := Find(tc.img, FindOptions{})
			if err == nil {
				t.Fatalf("found a board: %+v", c)
			}
			if !errors.Is(err, ErrNoBoard) && !errors.Is(err, ErrBadImage) {
				t.Fatalf("error %v is neither ErrNoBoard nor ErrBadImage", err)
			}
			t.Logf("%v in %v", err, time.Since(start))
		})
	}
}

// TestBelowBarNoOutline: a frame with no board outline is refused without grids below the bar,
// whatever the bar.
func TestBelowBarNoOutline(t *testing.T) {
	flat := gocv.NewMatWithSizeFromScalar(gocv.NewScalar(128, 128, 128, 0), 720, 1280, gocv.MatTypeCV8UC3)
	defer flat.Close()
	_, err := Find(flat, FindOptions{MinConfidence: 0.05})
	if !errors.Is(err, ErrNoBoard) {
		t.Fatalf("error %v, want ErrNoBoard", err)
	}
	var below *BelowBar
	if errors.As(err, &below) {
		t.Errorf("grids %v below the bar in a frame with no board", below.Grids)
	}
}

// TestBelowBarKeepsOutlineGrids: the gomrade photo with its right half cut off, scaled to
// 1920x1080, is refused at a low bar, and the refusal carries the grids the board's outlines
// placed below that bar, each in view, straight and with the lens term fitted, for
// vision.FindBoard to judge by its reader.
func TestBelowBarKeepsOutlineGrids(t *testing.T) {
	frame := cutframe.Gomrade(t, 1, 2)
	defer frame.Close()
	const bar = 0.3
	_, err := Find(frame, FindOptions{MinConfidence: bar})
	var below *BelowBar
	if !errors.Is(err, ErrNoBoard) || !errors.As(err, &below) {
		t.Fatalf("error %v, want an ErrNoBoard carrying the outlines' grids", err)
	}
	if len(below.Grids) == 0 || len(below.Grids) > 2 {
		t.Fatalf("%d grids below the bar, want one or two (grey, colour)", len(below.Grids))
	}
	bent := below.Bent(frame)
	if len(bent) != len(below.Grids) {
		t.Fatalf("%d grids with their lens terms, want %d", len(bent), len(below.Grids))
	}
	for _, g := range append(below.Grids, bent...) {
		if g.Confidence >= bar || !g.InView() || g.Validate() != nil {
			t.Errorf("grid %dx%d at %.2f (in view %v, %v): want a valid grid in view below %.2f", g.Size, g.Size, g.Confidence, g.InView(), g.Validate(), bar)
		}
	}
	t.Logf("%v: %d grids below the bar", err, len(below.Grids))
}

func TestOrderCorners(t *testing.T) {
	want := [4]Point2{{10, 10}, {100, 12}, {98, 90}, {12, 95}}
	for _, perm := range [][4]int{{0, 1, 2, 3}, {2, 0, 3, 1}, {3, 2, 1, 0}, {1, 3, 0, 2}} {
		var in [4]Point2
		for i, k := range perm {
			in[i] = want[k]
		}
		if got := orderCorners(in); got != want {
			t.Errorf("orderCorners(%v) = %v, want %v", in, got, want)
		}
	}
}

// TestFindLightLines: a board with light lines on a dark surface (here a real photo inverted)
// is found too, at the same place, and Check then looks for light lines.
func TestFindLightLines(t *testing.T) {
	img, cal := gomradeSeq(t)
	defer img.Close()
	inv := gocv.NewMat()
	defer inv.Close()
	gocv.BitwiseNot(img, &inv)
	c, err := Find(inv, FindOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !c.LightLines || c.Size != 19 {
		t.Fatalf("inverted board: size %d light %v", c.Size, c.LightLines)
	}
	if e := cornerError(c.Corners, cal.Corners); e > cal.Spacing()/4 {
		t.Fatalf("inverted board corners %.1f px from the normal photo's", e)
	}
	if rep, err := Check(inv, c); err != nil || rep.Moved {
		t.Fatalf("Check on the inverted board: %+v %v", rep, err)
	}
	if rep, err := Check(img, c); err != nil || !rep.Moved {
		t.Fatalf("Check looking for light lines on a dark-line board should fail: %+v %v", rep, err)
	}
}

// TestEdgeStonesDoNotShiftCorners paints stones on every intersection of the four edge lines
// (corners included) of a real photo: the corners found must stay where they were without them.
func TestEdgeStonesDoNotShiftCorners(t *testing.T) {
	img, cal := gomradeSeq(t)
	defer img.Close()
	painted := img.Clone()
	defer painted.Close()
	r := int(cal.Spacing() * 0.47)
	n := cal.Size - 1
	count := 0
	stone := func(col, row int, black bool) {
		count++
		p := cal.IntersectionPixel(col, row)
		c := color.RGBA{235, 235, 230, 0}
		if black {
			c = color.RGBA{25, 25, 25, 0}
		}
		gocv.Circle(&painted, image.Pt(int(p.X), int(p.Y)), r, c, -1)
	}
	for i, cr := range [][2]int{{0, 0}, {n, 0}, {n, n}, {0, n}} {
		stone(cr[0], cr[1], i%2 == 0)
	}
	for k := 1; k < n; k++ {
		stone(k, 0, k%4 == 1)
		stone(n, k, k%4 == 3)
		stone(k, n, k%4 == 3)
		stone(0, k, k%4 == 1)
	}
	if d := os.Getenv("CALIB_DUMP"); d != "" {
		gocv.IMWrite(filepath.Join(d, "edge_stones.png"), painted)
	}
	c, err := Find(painted, FindOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := cornerError(c.Corners, cal.Corners)
	t.Logf("with %d edge stones (every edge point covered): corners moved %.2f px = %.3f spacing", count, e, e/cal.Spacing())
	if c.Size != cal.Size || e > cal.Spacing()/8 {
		t.Fatalf("edge stones moved the corners by %.1f px (size %d)", e, c.Size)
	}
}

// TestCheckHandIsNotDrift: a hand and forearm reaching over the board's right edge (a player
// placing a stone) must not be taken for a moved board.
func TestCheckHandIsNotDrift(t *testing.T) {
	img, cal := gomradeSeq(t)
	defer img.Close()
	for _, r := range []int{60, 100, 150} {
		h := img.Clone()
		p := cal.IntersectionPixel(cal.Size-1, cal.Size/2)
		skin := color.RGBA{120, 150, 200, 0} // BGR order in gocv: a light skin tone
		gocv.Circle(&h, image.Pt(int(p.X), int(p.Y)), r, skin, -1)
		gocv.Rectangle(&h, image.Rect(int(p.X), int(p.Y)-r/2, h.Cols(), int(p.Y)+r/2), skin, -1)
		rep, err := Check(h, cal)
		h.Close()
		if err != nil {
			t.Fatal(err)
		}
		if rep.Moved {
			t.Errorf("hand of radius %d px reported as drift: %+v", r, rep)
		}
	}
}

// TestErrNotInView: a grid leaving the picture is refused with ErrNotInView, which is an
// ErrNoBoard too and reads as before.
func TestErrNotInView(t *testing.T) {
	err := fmt.Errorf("vision: %w", ErrNotInView)
	if !errors.Is(err, ErrNotInView) || !errors.Is(err, ErrNoBoard) {
		t.Fatalf("%v: not both ErrNotInView and ErrNoBoard", err)
	}
	if errors.Is(fmt.Errorf("%w: no regular lattice", ErrNoBoard), ErrNotInView) {
		t.Error("every ErrNoBoard is taken for ErrNotInView")
	}
	if got, want := ErrNotInView.Error(), "calib: no board found: the board is not entirely in view"; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}
