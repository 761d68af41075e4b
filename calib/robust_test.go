package calib

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"gocv.io/x/gocv"

	"tengen/internal/shareddata"
)

// perturbLSB returns a copy of img with one added to every 97th byte from offset k (saturating
// at 255): noise of one least significant bit, like the difference between two JPEG decoders.
func perturbLSB(t *testing.T, img gocv.Mat, k int) gocv.Mat {
	t.Helper()
	c := img.Clone()
	b, err := c.DataPtrUint8()
	if err != nil {
		c.Close()
		t.Fatal(err)
	}
	for i := k; i < len(b); i += 97 {
		if b[i] < 255 {
			b[i]++
		}
	}
	return c
}

// TestFindStableUnderLSBNoise finds the board in gomrade-sample 2/67.jpg (Go-decoded, as the
// kiosk decodes photos) and in 16 copies with one-LSB noise at different offsets, as
// vision.FindBoard asks (19x19, low confidence bar 0.3). The photo was marginal: the best
// lattice window sat a few lines off the board, ran past the image, and the whole line family
// pair was discarded or not depending on a single pixel of the window search, so the board was
// found for about half of the noise offsets. Every one must now give the verified corners.
func TestFindStableUnderLSBNoise(t *testing.T) {
	const name = "2/67.jpg"
	dir := shareddata.Path(t, "vision-eval", "gomrade-sample")
	raw, err := os.ReadFile(filepath.Join(dir, "corners_verified.json"))
	if err != nil {
		t.Fatal(err)
	}
	var truth map[string][4][2]float64
	if err := json.Unmarshal(raw, &truth); err != nil {
		t.Fatal(err)
	}
	corners, ok := truth[name]
	if !ok {
		t.Fatalf("%s has no verified corners", name)
	}
	var want [4]Point2
	for i, p := range corners {
		want[i] = Point2{p[0], p[1]}
	}
	img := loadRaw(t, filepath.Join(dir, filepath.FromSlash(name)))
	defer img.Close()
	gt, err := FromCorners(img.Cols(), img.Rows(), 19, want)
	if err != nil {
		t.Fatalf("ground truth: %v", err)
	}
	cases := []int{-1} // -1: the photo as decoded
	for k := 0; k < 16; k++ {
		cases = append(cases, k)
	}
	for _, k := range cases {
		t.Run(fmt.Sprintf("k=%d", k), func(t *testing.T) {
			m := img.Clone()
			if k >= 0 {
				m.Close()
				m = perturbLSB(t, img, k)
			}
			defer m.Close()
			c, err := Find(m, FindOptions{Size: 19, MinConfidence: 0.3})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if c.Size != 19 {
				t.Fatalf("%s: size %d, want 19", name, c.Size)
			}
			if e := cornerErrorInSpacings(c, gt); e > 0.25 {
				t.Errorf("%s: worst corner %.3f spacing from the verified one (bar 0.25); corners %v", name, e, c.Corners)
			}
		})
	}
}
