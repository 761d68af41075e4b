// Package evalset lists the labelled board photographs of ../shared/vision-eval as plain Go data:
// which source each comes from, its per-intersection label (with the known label errors
// corrected), the points a hand covers, the verified corners where a source gives them, and the
// stone boxes of the sources labelled only with boxes. The reader's training, its
// leave-one-source-out evaluation and the accuracy tests all read the photos through it, so the
// corrections and the split into sources are defined once.
package evalset

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"tengen/vision/observe"
)

// The sources of labelled photos, each a different camera, board and room. Leave-one-source-out
// evaluation holds out one of them at a time.
const (
	ImagoT1  = "imago-t1" // phone, near top-down, folding board on blue cloth
	ImagoT2  = "imago-t2" // webcam, oblique, wooden board on white cloth, bright daylight
	ImagoT3  = "imago-t3" // webcam, the same room as t2, another game
	Gomrade  = "gomrade"  // mixed stills and a webcam sequence, several boards and rooms
	Roboflow = "roboflow" // 264 close photos of many boards, stone boxes only
	Renders  = "renders"  // boards drawn by the demo renderer with randomized light, lens and styles
)

// sourceOrder is the sources in a fixed order (an array: it cannot be changed).
var sourceOrder = [...]string{ImagoT1, ImagoT2, ImagoT3, Gomrade, Roboflow, Renders}

// Sources returns the names of every source, in a fixed order.
func Sources() []string { return append([]string(nil), sourceOrder[:]...) }

// Photo is one labelled photograph.
type Photo struct {
	Source string // one of the source names above
	Rel    string // path relative to the vision-eval directory (or the render directory)
	Path   string // absolute path
	// Label is the position as seen in the image (row 0 at the top), for sources labelled per
	// intersection; its Size is 0 for box-labelled photos.
	Label observe.Observation
	// Corners are the corner intersections in image pixels (TL, TR, BR, BL as seen), when the
	// source gives them (gomrade's verified corners, the renders); nil otherwise.
	Corners *[4][2]float64
	// Covered lists the points (column, row as seen) a hand or sleeve covers.
	Covered [][2]int
	// Boxes are the labelled stones of a box-labelled photo (Roboflow), in image fractions.
	Boxes []Box
}

// Box is one labelled stone of a box-labelled photo: its colour and centre as a fraction of the
// image's width and height.
type Box struct {
	Stone observe.Stone
	X, Y  float64 // centre
	W, H  float64 // width and height
}

// Fix corrects one point of a label file believed wrong.
type Fix struct {
	Col, Row int // as seen in the image, 0-based from the top-left
	Truth    observe.Stone
}

// Correction is a label file believed wrong: the evidence and the corrected points.
type Correction struct {
	Why   string
	Fixes []Fix
}

// Corrections lists the photos whose label files we believe are wrong (relative path -> fix).
// They are corrected instead of teaching or scoring the reader against wrong labels.
func Corrections() map[string]Correction {
	return map[string]Correction{
		"imago-tests/t2/skip/t2_053.jpg": {
			"the label has B on qi and nothing on qj, qk; the photo shows B on qj and qk and qi empty, " +
				"as in frames 052 and 075+ (imago-tests MANIFEST, sequence check)",
			[]Fix{{16, 8, observe.Empty}, {16, 9, observe.Black}, {16, 10, observe.Black}},
		},
		"imago-tests/t2/skip/t2_054.jpg": {
			"the label has B on qi and qj and nothing on qk; the photo shows B on qj and qk and qi empty " +
				"(imago-tests MANIFEST, sequence check)",
			[]Fix{{16, 8, observe.Empty}, {16, 10, observe.Black}},
		},
		"gomrade-sample/2/67.jpg": {
			"the label has row 6 (0-based) as '. . . B . W'; the photo shows two white stones centred on " +
				"columns 1 and 2 of that row (left of the black on column 3), seen in the warped board",
			[]Fix{{1, 6, observe.White}, {2, 6, observe.White}},
		},
	}
}

// HandCover is the points of one photo a hand or a sleeve covers, and what covers them.
type HandCover struct {
	Why    string
	Points [][2]int // column, row as seen in the image
}

// HandCovered lists, per photo, the points a hand or a sleeve covers (seen in the photo; the
// labels give the position under the hand).
func HandCovered() map[string]HandCover {
	return map[string]HandCover{
		"imago-tests/t3/t3_003.jpg":      {"fingers reach in over the left edge on rows 7-9", [][2]int{{0, 7}, {0, 8}, {0, 9}}},
		"imago-tests/t3/t3_005.jpg":      {"a sleeve covers the top-left corner", [][2]int{{0, 0}, {0, 1}}},
		"imago-tests/t2/skip/t2_008.jpg": {"a fingertip over the left edge on row 6", [][2]int{{0, 6}}},
	}
}

// ErrNoPhotos means a directory held none of the expected photos.
var ErrNoPhotos = errors.New("evalset: no labelled photos")

// Load lists the labelled photos of the vision-eval directory root: imago-tests and
// gomrade-sample with their per-intersection labels, and the Roboflow photos with their boxes.
func Load(root string) ([]Photo, error) {
	fixes, covered := Corrections(), HandCovered()
	var verified map[string][4][2]float64
	raw, err := os.ReadFile(filepath.Join(root, "gomrade-sample", "corners_verified.json"))
	if err != nil {
		return nil, fmt.Errorf("evalset: %w", err)
	}
	if err := json.Unmarshal(raw, &verified); err != nil {
		return nil, fmt.Errorf("evalset: gomrade corners: %w", err)
	}
	var out []Photo
	for _, set := range []string{"imago-tests", "gomrade-sample"} {
		err := filepath.WalkDir(filepath.Join(root, set), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".jpg") {
				return err
			}
			raw, err := os.ReadFile(strings.TrimSuffix(p, ".jpg") + ".txt")
			if err != nil {
				return nil // a photo without labels is not part of the set
			}
			lab, err := observe.ParseText(string(raw))
			if err != nil {
				return fmt.Errorf("evalset: %s: %w", p, err)
			}
			rel, _ := filepath.Rel(root, p)
			for _, fx := range fixes[rel].Fixes {
				lab.Stones[fx.Row*lab.Size+fx.Col] = fx.Truth
			}
			ph := Photo{Rel: rel, Path: p, Label: lab, Covered: covered[rel].Points}
			if set == "imago-tests" {
				ph.Source = "imago-" + strings.Split(rel, "/")[1]
			} else {
				ph.Source = Gomrade
				if q, ok := verified[strings.TrimPrefix(rel, "gomrade-sample/")]; ok {
					ph.Corners = &q
				}
			}
			out = append(out, ph)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	boxed, err := loadBoxed(root)
	if err != nil {
		return nil, err
	}
	out = append(out, boxed...)
	if len(out) == 0 {
		return nil, fmt.Errorf("%w in %s", ErrNoPhotos, root)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out, nil
}

// loadBoxed lists the Roboflow photos with their YOLO boxes (class 0 black, 1 white).
func loadBoxed(root string) ([]Photo, error) {
	dir := filepath.Join(root, "roboflow-stone-detection")
	imgs, err := filepath.Glob(filepath.Join(dir, "*", "images", "*.jpg"))
	if err != nil {
		return nil, fmt.Errorf("evalset: %w", err)
	}
	var out []Photo
	for _, p := range imgs {
		lab := strings.Replace(strings.TrimSuffix(p, ".jpg")+".txt", "/images/", "/labels/", 1)
		boxes, err := readBoxes(lab)
		if err != nil {
			return nil, err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, Photo{Source: Roboflow, Rel: rel, Path: p, Boxes: boxes})
	}
	return out, nil
}

// readBoxes reads a YOLO label file: one "class cx cy w h" line per stone.
func readBoxes(path string) ([]Box, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("evalset: %w", err)
	}
	defer f.Close()
	return ParseBoxes(f, path)
}

// ParseBoxes reads YOLO box labels (one "class cx cy w h" line per stone, class 0 black and 1
// white, the rest fractions of the image); name is used in errors.
func ParseBoxes(r io.Reader, name string) ([]Box, error) {
	path := name
	var out []Box
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 {
			continue
		}
		if len(fs) != 5 {
			return nil, fmt.Errorf("evalset: %s:%d: want 5 fields, have %d", path, n, len(fs))
		}
		cls, err1 := strconv.Atoi(fs[0])
		x, err2 := strconv.ParseFloat(fs[1], 64)
		y, err3 := strconv.ParseFloat(fs[2], 64)
		w, err4 := strconv.ParseFloat(fs[3], 64)
		h, err5 := strconv.ParseFloat(fs[4], 64)
		if err := errors.Join(err1, err2, err3, err4, err5); err != nil || cls < 0 || cls > 1 || !fraction(x) || !fraction(y) || !fraction(w) || !fraction(h) {
			return nil, fmt.Errorf("evalset: %s:%d: bad box %q", path, n, sc.Text())
		}
		s := observe.Black
		if cls == 1 {
			s = observe.White
		}
		out = append(out, Box{Stone: s, X: x, Y: y, W: w, H: h})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("evalset: %s: %w", path, err)
	}
	return out, nil
}

// fraction reports whether v is a finite number in 0..1.
func fraction(v float64) bool { return v >= 0 && v <= 1 }

// BoxTolerance is how far (in grid spacings) a box centre may lie from an intersection and still
// label it; a box further off than BoxAmbiguous from every intersection makes its nearest points unknown.
const (
	BoxTolerance = 0.3
	BoxAmbiguous = 0.45
)

// BoxLabels turns a box-labelled photo into per-intersection labels on a found grid of size n:
// toGrid maps image pixels (x, y) to grid coordinates (column, row; integers at intersections)
// and w, h are the image's size. Points a box labels get its stone; points no box comes near are
// empty; a point with a box between BoxTolerance and BoxAmbiguous spacings away, or two boxes,
// is unknown (known false). It also returns the share of the boxes inside the grid that lie on
// an intersection: a low share means the grid is wrong and the labels are not to be used.
func BoxLabels(boxes []Box, n int, w, h float64, toGrid func(x, y float64) (float64, float64)) (labels []observe.Stone, known []bool, onGrid float64) {
	labels = make([]observe.Stone, n*n)
	known = make([]bool, n*n)
	for i := range known {
		known[i] = true
	}
	inside, on := 0, 0
	hit := make([]int, n*n)
	for _, b := range boxes {
		gx, gy := toGrid(b.X*w, b.Y*h)
		c, r := math.Round(gx), math.Round(gy)
		if c < -0.5 || r < -0.5 || c > float64(n)-0.5 || r > float64(n)-0.5 {
			continue
		}
		inside++
		d := math.Hypot(gx-c, gy-r)
		ci, ri := int(c), int(r)
		if ci < 0 || ri < 0 || ci >= n || ri >= n {
			continue
		}
		k := ri*n + ci
		switch {
		case d <= BoxTolerance:
			on++
			hit[k]++
			labels[k] = b.Stone
		case d <= BoxAmbiguous:
			known[k] = false
		default:
			// Far between points: the stone is off the lattice; its neighbours are uncertain.
			for _, dc := range [2]float64{math.Floor(gx), math.Ceil(gx)} {
				for _, dr := range [2]float64{math.Floor(gy), math.Ceil(gy)} {
					if dc >= 0 && dr >= 0 && int(dc) < n && int(dr) < n {
						known[int(dr)*n+int(dc)] = false
					}
				}
			}
		}
	}
	for k, c := range hit {
		if c > 1 {
			known[k] = false
		}
	}
	if inside == 0 {
		return labels, known, 0
	}
	return labels, known, float64(on) / float64(inside)
}

// RenderLabel is the JSON sidecar beside each rendered frame (as `cmd/render-boards` writes it):
// the board size, the corner intersections in pixels (TL, TR, BR, BL as seen), the position as
// Size lines of '.', 'X', 'O' (row 0 at the top of the picture) and the points a hand covers.
type RenderLabel struct {
	Size    int           `json:"size"`
	Corners [4][2]float64 `json:"corners"`
	Stones  string        `json:"stones"`
	Covered [][2]int      `json:"covered"`
}

// WriteRender writes a rendered frame as base.png with its label as base.json.
func WriteRender(base string, img image.Image, lab RenderLabel) error {
	raw, err := json.Marshal(lab)
	if err != nil {
		return fmt.Errorf("evalset: %w", err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return fmt.Errorf("evalset: %w", err)
	}
	if err := os.WriteFile(base+".png", buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("evalset: %w", err)
	}
	if err := os.WriteFile(base+".json", raw, 0o644); err != nil {
		return fmt.Errorf("evalset: %w", err)
	}
	return nil
}

// LoadRenders lists the rendered boards of dir (PNG frames with a JSON sidecar of the same name,
// as `cmd/render-boards` writes them) as photos of the source Renders.
func LoadRenders(dir string) ([]Photo, error) {
	metas, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("evalset: %w", err)
	}
	sort.Strings(metas)
	var out []Photo
	for _, m := range metas {
		raw, err := os.ReadFile(m)
		if err != nil {
			return nil, fmt.Errorf("evalset: %w", err)
		}
		var meta RenderLabel
		if err := json.Unmarshal(raw, &meta); err != nil {
			return nil, fmt.Errorf("evalset: %s: %w", m, err)
		}
		lab, err := observe.ParseText(meta.Stones)
		if err != nil {
			return nil, fmt.Errorf("evalset: %s: %w", m, err)
		}
		if lab.Size != meta.Size {
			return nil, fmt.Errorf("evalset: %s: size %d but a %dx%d position", m, meta.Size, lab.Size, lab.Size)
		}
		img := strings.TrimSuffix(m, ".json") + ".png"
		if _, err := os.Stat(img); err != nil {
			return nil, fmt.Errorf("evalset: %w", err)
		}
		q := meta.Corners
		out = append(out, Photo{Source: Renders, Rel: filepath.Base(img), Path: img, Label: lab, Corners: &q, Covered: meta.Covered})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w in %s", ErrNoPhotos, dir)
	}
	return out, nil
}

// BoxSpacing returns the median width of the boxes in grid spacings on a found grid (toGrid as
// for BoxLabels): about 0.9 for a grid that matches the board's lines, about 1.8 for a grid of
// twice the board's lines, which the boxes' centres alone cannot tell apart.
func BoxSpacing(boxes []Box, w, h float64, toGrid func(x, y float64) (float64, float64)) float64 {
	if len(boxes) == 0 {
		return 0
	}
	ws := make([]float64, 0, len(boxes))
	for _, b := range boxes {
		x0, y0 := toGrid((b.X-b.W/2)*w, b.Y*h)
		x1, y1 := toGrid((b.X+b.W/2)*w, b.Y*h)
		ws = append(ws, math.Hypot(x1-x0, y1-y0))
	}
	sort.Float64s(ws)
	return ws[len(ws)/2]
}
