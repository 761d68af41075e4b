package calib

import (
	"math/rand/v2"
	"testing"

	"gocv.io/x/gocv"
)

// TestCompactPlaneReadsAsFloat checks that a compact (8-bit) plane samples, and gives the line
// cap, exactly as the float plane made from the same Mat.
func TestCompactPlaneReadsAsFloat(t *testing.T) {
	const w, h = 97, 61
	rng := rand.New(rand.NewPCG(5, 6))
	b := make([]byte, w*h)
	for i := range b {
		b[i] = uint8(rng.IntN(256))
	}
	m, err := gocv.NewMatFromBytes(h, w, gocv.MatTypeCV8U, b)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	full, err := planeFromMat(m, false)
	if err != nil {
		t.Fatal(err)
	}
	compact, err := planeFromMat(m, true)
	if err != nil {
		t.Fatal(err)
	}
	if compact.pix != nil || len(compact.pix8) != w*h || len(full.pix) != w*h {
		t.Fatalf("compact plane holds %d floats and %d bytes; full %d floats", len(compact.pix), len(compact.pix8), len(full.pix))
	}
	for k := 0; k < 5000; k++ {
		x, y := rng.Float64()*(w+4)-2, rng.Float64()*(h+4)-2
		if a, c := full.at(x, y), compact.at(x, y); a != c {
			t.Fatalf("at(%.3f, %.3f): compact %v, float %v", x, y, c, a)
		}
	}
	if a, c := lineCap(&full), lineCap(&compact); a != c {
		t.Errorf("line cap: compact %v, float %v", c, a)
	}
}
