// Command render-boards writes a training set of rendered board photos for the stone classifier:
// random scenes (board size, position, look, hands) from demo.RenderSample, each as a PNG and a JSON
// sidecar with its labels:
//
//	{"size":19,"corners":[[x,y],[x,y],[x,y],[x,y]],"stones":"19 lines of . X O","covered":[[col,row],...],...}
//
// Corners are the corner intersections in pixels, top-left, top-right, bottom-right, bottom-left as
// seen in the picture; stones are rows of '.', 'X' (black), 'O' (white), row 0 = the top of the
// picture, column 0 = its left (observe.ParseText's convention); covered lists the points a hand
// hides. Positions are random legal-looking boards or, with -sgf, boards of real games at a random
// move (with -late F, a move in the last F of the game: crowded boards, as in a photo taken near
// the end). With -sheet it writes one contact sheet of the scenes instead. With -first N the files are
// numbered from N (the scenes are the same): a second set written beside a first one, as
// scripts/train-reader adds crowded late-game boards to its mixed renders.
//
// Usage:
//
//	render-boards -out DIR [-n 2000] [-seed 1] [-first 0] [-sgf ../shared/sgf-corpus [-sgf-share 0.6] [-late F]] [-sizes 9:1,13:1,19:3]
//	              [-frames 640x480,800x600,960x720,1024x768,1280x720] [-hard 0.15] [-hands 0.3] [-workers N]
//	render-boards -sheet /tmp/sheet.png [-n 24] ...
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tengen/demo"
	"tengen/engine/sgf"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "render-boards:", err)
		}
		os.Exit(2)
	}
}

// options are the command's flags.
type options struct {
	out, sheet, sgfDir string
	n, workers, first  int
	seed               uint64
	sizes              []weighted
	frames             [][2]int
	hard, hands        float64
	fromSGF            float64
	late               float64
}

type weighted struct {
	size   int
	weight float64
}

// label is the JSON sidecar of one picture.
type label struct {
	Size    int           `json:"size"`
	Width   int           `json:"width"`
	Height  int           `json:"height"`
	Corners [4][2]float64 `json:"corners"`
	Stones  string        `json:"stones"`
	Covered [][2]int      `json:"covered"`
	Seed    uint64        `json:"seed"`
	Source  string        `json:"source"`
	Board   string        `json:"board"`
	Style   string        `json:"stone_style"`
	Hard    bool          `json:"hard_light"`
	Tilt    float64       `json:"tilt"`
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	fsFlags := flag.NewFlagSet("render-boards", flag.ContinueOnError)
	fsFlags.SetOutput(stderr)
	var o options
	var sizes, frames string
	fsFlags.StringVar(&o.out, "out", "", "directory to write NNNNNN.png and NNNNNN.json into")
	fsFlags.StringVar(&o.sheet, "sheet", "", "write a contact sheet of the scenes to this PNG instead")
	fsFlags.StringVar(&o.sgfDir, "sgf", "", "directory of SGF games (searched recursively) to take positions from")
	fsFlags.Float64Var(&o.fromSGF, "sgf-share", 0.6, "share of positions taken from the SGF games when -sgf is given")
	fsFlags.Float64Var(&o.late, "late", 0, "take SGF positions from the last part of each game: 0.5 picks a move in its second half (late, dense boards)")
	fsFlags.IntVar(&o.n, "n", 2000, "number of scenes")
	fsFlags.IntVar(&o.first, "first", 0, "number the files from this (the scenes do not change)")
	fsFlags.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "scenes rendered at once")
	fsFlags.Uint64Var(&o.seed, "seed", 1, "seed of the whole set (scene i uses a seed derived from it and i)")
	fsFlags.StringVar(&sizes, "sizes", "9:1,13:1,19:3", "board sizes with weights")
	fsFlags.StringVar(&frames, "frames", "640x480,800x600,960x720,1024x768,1280x720", "frame sizes, chosen at random")
	fsFlags.Float64Var(&o.hard, "hard", 0.15, "share of scenes under hard light (demo.HardLook)")
	fsFlags.Float64Var(&o.hands, "hands", 0.3, "share of scenes with a hand over the board")
	if err := fsFlags.Parse(args); err != nil {
		return o, err
	}
	if (o.out == "") == (o.sheet == "") {
		return o, errors.New("give exactly one of -out and -sheet")
	}
	if o.n <= 0 || o.workers <= 0 {
		return o, errors.New("-n and -workers must be positive")
	}
	if o.first < 0 || o.first+o.n > 1000000 {
		return o, fmt.Errorf("-first %d with -n %d: the files are numbered 000000 to 999999", o.first, o.n)
	}
	if o.late < 0 || o.late > 1 {
		return o, fmt.Errorf("-late %v is not a share between 0 and 1", o.late)
	}
	for _, s := range strings.Split(sizes, ",") {
		sz, wt, ok := strings.Cut(strings.TrimSpace(s), ":")
		if !ok {
			wt = "1"
		}
		n, err1 := strconv.Atoi(sz)
		f, err2 := strconv.ParseFloat(wt, 64)
		if err1 != nil || err2 != nil || n < 2 || n > 25 || f <= 0 {
			return o, fmt.Errorf("bad -sizes entry %q", s)
		}
		o.sizes = append(o.sizes, weighted{n, f})
	}
	for _, s := range strings.Split(frames, ",") {
		ws, hs, ok := strings.Cut(strings.TrimSpace(s), "x")
		w, err1 := strconv.Atoi(ws)
		h, err2 := strconv.Atoi(hs)
		if !ok || err1 != nil || err2 != nil || w < 64 || h < 48 {
			return o, fmt.Errorf("bad -frames entry %q", s)
		}
		o.frames = append(o.frames, [2]int{w, h})
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	var games *corpus
	if o.sgfDir != "" {
		if games, err = loadCorpus(o.sgfDir); err != nil {
			return err
		}
	}
	if o.out != "" {
		if err := os.MkdirAll(o.out, 0o755); err != nil {
			return err
		}
	}
	var sheet *image.RGBA
	const tw, th, cols = 320, 240, 6
	if o.sheet != "" {
		rows := (o.n + cols - 1) / cols
		sheet = image.NewRGBA(image.Rect(0, 0, cols*tw, rows*th))
	}
	start := time.Now()
	var next, done atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, o.workers)
	for range o.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= o.n || ctx.Err() != nil {
					return
				}
				s, lab, err := scene(o, games, i)
				if err == nil {
					if sheet != nil {
						shrinkInto(sheet, s.Image, (i%cols)*tw, (i/cols)*th, tw, th)
					} else {
						err = write(o.out, o.first+i, s, lab)
					}
				}
				if err != nil {
					errs <- fmt.Errorf("scene %d: %w", i, err)
					return
				}
				if d := done.Add(1); d%100 == 0 {
					fmt.Fprintf(stderr, "%d/%d scenes, %.1f s\n", d, o.n, time.Since(start).Seconds())
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if sheet != nil {
		var buf bytes.Buffer
		if err := png.Encode(&buf, sheet); err != nil {
			return err
		}
		if err := os.WriteFile(o.sheet, buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	el := time.Since(start)
	fmt.Fprintf(stdout, "%d scenes in %.1f s (%.0f ms a scene, %d workers)\n", o.n, el.Seconds(),
		el.Seconds()*1000/float64(o.n), o.workers)
	return nil
}

// mix is splitmix64: scene i's seed from the set's seed.
func mix(v uint64) uint64 {
	v += 0x9E3779B97F4A7C15
	v = (v ^ (v >> 30)) * 0xBF58476D1CE4E5B9
	v = (v ^ (v >> 27)) * 0x94D049BB133111EB
	return v ^ (v >> 31)
}

func frac(v uint64) float64 { return float64(v>>11) / float64(1<<53) }

// scene draws scene i.
func scene(o options, games *corpus, i int) (demo.Sample, label, error) {
	seed := mix(o.seed*0x100000001B3 + uint64(i))
	pick := func(k uint64) float64 { return frac(mix(seed ^ k)) }
	total := 0.0
	for _, s := range o.sizes {
		total += s.weight
	}
	size, t := o.sizes[len(o.sizes)-1].size, pick(1)*total
	for _, s := range o.sizes {
		if t < s.weight {
			size = s.size
			break
		}
		t -= s.weight
	}
	fr := o.frames[int(pick(2)*float64(len(o.frames)))]
	opt := demo.SampleOptions{Size: size, W: fr[0], H: fr[1], Hard: pick(3) < o.hard, HandChance: o.hands}
	source := "random"
	if games != nil && pick(4) < o.fromSGF {
		if st, src, ok := games.position(size, o.late, mix(seed^5)); ok {
			opt.Stones, source = st, src
		}
	}
	s, err := demo.RenderSample(seed, opt)
	if err != nil {
		return s, label{}, err
	}
	lab := label{Size: size, Width: fr[0], Height: fr[1], Corners: s.Corners, Stones: demo.BoardText(size, s.Stones),
		Covered: [][2]int{}, Seed: seed, Source: source, Board: s.Look.Board.String(), Style: s.Look.Stones.String(),
		Hard: opt.Hard, Tilt: s.Look.Tilt}
	for p, c := range s.Covered {
		if c {
			lab.Covered = append(lab.Covered, [2]int{p % size, p / size})
		}
	}
	return s, lab, nil
}

func write(dir string, i int, s demo.Sample, lab label) error {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, s.Image); err != nil {
		return err
	}
	base := filepath.Join(dir, fmt.Sprintf("%06d", i))
	if err := os.WriteFile(base+".png", buf.Bytes(), 0o644); err != nil {
		return err
	}
	js, err := json.Marshal(lab)
	if err != nil {
		return err
	}
	return os.WriteFile(base+".json", append(js, '\n'), 0o644)
}

// shrinkInto draws src scaled to fit tw x th at (x0,y0) of dst (box filter).
func shrinkInto(dst, src *image.RGBA, x0, y0, tw, th int) {
	b := src.Bounds()
	s := max(float64(b.Dx())/float64(tw), float64(b.Dy())/float64(th))
	for y := range th {
		for x := range tw {
			sx0, sy0 := int(float64(x)*s), int(float64(y)*s)
			sx1, sy1 := min(int(float64(x+1)*s), b.Dx()), min(int(float64(y+1)*s), b.Dy())
			var r, g, bb, n int
			for yy := sy0; yy < sy1; yy++ {
				for xx := sx0; xx < sx1; xx++ {
					p := src.Pix[yy*src.Stride+4*xx:]
					r, g, bb, n = r+int(p[0]), g+int(p[1]), bb+int(p[2]), n+1
				}
			}
			q := dst.Pix[(y0+y)*dst.Stride+4*(x0+x):]
			if n == 0 {
				q[0], q[1], q[2], q[3] = 40, 40, 40, 255
				continue
			}
			q[0], q[1], q[2], q[3] = uint8(r/n), uint8(g/n), uint8(bb/n), 255
		}
	}
}

// corpus is the SGF files found under a directory, by board size; games are parsed when first used.
type corpus struct {
	bySize map[int][]string
	mu     sync.Mutex
	parsed map[string][]*sgf.Record
}

func loadCorpus(dir string) (*corpus, error) {
	c := &corpus{bySize: map[int][]string{}, parsed: map[string][]*sgf.Record{}}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".sgf") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		size := 19
		if i := bytes.Index(data, []byte("SZ[")); i >= 0 {
			if j := bytes.IndexByte(data[i:], ']'); j > 3 {
				if n, err := strconv.Atoi(string(data[i+3 : i+j])); err == nil {
					size = n
				}
			}
		}
		c.bySize[size] = append(c.bySize[size], path)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(c.bySize) == 0 {
		return nil, fmt.Errorf("no SGF files under %s", dir)
	}
	return c, nil
}

// position returns the board of a random game of the size at a random move; with late > 0 the move is
// drawn from the game's last late share of moves.
func (c *corpus) position(size int, late float64, seed uint64) ([]demo.Stone, string, bool) {
	files := c.bySize[size]
	if len(files) == 0 {
		return nil, "", false
	}
	path := files[int(frac(seed)*float64(len(files)))]
	c.mu.Lock()
	recs, ok := c.parsed[path]
	c.mu.Unlock()
	if !ok {
		data, err := os.ReadFile(path)
		if err == nil {
			recs, _ = sgf.ReadRecords(data)
		}
		c.mu.Lock()
		c.parsed[path] = recs
		c.mu.Unlock()
	}
	if len(recs) == 0 {
		return nil, "", false
	}
	k := int(frac(mix(seed^1)) * float64(len(recs)))
	rec := recs[k]
	if rec.Size != size {
		return nil, "", false
	}
	moves := rec.MoveCount()
	if late <= 0 {
		late = 1 // the whole game
	}
	first := int(float64(moves) * (1 - late))
	m := first + int(frac(mix(seed^2))*float64(moves+1-first))
	st, err := demo.PositionAfter(rec, m)
	if err != nil {
		return nil, "", false
	}
	return st, fmt.Sprintf("%s#%d@%d", path, k, m), true
}
