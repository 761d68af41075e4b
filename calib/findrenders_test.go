package calib_test

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/demo"
	"tengen/engine/sgf"
	"tengen/internal/benchcpu"
	"tengen/internal/rendertest"
	"tengen/internal/shareddata"
	"tengen/vision"
	"tengen/vision/evalset"
	"tengen/vision/imagefile"
)

// TestFindBoardRenders judges the whole still-photo path (vision.FindBoard, size 0) on photos
// drawn by demo.RenderSample: 9x9, 13x13 and 19x19 boards under random looks (coloured lamps, hard
// shadows, glare, lens, tilt up to 45 degrees, board and stone styles, bowls and clutter, hands,
// noise), every grid line in the picture. No threshold of the board finder was set on these
// frames, so they are a held-out measure beside the photos. A found grid is right when its size
// is the drawn one and its worst corner lies within half a spacing of the drawn corner (lens
// distortion moves the corners a little off any homography). CALIB_RENDERS=N draws N scenes (the
// default 40 must be found at the floor below, with at most one grid wrong).
func TestFindBoardRenders(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skips drawing and searching rendered photos")
	}
	n := 40
	if s := os.Getenv("CALIB_RENDERS"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 {
			t.Fatalf("CALIB_RENDERS=%q: want a positive number of scenes", s)
		}
		n = v
	}
	frames := [][2]int{{640, 480}, {800, 600}, {960, 720}, {1024, 768}, {1280, 720}}
	type tally struct{ n, found, wrong int }
	bySize := map[int]*tally{9: {}, 13: {}, 19: {}}
	refusals := map[string]int{}
	var errs []float64
	for i := 0; i < n; i++ {
		size := [...]int{9, 13, 19, 19, 19}[i%5]
		fr := frames[(i/5)%len(frames)]
		opt := demo.SampleOptions{Size: size, W: fr[0], H: fr[1], Hard: i%7 == 3, HandChance: 0.3}
		s, img, err := rendertest.Frame(uint64(7000+i), opt)
		if err != nil {
			t.Fatal(err)
		}
		c, err := vision.FindBoard(img, 0, vision.Params{})
		img.Close()
		a := bySize[size]
		a.n++
		name := fmt.Sprintf("scene %3d (%dx%d, %dx%d, tilt %2.0f)", i, size, size, fr[0], fr[1], s.Look.Tilt)
		if err != nil {
			refusals[calib.RefusalReason(err)]++
			t.Logf("%s refused: %v", name, err)
			continue
		}
		e := rendertest.SpacingsOff(c, s.Corners, true)
		if c.Size != size || e > 0.5 {
			a.wrong++
			t.Logf("%s WRONG: %dx%d, worst corner %.2f spacings off", name, c.Size, c.Size, e)
			continue
		}
		a.found++
		errs = append(errs, e)
		t.Logf("%s found, worst corner %.3f spacings off", name, e)
	}
	found, wrong := 0, 0
	for _, size := range []int{9, 13, 19} {
		a := bySize[size]
		found += a.found
		wrong += a.wrong
		t.Logf("%2dx%-2d: %3d drawn, %3d found, %d wrong", size, size, a.n, a.found, a.wrong)
	}
	sort.Float64s(errs)
	if len(errs) > 0 {
		t.Logf("all: %d of %d found (%.1f%%), %d wrong; worst corner median %.3f, worst %.3f spacings; refused: %v",
			found, n, 100*float64(found)/float64(n), wrong, errs[len(errs)/2], errs[len(errs)-1], refusals)
	}
	// Floor for the default 40, just under what they reach (measured 2026-11-26: 36 found, 0 wrong; 37 on 2026-11-27 with the equalized pass;
	// 300 scenes of cmd/render-boards -seed 99: 266 found, 7 wrong).
	if n == 40 {
		if found < 34 || wrong > 1 {
			t.Errorf("found %d of 40 rendered boards (floor 34), %d wrong (at most 1)", found, wrong)
		}
	}
}

// TestFindFaintLinesEqualized finds four rendered boards whose lines stand only a few levels from
// the wood (blurred, dim, glaring or strongly bent), which every pass of calib.Find refused until
// the last one evened out the frame's contrast (scenes 58, 85 and 184 of `render-boards -n 300
// -seed 99` and 231 of `-seed 777`, drawn again here from their seeds). Each must be found within
// half a spacing of its drawn corners. That pass counts only sure fits, so a Roboflow photo of a
// hand over a faintly printed, skewed board, where it fitted a wrong grid at 0.44, must still be
// refused or found right by its stone boxes. Since snapToSize trims a lattice grown past 19 lines
// however far, the smoothed wide pass fits scene 184 at 0.40 first, and vision.FindBoard's grid
// check refuses it; the scene is then found by FindBoard's second search at the sure bar.
func TestFindFaintLinesEqualized(t *testing.T) {
	findRenderedScenes(t, []renderedScene{
		{"58: 9x9, light wood, tilted", 18298649787838673150, demo.SampleOptions{Size: 9, W: 800, H: 600, HandChance: 0.3}, true},
		{"85: 19x19, dark wood", 10245735401026350883, demo.SampleOptions{Size: 19, W: 1280, H: 720, HandChance: 0.3}, true},
		{"184: 19x19, blurred, bent lines", 14916270261309874441, demo.SampleOptions{Size: 19, W: 1280, H: 720, HandChance: 0.3}, true},
		{"231 of seed 777: 13x13, plastic", 15195889648370727238, demo.SampleOptions{Size: 13, W: 1280, H: 720, HandChance: 0.3}, true},
	})
	t.Run("Roboflow 3bd8355a30ba: a hand over a faint, skewed board", func(t *testing.T) {
		refusedOrRight(t, "3bd8355a30ba")
	})
}

// renderedScene is a scene of demo.RenderSample drawn again from its seed for a finding test.
type renderedScene struct {
	name     string
	seed     uint64
	opt      demo.SampleOptions
	mustFind bool // found right; otherwise refused or found right
}

// findRenderedScenes runs findRendered on each scene as a subtest (none under -short), the
// board's size not given (any).
func findRenderedScenes(t *testing.T, scenes []renderedScene) {
	t.Helper()
	findScenes(t, scenes, false)
}

// findScenes runs findRendered on each scene as a subtest (none under -short), with the board's
// size given to FindBoard as a table gives it when sized is set, otherwise 0 (any).
func findScenes(t *testing.T, scenes []renderedScene, sized bool) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skips drawing and searching rendered photos")
	}
	for _, sc := range scenes {
		size := 0
		if sized {
			size = sc.opt.Size
		}
		t.Run(sc.name, func(t *testing.T) { findRendered(t, sc, size) })
	}
}

// findRendered draws sc and finds its board (FindBoard with size), which must be found within
// half a spacing of its drawn corners, or (unless sc.mustFind) refused.
func findRendered(t *testing.T, sc renderedScene, size int) {
	t.Helper()
	opt := sc.opt
	s, img, err := rendertest.Frame(sc.seed, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer img.Close()
	c, err := vision.FindBoard(img, size, vision.Params{})
	if err != nil {
		if sc.mustFind {
			t.Fatalf("refused: %v", err)
		}
		return
	}
	if e := rendertest.SpacingsOff(c, s.Corners, true); c.Size != opt.Size || e > 0.5 {
		t.Fatalf("found a %dx%d grid %.2f spacings off the drawn %dx%d (confidence %.2f)", c.Size, c.Size, e, opt.Size, opt.Size, c.Confidence)
	}
}

// refusedOrRight finds the board in the Roboflow photo whose name starts with name and fails
// if it finds a grid its stone boxes do not bear out; a refusal passes.
func refusedOrRight(t *testing.T, name string) {
	t.Helper()
	findRoboflow(t, name, false)
}

// findRoboflow finds the board in the Roboflow photo whose name starts with name: a grid its
// stone boxes do not bear out fails, and so does any grid when refuse is set (a board of a size
// the kiosk does not play, whose boxes a grid of another size can fit).
func findRoboflow(t *testing.T, name string, refuse bool) {
	t.Helper()
	photos, err := evalset.Load(shareddata.Path(t, "vision-eval"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range photos {
		if p.Source != evalset.Roboflow || !strings.HasPrefix(filepath.Base(p.Rel), name) {
			continue
		}
		img, err := imagefile.Load(p.Path)
		if err != nil {
			t.Fatal(err)
		}
		defer img.Close()
		c, err := vision.FindBoard(img, 0, vision.Params{})
		if err != nil {
			return
		}
		if refuse {
			t.Fatalf("found a %dx%d grid (confidence %.2f)", c.Size, c.Size, c.Confidence)
		}
		if ok, _ := boxedVariant(p, img).Judge(c); !ok {
			t.Fatalf("found a wrong %dx%d grid (confidence %.2f)", c.Size, c.Size, c.Confidence)
		}
		return
	}
	t.Fatalf("photo %s is not in the shared photos", name)
}

// TestFindJudgedAgain finds rendered boards that one pass of calib.Find placed right but judged
// weak in its own line map (the equalized pass, whose map raises the noise with the lines), and
// which the map with its noise floor taken off bears out: scenes 131 and 256 of `render-boards
// -n 300 -seed 777`, refused as "not entirely in view" until then, and 110 of a fresh `-seed
// 4242`, checked after the rule was set. Two scenes must stay refused or be found right: 190 of
// `-seed 777`, where the stones on a dark board vouched for a grid five lines off (so the second
// judging is by the lines alone), and scene 24 of TestFindBoardRenders, a lens-bent board where
// a grid fitted to its middle lines left an edge line on bare wood (so every edge line must show).
// And a Roboflow photo of a crowded 13x13 board (8f20266b703d) must stay refused or be found
// right: when every pass's grid was judged again, the plain pass's lattice at half the spacing
// passed.
func TestFindJudgedAgain(t *testing.T) {
	findRenderedScenes(t, []renderedScene{
		{"131 of seed 777: 19x19, noisy, faint lines", 8591216736726929226, demo.SampleOptions{Size: 19, W: 1280, H: 720, HandChance: 0.3}, true},
		{"256 of seed 777: 19x19, blurred, glare", 14886530023518375591, demo.SampleOptions{Size: 19, W: 1280, H: 720, HandChance: 0.3}, true},
		{"110 of seed 4242: 13x13, hard light", 6945309022735406666, demo.SampleOptions{Size: 13, W: 1024, H: 768, Hard: true, HandChance: 0.3}, true},
		{"190 of seed 777: 19x19, dark wood", 14011957418527448184, demo.SampleOptions{Size: 19, W: 640, H: 480, HandChance: 0.3}, false},
		{"scene 24 of TestFindBoardRenders: 19x19, lens-bent", 7024, demo.SampleOptions{Size: 19, W: 1280, H: 720, Hard: true, HandChance: 0.3}, false},
	})
	t.Run("Roboflow 8f20266b703d: a crowded 13x13 board", func(t *testing.T) {
		refusedOrRight(t, "8f20266b703d")
	})
}

// TestFindUnsureGridJudgedWithoutNoise: boards whose plain line map, grainy with noise, explains
// a wrong grid unsurely, while the same map with its noise floor taken off finds the board's own
// grid surely. A sure grid there that contradicts the unsure one (calib's otherBoard) now replaces
// it. Scene 35 of `render-boards -seed 6005 -sizes 19:1 -sgf ../shared/sgf-corpus -sgf-share 1
// -late 0.15` (the table's size given): a crowded board whose grid was squeezed onto its bottom
// seven rows (0.36, 12 spacings off), now found at 0.74. Scene 37 of `render-boards -n 300 -seed
// 9902` (any size): a 9x9 board under a hard lamp, found as a 13x13 grid (0.32, 4.3 spacings
// off), now as its own 9x9 at 0.54.
func TestFindUnsureGridJudgedWithoutNoise(t *testing.T) {
	findScenes(t, []renderedScene{
		lateScene(t, "6005/35: 19x19, 266 stones", 4679372147869765486, 1024, 768, "yenw-computer-go-dataset-AI/2018-Tencent-World-AI-WEIQI-Competition/0044.sgf", 335),
	}, true)
	findRenderedScenes(t, []renderedScene{
		{"9902/37: 9x9, hard light", 12091839081577995386, demo.SampleOptions{Size: 9, W: 1024, H: 768, Hard: true, HandChance: 0.3}, true},
	})
}

// TestFindUnsureGridContradictedByTheOutline: crowded late-game boards, nearly top-down, whose
// line passes fit a grid a line or more off (0.41 to 0.45), and whose outline and stones place
// the board's own grid at the sure bar; that grid now replaces the unsure one (calib's
// contradicted, outlineApart). Scenes of `render-boards -sizes 19:1 -sgf ../shared/sgf-corpus
// -sgf-share 1 -late 0.15`, the table's size given; the build before found each 1.25 to 1.64
// spacings off.
func TestFindUnsureGridContradictedByTheOutline(t *testing.T) {
	findScenes(t, []renderedScene{
		lateScene(t, "6005/44: 19x19, 206 stones, dim", 9981147104330440966, 640, 480, "yenw-computer-go-dataset-AI/2019-China-Securities-Cup-World-AI-WEIQI-Open/0047.sgf", 223),
		hardLateScene(t, "6005/237: 19x19, 154 stones, a hard lamp", 13996168229371972383, 1024, 768, "yenw-computer-go-dataset-AI/Jin-Mao-Ce-Shi/1196.sgf", 163),
		lateScene(t, "6007/207: 19x19, 214 stones, plastic board", 2505358082807947297, 960, 720, "gnugo-regression-games/nngs/scf-gnugo-3.1.18-200201060027.sgf", 233),
		lateScene(t, "6001/169: 19x19, 194 stones, plastic board", 9281127959063297041, 960, 720, "yenw-computer-go-dataset-AI/FineArt/0108.sgf", 199),
	}, true)
}

// TestFindBlurredLightLines finds rendered dark boards with light lines, blurred or noisy, which
// the light-line pass (its plain filter only) refused for too few lines or no lattice: scenes 135,
// 151 and 212 of `render-boards -n 300 -seed 4242`, where the light pass's wider filters, the
// same as the dark passes', find them at 0.54 to 0.75. Scene 85 of the same set must stay
// refused or be found right: without the sure bar on those filters a squashed 9x9 lattice of the
// wood's texture was found at 0.31.
func TestFindBlurredLightLines(t *testing.T) {
	findRenderedScenes(t, []renderedScene{
		{"135: 19x19, dark wood, noisy", 1289513291475949855, demo.SampleOptions{Size: 19, W: 640, H: 480, HandChance: 0.3}, true},
		{"151: 19x19, dark wood, blurred", 14046631499384307682, demo.SampleOptions{Size: 19, W: 1280, H: 720, HandChance: 0.3}, true},
		{"212: 19x19, dark wood, blurred", 13381003327713646870, demo.SampleOptions{Size: 19, W: 1280, H: 720, HandChance: 0.3}, true},
		{"85: 9x9, dark wood, hard light", 7843429491961726050, demo.SampleOptions{Size: 9, W: 640, H: 480, Hard: true, HandChance: 0.3}, false},
	})
}

// TestFindByOutline runs rendered boards whose lines the line search could not turn into a
// lattice (too faint, blurred or noisy at their size), though the drawn grid scores 0.44 to
// 0.66 in the passes' line maps: Find's last pass, the board's outline against the table
// (outlineSearch), finds them at 0.49 to 0.76. Scenes of `render-boards -seed 4242`; the build
// without that pass refused each.
func TestFindByOutline(t *testing.T) {
	findRenderedScenes(t, []renderedScene{
		{"22: 13x13 plastic board on a green cloth, blurred", 6045988334723920608, demo.SampleOptions{Size: 13, W: 1280, H: 720, HandChance: 0.3}, true},
		{"222: 19x19 on a blue cloth, small and noisy", 7330720542247102855, demo.SampleOptions{Size: 19, W: 640, H: 480, HandChance: 0.3}, true},
		{"255: 19x19, glass stones", 915541268592011591, demo.SampleOptions{Size: 19, W: 800, H: 600, HandChance: 0.3}, true},
	})
}

// TestFindBesideLatticeClutter runs rendered 19x19 boards with bowls of stones and a score
// sheet's ruled lines beside them, which continue the board's lattice at its spacing: the line
// search grows them to 23x23 and 24x21 lattices, in which snapToSize now places the board however
// many lines it must trim (it had trimmed at most three). Scenes 56 of `render-boards -seed 777`
// and 238 of `-seed 4242`; the build before refused both.
func TestFindBesideLatticeClutter(t *testing.T) {
	findRenderedScenes(t, []renderedScene{
		{"56 of seed 777: 19x19, crowded, bowls and a score sheet", 3537781746451806502, demo.SampleOptions{Size: 19, W: 1024, H: 768, HandChance: 0.3}, true},
		{"238 of seed 4242: 19x19, turned, a glare pool, bowls and a hand", 13821030727025316594, demo.SampleOptions{Size: 19, W: 1280, H: 720, HandChance: 0.3}, true},
	})
}

// TestFindByOutlineAndStones runs rendered boards whose lines no pass can make out: their outline
// against the table bounds the grid and their black stones, sitting on their points across most
// of the board, fix its size and margin (outlineStoneGrid). Scenes of `render-boards -seed 99`
// (positions from the SGF corpus, given here), each refused by the build before: 207, a 9x9
// plastic board whose lines are a few levels from the wood (the best grid's confidence 0.13), and
// 3, a 19x19 on a dark table in a dim room, whose black stones are no darker than the table and
// are found against the board around them instead (findDimStoneBlobs; against the frame, 18 of
// its 33 are found, spanning 6 of the grid's 18 columns).
func TestFindByOutlineAndStones(t *testing.T) {
	scene207 := boardStones(t, "..OOX....\n..OXX.X..\n..OX.X..X\n...OOX..O\n..O.X..X.\n...O.X..X\n.O.XX.XXO\nX.OOXXOOO\n....OO...")
	scene3 := boardStones(t, ".OXX.X.............\n...OXOXOOO.........\n..OOOOXOXX.OX.O....\n..OXOX.XOXXOXO..X..\n"+
		"..OXX...O..OOO.X...\n..XX..X..OX........\n...................\n...............X...\n..X................\n"+
		"...................\n...O..O............\n...................\n...................\n...................\n"+
		"..X............X...\n...XXXO............\n..XOOXO........X...\n.....O.............\n...................")
	findRenderedScenes(t, []renderedScene{
		{"207 of seed 99: 9x9 plastic board, dim", 9090771192537346813, demo.SampleOptions{Size: 9, W: 960, H: 720, HandChance: 0.3, Stones: scene207}, true},
		{"3 of seed 99: 19x19 on a dark table, dim", 16470894075308424667, demo.SampleOptions{Size: 19, W: 640, H: 480, HandChance: 0.3, Stones: scene3}, true},
	})
}

// boardStones parses a position written as demo.BoardText writes it (rendertest.Position).
func boardStones(t *testing.T, text string) []demo.Stone {
	t.Helper()
	st, err := rendertest.Position(text)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestFindByColourOutline runs rendered boards whose edge the grey picture does not show (the
// wood about as bright as the table around it) and whose lines no pass fits surely: the outlines
// of the frame's colour place them, at the sure bar. The positions are those `render-boards`
// drew from the shared game records (`-seed 99` scene 181, `-seed 4242` scene 125), read again
// from them; the build without the colour's outlines refused both ("no regular lattice").
func TestFindByColourOutline(t *testing.T) {
	findRenderedScenes(t, []renderedScene{
		{"99/181: 19x19 yellow wood, 40 stones", 13672935813486224585, demo.SampleOptions{Size: 19, W: 1280, H: 720, HandChance: 0.3,
			Stones: corpusPosition(t, "yenw-computer-go-dataset-AI/dolbaram9/0024.sgf", 0, 40)}, true},
		{"4242/125: 19x19 white board, glass stones", 324401149322947862, demo.SampleOptions{Size: 19, W: 1024, H: 768, HandChance: 0.3,
			Stones: corpusPosition(t, "yenw-computer-go-dataset-AI/Li-Long/0245.sgf", 0, 124)}, true},
	})
}

// corpusPosition is the position after the first moves of game k of the shared SGF file rel
// (under sgf-corpus), as `render-boards` draws it.
func corpusPosition(t testing.TB, rel string, k, moves int) []demo.Stone {
	t.Helper()
	data, err := os.ReadFile(shareddata.Path(t, append([]string{"sgf-corpus"}, strings.Split(rel, "/")...)...))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := sgf.ReadRecords(data)
	if err != nil || len(recs) <= k {
		t.Fatalf("%s: %d games (%v), want game %d", rel, len(recs), err, k)
	}
	st, err := demo.PositionAfter(recs[k], moves)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestFindBesideABowl runs rendered boards with a bowl of stones touching their edge, on a dark
// table (`-seed 8080` scene 21, a nearly empty 19x19 board seen at a slant; `-seed 4242` scene
// 43, a crowded 19x19 board between two bowls, blurred). No lattice of lines is fitted surely;
// the board's outline would place the grid, but the bowl joins the face's contour, and its
// convex hull is no quadrilateral of the face. The face's straight sides still bound it
// (sidesQuad); the build without them refused both.
func TestFindBesideABowl(t *testing.T) {
	findRenderedScenes(t, []renderedScene{
		{"8080/21: 19x19 light wood, 12 stones", 2165151651355436117, demo.SampleOptions{Size: 19, W: 800, H: 600, HandChance: 0.3}, true},
		{"4242/43: 19x19 yellow wood, 122 stones", 4980541271547679182, demo.SampleOptions{Size: 19, W: 640, H: 480, HandChance: 0.3,
			Stones: corpusPosition(t, "yenw-computer-go-dataset-AI/BensonDarr/0563.sgf", 0, 129)}, true},
	})
}

// TestFindByOutlineVouched runs rendered boards whose lines no finder pass fits above its bars,
// but on whose points, in the grid the board's outline places, the learned reader sees the lines
// cross or the stones sit (vision.FindBoard's last look): `-seed 8080` scene 65, a crowded board
// of glass stones; `-seed 777` scene 49, a dark wooden board under hard light; `-seed 5150` scene
// 278, a crowded yellow board (a set rendered after the rule was written). The build without
// that look refused all three.
func TestFindByOutlineVouched(t *testing.T) {
	findRenderedScenes(t, []renderedScene{
		{"8080/65: 19x19 yellow wood, glass stones", 5828749679126913936, demo.SampleOptions{Size: 19, W: 800, H: 600, HandChance: 0.3}, true},
		{"777/49: 19x19 dark wood, 101 moves, hard light", 367723099179833636, demo.SampleOptions{Size: 19, W: 1280, H: 720, Hard: true, HandChance: 0.3,
			Stones: corpusPosition(t, "yenw-computer-go-dataset-AI/Jin-Mao-Ce-Shi/1665.sgf", 0, 101)}, true},
		{"5150/278: 19x19 yellow wood, 102 moves", 17534700903334259793, demo.SampleOptions{Size: 19, W: 1280, H: 720, HandChance: 0.3,
			Stones: corpusPosition(t, "yenw-computer-go-dataset-AI/Li-Long/0760.sgf", 0, 102)}, true},
	})
}

// TestNoStretchedOutlineGrid runs a rendered 19x19 board (`-seed 5150` scene 178, under hard
// light) in whose outline the finder's best grid is a 13x13 stretched over the board's corners:
// half its lines lie on the board's, and the reader saw them cross on 97 of its 169 points. The
// board's own grid through the same corners shows a larger share, so the 13x13 must not be taken
// (the board may be refused).
func TestNoStretchedOutlineGrid(t *testing.T) {
	findRenderedScenes(t, []renderedScene{
		{"5150/178: 19x19 yellow wood, 93 moves, hard light", 15263011895492259807, demo.SampleOptions{Size: 19, W: 640, H: 480, Hard: true, HandChance: 0.3,
			Stones: corpusPosition(t, "yenw-computer-go-dataset-AI/Jin-Mao-Ce-Shi/0970.sgf", 0, 93)}, false},
	})
}

// TestOutlineLookNotOutOfView runs Roboflow photos whose best grid leaves the picture
// (34e25116bcdd, 82cdb3390452): the refusal stands (calib.ErrNotInView), and vision.FindBoard
// does not look for a grid in the board's outline instead, where it found a wrong 9x9 on each.
func TestOutlineLookNotOutOfView(t *testing.T) {
	for _, name := range []string{"34e25116bcdd", "82cdb3390452"} {
		t.Run(name, func(t *testing.T) { refusedOrRight(t, name) })
	}
}

// TestFindBoardSlidOffBoardRoboflow runs the Roboflow photo 4b720621c953, whose board the
// picture cuts on three sides: the finder's unsure 19x19 grid (0.43) runs on past the board's
// left edge, its edge line missing there, while its right side lies against the picture's edge.
// No grid is right on it (vision.FindBoard's slidOffBoard refuses it).
func TestFindBoardSlidOffBoardRoboflow(t *testing.T) {
	findRoboflow(t, "4b720621c953", true)
}

// TestFindBoardCornerAtPictureEdge runs a rendered 19x19 board turned 30 degrees with its top
// corner at the picture's edge (`-seed 31337` scene 167). Its bottom edge line is dark under the
// board's own shadow and a hand, so that edge reads as missing, and a line beyond its top side
// would leave the picture at one end; but the picture does not cut the board along that side
// (the line beyond runs 4.8 spacings inside it at its other end), so the grid is no slid one
// (vision.FindBoard's slidOffBoard) and must be found.
func TestFindBoardCornerAtPictureEdge(t *testing.T) {
	findRenderedScenes(t, []renderedScene{
		{"31337/167: 19x19 yellow wood, glass stones, a hand", 15243791230378650906, demo.SampleOptions{Size: 19, W: 640, H: 480, HandChance: 0.3}, true},
	})
}

// TestOutlineGridLinesRunOn runs the Roboflow photo of a 15x15 board (b971e23e1203), a size the
// kiosk does not play. In its outline the finder's best grid is a 13x13 one line inside the
// board's, whose points show their lines crossing as the board's own do; the lines running on past
// its edges (calib.Check) must refuse it.
func TestOutlineGridLinesRunOn(t *testing.T) {
	findRoboflow(t, "b971e23e1203", true)
}

// lateScene is a scene of `render-boards -sizes 19:1 -sgf ../shared/sgf-corpus -sgf-share 1
// -late 0.15` drawn again: a 19x19 board of w x h pixels with a hand at times (as render-boards
// draws them), holding the position after move of the shared game record game, which must be found.
func lateScene(t testing.TB, name string, seed uint64, w, h int, game string, move int) renderedScene {
	return renderedScene{name, seed, demo.SampleOptions{Size: 19, W: w, H: h, HandChance: 0.3,
		Stones: corpusPosition(t, game, 0, move)}, true}
}

// hardLateScene is lateScene under hard light (demo.HardLook), as `render-boards` draws a share of
// its scenes.
func hardLateScene(t testing.TB, name string, seed uint64, w, h int, game string, move int) renderedScene {
	sc := lateScene(t, name, seed, w, h, game, move)
	sc.opt.Hard = true
	return sc
}

// slantedOnItsBorder is scene 9 of `render-boards -seed 6002` (as above): a slanted late-game
// 19x19 board whose bottom edge is a dark border, which two tests draw.
func slantedOnItsBorder(t testing.TB) renderedScene {
	return lateScene(t, "6002/9: 19x19, slanted, late in a game", 9879982505559458859, 1024, 768, "yenw-computer-go-dataset-AI/FineArt/0545.sgf", 145)
}

// TestFindBoardKeepsItsGridOffTheBorder runs scene 9 of `render-boards -seed 6002` (as above), a
// slanted late-game board whose bottom edge is a dark border. First calib.Find's grid lay a row
// off, on that border, which the reader reads as a row of black stones: vision.FindBoard refused
// it and searched again at the sure bar (the build without the second search refused the board).
// Later calib.Find fitted the board itself at 0.43, and vision.CheckGrid moved it a row down onto
// the border, where the same second search found it. Now CheckGrid takes in no line read as
// stones end to end (takesBorderIn) and keeps the finder's grid. vision's
// TestFindBoardRefusesAGridOffTheBoard runs the second search itself.
func TestFindBoardKeepsItsGridOffTheBorder(t *testing.T) {
	findRenderedScenes(t, []renderedScene{
		slantedOnItsBorder(t),
	})
}

// TestCheckGridKeepsTheFindersGrid runs late-game renders on which calib.Find, with the board's
// size given, fits the board below its sure bar, and vision.CheckGrid used to move that right grid
// a row down, its lined points gaining more than a third of a row:
//   - `-seed 6007` scene 279: the board's bottom edge runs out of the picture, and the new bottom
//     row's points, up to a quarter spacing below the picture, read lined in what the reader's
//     warp fills in there (the grid took in a line whose points leave the picture);
//   - `-seed 6002` scene 9 (TestFindBoardKeepsItsGridOffTheBorder's): the new bottom row lay on the
//     board's dark border, read as 18 black stones (the grid took in a line read as stones end to end);
//   - `-seed 6001` scene 124, `6002` scene 98 and `6008` scene 136: grids that calib.Check finds on
//     the board's lines (every edge line there, none beyond), moved a line off the board onto its
//     margin, where the board's edge against the table or its front face reads as a line, while
//     the grid's own edge line, far and foreshortened or among stones, showed few crosses (the
//     grid took in a line for its crosses although its edges fit).
//
// CheckGrid must keep each grid within half a spacing of the drawn corners.
func TestCheckGridKeepsTheFindersGrid(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skips drawing and searching rendered photos")
	}
	for _, sc := range []renderedScene{
		lateScene(t, "6007/279: 19x19, late in a game, cut by the picture's bottom edge", 1494657949903251541, 640, 480, "yenw-computer-go-dataset-AI/Dancer/0141.sgf", 176),
		slantedOnItsBorder(t),
		slantedPlastic(t),
		hardLateScene(t, "6002/98: 19x19, late in a game, hard light", 9736644857019868932, 640, 480, "yenw-computer-go-dataset-AI/Dancer/0118.sgf", 157),
		lateScene(t, "6008/136: 19x19, slate and shell stones seen at a slant", 5988278468349759981, 640, 480, "yenw-computer-go-dataset-AI/Jin-Mao-Ce-Shi/2474.sgf", 75),
	} {
		t.Run(sc.name, func(t *testing.T) {
			img, found, drawn := finderGrid(t, sc)
			defer img.Close()
			if off := rendertest.SpacingsOff(found, drawn, true); off > 0.5 || found.Confidence >= vision.StillMinConfidence {
				t.Fatalf("the finder's grid is %.2f spacings off at %.2f: the scene no longer tests a right unsure grid", off, found.Confidence)
			}
			c := vision.CheckGrid(img, found, vision.Params{})
			if off := rendertest.SpacingsOff(c, drawn, true); off > 0.5 {
				t.Errorf("CheckGrid moved the finder's right grid %.2f spacings off the drawn corners", off)
			}
		})
	}
}

// slantedPlastic is scene 124 of `render-boards -seed 6001 -sizes 19:1 -sgf ../shared/sgf-corpus
// -sgf-share 1 -late 0.15`: a plastic board late in a game, seen at a slant, its far edge row
// foreshortened under a hand.
func slantedPlastic(t testing.TB) renderedScene {
	return lateScene(t, "6001/124: 19x19, late in a game, plastic board seen at a slant", 10067228406169682698, 1024, 768, "yenw-computer-go-dataset-AI/Jin-Mao-Ce-Shi/1278.sgf", 183)
}

// TestFindBoardTakesAGridWhoseEdgesFit runs late-game renders, with the board's size given, on
// which calib.Find fits the board below its sure bar and calib.Check finds every edge line of
// that grid and no line beyond, but too few of its points show a cross or a sure stone for
// vision.FindBoard's counts: `-seed 6001` scene 124 (slantedPlastic: 90 lined points, 168 sure
// stones) and `-seed 6008` scene 224 (a board seen at a slant, 80 lined, 75 stones). The build
// before refused both.
func TestFindBoardTakesAGridWhoseEdgesFit(t *testing.T) {
	findScenes(t, []renderedScene{
		slantedPlastic(t),
		lateScene(t, "6008/224: 19x19, seen at a slant", 1539140990038975398, 1280, 720, "yenw-computer-go-dataset-AI/BensonDarr/0234.sgf", 77),
	}, true)
}

// TestFindWhereTheStonesRunPastTheBoard runs a render whose black stones' lattice runs 29 lines
// wide, the bowls' and the table's dark blobs on it too, and whose lines no pass fits: the grid
// the stones' densest window places (stoneWindowSearch), checked by the reader, finds it. Scene
// 110 of `render-boards -seed 6005 -sizes 19:1 -sgf ../shared/sgf-corpus -sgf-share 1 -late 0.15`;
// the build without that pass refused it.
func TestFindWhereTheStonesRunPastTheBoard(t *testing.T) {
	findRenderedScenes(t, []renderedScene{
		lateScene(t, "6005/110: 19x19, late in a game, a hand", 1208507843736636729, 960, 720, "yenw-computer-go-dataset-AI/Jin-Mao-Ce-Shi/0233.sgf", 198),
	})
}

// TestFindWhereOnlyTheReadingPlacesTheGrid: late-game boards whose lines glare or blur out of the
// picture and whose black stones are too few or too faint to place a lattice; every pass of the
// finder refuses them. The board's outline still shows against the table, and the grid the reader
// places in it (vision's outlineRead, with the table's board size given) must be the drawn one.
func TestFindWhereOnlyTheReadingPlacesTheGrid(t *testing.T) {
	findScenes(t, []renderedScene{
		hardLateScene(t, "6001/123: 19x19, a lamp's glare over the middle", 1500727055298802112, 1280, 720, "yenw-computer-go-dataset-AI/Jin-Mao-Ce-Shi/1978.sgf", 93),
		hardLateScene(t, "6002/22: 19x19, blurred", 3375319036674037810, 960, 720, "yenw-computer-go-dataset-AI/Jin-Mao-Ce-Shi/2141.sgf", 188),
		// Light lines on dark wood: the plain pass's best grid (0.02) runs out of the picture,
		// which is no sign that the board does, and must not keep the reader from its outline.
		lateScene(t, "6008/251: 19x19, light lines on dark wood, a hand", 14749050519598893593, 1280, 720, "yenw-computer-go-dataset-AI/Jin-Mao-Ce-Shi/1659.sgf", 235),
	}, true)
}

// BenchmarkFindBoardByReading720p is FindBoard, with the board's size given, on a frame only the
// reading places (TestFindWhereOnlyTheReadingPlacesTheGrid's first scene, 1280x720): every pass of
// the finder refuses it, then the grids in the board's outlines are read at every margin, the
// surest refined corner by corner and checked half a spacing off (vision's outlineRead).
func BenchmarkFindBoardByReading720p(b *testing.B) {
	opt := demo.SampleOptions{Size: 19, W: 1280, H: 720, Hard: true, HandChance: 0.3,
		Stones: corpusPosition(b, "yenw-computer-go-dataset-AI/Jin-Mao-Ce-Shi/1978.sgf", 0, 93)}
	_, img, err := rendertest.Frame(1500727055298802112, opt)
	if err != nil {
		b.Fatal(err)
	}
	defer img.Close()
	if _, err := vision.FindBoard(img, 19, vision.Params{}); err != nil {
		b.Fatalf("refused (%v): it no longer measures a grid the reading places", err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	c0 := benchcpu.Now()
	for i := 0; i < b.N; i++ {
		_, _ = vision.FindBoard(img, 19, vision.Params{})
	}
	benchcpu.ReportPerOp(b, c0)
}

// BenchmarkFindUnsure768p is calib.Find, with the board's size given, on frames whose line passes
// fit only an unsure grid, at 1024x768: TestFindUnsureGridJudgedWithoutNoise's crowded board, whose
// grid the noise-floor pass replaces, and `-seed 6005` scene 33 (0.42, 0.22 spacing off), which
// nothing replaces, so that the noise-floor pass and both outline passes run after the line passes.
func BenchmarkFindUnsure768p(b *testing.B) {
	for _, sc := range []struct {
		name string
		seed uint64
		game string
		move int
	}{
		{"replaced", 4679372147869765486, "yenw-computer-go-dataset-AI/2018-Tencent-World-AI-WEIQI-Competition/0044.sgf", 335},
		{"kept", 10820169524008193109, "yenw-computer-go-dataset-AI/The-11th-Computer-Go-UEC-Cup/0054.sgf", 324},
	} {
		b.Run(sc.name, func(b *testing.B) {
			opt := demo.SampleOptions{Size: 19, W: 1024, H: 768, HandChance: 0.3, Stones: corpusPosition(b, sc.game, 0, sc.move)}
			_, img, err := rendertest.Frame(sc.seed, opt)
			if err != nil {
				b.Fatal(err)
			}
			defer img.Close()
			opts := calib.FindOptions{Size: 19, MinConfidence: 0.3}
			if _, err := calib.Find(img, opts); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			c0 := benchcpu.Now()
			for i := 0; i < b.N; i++ {
				_, _ = calib.Find(img, opts)
			}
			benchcpu.ReportPerOp(b, c0)
		})
	}
}

// TestFindBoardLeavesARightGridOnItsStones runs scene 140 of `render-boards -seed 6001` (as above,
// the board's size given as `kiosk detect --size 19` gives it): calib.Find fits its board right
// (0.14 spacing off) at 0.43, and a half-spacing move makes the reader sure of 52 more of its points,
// a seventh of 361, which vision.FindBoard's centreOnStones took until 2026-12-03 for a sign that
// the stones sat between the grid's points; the moved grid, 0.66 off, was then refused. The board
// must be found right (the bar is now a sixth, centreGain).
func TestFindBoardLeavesARightGridOnItsStones(t *testing.T) {
	sc := lateScene(t, "6001/140: 19x19, glass stones on a plastic board at a 41-degree tilt", 7278772755202590252, 1280, 720, "yenw-computer-go-dataset-AI/Li-Long/0714.sgf", 224)
	sc.mustFind = true
	findScenes(t, []renderedScene{sc}, true)
}

// TestFindBoardRectifiesAgainOnItsOwnLines runs two late-game renders that vision.FindBoard
// refused for low confidence until 2026-12-03 (the board's size given): on each the first lattice,
// rectified through vanishing points a little off, lay about 2 and 3 lines off the board at 0.06
// and 0.14. Rectified again through the vanishing points of the lines that lattice explains
// (rectifyAgain), the board's own grid is found. A third, `-seed 6007` scene 180, is found right
// at 0.50 as before: rectified again without nearLattice's bound, a grid 11 spacings off came out
// at 0.63 and was taken.
func TestFindBoardRectifiesAgainOnItsOwnLines(t *testing.T) {
	scenes := []renderedScene{
		lateScene(t, "6001/73: 19x19, slate and shell on yellow wood at a 39-degree tilt", 4993025030931103445, 640, 480, "yenw-computer-go-dataset-AI/Li-Long/0061.sgf", 212),
		lateScene(t, "6002/40: 19x19, glass stones on dark wood, turned", 16220228352325136347, 1024, 768, "yenw-computer-go-dataset-AI/master/0028.sgf", 152),
		lateScene(t, "6007/180: 19x19, slate and shell on yellow wood at an 18-degree tilt", 8363806382459229448, 1280, 720, "gnugo-regression-games/nngs/juka-gnugo-3.5.1-200309161948.sgf", 263),
	}
	for i := range scenes {
		scenes[i].mustFind = true
	}
	findScenes(t, scenes, true)
}

// TestFindBoardDoubtsASureGrid runs scene 161 of `render-boards -seed 6001 -sizes 19:1 -sgf
// ../shared/sgf-corpus -sgf-share 1 -late 0.15`: glass stones on a white board under hard light,
// seen at 27 degrees. calib.Find fits it at 0.71, sure by its lines, with a grid half a spacing off
// at one corner (a lens term fitted to it), on which the learned reader is sure of only 273 of the
// 361 points (351 on the drawn grid). vision.FindBoard asks the reader of every grid the finder is
// sure of (readerDoubts), not only of those under vision.CentreBelow, and so must not return that
// grid: the build that asked only under CentreBelow returned it, and read 106 points wrong on it.
func TestFindBoardDoubtsASureGrid(t *testing.T) {
	sc := hardLateScene(t, "6001/161: glass stones on a white board, hard light", 7542417458335846902, 800, 600,
		"yenw-computer-go-dataset-AI/Jin-Mao-Ce-Shi/2185.sgf", 214)
	sc.mustFind = false
	findAfterFinderGrid(t, sc, "a wrong grid found surely", func(off, conf float64) bool {
		return off > 0.5 && conf >= vision.CentreBelow
	})
}

// finderGrid draws sc and fits its board as vision.FindBoard's first step does (calib.Find, the
// size given, at FindBoard's low bar): the frame, which the caller closes, the grid, and the
// drawn corners.
func finderGrid(t *testing.T, sc renderedScene) (gocv.Mat, calib.Calibration, [4][2]float64) {
	t.Helper()
	s, img, err := rendertest.Frame(sc.seed, sc.opt)
	if err != nil {
		t.Fatal(err)
	}
	found, err := calib.Find(img, calib.FindOptions{Size: sc.opt.Size, MinConfidence: vision.LowMinConfidence})
	if err != nil {
		img.Close()
		t.Fatal(err)
	}
	return img, found, s.Corners
}

// TestFindBoardStonesBesideTheBoardAreNotOnIt runs scene 152 of `render-boards -seed 6001` (as
// above): a dim late-game board on a dark table, a bowl of stones close beside its left edge.
// calib.Find fits it at 0.45, a quarter spacing off, its faint lines too few for the unsure fit's
// counts, and its 64 black stones sit on the grid's points; but the dark table in the gap between
// the board and the bowl made two stone-sized dark blobs on the line just beyond the grid's left
// edge, and the frame is too dim for the board's outline, so the stones did not place the grid
// and the board was refused. The band beyond that edge is now judged by its brightness against
// the board's wood (calib.bandsOnWood), and the board must be found.
func TestFindBoardStonesBesideTheBoardAreNotOnIt(t *testing.T) {
	sc := lateScene(t, "6001/152: a dim board, a bowl beside it on a dark table", 14634730986023870055, 1024, 768,
		"yenw-computer-go-dataset-AI/Li-Long/0464.sgf", 147)
	findAfterFinderGrid(t, sc, "an unsure right grid", func(off, conf float64) bool {
		return off <= 0.5 && conf < vision.StillMinConfidence
	})
}

// findAfterFinderGrid checks that calib.Find's grid in sc (finderGrid) is still the kind of grid the
// test is about, which tests tells from the grid's spacings off the drawn corners and its confidence
// and what names in the failure, then runs findRendered on sc with the size given.
func findAfterFinderGrid(t *testing.T, sc renderedScene, what string, tests func(off, conf float64) bool) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skips drawing and searching rendered photos")
	}
	img, found, drawn := finderGrid(t, sc)
	img.Close()
	if off := rendertest.SpacingsOff(found, drawn, true); !tests(off, found.Confidence) {
		t.Fatalf("the finder's grid is %.2f spacings off at %.2f: the scene no longer tests %s", off, found.Confidence, what)
	}
	findRendered(t, sc, 19)
}
