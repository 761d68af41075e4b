package calib_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/internal/shareddata"
	"tengen/vision"
	"tengen/vision/evalset"
	"tengen/vision/imagefile"
)

// TestFindBoardAugmented judges the whole still-photo path (vision.FindBoard: calib.Find at the
// low confidence bar, then the reader's grid check) on the robustness evaluation's frames, per
// source and per kind of variant: found, wrong, refused by the finder or by the grid check.
// CALIB_FINDBOARD selects the kinds (comma-separated; "all" for every kind, the default is the
// late and dense oblique games); CALIB_AUGMENT=full uses every photo. The default selection
// fails under its floors (found share per kind) or on any wrong grid.
func TestFindBoardAugmented(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skips the augmented evaluation of vision.FindBoard")
	}
	kinds := os.Getenv("CALIB_FINDBOARD")
	switch kinds {
	case "":
		kinds = "a-late,a-dense"
	case "all":
		kinds = ""
	}
	stride := 4
	if os.Getenv("CALIB_AUGMENT") == "full" {
		stride = 1
	}
	type tally struct {
		n, found, wrong, finder, check, cut, cutFound int
		errs                                          []float64
	}
	bySource, byKind := map[string]*tally{}, map[string]*tally{}
	var sources, kindNames []string
	calib.EachAugVariant(t, stride, 1, kinds, func(v calib.AugVariant) {
		size := 19
		if v.Truth == nil {
			size = 0
		}
		c, err := vision.FindBoard(v.Img, size, vision.Params{})
		var o tally
		msg := ""
		switch {
		case !v.InView:
			o.cut = 1
			if err == nil {
				o.cutFound = 1
				msg = "FOUND in a cut frame"
			} else {
				msg = "refused"
			}
		case err != nil:
			o.n = 1
			if strings.Contains(err.Error(), "shows its lines") {
				o.check = 1
			} else {
				o.finder = 1
			}
			msg = "refused: " + err.Error()
		default:
			o.n, o.found = 1, 1
			right, e := v.Judge(c)
			if !right {
				o.wrong = 1
				msg = fmt.Sprintf("WRONG size %d conf %.2f err %.2f", c.Size, c.Confidence, e)
			} else {
				msg = fmt.Sprintf("ok conf %.2f err %.3f", c.Confidence, e)
				if !math.IsNaN(e) {
					o.errs = append(o.errs, e)
				}
			}
		}
		t.Logf("%-9s %-14s %-11s %s", v.Source, v.Photo, v.Kind, msg)
		for _, m := range []struct {
			by    map[string]*tally
			key   string
			names *[]string
		}{{bySource, v.Source, &sources}, {byKind, v.Kind, &kindNames}} {
			a := m.by[m.key]
			if a == nil {
				a = &tally{}
				m.by[m.key] = a
				*m.names = append(*m.names, m.key)
			}
			a.n += o.n
			a.found += o.found
			a.wrong += o.wrong
			a.finder += o.finder
			a.check += o.check
			a.cut += o.cut
			a.cutFound += o.cutFound
			a.errs = append(a.errs, o.errs...)
		}
	})
	line := func(name string, a *tally) {
		med, worst := math.NaN(), math.NaN()
		if len(a.errs) > 0 {
			sort.Float64s(a.errs)
			med, worst = a.errs[len(a.errs)/2], a.errs[len(a.errs)-1]
		}
		t.Logf("  %-10s %4d found %4d (%5.1f%%) wrong %3d refused by finder %3d, by grid check %3d; err med %.3f worst %.3f; cut %d found %d",
			name, a.n, a.found, 100*float64(a.found)/math.Max(1, float64(a.n)), a.wrong, a.finder, a.check, med, worst, a.cut, a.cutFound)
	}
	for _, s := range sources {
		line(s, bySource[s])
	}
	for _, k := range kindNames {
		line(k, byKind[k])
	}
	// Floors for the default selection, just under what it reaches (a-late 19 of 19, a-dense
	// 17 of 19; 15 and 12 of 18 before the dense-board check and the continuation test cleared
	// by stones, 15 of 19 before the stone-vouched grid check): a found share per kind, and no
	// wrong grid at all.
	if os.Getenv("CALIB_FINDBOARD") != "" || stride != 4 {
		return
	}
	floors := map[string]float64{"a-late": 0.94, "a-dense": 0.85}
	for _, k := range kindNames {
		a := byKind[k]
		if frac := float64(a.found) / math.Max(1, float64(a.n)); frac < floors[k] {
			t.Errorf("%s: vision.FindBoard found %.0f%% of the variants (floor %.0f%%)", k, 100*frac, 100*floors[k])
		}
		if a.wrong > 0 || a.cutFound > 0 {
			t.Errorf("%s: %d wrong grids, %d grids in cut frames", k, a.wrong, a.cutFound)
		}
	}
}

// TestFindBoardRoboflow runs vision.FindBoard (size 0: 9, 13 or 19; CALIB_EVAL_SIZE=19 gives
// the size, as the sealed sets are read) on the Roboflow photos, as they are (the valid and test
// splits; CALIB_EVAL=1: all 264), and checks each found grid
// against the labelled stone boxes (most stone centres on intersections). A developer's
// measure of the whole still-photo path on photos never tuned on. On the default 32 it must find
// at least 27 boards with at most one wrong (measured 2026-11-26: 29 found, 0 wrong; all 264: 234 found, 5 wrong; 2026-11-27 with the equalized pass: 235, 5 wrong).
// It also gives the share found right of the photos that show a whole 9x9, 13x13 or 19x19 board:
// all but those testdata/roboflow-not-whole.txt lists, judged by eye.
func TestFindBoardRoboflow(t *testing.T) {
	photos, err := evalset.Load(shareddata.Path(t, "vision-eval"))
	if err != nil {
		t.Fatal(err)
	}
	all := os.Getenv("CALIB_EVAL") != ""
	size := 0
	if v := os.Getenv("CALIB_EVAL_SIZE"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatalf("CALIB_EVAL_SIZE=%q: %v", v, err)
		}
		size = n
	}
	notWhole := calib.ReadNotWhole(t)
	found, wrong, n, whole, wholeRight := 0, 0, 0, 0, 0
	for _, p := range photos {
		if p.Source != evalset.Roboflow || !all && strings.Contains(p.Rel, "/train/") {
			continue
		}
		n++
		name := roboflowName(p)
		if !notWhole[name] {
			whole++
		}
		img, err := imagefile.Load(p.Path)
		if err != nil {
			t.Fatal(err)
		}
		v := boxedVariant(p, img)
		c, err := vision.FindBoard(img, size, vision.Params{})
		img.Close()
		if err != nil {
			t.Logf("%s refused: %v", name, err)
			continue
		}
		found++
		if ok, _ := v.Judge(c); !ok {
			wrong++
			t.Logf("%s WRONG size %d conf %.2f", name, c.Size, c.Confidence)
			continue
		}
		t.Logf("%s ok size %d conf %.2f", name, c.Size, c.Confidence)
		if notWhole[name] {
			t.Logf("%s is listed as not showing a whole board, but a grid was found on it", name)
		} else {
			wholeRight++
		}
	}
	t.Logf("FindBoard on %d Roboflow photos: found %d, %d of them wrong by the stone boxes", n, found, wrong)
	t.Logf("of the %d that show a whole 9x9, 13x13 or 19x19 board (%s), found right by the stone boxes: %d (%.1f%%)",
		whole, "testdata/roboflow-not-whole.txt lists the others", wholeRight, 100*float64(wholeRight)/math.Max(1, float64(whole)))
	if !all && (found < 27 || wrong > 1) {
		t.Errorf("found %d of %d with %d wrong; want at least 27 found and at most 1 wrong", found, n, wrong)
	}
}

// boxedVariant is a box-labelled photo as it is, with its stone boxes' centres, so that a grid
// found on it can be judged by them (AugVariant.Judge).
func boxedVariant(p evalset.Photo, img gocv.Mat) calib.AugVariant {
	v := calib.AugVariant{Source: p.Source, InView: true, Img: img}
	for _, b := range p.Boxes {
		v.Stones = append(v.Stones, calib.Point2{X: b.X * float64(img.Cols()), Y: b.Y * float64(img.Rows())})
	}
	return v
}

// TestFindLightLinesOnDarkWood: a Roboflow photo of a board with light lines on dark wood
// (cb14a2324108), in the set-B-like variants in which the dark-line passes find a weak lattice
// of their own (the dark wood between the light lines, confidence 0.45) that the grid check then
// refused. The light-line pass must be tried after such a weak fit too, and its grid kept: right
// by the labelled stone boxes, and read as light-lined.
func TestFindLightLinesOnDarkWood(t *testing.T) {
	n := 0
	calib.EachAugVariantOf(t, "cb14a2324108", "b-plain,b-turn,b-light", func(v calib.AugVariant) {
		n++
		c, err := vision.FindBoard(v.Img, 0, vision.Params{})
		if err != nil {
			t.Errorf("%s refused: %v", v.Kind, err)
			return
		}
		if ok, _ := v.Judge(c); !ok || c.Size != 19 || !c.LightLines {
			t.Errorf("%s: found a %dx%d grid (confidence %.2f, light lines %v), right by the stone boxes: %v", v.Kind, c.Size, c.Size, c.Confidence, c.LightLines, ok)
		}
	})
	if n != 3 {
		t.Fatalf("made %d variants of the light-lined photo, want 3", n)
	}
}

// roboflowName is a Roboflow photo's name as the tests and testdata/roboflow-not-whole.txt give
// it: the first 12 hex digits of its file name.
func roboflowName(p evalset.Photo) string { return filepath.Base(p.Rel)[:12] }

// TestFindBoardCrowdedOrCut: Roboflow photos on which the stones' lattice and the grid check
// decide (twenty-sixth session). Two crowded whole boards, whose hand-placed stones sit up to a
// third of a spacing off their points, must be found right by their stone boxes (judged
// strictly); on the 13x13 the grid check must not move the grid a row onto the margin. Two
// crowded 19x19 diagrams, which the finder fits a line off (one of them both ways) with its first
// column on the row labels while the board's last column holds a game's stones, must be moved
// onto the board by the grid check (2026-12-01, evening). Three 19x19 boards cut by the picture's edge, over
// whose stones a 13x13 fits as well, and a 19x19 whose bottom row runs out of the picture (the
// grid check had moved its grid out of view), must be refused.
func TestFindBoardCrowdedOrCut(t *testing.T) {
	photos, err := evalset.Load(shareddata.Path(t, "vision-eval"))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]evalset.Photo{}
	for _, p := range photos {
		if p.Source == evalset.Roboflow {
			byName[roboflowName(p)] = p
		}
	}
	for _, tc := range []struct {
		photo, what string
		size        int // 0: must be refused
	}{
		{"3e33f3ee6a12", "a crowded, blurred 19x19", 19},
		{"8f20266b703d", "a 13x13 full of stones", 13},
		{"64cd3bdad2d9", "a crowded 19x19 diagram, found a line off both ways", 19},
		{"a178df70fd5a", "a crowded 19x19 diagram, found a line off", 19},
		{"08bca729ec6b", "a 19x19 cut at the left and bottom", 0},
		{"34e25116bcdd", "a 19x19 cut at the left", 0},
		{"96f1724a9704", "a 19x19 cut at the left", 0},
		{"a2b3eff03b4c", "a 19x19 whose bottom row runs out", 0},
	} {
		t.Run(tc.photo, func(t *testing.T) {
			p, ok := byName[tc.photo]
			if !ok {
				t.Fatalf("no Roboflow photo %s in the shared data", tc.photo)
			}
			img, err := imagefile.Load(p.Path)
			if err != nil {
				t.Fatal(err)
			}
			defer img.Close()
			v := boxedVariant(p, img)
			c, err := vision.FindBoard(img, 0, vision.Params{})
			switch {
			case tc.size == 0 && err == nil:
				t.Errorf("%s: found a %dx%d grid (confidence %.2f), want a refusal", tc.what, c.Size, c.Size, c.Confidence)
			case tc.size != 0 && err != nil:
				t.Errorf("%s: refused: %v", tc.what, err)
			case tc.size != 0:
				if right, _ := v.Judge(c); !right || c.Size != tc.size {
					t.Errorf("%s: found a %dx%d grid (confidence %.2f, corners %.0f), right by the stone boxes: %v", tc.what, c.Size, c.Size, c.Confidence, c.Corners, right)
				}
			}
		})
	}
}
