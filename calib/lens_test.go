package calib

import (
	"encoding/json"
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestLensBendIsStraightenInverted checks that bend undoes straighten over the whole frame.
func TestLensBendIsStraightenInverted(t *testing.T) {
	for _, k := range []float64{MinLens, -0.05, 0.02, 0.1, 0.3, MaxLens} {
		l := lensModel{k: k, cx: 640, cy: 360, rn: math.Hypot(1280, 720) / 2}
		// Every frame pixel, corners included, is seen at some pixel of the pinhole picture.
		for _, p := range []Point2{{640, 360}, {0, 0}, {1280, 720}, {1000, 100}, {30, 700}, {641, 360}} {
			if q := l.bend(l.straighten(p)); math.Hypot(q.X-p.X, q.Y-p.Y) > 1e-6 {
				t.Errorf("k %v: bend(straighten(%v)) = %v", k, p, q)
			}
		}
	}
}

// TestLensBendsTheLinesNotTheCorners checks what a lens term does to a calibration: the corners
// stay, the grid maps back to itself, and under barrel distortion the middle of an edge line
// bows away from the frame's centre (pincushion: toward it).
func TestLensBendsTheLinesNotTheCorners(t *testing.T) {
	straight := sampleCal(t)
	n := straight.Size - 1
	mid := straight.GridPixel(float64(n)/2, 0) // the top edge line's middle
	for _, k := range []float64{0.12, -0.08} {
		c := straight
		c.Lens = k
		if err := c.Validate(); err != nil {
			t.Fatal(err)
		}
		for i, q := range [4][2]int{{0, 0}, {n, 0}, {n, n}, {0, n}} {
			if p := c.IntersectionPixel(q[0], q[1]); math.Hypot(p.X-c.Corners[i].X, p.Y-c.Corners[i].Y) > 1e-6 {
				t.Errorf("lens %v: corner %d at %v, want %v", k, i, p, c.Corners[i])
			}
		}
		for _, g := range []Point2{{3, 4}, {9, 9}, {0.5, 17.5}, {-0.5, 18.5}} {
			if back := c.ImageToGrid(c.GridPixel(g.X, g.Y)); math.Hypot(back.X-g.X, back.Y-g.Y) > 1e-6 {
				t.Errorf("lens %v: grid %v maps back to %v", k, g, back)
			}
		}
		bent := c.GridPixel(float64(n)/2, 0)
		// The top edge is above the frame's centre: outward is up.
		if up := mid.Y - bent.Y; (k > 0) != (up > 1) {
			t.Errorf("lens %v: the top edge's middle moved up by %.2f px", k, up)
		}
	}
}

func TestValidateLens(t *testing.T) {
	for _, tc := range []struct {
		lens float64
		ok   bool
	}{{0, true}, {0.1, true}, {MinLens, true}, {MaxLens, true}, {-0.3, false}, {0.6, false}, {math.NaN(), false}, {math.Inf(1), false}} {
		c := sampleCal(t)
		c.Lens = tc.lens
		err := c.Validate()
		if tc.ok != (err == nil) || (err != nil && !errors.Is(err, ErrCorrupt)) {
			t.Errorf("lens %v: %v", tc.lens, err)
		}
	}
}

func TestLensInTheFile(t *testing.T) {
	c := sampleCal(t)
	c.Lens = 0.0625
	path := filepath.Join(t.TempDir(), "calibration.json")
	if err := Save(path, c); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil || got != c {
		t.Fatalf("round trip with a lens term: %+v, %v", got, err)
	}
	// A file written before the lens term, or for a pinhole camera, has none.
	raw, err := json.Marshal(sampleCal(t))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "lens") {
		t.Errorf("a straight calibration writes a lens term: %s", raw)
	}
	if _, err := Parse([]byte(strings.Replace(string(raw), `"size"`, `"lens":1e9,"size"`, 1))); !errors.Is(err, ErrCorrupt) {
		t.Errorf("a lens term of 1e9 loads: %v", err)
	}
}
