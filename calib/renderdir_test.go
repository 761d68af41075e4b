package calib_test

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/internal/rendertest"
	"tengen/vision"
	"tengen/vision/evalset"
)

// crowdedStones is the least number of stones of a crowded board in TestRenderDir's tallies: the
// fewest on a photo of sealed set A.
const crowdedStones = 129

// TestRenderDir measures board finding and reading on a directory written by cmd/render-boards
// (CALIB_RENDER_DIR=DIR; skipped without it): vision.FindBoard on every frame, judged by the drawn
// corners as TestFindBoardRenders judges its own (the drawn size, every corner within half a
// spacing), and the learned reader on the drawn corners with a lens term fitted (the points under
// a hand left out). It logs each frame and the totals, apart for crowded boards, and fails only
// where a frame cannot be measured at all.
func TestRenderDir(t *testing.T) {
	dir := os.Getenv("CALIB_RENDER_DIR")
	if dir == "" {
		t.Skip("set CALIB_RENDER_DIR to a directory written by render-boards to measure finding and reading on it")
	}
	photos, err := evalset.LoadRenders(dir)
	if err != nil {
		t.Fatal(err)
	}
	results := make([]renderResult, len(photos))
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = measureRender(photos[i])
			}
		}()
	}
	for i := range photos {
		next <- i
	}
	close(next)
	wg.Wait()
	var crowded, open renderTally
	for i, r := range results {
		if r.err != nil {
			t.Errorf("%s: %v", photos[i].Rel, r.err)
			continue
		}
		t.Logf("%s %dx%d, %3d stones: %s; read on the drawn corners: %d of %d points wrong", photos[i].Rel,
			photos[i].Label.Size, photos[i].Label.Size, r.stones, r.found, r.wrong, r.points)
		if r.stones >= crowdedStones {
			crowded.add(r)
		} else {
			open.add(r)
		}
	}
	t.Logf("%d or more stones: %v", crowdedStones, crowded)
	t.Logf("fewer: %v", open)
}

// renderResult is what TestRenderDir measured on one frame.
type renderResult struct {
	stones        int
	outcome       int // 0 found right, 1 found wrong, 2 refused
	found         string
	wrong, points int
	err           error
}

// renderTally adds renderResults up.
type renderTally struct {
	frames, right, wrongGrids, refused, exact, wrong, points int
}

func (t *renderTally) add(r renderResult) {
	t.frames++
	switch r.outcome {
	case 0:
		t.right++
	case 1:
		t.wrongGrids++
	default:
		t.refused++
	}
	if r.wrong == 0 {
		t.exact++
	}
	t.wrong += r.wrong
	t.points += r.points
}

func (t renderTally) String() string {
	share := 0.0
	if t.points > 0 {
		share = 100 * (1 - float64(t.wrong)/float64(t.points))
	}
	return fmt.Sprintf("%d frames: found right %d, wrong %d, refused %d; read on the drawn corners %.3f%% of points right (%d of %d wrong), %d boards exact",
		t.frames, t.right, t.wrongGrids, t.refused, share, t.wrong, t.points, t.exact)
}

// measureRender finds the board of one render and reads it on the drawn corners.
func measureRender(p evalset.Photo) renderResult {
	var r renderResult
	if p.Corners == nil {
		r.err = fmt.Errorf("no drawn corners")
		return r
	}
	img := gocv.IMRead(p.Path, gocv.IMReadColor)
	defer img.Close()
	if img.Empty() {
		r.err = fmt.Errorf("cannot read %s", p.Path)
		return r
	}
	for _, s := range p.Label.Stones {
		if s == 1 || s == 2 {
			r.stones++
		}
	}
	c, err := vision.FindBoard(img, 0, vision.Params{})
	switch {
	case err != nil:
		r.outcome, r.found = 2, "refused ("+calib.RefusalReason(err)+")"
	default:
		off := rendertest.SpacingsOff(c, *p.Corners, true)
		r.found = fmt.Sprintf("%dx%d at %.2f, %.2f spacing off", c.Size, c.Size, c.Confidence, off)
		if c.Size != p.Label.Size || off > 0.5 {
			r.outcome, r.found = 1, "WRONG "+r.found
		}
	}
	var q [4]calib.Point2
	for i, c := range *p.Corners {
		q[i] = calib.Point2{X: c[0], Y: c[1]}
	}
	drawn, err := calib.FromCorners(img.Cols(), img.Rows(), p.Label.Size, q)
	if err != nil {
		r.err = err
		return r
	}
	if bent, err := calib.FitLens(img, drawn); err == nil {
		drawn = bent
	}
	reader, err := vision.NewReader(drawn, vision.Params{})
	if err != nil {
		r.err = err
		return r
	}
	defer reader.Close()
	rd, err := reader.Read(img)
	if err != nil {
		r.err = err
		return r
	}
	covered := map[[2]int]bool{}
	for _, c := range p.Covered {
		covered[c] = true
	}
	n := p.Label.Size
	for i, want := range p.Label.Stones {
		if covered[[2]int{i % n, i / n}] {
			continue
		}
		r.points++
		if rd.Stones[i] != want {
			r.wrong++
		}
	}
	return r
}
