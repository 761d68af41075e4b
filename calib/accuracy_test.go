package calib

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"tengen/internal/shareddata"
	"tengen/vision/imagefile"
)

// loadRaw reads an image in its stored pixel orientation (EXIF rotation ignored), as the labels
// of the evaluation set require.
func loadRaw(t testing.TB, path string) gocv.Mat {
	t.Helper()
	m, err := imagefile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// cornerError is the largest distance between matching corners, in pixels.
func cornerError(a, b [4]Point2) float64 {
	e := 0.0
	for i := range a {
		e = math.Max(e, math.Hypot(a[i].X-b[i].X, a[i].Y-b[i].Y))
	}
	return e
}

// verifiedCorners returns the gomrade-sample directory and its hand-verified corners, by photo
// name relative to it ("2/67.jpg").
func verifiedCorners(t *testing.T) (dir string, truth map[string][4][2]float64) {
	t.Helper()
	dir = shareddata.Path(t, "vision-eval", "gomrade-sample")
	raw, err := os.ReadFile(filepath.Join(dir, "corners_verified.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &truth); err != nil {
		t.Fatal(err)
	}
	return dir, truth
}

// TestFindGomrade measures corner accuracy against the hand-verified corners of gomrade-sample.
// The bar: every image's worst corner within a quarter of a grid spacing.
func TestFindGomrade(t *testing.T) {
	dir, truth := verifiedCorners(t)
	names := make([]string, 0, len(truth))
	for k := range truth {
		names = append(names, k)
	}
	sort.Strings(names)
	type row struct {
		name                string
		px, frac, mean, cnf float64
		err                 error
	}
	var rows []row
	for _, name := range names {
		img := loadRaw(t, filepath.Join(dir, name))
		var want [4]Point2
		for i, p := range truth[name] {
			want[i] = Point2{p[0], p[1]}
		}
		gt, err := FromCorners(img.Cols(), img.Rows(), 19, want)
		if err != nil {
			t.Fatalf("%s: ground truth: %v", name, err)
		}
		c, err := Find(img, FindOptions{})
		img.Close()
		r := row{name: name, err: err}
		if err == nil {
			r.px = cornerError(c.Corners, want)
			r.frac = cornerErrorInSpacings(c, gt)
			r.mean = meanGridError(c, gt)
			r.cnf = c.Confidence
			if c.Size != 19 {
				r.err = fmt.Errorf("size %d, want 19", c.Size)
			}
		}
		rows = append(rows, r)
	}
	failed := 0
	for _, r := range rows {
		status := "ok"
		if r.err != nil || r.frac > 0.25 {
			status = "FAIL"
			failed++
		}
		t.Logf("%-26s worst corner %6.1f px = %.3f spacing  mean intersection %.3f spacing  conf %.2f  %s %v", r.name, r.px, r.frac, r.mean, r.cnf, status, errString(r.err))
	}
	sort.Slice(rows, func(a, b int) bool { return rows[a].frac > rows[b].frac })
	for _, r := range rows[:3] {
		t.Logf("worst: %s %.3f spacing", r.name, r.frac)
	}
	if failed > 0 {
		t.Errorf("%d of %d gomrade images outside a quarter spacing", failed, len(rows))
	}
}

// cornerErrorInSpacings is the worst corner's error divided by the grid spacing at that corner
// (perspective makes near spacings larger than far ones), both from the ground truth.
func cornerErrorInSpacings(got, gt Calibration) float64 {
	n := gt.Size - 1
	grid := [4][2]int{{0, 0}, {n, 0}, {n, n}, {0, n}}
	step := [4][2]int{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}}
	worst := 0.0
	for i, c := range gt.Corners {
		a := gt.IntersectionPixel(grid[i][0]+step[i][0], grid[i][1])
		b := gt.IntersectionPixel(grid[i][0], grid[i][1]+step[i][1])
		sp := (math.Hypot(a.X-c.X, a.Y-c.Y) + math.Hypot(b.X-c.X, b.Y-c.Y)) / 2
		e := math.Hypot(got.Corners[i].X-c.X, got.Corners[i].Y-c.Y) / sp
		worst = math.Max(worst, e)
	}
	return worst
}

// meanGridError is the mean distance between all found and true intersections, in mean spacings:
// less sensitive than the worst corner to a ground-truth corner clicked a little off the line.
func meanGridError(got, gt Calibration) float64 {
	s := 0.0
	for r := 0; r < gt.Size; r++ {
		for c := 0; c < gt.Size; c++ {
			a, b := got.IntersectionPixel(c, r), gt.IntersectionPixel(c, r)
			s += math.Hypot(a.X-b.X, a.Y-b.Y)
		}
	}
	return s / float64(gt.Size*gt.Size) / gt.Spacing()
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// readLabels parses a 19-line text grid of . B W.
func readLabels(path string) ([][]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		row := make([]byte, len(f))
		for i, s := range f {
			row[i] = s[0]
		}
		out = append(out, row)
	}
	return out, nil
}

// stoneCheck samples the grey level around each labelled intersection and counts labelled
// stones whose colour matches: black darker, white brighter than the empty board around them.
func stoneCheck(img gocv.Mat, c Calibration, labels [][]byte) (good, total int) {
	gray := gocv.NewMat()
	defer gray.Close()
	gocv.CvtColor(img, &gray, gocv.ColorBGRToGray)
	r := c.Spacing() * 0.22
	mean := func(col, row int) float64 {
		p := c.IntersectionPixel(col, row)
		s, n := 0.0, 0
		for dy := -r; dy <= r; dy += math.Max(1, r/3) {
			for dx := -r; dx <= r; dx += math.Max(1, r/3) {
				x, y := int(p.X+dx), int(p.Y+dy)
				if x >= 0 && y >= 0 && x < gray.Cols() && y < gray.Rows() {
					s += float64(gray.GetUCharAt(y, x))
					n++
				}
			}
		}
		if n == 0 {
			return math.NaN()
		}
		return s / float64(n)
	}
	var empty []float64
	for y, row := range labels {
		for x, l := range row {
			if l == '.' {
				empty = append(empty, mean(x, y))
			}
		}
	}
	sort.Float64s(empty)
	board := empty[len(empty)/2]
	for y, row := range labels {
		for x, l := range row {
			switch l {
			case 'B':
				total++
				if mean(x, y) < board-15 {
					good++
				}
			case 'W':
				total++
				if mean(x, y) > board+15 {
					good++
				}
			}
		}
	}
	return good, total
}

// TestFindImago checks the found grid on imago-tests (no corners given) by sampling: labelled
// stones must sit on dark or bright pixels at their intersections.
func TestFindImago(t *testing.T) {
	dir := shareddata.Path(t, "vision-eval", "imago-tests")
	var files []string
	for _, pat := range []string{"t1/*.jpg", "t2/*.jpg", "t2/skip/*.jpg", "t3/*.jpg"} {
		m, _ := filepath.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no imago images")
	}
	type res struct {
		name string
		frac float64
	}
	var results []res
	failed := 0
	for _, f := range files {
		name, _ := filepath.Rel(dir, f)
		labels, err := readLabels(strings.TrimSuffix(f, ".jpg") + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		img := loadRaw(t, f)
		c, err := Find(img, FindOptions{})
		if err != nil {
			img.Close()
			failed++
			results = append(results, res{name, -1})
			t.Logf("%-22s FAIL %v", name, err)
			continue
		}
		good, total := stoneCheck(img, c, labels)
		img.Close()
		status := "ok"
		frac := 1.0
		if total > 0 {
			frac = float64(good) / float64(total)
		}
		if c.Size != 19 || frac < 0.9 {
			status = "FAIL"
			failed++
		}
		results = append(results, res{name, frac})
		t.Logf("%-22s size %d conf %.2f stones %3d/%3d on colour  %s", name, c.Size, c.Confidence, good, total, status)
	}
	sort.Slice(results, func(a, b int) bool { return results[a].frac < results[b].frac })
	for _, r := range results[:3] {
		t.Logf("worst: %s, %.0f%% of labelled stones on colour", r.name, 100*r.frac)
	}
	// The bar: at most one image in fifty may miss (t1_009, a motion-blurred photo with a
	// doubled image, is the known miss); more is a regression.
	if failed > len(files)/50 {
		t.Errorf("%d of %d imago images failed (bar: at most %d)", failed, len(files), len(files)/50)
	} else {
		t.Logf("%d of %d imago images failed (bar: at most %d)", failed, len(files), len(files)/50)
	}
}
