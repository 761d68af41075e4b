package vision

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/internal/shareddata"
	"tengen/vision/evalset"
	"tengen/vision/observe"
)

// evalImage is one labelled photograph of the evaluation set.
type evalImage struct {
	set, rel, path string
	label          observe.Observation
}

// loadEvalSet lists the photos labelled per intersection (imago-tests and gomrade-sample), with
// the label corrections of evalset.Corrections applied.
func loadEvalSet(t *testing.T) []evalImage {
	t.Helper()
	photos, err := evalset.Load(shareddata.Path(t, "vision-eval"))
	if err != nil {
		t.Fatal(err)
	}
	var out []evalImage
	for _, p := range photos {
		if p.Label.Size == 0 {
			continue
		}
		set := p.Source
		if strings.HasPrefix(set, "imago-") {
			set = "imago-tests/" + strings.TrimPrefix(set, "imago-")
		} else {
			set = "gomrade-sample"
		}
		out = append(out, evalImage{set: set, rel: p.Rel, path: p.Path, label: p.Label})
	}
	return out
}

// imageResult is how one photo was read.
type imageResult struct {
	rel     string
	set     string
	errors  int
	points  int
	detail  string
	noBoard error
	covered int // points under a hand read `?` (correct, see handCovered)
}

// cornerCache lets a developer reuse found calibrations between runs (VISION_CALIB_CACHE=file);
// the committed test always finds the boards afresh.
func cornerCache(t *testing.T) (map[string]calib.Calibration, func()) {
	path := os.Getenv("VISION_CALIB_CACHE")
	m := map[string]calib.Calibration{}
	if path == "" {
		return m, func() {}
	}
	if raw, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(raw, &m)
	}
	return m, func() {
		raw, _ := json.Marshal(m)
		_ = os.WriteFile(path, raw, 0o644)
	}
}

// loadPhoto decodes a photo as the kiosk does (LoadImage: raw pixels, EXIF rotation ignored, as
// the labels of the evaluation set require).
func loadPhoto(t testing.TB, path string) gocv.Mat {
	t.Helper()
	m, err := LoadImage(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func readEvalImage(t *testing.T, im evalImage, cache map[string]calib.Calibration) imageResult {
	t.Helper()
	img := loadPhoto(t, im.path)
	defer img.Close()
	res := imageResult{rel: im.rel, set: im.set, points: im.label.Size * im.label.Size}
	cal, ok := cache[im.rel]
	if !ok {
		var err error
		cal, err = FindBoard(img, im.label.Size, Params{}) // as kiosk detect --size 19
		if err != nil {
			res.noBoard = err
			res.errors = res.points
			return res
		}
		cache[im.rel] = cal
	}
	return readWith(t, im, img, cal)
}

// readWith reads one photo with a given calibration and scores it against its label.
func readWith(t *testing.T, im evalImage, img gocv.Mat, cal calib.Calibration) imageResult {
	t.Helper()
	res := imageResult{rel: im.rel, set: im.set, points: im.label.Size * im.label.Size}

	r, err := NewReader(cal, Params{})
	if err != nil {
		t.Fatalf("%s: %v", im.rel, err)
	}
	defer r.Close()
	rd, err := r.Read(img)
	if err != nil {
		t.Fatalf("%s: %v", im.rel, err)
	}
	var diffs []string
	for y := 0; y < rd.Size; y++ {
		for x := 0; x < rd.Size; x++ {
			got, want := rd.Stones[y*rd.Size+x], im.label.At(x, y)
			if got == observe.Obscured && underHand(im.rel, x, y) {
				res.covered++
				continue
			}
			if got != want {
				res.errors++
				diffs = append(diffs, fmt.Sprintf("r%dc%d %c->%c", y, x, want.Rune(), got.Rune()))
			}
		}
	}
	res.detail = strings.Join(diffs, " ")
	return res
}

// underHand reports whether handCovered lists point (x, y) of the photo rel.
func underHand(rel string, x, y int) bool {
	for _, p := range evalset.HandCovered()[rel].Points {
		if p == [2]int{x, y} {
			return true
		}
	}
	return false
}

// TestAccuracyOnEvalPhotos reads every labelled photo of ../shared/vision-eval with corners found
// automatically (FindBoard: calib.Find and CheckGrid, as kiosk detect --size 19 does) and checks the bars: at least 99.9% of intersections right and at
// least 95% of boards read without a single error. `?` is correct only on a point under a hand
// (handCovered).
func TestAccuracyOnEvalPhotos(t *testing.T) {
	imgs := loadEvalSet(t)
	cache, save := cornerCache(t)
	defer save()
	type agg struct{ imgs, perfect, errs, points int }
	sets := map[string]*agg{}
	var all agg
	var results []imageResult
	for _, im := range imgs {
		if m, ok := evalset.Corrections()[im.rel]; ok {
			t.Logf("label corrected at %d points in %s: %s", len(m.Fixes), im.rel, m.Why)
		}
		res := readEvalImage(t, im, cache)
		results = append(results, res)
		if h, ok := evalset.HandCovered()[im.rel]; ok {
			t.Logf("%s: %d of %d points under a hand read `?` (%s)", im.rel, res.covered, len(h.Points), h.Why)
		}
		a := sets[res.set]
		if a == nil {
			a = &agg{}
			sets[res.set] = a
		}
		for _, x := range []*agg{a, &all} {
			x.imgs++
			x.points += res.points
			x.errs += res.errors
			if res.errors == 0 {
				x.perfect++
			}
		}
	}
	names := make([]string, 0, len(sets))
	for k := range sets {
		names = append(names, k)
	}
	sort.Strings(names)
	report := func(name string, a agg) {
		t.Logf("%-26s %3d boards, %3d perfect (%5.1f%%), %4d/%6d points wrong, accuracy %.3f%%",
			name, a.imgs, a.perfect, 100*float64(a.perfect)/float64(a.imgs), a.errs, a.points,
			100*(1-float64(a.errs)/float64(a.points)))
	}
	for _, n := range names {
		report(n, *sets[n])
	}
	report("ALL", all)
	sort.SliceStable(results, func(i, j int) bool { return results[i].errors > results[j].errors })
	for _, r := range results {
		if r.errors == 0 {
			break
		}
		if r.noBoard != nil {
			t.Logf("worst: %s: no board: %v", r.rel, r.noBoard)
			continue
		}
		t.Logf("worst: %s: %d wrong: %s", r.rel, r.errors, r.detail)
	}
	if all.imgs == 0 {
		t.Fatal("no labelled photos found")
	}
	acc := 1 - float64(all.errs)/float64(all.points)
	perfect := float64(all.perfect) / float64(all.imgs)
	if acc < 0.999 {
		t.Errorf("per-intersection accuracy %.4f%% is below the 99.9%% bar", 100*acc)
	}
	if perfect < 0.95 {
		t.Errorf("%.1f%% of boards read perfectly, below the 95%% bar", 100*perfect)
	}
}

// TestGomradeWithVerifiedCorners reads every gomrade photo with the corners verified by hand
// (corners_verified.json) instead of the found ones: a grid a pixel or two off the automatic fit
// must not change the reading much (small grid errors must never create stones wholesale). The
// bar is the issue's: at least 99.9% of the points right over the 17 photos (2/67 is scored
// against its corrected label). The learned reader is not fitted to these photos point by point
// as the hand-set thresholds were (which read all of them right and 91% of unseen photos); its
// figure on gomrade held out of training is in the README.
func TestGomradeWithVerifiedCorners(t *testing.T) {
	root := shareddata.Path(t, "vision-eval")
	raw, err := os.ReadFile(filepath.Join(root, "gomrade-sample", "corners_verified.json"))
	if err != nil {
		t.Fatal(err)
	}
	var corners map[string][4][2]float64
	if err := json.Unmarshal(raw, &corners); err != nil {
		t.Fatal(err)
	}
	n, wrong, points := 0, 0, 0
	for _, im := range loadEvalSet(t) {
		if im.set != "gomrade-sample" {
			continue
		}
		q, ok := corners[strings.TrimPrefix(im.rel, "gomrade-sample/")]
		if !ok {
			t.Errorf("%s: no verified corners", im.rel)
			continue
		}
		img := loadPhoto(t, im.path)
		var pts [4]calib.Point2
		for i, c := range q {
			pts[i] = calib.Point2{X: c[0], Y: c[1]}
		}
		cal, err := calib.FromCorners(img.Cols(), img.Rows(), im.label.Size, pts)
		if err != nil {
			img.Close()
			t.Fatalf("%s: %v", im.rel, err)
		}
		res := readWith(t, im, img, cal)
		img.Close()
		n++
		wrong += res.errors
		points += res.points
		if res.errors != 0 {
			t.Logf("%s with verified corners: %d wrong: %s", im.rel, res.errors, res.detail)
		}
	}
	if n != 17 {
		t.Errorf("read %d gomrade photos with verified corners, want 17", n)
	}
	t.Logf("%d of %d points wrong", wrong, points)
	if float64(wrong) > 0.001*float64(points) {
		t.Errorf("%d of %d points wrong with verified corners: above the 0.1%% bar", wrong, points)
	}
}
