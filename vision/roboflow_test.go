package vision

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"tengen/calib"
	"tengen/internal/shareddata"
	"tengen/vision/observe"
)

// TestRoboflowCrossCheck reads the Roboflow "Stone Detection" photos (CC BY 4.0, YOLO boxes, no grid)
// with automatic corners and compares every intersection with the boxes: a box centre within 0.45
// spacing of a point says that point holds a stone of the box's colour; points without a box are
// empty. It is slow (a board search per photo), so it runs only with VISION_ROBOFLOW=1, and reports
// figures rather than gating: the boxes come without board sizes, many photos are close crops
// the finder rightly rejects, and the 640x640 stretch distorts stones.
func TestRoboflowCrossCheck(t *testing.T) {
	if os.Getenv("VISION_ROBOFLOW") == "" {
		// A report, not a check: the gating check on these photos is calib's TestEvalRoboflow,
		// which runs everywhere, CI included.
		t.Skip("set VISION_ROBOFLOW=1 to run the Roboflow cross-check report (several minutes; calib TestEvalRoboflow gates these photos)")
	}
	root := shareddata.Path(t, "vision-eval", "roboflow-stone-detection")
	imgs, _ := filepath.Glob(filepath.Join(root, "*", "images", "*.jpg"))
	sort.Strings(imgs)
	type res struct {
		name         string
		size, errors int
		stones, miss int
		detail       string
	}
	var results []res
	noBoard := 0
	var points, wrong, perfect, stones, missed int
	for _, p := range imgs {
		img := loadPhoto(t, p)
		cal, err := FindBoard(img, 0, Params{})
		if err != nil {
			noBoard++
			img.Close()
			continue
		}
		r, err := NewReader(cal, Params{})
		if err != nil {
			t.Fatal(err)
		}
		rd, err := r.Read(img)
		r.Close()
		img.Close()
		if err != nil {
			t.Fatal(err)
		}
		n := cal.Size
		want := make([]observe.Stone, n*n)
		lab := strings.Replace(strings.TrimSuffix(p, ".jpg")+".txt", "/images/", "/labels/", 1)
		f, err := os.Open(lab)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fs := strings.Fields(sc.Text())
			if len(fs) != 5 {
				continue
			}
			cls, _ := strconv.Atoi(fs[0])
			cx, _ := strconv.ParseFloat(fs[1], 64)
			cy, _ := strconv.ParseFloat(fs[2], 64)
			g := cal.ImageToGrid(calib.Point2{X: cx * float64(cal.ImageWidth), Y: cy * float64(cal.ImageHeight)})
			c, rr := math.Round(g.X), math.Round(g.Y)
			if math.Hypot(g.X-c, g.Y-rr) > 0.45 || c < 0 || rr < 0 || int(c) >= n || int(rr) >= n {
				continue
			}
			s := observe.Black
			if cls == 1 {
				s = observe.White
			}
			want[int(rr)*n+int(c)] = s
		}
		f.Close()
		rs := res{name: filepath.Base(p), size: n}
		var diffs []string
		for i := range want {
			if want[i] != observe.Empty {
				rs.stones++
			}
			if rd.Stones[i] != want[i] {
				rs.errors++
				if want[i] != observe.Empty && rd.Stones[i] == observe.Empty {
					rs.miss++
				}
				if len(diffs) < 8 {
					diffs = append(diffs, fmt.Sprintf("r%dc%d %c->%c", i/n, i%n, want[i].Rune(), rd.Stones[i].Rune()))
				}
			}
		}
		rs.detail = strings.Join(diffs, " ")
		results = append(results, rs)
		points += n * n
		wrong += rs.errors
		stones += rs.stones
		missed += rs.miss
		if rs.errors == 0 {
			perfect++
		}
	}
	t.Logf("%d photos: no board found in %d; read %d boards, %d perfect; %d/%d points disagree with the boxes (%.2f%%); %d of %d boxed stones read empty",
		len(imgs), noBoard, len(results), perfect, wrong, points, 100*float64(wrong)/float64(max(points, 1)), missed, stones)
	sort.Slice(results, func(i, j int) bool { return results[i].errors > results[j].errors })
	for i, r := range results {
		if i >= 15 || r.errors == 0 {
			break
		}
		t.Logf("  %s (%dx%d, %d boxed stones): %d disagree: %s", r.name, r.size, r.size, r.stones, r.errors, r.detail)
	}
}
