package vision

import (
	"errors"
	"fmt"
	"image/color"
	"time"

	"gocv.io/x/gocv"

	"tengen/calib"
	"tengen/vision/observe"
	"tengen/vision/stonenet"
)

// ErrFrame means a frame cannot be read: empty, or of an unsupported pixel type.
var ErrFrame = errors.New("vision: empty or unsupported frame")

// Reader reads the stones on one calibrated board from camera frames. It keeps its buffers
// between frames, so steady-state reading allocates little. It is not safe for concurrent use;
// Close releases its OpenCV memory.
type Reader struct {
	cal     calib.Calibration
	geom    canonGeom
	toImg   warpMaps // canonical pixel -> image pixel, for cv::remap
	canon   gocv.Mat
	bgr     gocv.Mat
	samp    *sampler
	feats   []pointFeatures
	params  Params
	stones  []observe.Stone
	conf    []float32
	scratch scratch
	blobs   *blobFinder // the hand-tuned classifier's, made on its first frame
	blobRel []float64
	net     PointModel // nil: the hand-tuned classifier
	inputs  []float32  // the net's inputs, NetInputs per point
	netBuf  stonenet.Buffers
	ctxBuf  []float64
	probs   []observe.Probs
	odd     []observe.Stone // the hand-made obscured test's verdicts (scratch)
	oddConf []float32
	adapter frameAdapter // weighs unsure points against the frame's sure ones
}

// NewReader prepares a Reader for frames matching cal.
func NewReader(cal calib.Calibration, p Params) (*Reader, error) {
	if err := cal.Validate(); err != nil {
		return nil, fmt.Errorf("vision: %w", err)
	}
	g := canonFor(cal.Size)
	if p.Spacing > 0 {
		g.Spacing = min(max(p.Spacing, 8), 64)
	}
	m := canonMapFor(cal, g)
	samp := newSampler(g)
	samp.markOutside(m, cal.ImageWidth, cal.ImageHeight)
	var net PointModel
	if !p.HandTuned {
		net = p.Net
		if net == nil {
			c, err := DefaultNet()
			if err != nil {
				return nil, err
			}
			net = c
		}
		if net.Inputs() != netInputs {
			return nil, fmt.Errorf("vision: the learned reader takes %d inputs, the features are %d", net.Inputs(), netInputs)
		}
		compiled, err := compileModel(net)
		if err != nil {
			return nil, err
		}
		net = compiled
	}
	toImg, err := newWarpMaps(m, g.Side())
	if err != nil {
		return nil, err
	}
	return &Reader{
		net:    net,
		cal:    cal,
		geom:   g,
		toImg:  toImg,
		canon:  gocv.NewMat(),
		bgr:    gocv.NewMat(),
		samp:   samp,
		feats:  make([]pointFeatures, cal.Size*cal.Size),
		params: p.withDefaults(),
	}, nil
}

// canonMapFor is the map from the canonical picture of geometry g to the frame that cal sees.
func canonMapFor(cal calib.Calibration, g canonGeom) canonMap {
	h := cal.PinholeGridToImage() // grid (col,row) -> the pinhole picture (the frame without the lens's bending)
	s := float64(g.Spacing)
	// canonical (u,v) -> grid ((u-s)/s, (v-s)/s) -> image
	t := [9]float64{1 / s, 0, -1, 0, 1 / s, -1, 0, 0, 1}
	m := canonMap{h: mul3(h, t)}
	if cal.Lens != 0 {
		m.bend = cal.Bend
	}
	return m
}

// aim points r at the grid of cal, of the board size and frame size r was made for, keeping
// every buffer: a search that reads one frame on hundreds of grids (outlineRead) makes one
// Reader, not hundreds. A Read after aim reads as a new Reader for cal would.
func (r *Reader) aim(cal calib.Calibration) error {
	if err := cal.Validate(); err != nil {
		return fmt.Errorf("vision: %w", err)
	}
	if cal.Size != r.cal.Size || cal.ImageWidth != r.cal.ImageWidth || cal.ImageHeight != r.cal.ImageHeight {
		return fmt.Errorf("vision: a reader made for %dx%d in %dx%d cannot read %dx%d in %dx%d",
			r.cal.Size, r.cal.Size, r.cal.ImageWidth, r.cal.ImageHeight, cal.Size, cal.Size, cal.ImageWidth, cal.ImageHeight)
	}
	m := canonMapFor(cal, r.geom)
	if err := r.toImg.fill(m, r.geom.Side()); err != nil {
		return err
	}
	r.samp.markOutside(m, cal.ImageWidth, cal.ImageHeight)
	r.cal = cal
	return nil
}

// Calibration returns the calibration the Reader was made for.
func (r *Reader) Calibration() calib.Calibration { return r.cal }

// Close releases the Reader's OpenCV memory.
func (r *Reader) Close() error {
	r.toImg.Close()
	r.canon.Close()
	r.bgr.Close()
	return nil
}

func mul3(a, b [9]float64) [9]float64 {
	var c [9]float64
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			for k := 0; k < 3; k++ {
				c[i*3+j] += a[i*3+k] * b[k*3+j]
			}
		}
	}
	return c
}

// warp fills r.canon with the canonical BGR view of frame and returns its pixels.
func (r *Reader) warp(frame gocv.Mat) ([]byte, error) {
	if frame.Empty() {
		return nil, fmt.Errorf("%w: empty frame", ErrFrame)
	}
	if err := r.cal.CheckImage(frame.Cols(), frame.Rows()); err != nil {
		return nil, fmt.Errorf("vision: %w", err)
	}
	src := frame
	switch frame.Type() {
	case gocv.MatTypeCV8UC3:
	case gocv.MatTypeCV8UC1:
		gocv.CvtColor(frame, &r.bgr, gocv.ColorGrayToBGR)
		src = r.bgr
	case gocv.MatTypeCV8UC4:
		gocv.CvtColor(frame, &r.bgr, gocv.ColorBGRAToBGR)
		src = r.bgr
	default:
		return nil, fmt.Errorf("%w: pixel type %v", ErrFrame, frame.Type())
	}
	side := r.geom.Side()
	gocv.Remap(src, &r.canon, &r.toImg.xy, &r.toImg.frac, gocv.InterpolationLinear, gocv.BorderReplicate, color.RGBA{})
	pix, err := r.canon.DataPtrUint8()
	if err != nil || len(pix) < side*side*3 || !r.canon.IsContinuous() {
		return nil, fmt.Errorf("%w: warp failed", ErrFrame)
	}
	return pix, nil
}

// Reading is what a Reader saw in one frame, as seen in the IMAGE: row 0 is the line nearest the
// image's top, column 0 the one nearest its left (use Observation for board coordinates).
type Reading struct {
	Size       int
	Stones     []observe.Stone
	Confidence []float32
	// Probs is, per point, the probability of each reading (see observe.Observation.Probs).
	Probs []observe.Probs
	// Overall is the board's confidence: the lowest point confidence.
	Overall float32
}

// Read classifies every intersection of frame (BGR, BGRA or grey, of the calibrated size).
// The returned Reading's slices are reused by the next Read; Clone what you keep.
func (r *Reader) Read(frame gocv.Mat) (Reading, error) {
	pix, err := r.warp(frame)
	if err != nil {
		return Reading{}, err
	}
	r.samp.extract(pix, r.feats)
	n := r.cal.Size
	if len(r.stones) != n*n {
		r.stones = make([]observe.Stone, n*n)
		r.conf = make([]float32, n*n)
	}
	if len(r.probs) != n*n {
		r.probs = make([]observe.Probs, n*n)
	}
	if r.net != nil {
		r.classifyNet(pix)
	} else {
		// Only the hand-tuned classifier looks for stone blobs; the learned reader never
		// needs their buffers (0.8 MB for 19x19).
		if r.blobs == nil {
			r.blobs = newBlobFinder(r.geom)
		}
		if len(r.blobRel) != n*n {
			r.blobRel = make([]float64, n*n)
		}
		classify(r.feats, n, r.params, r.stones, r.conf, &r.scratch, r.blobs, func(th float64) []float64 {
			r.blobs.find(r.samp.lum, r.feats, th, r.blobRel)
			return r.blobRel
		})
		guess := observe.Observation{Stones: r.stones, Confidence: r.conf}
		for i := range r.stones {
			r.probs[i] = guess.PointProbs(i)
		}
	}
	markReaching(r.samp, pix, r.feats, n, r.stones, r.conf)
	for i, s := range r.stones {
		if s == observe.Obscured {
			r.probs[i] = obscuredProbs()
		}
	}
	rd := Reading{Size: n, Stones: r.stones, Confidence: r.conf, Probs: r.probs, Overall: 1}
	for _, c := range r.conf {
		rd.Overall = min(rd.Overall, c)
	}
	return rd, nil
}

// Clone returns a copy of the reading that the next Read does not overwrite.
func (rd Reading) Clone() Reading {
	rd.Stones = append([]observe.Stone(nil), rd.Stones...)
	rd.Confidence = append([]float32(nil), rd.Confidence...)
	rd.Probs = append([]observe.Probs(nil), rd.Probs...)
	return rd
}

// Observation converts a Reading to board coordinates (row 0 = the far row from Black) using the
// calibration's BlackSide, stamped with the frame's time and sequence number. It copies the slices.
func (rd Reading) Observation(cal calib.Calibration, t time.Time, seq uint64) observe.Observation {
	o := observe.Observation{Size: rd.Size, Stones: make([]observe.Stone, len(rd.Stones)),
		Confidence: make([]float32, len(rd.Stones)), Time: t, Seq: seq}
	if rd.Probs != nil {
		o.Probs = make([]observe.Probs, len(rd.Stones))
	}
	c := cal
	c.Size = rd.Size
	for y := 0; y < rd.Size; y++ {
		for x := 0; x < rd.Size; x++ {
			col, row := c.ImageGrid(x, y)
			o.Stones[y*rd.Size+x] = rd.Stones[row*rd.Size+col]
			o.Confidence[y*rd.Size+x] = rd.Confidence[row*rd.Size+col]
			if o.Probs != nil {
				o.Probs[y*rd.Size+x] = rd.Probs[row*rd.Size+col]
			}
		}
	}
	return o
}

// Text renders the reading as Size lines of Size characters ('.', 'X', 'O', '?'), top of the image first.
func (rd Reading) Text() string {
	o := observe.Observation{Size: rd.Size, Stones: rd.Stones}
	return o.String()
}

// obscuredProbs is what a point under a hand says: nothing about the stone beneath it.
func obscuredProbs() observe.Probs { return observe.Probs{0.1, 0.1, 0.1, 0.7} }

// classifyNet reads every point with the learned reader: the probability of empty, black and
// white from the network, the likeliest as the reading and its probability as the confidence;
// then groups of points the hand-made features find unlike board or stone (a hand, a sleeve)
// become Obscured where the network is not sure of them.
func (r *Reader) classifyNet(pix []byte) {
	n := r.cal.Size
	if len(r.inputs) != n*n*netInputs {
		r.inputs = make([]float32, n*n*netInputs)
	}
	r.samp.netInput(pix, r.feats, r.inputs, &r.ctxBuf)
	if hm, ok := r.net.(hiddenModel); ok && !r.params.PointsAlone {
		// Keep what the network made of each point it read with every member: the frame's
		// weighing compares points by it.
		kept := &r.adapter.kept
		kept.reset(n * n)
		for i := range r.stones {
			start := len(kept.vals)
			p, vals, all := hm.ForwardHidden(kept.vals, r.inputs[i*netInputs:(i+1)*netInputs], &r.netBuf)
			if all {
				kept.keep(i, start, vals)
			}
			r.probs[i] = observe.Probs{p[0], p[1], p[2], 0}
		}
		r.adapter.adapt(hm, r.inputs, r.probs, &r.netBuf)
	} else {
		for i := range r.stones {
			p := r.net.Forward(r.inputs[i*netInputs:(i+1)*netInputs], &r.netBuf)
			r.probs[i] = observe.Probs{p[0], p[1], p[2], 0}
		}
	}
	for i := range r.stones {
		best := r.probs[i].Likeliest()
		r.stones[i], r.conf[i] = best, r.probs[i][best]
	}
	// Points that look like neither board nor stone, in groups (a hand, a sleeve), are Obscured,
	// unless the network is sure of them: a dark board with faint lines looks "odd" all over.
	lv := measureLevels(r.feats, r.params, &r.scratch)
	r.odd = append(r.odd[:0], r.stones...)
	r.oddConf = append(r.oddConf[:0], r.conf...)
	markObscured(r.feats, n, lv, r.params, r.odd, r.oddConf, &r.scratch)
	for i, s := range r.odd {
		if s == observe.Obscured && r.conf[i] < sureOfPoint {
			r.stones[i], r.conf[i] = observe.Obscured, 0.5
		}
	}
}

// sureOfPoint is the learned reader's probability above which a point's reading stands even
// where the hand-made features see something odd.
const sureOfPoint = 0.99

// Inputs returns the learned reader's inputs for every point of frame (NetInputs per point,
// row-major as seen in the image): what training shows the network. The slice is reused by the
// next call.
func (r *Reader) Inputs(frame gocv.Mat) ([]float32, error) {
	pix, err := r.warp(frame)
	if err != nil {
		return nil, err
	}
	r.samp.extract(pix, r.feats)
	n := r.cal.Size
	if len(r.inputs) != n*n*netInputs {
		r.inputs = make([]float32, n*n*netInputs)
	}
	r.samp.netInput(pix, r.feats, r.inputs, &r.ctxBuf)
	return r.inputs, nil
}
