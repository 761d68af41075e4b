// Package readertrain trains the learned stone reader and judges it honestly: it turns the
// labelled photos of ../shared/vision-eval (and rendered boards) into training points, each photo
// also seen under random changes of light, lens and calibration, and evaluates by
// leave-one-source-out: a reader trained without a source is scored on that source through the
// same Reader the kiosk runs. `scripts/train-reader` runs it and writes the committed weights.
package readertrain

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/vision"
	"tengen/vision/evalset"
	"tengen/vision/imagefile"
	"tengen/vision/observe"
	"tengen/vision/stonenet"
)

// Photo is a labelled photo ready for training and evaluation: its pixels (reduced so that a
// grid spacing is at most maxSpacing pixels), the board's calibration and the truth per point.
type Photo struct {
	evalset.Photo
	Img gocv.Mat
	Cal calib.Calibration
	// Labels is the true reading of each point as seen in the image (row-major).
	Labels []observe.Stone
	// Known is false for points whose truth the labels do not settle (a box-labelled photo's
	// stones between points) and for points under a hand: they are neither trained nor scored
	// as stones.
	Known []bool
	// Covered marks the points under a hand, where reading `?` is right.
	Covered []bool
	Spacing float64 // grid spacing in Img's pixels

	foundCorners [4][2]float64 // the calibration's corners in the photo's own pixels
	foundLens    float64       // and its lens term (calib.Calibration.Lens)
}

// scored is the number of the photo's points scored as stones (known and not under a hand).
func (p *Photo) scored() int {
	n := 0
	for i := range p.Labels {
		if p.Known[i] && !p.Covered[i] {
			n++
		}
	}
	return n
}

// Close releases the photo's pixels.
func (p *Photo) Close() { p.Img.Close() }

// maxSpacing bounds the grid spacing of prepared photos: the reader samples at most 48 pixels a
// spacing, and large phone photos would only cost memory and time.
const maxSpacing = 48

// minOnGrid is the share of a box-labelled photo's boxes that must lie on the found grid's
// intersections for its labels to be used: below it the grid is wrong, or the board is not one
// the boxes describe.
const minOnGrid = 0.9

// A box-labelled photo's stones must be about a grid spacing wide on the found grid: a grid of
// twice the board's lines (or half) puts the boxes' centres on intersections too.
const (
	minBoxSpacing = 0.6
	maxBoxSpacing = 1.4
)

// Skipped is a photo that could not be prepared and why.
type Skipped struct {
	Rel    string
	Reason error
}

// ErrGrid means a box-labelled photo's boxes do not lie on the grid found in it.
var ErrGrid = errors.New("readertrain: the boxes do not lie on the found grid")

// Prepare loads the photos and settles each one's calibration: the corners the source gives, or
// the board found as `kiosk detect` finds it. Photos whose board is not found, or whose boxes do
// not fit the found grid, are returned as skipped.
func Prepare(photos []evalset.Photo) ([]*Photo, []Skipped) {
	var out []*Photo
	var skipped []Skipped
	for _, ph := range photos {
		p, err := prepare(ph, 0, 0)
		if err != nil {
			skipped = append(skipped, Skipped{Rel: ph.Rel, Reason: err})
			continue
		}
		out = append(out, p)
	}
	return out, skipped
}

// prepare prepares one photo; size, when not 0, is the board's size where the label does not
// say it, and lens the lens term of its corners (a box-labelled photo whose board was found before).
func prepare(ph evalset.Photo, size int, lens float64) (*Photo, error) {
	img, err := vision.LoadImage(ph.Path)
	if err != nil {
		return nil, err
	}
	if ph.Label.Size != 0 {
		size = ph.Label.Size
	}
	var cal calib.Calibration
	if ph.Corners != nil {
		var q [4]calib.Point2
		for i, c := range ph.Corners {
			q[i] = calib.Point2{X: c[0], Y: c[1]}
		}
		cal, err = calib.FromCorners(img.Cols(), img.Rows(), size, q)
		cal.Lens = lens
	} else {
		cal, err = vision.FindBoard(img, size, vision.Params{HandTuned: true})
	}
	if err != nil {
		img.Close()
		return nil, err
	}
	n := cal.Size
	p := &Photo{Photo: ph, Cal: cal, Covered: make([]bool, n*n)}
	for i, c := range cal.Corners {
		p.foundCorners[i] = [2]float64{c.X, c.Y}
	}
	p.foundLens = cal.Lens
	if ph.Label.Size != 0 {
		p.Labels = append([]observe.Stone(nil), ph.Label.Stones...)
		p.Known = make([]bool, n*n)
		for i := range p.Known {
			p.Known[i] = true
		}
	} else {
		var on float64
		toGrid := func(x, y float64) (float64, float64) {
			g := cal.ImageToGrid(calib.Point2{X: x, Y: y})
			return g.X, g.Y
		}
		w, h := float64(img.Cols()), float64(img.Rows())
		p.Labels, p.Known, on = evalset.BoxLabels(ph.Boxes, n, w, h, toGrid)
		bs := evalset.BoxSpacing(ph.Boxes, w, h, toGrid)
		if on < minOnGrid || len(ph.Boxes) < 5 || bs < minBoxSpacing || bs > maxBoxSpacing {
			img.Close()
			return nil, fmt.Errorf("%w: %.0f%% of %d boxes on a %dx%d grid, boxes %.2f spacings wide", ErrGrid, 100*on, len(ph.Boxes), n, n, bs)
		}
	}
	for _, c := range ph.Covered {
		if c[0] >= 0 && c[1] >= 0 && c[0] < n && c[1] < n {
			k := c[1]*n + c[0]
			p.Covered[k], p.Known[k] = true, false
		}
	}
	p.Spacing = gridSpacing(cal)
	if p.Spacing > maxSpacing {
		f := maxSpacing / p.Spacing
		small := gocv.NewMat()
		gocv.Resize(img, &small, image.Pt(max(int(float64(img.Cols())*f), 16), max(int(float64(img.Rows())*f), 16)), 0, 0, gocv.InterpolationArea)
		fx, fy := float64(small.Cols())/float64(img.Cols()), float64(small.Rows())/float64(img.Rows())
		img.Close()
		img = small
		var q [4]calib.Point2
		for i, c := range cal.Corners {
			q[i] = calib.Point2{X: c.X * fx, Y: c.Y * fy}
		}
		nc, err := calib.FromCorners(img.Cols(), img.Rows(), n, q)
		if err != nil {
			img.Close()
			return nil, err
		}
		// The lens term is in half-diagonals, so it holds for the frame scaled alike both ways.
		nc.BlackSide, nc.Confidence, nc.Lens = cal.BlackSide, cal.Confidence, cal.Lens
		p.Cal = nc
		p.Spacing = gridSpacing(nc)
	}
	p.Img = img
	return p, nil
}

// gridSpacing is the mean distance between neighbouring lines along the grid's four sides, in pixels.
func gridSpacing(c calib.Calibration) float64 {
	var sum float64
	for i := 0; i < 4; i++ {
		a, b := c.Corners[i], c.Corners[(i+1)%4]
		sum += math.Hypot(a.X-b.X, a.Y-b.Y)
	}
	return sum / 4 / float64(c.Size-1)
}

// Pool holds every photo's training points: its known points as it is, and those of variants
// randomly augmented copies of it (light, lens, noise, a smaller board, corners off, in a quarter of
// them a pale board). Each photo's copies depend only on the seed and the photo, so every fold of an
// evaluation sees the same ones.
type Pool struct {
	sets map[*Photo]*stonenet.Set
}

// boardLook is a change of a photo's board painted before its augmentation (PaleBoard,
// CastShadows).
type boardLook interface {
	Identity() bool
	Apply(img gocv.Mat, cal calib.Calibration, labels []observe.Stone, known []bool) (gocv.Mat, error)
}

// repaint paints l over src, p's picture or a copy of it (owned: a copy, closed once replaced),
// and returns the picture to go on with and whether it is a copy.
func repaint(p *Photo, src gocv.Mat, owned bool, l boardLook) (gocv.Mat, bool, error) {
	if l.Identity() {
		return src, owned, nil
	}
	m, err := l.Apply(src, p.Cal, p.Labels, p.Known)
	if owned {
		src.Close()
	}
	if err != nil {
		return gocv.Mat{}, false, fmt.Errorf("readertrain: %s: %w", p.Rel, err)
	}
	return m, true, nil
}

// NewPool computes the training points of every photo (rendered boards are taken as drawn): the
// photo as it is and opt.Variants augmented copies drawn from opt.Seed.
func NewPool(photos []*Photo, opt Options) (*Pool, error) {
	pl := &Pool{sets: map[*Photo]*stonenet.Set{}}
	for _, p := range photos {
		set := &stonenet.Set{In: vision.NetInputs}
		rng := rand.New(rand.NewPCG(opt.Seed, hashString(p.Rel)))
		copies := opt.Variants
		if p.Source == evalset.Renders {
			// Renders are random already, and many: unchanged, so that the real photos (fewer,
			// each seen under several augmentations) are not outweighed by drawn boards.
			copies = 0
		}
		pales := rand.New(rand.NewPCG(opt.Seed^0x9a1e, hashString(p.Rel))) // apart, so rng's draws stay as they were
		shadows := rand.New(rand.NewPCG(opt.Seed^0x5ad0, hashString(p.Rel)))
		for v := 0; v <= copies; v++ {
			a, src, owned := Augmentation{Identity: true}, p.Img, false
			if v > 0 {
				a = RandomAugmentation(rng)
				looks := []boardLook{RandomPaleBoard(pales)}
				if opt.CastShadows {
					looks = append(looks, RandomCastShadows(shadows))
				}
				for _, l := range looks {
					var err error
					if src, owned, err = repaint(p, src, owned, l); err != nil {
						return nil, err
					}
				}
			}
			img, cal, err := a.Apply(src, p.Cal, p.Spacing, rng)
			if owned {
				src.Close()
			}
			if err != nil {
				continue // corners jittered out of the picture: one copy fewer
			}
			err = addPoints(set, img, cal, p)
			img.Close()
			if err != nil {
				return nil, fmt.Errorf("readertrain: %s: %w", p.Rel, err)
			}
		}
		pl.sets[p] = set
	}
	return pl, nil
}

// Set gathers the training points of the given photos.
func (pl *Pool) Set(photos []*Photo) *stonenet.Set {
	out := &stonenet.Set{In: vision.NetInputs}
	for _, p := range photos {
		if s := pl.sets[p]; s != nil {
			out.Append(s)
		}
	}
	return out
}

// hashString is FNV-1a, to derive a photo's own random stream from its name.
func hashString(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

func addPoints(set *stonenet.Set, img gocv.Mat, cal calib.Calibration, p *Photo) error {
	r, err := vision.NewReader(cal, vision.Params{HandTuned: true})
	if err != nil {
		return err
	}
	defer r.Close()
	in, err := r.Inputs(img)
	if err != nil {
		return err
	}
	for i, s := range p.Labels {
		if !p.Known[i] || s > observe.White {
			continue
		}
		set.Add(in[i*vision.NetInputs:(i+1)*vision.NetInputs], uint8(s))
	}
	return nil
}

// Options says how to train a reader.
type Options struct {
	Variants int // augmented copies of each photo
	Seed     uint64
	Train    stonenet.TrainOptions
	// Dump, when set, is a directory where each held-out photo read with a mistake is drawn.
	Dump string
	// FoldWeights, when set, is a directory where each leave-one-source-out fold's reader is
	// written as SOURCE.weights, to study a held-out source's readings without retraining.
	FoldWeights string
	// HoldOut, when not empty, limits a leave-one-source-out evaluation to these sources (for
	// quicker experiments); every other source is still trained on.
	HoldOut []string
	// Members is the number of networks in the committee, each trained from its own seed
	// (Seed, Seed+1, ...) with its own photos held aside for its temperature.
	Members int
	// CastShadows lets some copies be lit by a low lamp whose stones throw shadows beside them
	// (RandomCastShadows).
	CastShadows bool
	// Sure is the committee's Sure: the first member's probability above which the others are
	// not asked.
	Sure float32
}

// DefaultOptions are the settings the committed reader was trained with: since 2026-11-30 six
// augmented copies of each photo (three before) and seed 4 (1 before), the README says why.
func DefaultOptions() Options {
	return Options{Variants: 6, Seed: 4, Members: 3, Sure: 0.99, Train: stonenet.TrainOptions{Hidden: []int{32, 16}, Epochs: 6, Batch: 128,
		LR: 0.003, WeightDecay: 1e-4, Seed: 4, Balance: true, Perms: vision.NetPermutations(),
		MaskGroups: vision.NetInputGroups()}}
}

// Train trains a reader on the photos' points in the pool: a committee of opt.Members networks.
// Each member keeps one photo in eight (chosen by its seed) aside to fit its probabilities'
// temperature and is trained on the rest.
func Train(pool *Pool, photos []*Photo, opt Options) (*stonenet.Committee, error) {
	c := &stonenet.Committee{Sure: opt.Sure}
	for k := 0; k < max(opt.Members, 1); k++ {
		seed := opt.Seed + uint64(k)
		var fit, held []*Photo
		rng := rand.New(rand.NewPCG(seed, 5))
		for _, p := range photos {
			if rng.IntN(8) == 0 {
				held = append(held, p)
			} else {
				fit = append(fit, p)
			}
		}
		to := opt.Train
		to.Seed = opt.Train.Seed + uint64(k)
		net, err := stonenet.Train(pool.Set(fit), to)
		if err != nil {
			return nil, err
		}
		net.FitTemperature(pool.Set(held))
		c.Members = append(c.Members, net)
	}
	return c, nil
}

// Result is how a reader did on a set of photos, read as the kiosk reads them.
type Result struct {
	Source        string
	Boards, Exact int // photos read, and those with no point wrong
	Points, Wrong int // known points scored, and those read wrong
	Covered       int // points under a hand read `?` (right)
	// Mistakes counts the points read wrong by their truth and their reading, each indexed by
	// observe.Stone: which kinds of mistake a held-out source draws out of the reader.
	Mistakes [observe.Obscured + 1][observe.Obscured + 1]int
	Worst    []string
}

// MistakeKinds lists the kinds of mistake, most frequent first, as "truth->reading count"
// (".->O 331" is an empty point read as a white stone 331 times).
func (r Result) MistakeKinds() string {
	type kind struct {
		want, got observe.Stone
		n         int
	}
	var kinds []kind
	for want, row := range r.Mistakes {
		for got, n := range row {
			if n > 0 {
				kinds = append(kinds, kind{observe.Stone(want), observe.Stone(got), n})
			}
		}
	}
	sort.SliceStable(kinds, func(i, j int) bool { return kinds[i].n > kinds[j].n })
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%c->%c %d", k.want.Rune(), k.got.Rune(), k.n)
	}
	return strings.Join(parts, ", ")
}

// Accuracy returns the share of points read right.
func (r Result) Accuracy() float64 {
	if r.Points == 0 {
		return 0
	}
	return 1 - float64(r.Wrong)/float64(r.Points)
}

// String is one line of the leave-one-source-out table.
func (r Result) String() string {
	return fmt.Sprintf("%-9s %3d boards, %3d exact (%5.1f%%), %5d/%6d points wrong, accuracy %.3f%%",
		r.Source, r.Boards, r.Exact, 100*float64(r.Exact)/float64(max(r.Boards, 1)), r.Wrong, r.Points, 100*r.Accuracy())
}

// Evaluate reads every photo with a Reader of params and scores it against its labels: a `?`
// is right only on a point under a hand; unknown points are not scored. With dump set, each
// photo read with a mistake is drawn there (vision.Overlay, each wrong point crossed in white)
// for a person to look at, and every photo gets a line in photos.tsv there: its name, points
// scored, points read wrong, and points the hand-tuned reader reads otherwise than labelled.
func Evaluate(source string, photos []*Photo, params vision.Params, dump string) (Result, error) {
	res := Result{Source: source}
	type bad struct {
		rel    string
		wrong  int
		detail string
	}
	var worst []bad
	for _, p := range photos {
		// The photo's corners with the lens term the kiosk fits to corners set by hand (a board
		// found in the photo has its term already).
		cal := p.Cal
		if cal.Lens == 0 {
			c, err := calib.FitLens(p.Img, p.Cal)
			if err != nil {
				return res, fmt.Errorf("readertrain: %s: %w", p.Rel, err)
			}
			cal = c
		}
		r, err := vision.NewReader(cal, params)
		if err != nil {
			return res, err
		}
		rd, err := r.Read(p.Img)
		r.Close()
		if err != nil {
			return res, fmt.Errorf("readertrain: %s: %w", p.Rel, err)
		}
		var wrongAt []int
		wrong := 0
		var diffs []string
		n := p.Cal.Size
		for i, want := range p.Labels {
			got := rd.Stones[i]
			if p.Covered[i] {
				if got == observe.Obscured {
					res.Covered++
				}
				continue
			}
			if !p.Known[i] {
				continue
			}
			res.Points++
			if got != want {
				wrong++
				if want <= observe.Obscured && got <= observe.Obscured {
					res.Mistakes[want][got]++
				}
				wrongAt = append(wrongAt, i)
				if len(diffs) < 6 {
					diffs = append(diffs, fmt.Sprintf("r%dc%d %c->%c", i/n, i%n, want.Rune(), got.Rune()))
				}
			}
		}
		if dump != "" {
			hand, err := handTunedWrong(p, cal)
			if err != nil {
				return res, err
			}
			line := fmt.Sprintf("%s\t%d\t%d\t%d\n", p.Rel, p.scored(), wrong, hand)
			if err := appendLine(filepath.Join(dump, "photos.tsv"), line); err != nil {
				return res, err
			}
		}
		if dump != "" && wrong > 0 {
			if err := dumpPhoto(dump, p, cal, rd, wrongAt); err != nil {
				return res, err
			}
		}
		res.Boards++
		res.Wrong += wrong
		if wrong == 0 {
			res.Exact++
		} else {
			worst = append(worst, bad{p.Rel, wrong, strings.Join(diffs, " ")})
		}
	}
	sort.Slice(worst, func(i, j int) bool { return worst[i].wrong > worst[j].wrong })
	for i, w := range worst {
		if i == 5 {
			break
		}
		res.Worst = append(res.Worst, fmt.Sprintf("%s: %d wrong: %s", w.rel, w.wrong, w.detail))
	}
	return res, nil
}

// Fold is one row of the leave-one-source-out table: a source, the learned reader trained
// without it (as the kiosk reads, and reading each point alone, without weighing the unsure ones
// against the frame's sure ones), and the hand-tuned reader, all scored on it.
type Fold struct {
	Learned, Alone, HandTuned Result
}

// BySource groups photos by their source.
func BySource(photos []*Photo) map[string][]*Photo {
	m := map[string][]*Photo{}
	for _, p := range photos {
		m[p.Source] = append(m[p.Source], p)
	}
	return m
}

// LeaveOneSourceOut trains a reader without each source in turn and scores it on that source.
func LeaveOneSourceOut(pool *Pool, photos []*Photo, opt Options, log func(string)) ([]Fold, error) {
	groups := BySource(photos)
	var folds []Fold
	for _, src := range evalset.Sources() {
		test := groups[src]
		if len(test) == 0 || (len(opt.HoldOut) > 0 && !slices.Contains(opt.HoldOut, src)) {
			continue
		}
		var train []*Photo
		for _, p := range photos {
			if p.Source != src {
				train = append(train, p)
			}
		}
		net, err := Train(pool, train, opt)
		if err != nil {
			return nil, err
		}
		if opt.FoldWeights != "" {
			raw, err := net.MarshalBinary()
			if err != nil {
				return nil, err
			}
			if err := os.WriteFile(filepath.Join(opt.FoldWeights, src+".weights"), raw, 0o644); err != nil {
				return nil, fmt.Errorf("readertrain: %w", err)
			}
		}
		l, err := Evaluate(src, test, vision.Params{Net: net}, opt.Dump)
		if err != nil {
			return nil, err
		}
		a, err := Evaluate(src, test, vision.Params{Net: net, PointsAlone: true}, "")
		if err != nil {
			return nil, err
		}
		h, err := Evaluate(src, test, vision.Params{HandTuned: true}, "")
		if err != nil {
			return nil, err
		}
		if log != nil {
			log(fmt.Sprintf("held out %s: learned %s | points alone %d wrong, %d exact | hand-tuned %.3f%%, %d exact (T=%.2f)", src, l, a.Wrong, a.Exact, 100*h.Accuracy(), h.Exact, net.Members[0].Temp))
			log("    mistakes: " + l.MistakeKinds())
			for _, w := range l.Worst {
				log("    " + w)
			}
		}
		folds = append(folds, Fold{Learned: l, Alone: a, HandTuned: h})
	}
	return folds, nil
}

// appendLine appends line to the file at path (made if missing).
func appendLine(path, line string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("readertrain: %w", err)
	}
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return fmt.Errorf("readertrain: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("readertrain: %w", err)
	}
	return nil
}

// dumpPhoto draws a photo's reading on its calibration cal with its wrong points crossed in white.
func dumpPhoto(dir string, p *Photo, cal calib.Calibration, rd vision.Reading, wrongAt []int) error {
	ov := vision.Overlay(p.Img, cal, rd)
	defer ov.Close()
	n := cal.Size
	d := max(2, int(p.Spacing/3))
	for _, i := range wrongAt {
		q := cal.IntersectionPixel(i%n, i/n)
		c := image.Pt(int(q.X), int(q.Y))
		gocv.Line(&ov, c.Add(image.Pt(-d, -d)), c.Add(image.Pt(d, d)), color.RGBA{255, 255, 255, 255}, 2)
		gocv.Line(&ov, c.Add(image.Pt(-d, d)), c.Add(image.Pt(d, -d)), color.RGBA{255, 255, 255, 255}, 2)
	}
	name := strings.NewReplacer("/", "_").Replace(p.Rel)
	return imagefile.SavePNG(filepath.Join(dir, strings.TrimSuffix(name, filepath.Ext(name))+".png"), ov)
}

// handTunedWrong counts the known points of a photo that the hand-tuned reader (fitted to none
// of the box-labelled photos) reads otherwise than labelled: beside the learned reader's
// mistakes it tells a photo both read against its labels (doubtful labels, a grid one line off,
// or a picture hard for both) from one only the learned reader gets wrong.
func handTunedWrong(p *Photo, cal calib.Calibration) (int, error) {
	r, err := vision.NewReader(cal, vision.Params{HandTuned: true})
	if err != nil {
		return 0, err
	}
	defer r.Close()
	rd, err := r.Read(p.Img)
	if err != nil {
		return 0, fmt.Errorf("readertrain: %s: %w", p.Rel, err)
	}
	wrong := 0
	for i, want := range p.Labels {
		if p.Known[i] && !p.Covered[i] && rd.Stones[i] != want {
			wrong++
		}
	}
	return wrong, nil
}
