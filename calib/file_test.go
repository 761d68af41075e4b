package calib

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func sampleCal(t *testing.T) Calibration {
	t.Helper()
	c, err := FromCorners(1280, 720, 19, [4]Point2{{407, 45}, {939, 55}, {991, 643}, {329, 621}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSaveLoadRoundTrip(t *testing.T) {
	c := sampleCal(t)
	c.BlackSide = Left
	c.Confidence = 0.8
	path := filepath.Join(t.TempDir(), "calibration.json")
	if err := Save(path, c); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != c {
		t.Fatalf("round trip: got %+v, want %+v", got, c)
	}
	if _, err := LoadFor(path, 1280, 720); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFor(path, 640, 480); !errors.Is(err, ErrImageSize) {
		t.Fatalf("LoadFor wrong camera size: got %v, want ErrImageSize", err)
	}
	// Overwrite keeps exactly one file (no temp files left behind).
	if err := Save(path, c); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(filepath.Dir(path))
	if len(ents) != 1 {
		t.Fatalf("directory has %d entries after saves, want 1", len(ents))
	}
}

func TestGoldenFile(t *testing.T) {
	c, err := Load(filepath.Join("testdata", "calibration_v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Size != 19 || c.BlackSide != Bottom || c.ImageWidth != 1280 || c.Corners[2] != (Point2{991, 643}) {
		t.Fatalf("golden file decoded to %+v", c)
	}
	b, err := Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join("testdata", "calibration_v1.json"))
	if string(b) != string(want) {
		t.Fatalf("Marshal differs from golden file:\n%s\nwant\n%s", b, want)
	}
}

func TestLoadErrors(t *testing.T) {
	good := `{"version":1,"image_width":1280,"image_height":720,"size":19,` +
		`"corners":[{"x":407,"y":45},{"x":939,"y":55},{"x":991,"y":643},{"x":329,"y":621}],"black_side":"bottom","confidence":1}`
	tests := []struct {
		name string
		data string
		want error
	}{
		{"empty", "", ErrCorrupt},
		{"truncated", good[:len(good)/2], ErrCorrupt},
		{"not json", "hello", ErrCorrupt},
		{"no version", `{"size":19}`, ErrCorrupt},
		{"future version", strings.Replace(good, `"version":1`, `"version":2`, 1), ErrVersion},
		{"version zero", strings.Replace(good, `"version":1`, `"version":0`, 1), ErrVersion},
		{"size 1", strings.Replace(good, `"size":19`, `"size":1`, 1), ErrBoardSize},
		{"size 26", strings.Replace(good, `"size":19`, `"size":26`, 1), ErrBoardSize},
		{"zero image", strings.Replace(good, `"image_width":1280`, `"image_width":0`, 1), ErrImageSize},
		{"bowtie", strings.Replace(good, `{"x":991,"y":643},{"x":329,"y":621}`, `{"x":329,"y":621},{"x":991,"y":643}`, 1), ErrCorners},
		{"counter-clockwise", strings.Replace(good, `{"x":939,"y":55},{"x":991,"y":643},{"x":329,"y":621}`, `{"x":329,"y":621},{"x":991,"y":643},{"x":939,"y":55}`, 1), ErrCorners},
		{"outside image", strings.Replace(good, `{"x":991,"y":643}`, `{"x":9991,"y":643}`, 1), ErrCorners},
		{"bad side", strings.Replace(good, `"bottom"`, `"north"`, 1), ErrCorrupt},
		{"unknown field", strings.Replace(good, `"size":19`, `"size":19,"extra":1`, 1), ErrCorrupt},
		{"trailing", good + "{}", ErrCorrupt},
		{"three corners", strings.Replace(good, `,{"x":329,"y":621}`, ``, 1), ErrCorners},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.json")
			if err := os.WriteFile(path, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Load(path)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Load: got %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: got %v", err)
	}
}

func TestFromCornersRejects(t *testing.T) {
	sq := [4]Point2{{10, 10}, {90, 10}, {90, 90}, {10, 90}}
	if _, err := FromCorners(100, 100, 19, sq); err != nil {
		t.Fatal(err)
	}
	if _, err := FromCorners(100, 100, 30, sq); !errors.Is(err, ErrBoardSize) {
		t.Fatalf("size 30: %v", err)
	}
	nan := sq
	nan[1].X = math.NaN()
	if _, err := FromCorners(100, 100, 19, nan); !errors.Is(err, ErrCorners) {
		t.Fatalf("NaN corner: %v", err)
	}
	tiny := [4]Point2{{10, 10}, {11, 10}, {11, 11}, {10, 11}}
	if _, err := FromCorners(100, 100, 19, tiny); !errors.Is(err, ErrCorners) {
		t.Fatalf("tiny quad: %v", err)
	}
}

func TestGeometry(t *testing.T) {
	c, err := FromCorners(200, 200, 19, [4]Point2{{10, 20}, {190, 20}, {190, 200 - 20 + 20}, {10, 200}})
	if err != nil {
		t.Fatal(err)
	}
	for i, cr := range [4][2]int{{0, 0}, {18, 0}, {18, 18}, {0, 18}} {
		p := c.IntersectionPixel(cr[0], cr[1])
		if math.Hypot(p.X-c.Corners[i].X, p.Y-c.Corners[i].Y) > 1e-6 {
			t.Fatalf("corner %d: got %v want %v", i, p, c.Corners[i])
		}
	}
	g := c.ImageToGrid(c.IntersectionPixel(5, 7))
	if math.Abs(g.X-5) > 1e-6 || math.Abs(g.Y-7) > 1e-6 {
		t.Fatalf("ImageToGrid round trip: %v", g)
	}
	h := c.Homography()
	defer h.Close()
	if h.Rows() != 3 || h.Cols() != 3 || math.Abs(h.GetDoubleAt(2, 2)-1) > 1e-9 {
		t.Fatalf("Homography mat %dx%d h22=%v", h.Rows(), h.Cols(), h.GetDoubleAt(2, 2))
	}
	// BlackSide mapping: Black's near-left corner (x=0, y=18) lies at the image corner on Black's left.
	wantCorner := map[Side]int{Bottom: BottomLeft, Top: TopRight, Left: TopLeft, Right: BottomRight}
	for side, corner := range wantCorner {
		c.BlackSide = side
		p := c.PointPixel(0, 18)
		if math.Hypot(p.X-c.Corners[corner].X, p.Y-c.Corners[corner].Y) > 1e-6 {
			t.Errorf("side %v: Black's near-left corner at %v, want corner %d %v", side, p, corner, c.Corners[corner])
		}
	}
}

func FuzzParse(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("testdata", "calibration_v1.json")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"version":1}`))
	f.Add([]byte(`{"version":1,"image_width":10,"image_height":10,"size":9,"corners":[{"x":1,"y":1},{"x":9,"y":1},{"x":9,"y":9},{"x":1,"y":9}],"black_side":"top","confidence":0.5}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			if c != (Calibration{}) {
				t.Fatalf("error %v but non-zero calibration", err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("Parse accepted an invalid calibration: %v", err)
		}
		b, err := Marshal(c)
		if err != nil {
			t.Fatalf("Marshal of parsed calibration: %v", err)
		}
		c2, err := Parse(b)
		if err != nil || c2 != c {
			t.Fatalf("re-parse: %v %+v vs %+v", err, c2, c)
		}
		_ = c.IntersectionPixel(c.Size/2, c.Size/2)
	})
}
