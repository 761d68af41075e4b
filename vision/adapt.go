package vision

import (
	"math"
	"slices"

	"tengen/vision/observe"
	"tengen/vision/stonenet"
)

// The frame's own look: a network trained on other boards is unsure of a point when this board,
// lamp or camera is unlike them (white stones on a pale board under glare, cream stones on a
// blue printed board). The same frame holds many points it is sure of, and a board's stones
// look alike under one lamp. So each point the network is unsure of is also weighed by how like
// this frame's sure empty points, black stones and white stones it looks, in the network's own
// terms (its members' last hidden activations) and by its brightness. A lamp lights a board
// unevenly (a glare pool, a shadow), so a point is compared with the looks of the points near it
// rather than of the whole board. The settings were chosen on the leave-one-source-out folds
// (README).
const (
	adaptUnsure  = 0.99 // a point read less sure than this is weighed against the frame; the others show what their reading looks like here
	adaptMinSure = 4    // the fewest sure points a reading needs in a frame to be weighed
	adaptPerKind = 24   // sure points per reading used (spread over the board): enough for a mean
	adaptWeight  = 5    // the frame's say against the network's: log-odds per e-fold of distance
	adaptNear    = 0.05 // a distance (mean squared, in the frame's spreads) this small is as near as any
	adaptFloor   = 0.01 // least variance of an activation
	adaptRounds  = 3    // estimates of the frame's looks, each with the points weighed before
	// adaptShare bounds the weighed points' say in a reading's look, against its sure points:
	// without it, a board's empty points that a network half reads as white stones became the
	// frame's white look and were then read white (a rendered board held out at the small
	// training budget of TestLeaveOneSourceOut: 41 points wrong alone, 83 weighed, 0 with it).
	adaptShare = 2.0
	// A point's look of a reading is the mean of the points around it, weighed by a Gaussian of
	// adaptLocal spacings cut at adaptReach, and pulled toward the whole frame's look as if
	// adaptPrior points of it stood on the point: where few points of a reading are near, the
	// frame's look decides.
	adaptLocal = 2.0
	adaptReach = 6
	adaptPrior = 4.0
	// adaptLeast is the least weight a point brings to a reading's local look: a weighed point's
	// unlikeliest reading adds nothing worth its cost.
	adaptLeast = 0.02
	// A point is described to the weighing by its hidden activations and by the log of its
	// disc's brightness relative to the board, weighed in the distance as adaptBright
	// activations. A network trained on other boards can take grey-white stones in a shadow
	// for black ones in its own terms, while on the same board the two stand far apart in
	// brightness.
	adaptBright = 12
	// adaptOdd marks a sure point as odd for its reading when its log brightness is further than
	// this many deviations (the median absolute deviation, scaled to a standard deviation, at
	// least adaptOddFloor) from the median of the frame's sure points of that reading: an odd
	// point is weighed like an unsure one and is no example of its reading's look (the
	// renders' grey-white stones the network is sure are black are as bright as the board).
	adaptOdd      = 2.5
	adaptOddFloor = 0.1
	// adaptKeep is the share of a weighed point's probabilities left as the network gave them:
	// held out, a point the frame makes sure of is still wrong a few times in a hundred, and the
	// referee must see that.
	adaptKeep = 0.1
)

// hiddenModel is a PointModel that shows what it has made of a point before it weighs the
// readings: its last hidden activations, on their own or from the pass that reads the point
// (all is false when it read the point without them).
type hiddenModel interface {
	AppendHidden(out, x []float32, buf *stonenet.Buffers) []float32
	ForwardHidden(hidden, x []float32, buf *stonenet.Buffers) (p [stonenet.Classes]float32, out []float32, all bool)
}

// keptHidden holds the hidden activations the reading pass kept, dim per point: point i's
// start in vals, or -1 where the pass did not keep them.
type keptHidden struct {
	vals []float32
	at   []int
	dim  int
}

// reset empties k for a frame of n points.
func (k *keptHidden) reset(n int) {
	k.vals = k.vals[:0]
	if len(k.at) != n {
		k.at = make([]int, n)
	}
	for i := range k.at {
		k.at[i] = -1
	}
}

// keep records that point i's activations are vals[start:] and makes them k's values.
func (k *keptHidden) keep(i, start int, vals []float32) {
	k.vals, k.at[i], k.dim = vals, start, len(vals)-start
}

// appendHidden appends point i's hidden activations to out: the kept ones, or computed now.
func (k *keptHidden) appendHidden(out []float32, i int, net hiddenModel, inputs []float32, buf *stonenet.Buffers) []float32 {
	if i < len(k.at) && k.at[i] >= 0 {
		return append(out, k.vals[k.at[i]:k.at[i]+k.dim]...)
	}
	return net.AppendHidden(out, inputs[i*netInputs:(i+1)*netInputs], buf)
}

// frameAdapter weighs a frame's unsure points against its sure ones (adapt), keeping its
// buffers from frame to frame so that reading allocates nothing.
type frameAdapter struct {
	kept   keptHidden // what the reading pass made of each point
	pts    []int      // the points weighed or used as examples
	unsure []bool     // per entry of pts: weighed (true) or an example
	feat   []float32  // hidden activations, dim per entry of pts
	x      []float64  // feat, as the sums take it
	orig   []observe.Probs
	w      []float64 // per entry of pts, the weight of each reading
	mean   [3][]float64
	vr     []float64
	post   [][3]float64 // the weighed points' probabilities of the last round
	// rows holds, per reading, the Gaussian-weighed sums along each board row of the weighted
	// activations (side*side*dim) and of the weights (rowW, side*side): the first pass of the
	// separable local means, so that a frame costs points x reach x dim, not points squared.
	rows  [3][]float64
	rowW  [3][]float64
	local [3][]float64 // the local looks of the point being weighed
	kern  [adaptReach + 1]float64
	// median and spread of the log brightness of the frame's sure points of each reading
	// (typicalBrightness); spread is +Inf where too few show it. vals is their buffer.
	median, spread [3]float64
	vals           []float64
}

// measuredLook is the number of measured inputs appendMeasured adds to a point's look.
const measuredLook = 1

// appendMeasured appends a point's measured look to x: the log of its disc's brightness relative
// to the board, from its network inputs in.
func appendMeasured(x []float64, in []float32) []float64 {
	return append(x, logBrightness(in))
}

// logBrightness is the log of a point's disc brightness relative to the board, from its network
// inputs (bounded below: a disc darker than a fiftieth of the board is as dark as any).
func logBrightness(in []float32) float64 {
	return math.Log(math.Max(float64(in[inRel]), 0.02))
}

// oddLeast is the fewest sure points of a reading whose brightness tells what is odd for it.
const oddLeast = 8

// typicalBrightness sets fa.median and fa.spread from the frame's sure points of each reading.
func (fa *frameAdapter) typicalBrightness(inputs []float32, probs []observe.Probs) {
	for c := observe.Empty; c <= observe.White; c++ {
		fa.vals = fa.vals[:0]
		for i, p := range probs {
			if p.Likeliest() == c && p[c] >= adaptUnsure {
				fa.vals = append(fa.vals, logBrightness(inputs[i*netInputs:(i+1)*netInputs]))
			}
		}
		if len(fa.vals) < oddLeast {
			fa.median[c], fa.spread[c] = 0, math.Inf(1)
			continue
		}
		slices.Sort(fa.vals)
		med := fa.vals[len(fa.vals)/2]
		for j, v := range fa.vals {
			fa.vals[j] = math.Abs(v - med)
		}
		slices.Sort(fa.vals)
		// 1.4826 scales a median absolute deviation to a normal distribution's deviation.
		fa.median[c], fa.spread[c] = med, math.Max(1.4826*fa.vals[len(fa.vals)/2], adaptOddFloor)
	}
}

// odd reports whether sure point i, read k, is far brighter or darker than the frame's sure
// points of k (see adaptOdd).
func (fa *frameAdapter) odd(inputs []float32, i int, k observe.Stone) bool {
	lb := logBrightness(inputs[i*netInputs : (i+1)*netInputs])
	return math.Abs(lb-fa.median[k]) > adaptOdd*fa.spread[k]
}

// adapt re-weighs the points of probs the network is unsure of by the frame's sure points
// (see adaptUnsure), and the sure points whose brightness is odd for their reading (adaptOdd). inputs are the network's inputs, NetInputs per point.
func (fa *frameAdapter) adapt(net hiddenModel, inputs []float32, probs []observe.Probs, buf *stonenet.Buffers) {
	n := len(probs)
	fa.pts, fa.unsure = fa.pts[:0], fa.unsure[:0]
	fa.typicalBrightness(inputs, probs)
	var sure [3]int
	for i := 0; i < n; i++ {
		k := probs[i].Likeliest()
		if k > observe.White {
			continue
		}
		if probs[i][k] < adaptUnsure || fa.odd(inputs, i, k) {
			fa.pts, fa.unsure = append(fa.pts, i), append(fa.unsure, true)
		} else {
			sure[k]++
		}
	}
	if len(fa.pts) == 0 {
		return
	}
	// Examples: up to adaptPerKind sure points of each reading, evenly spread over the board,
	// each standing for the sure points it was picked from.
	var seen, taken [3]int
	for i := 0; i < n; i++ {
		k := probs[i].Likeliest()
		if k > observe.White || probs[i][k] < adaptUnsure || fa.odd(inputs, i, k) {
			continue
		}
		j := seen[k]
		seen[k]++
		if j > 0 && j*adaptPerKind/sure[k] == (j-1)*adaptPerKind/sure[k] {
			continue // not the first of a new stride
		}
		taken[k]++
		fa.pts, fa.unsure = append(fa.pts, i), append(fa.unsure, false)
	}
	var stands [3]float64
	for k := range stands {
		stands[k] = float64(sure[k]) / float64(max(taken[k], 1))
	}
	fa.feat = fa.feat[:0]
	for _, i := range fa.pts {
		fa.feat = fa.kept.appendHidden(fa.feat, i, net, inputs, buf)
	}
	m := len(fa.pts)
	dh := len(fa.feat) / m
	if dh == 0 {
		return
	}
	fa.x = fa.x[:0]
	for e, i := range fa.pts {
		for _, v := range fa.feat[e*dh : (e+1)*dh] {
			fa.x = append(fa.x, float64(v))
		}
		fa.x = appendMeasured(fa.x, inputs[i*netInputs:(i+1)*netInputs])
	}
	d := dh + measuredLook
	fa.orig = fa.orig[:0]
	for _, i := range fa.pts {
		fa.orig = append(fa.orig, probs[i])
	}
	if cap(fa.w) < 3*m {
		fa.w = make([]float64, 3*m)
	}
	w := fa.w[:3*m]
	for k := range fa.mean {
		if len(fa.mean[k]) != d {
			fa.mean[k] = make([]float64, d)
		}
	}
	if len(fa.vr) != d {
		fa.vr = make([]float64, d)
	}
	if cap(fa.post) < m {
		fa.post = make([][3]float64, m)
	}
	post := fa.post[:m]
	for round := 0; round < adaptRounds; round++ {
		// Weights: an example counts for its reading as the sure points it stands for; from the
		// second round on, a weighed point counts by its probabilities of the round before.
		var sureW, unsureW [3]float64
		for e := range fa.pts {
			o := fa.orig[e]
			for c := 0; c < 3; c++ {
				w[3*e+c] = 0
			}
			switch {
			case !fa.unsure[e]:
				k := o.Likeliest()
				w[3*e+int(k)] = stands[k]
				sureW[k] += stands[k]
			case round > 0:
				for c := 0; c < 3; c++ {
					w[3*e+c] = post[e][c]
					unsureW[c] += post[e][c]
				}
			}
		}
		// The weighed points together count for at most adaptShare times the sure points of a
		// reading (or adaptMinSure), so that a mass of points the network half believes cannot
		// make a look of their own.
		var cnt [3]float64
		for c := 0; c < 3; c++ {
			cnt[c] = sureW[c] + unsureW[c]
			lim := adaptShare * math.Max(sureW[c], adaptMinSure)
			if unsureW[c] <= lim {
				continue
			}
			f := lim / unsureW[c]
			cnt[c] = sureW[c] + lim
			for e := range fa.pts {
				if fa.unsure[e] {
					w[3*e+c] *= f
				}
			}
		}
		for c := 0; c < 3; c++ {
			clear(fa.mean[c])
		}
		clear(fa.vr)
		for e := range fa.pts {
			x := fa.x[e*d : (e+1)*d]
			for c := 0; c < 3; c++ {
				if wc := w[3*e+c]; wc > 0 {
					axpy(fa.mean[c], x, wc)
				}
			}
		}
		for c := 0; c < 3; c++ {
			for j := range fa.mean[c] {
				fa.mean[c][j] /= math.Max(cnt[c], 1e-9)
			}
		}
		tot := 0.0
		for e := range fa.pts {
			x := fa.x[e*d : (e+1)*d]
			for c := 0; c < 3; c++ {
				if wc := w[3*e+c]; wc > 0 && cnt[c] >= adaptMinSure {
					tot += wc
					for j, v := range x {
						dv := v - fa.mean[c][j]
						fa.vr[j] += wc * dv * dv
					}
				}
			}
		}
		if tot < 2 {
			return
		}
		for j := range fa.vr {
			fa.vr[j] = fa.vr[j]/tot + adaptFloor
		}
		side := boardSide(n)
		fa.sumRows(side, d, w)
		for e := range fa.pts {
			if !fa.unsure[e] {
				continue
			}
			k, r := twoLikeliest(fa.orig[e])
			fa.localLook(e, k, side, d, w)
			fa.localLook(e, r, side, d, w)
			post[e] = fa.weigh(fa.orig[e], fa.x[e*d:(e+1)*d], cnt)
		}
	}
	for e, i := range fa.pts {
		if !fa.unsure[e] {
			continue
		}
		o := fa.orig[e]
		for c := 0; c < 3; c++ {
			probs[i][c] = float32((1-adaptKeep)*post[e][c] + adaptKeep*float64(o[c]))
		}
	}
}

// boardSide is the side of a square board of n points.
func boardSide(n int) int {
	side := 1
	for side*side < n {
		side++
	}
	return side
}

// twoLikeliest returns a point's likeliest reading and the next (of empty, black and white).
func twoLikeliest(p observe.Probs) (k, r observe.Stone) {
	k = p.Likeliest()
	r = observe.Empty
	if r == k {
		r = observe.Black
	}
	for c := observe.Empty; c <= observe.White; c++ {
		if c != k && p[c] > p[r] {
			r = c
		}
	}
	return k, r
}

// sumRows is the first pass of the local looks: for every reading, the sums along each board
// row, within adaptReach, of the weighted activations of the points of fa.pts, Gaussian-weighed.
func (fa *frameAdapter) sumRows(side, d int, w []float64) {
	if fa.kern[0] == 0 {
		for t := range fa.kern {
			fa.kern[t] = math.Exp(-float64(t*t) / (2 * adaptLocal * adaptLocal))
		}
	}
	for c := 0; c < 3; c++ {
		if len(fa.rows[c]) != side*side*d {
			fa.rows[c] = make([]float64, side*side*d)
			fa.rowW[c] = make([]float64, side*side)
		}
		clear(fa.rows[c])
		clear(fa.rowW[c])
	}
	for e, i := range fa.pts {
		x := fa.x[e*d : (e+1)*d]
		row, col := i/side, i%side
		for c := 0; c < 3; c++ {
			wc := w[3*e+c]
			if wc < adaptLeast {
				continue
			}
			for to := max(col-adaptReach, 0); to <= min(col+adaptReach, side-1); to++ {
				kw := fa.kern[abs(to-col)] * wc
				j := row*side + to
				fa.rowW[c][j] += kw
				axpy(fa.rows[c][j*d:(j+1)*d], x, kw)
			}
		}
	}
}

// axpy adds a times x to y, element by element (len(x) == len(y)), four at a time: the
// weighing's inner loop. Each element gets the same operations in the same order as a plain
// loop would give it.
func axpy(y, x []float64, a float64) {
	x = x[:len(y)]
	t := 0
	for ; t+4 <= len(y); t += 4 {
		yy, xx := y[t:t+4:t+4], x[t:t+4:t+4]
		yy[0] += a * xx[0]
		yy[1] += a * xx[1]
		yy[2] += a * xx[2]
		yy[3] += a * xx[3]
	}
	for ; t < len(y); t++ {
		y[t] += a * x[t]
	}
}

// localLook sets fa.local[c] to the look of reading c around the e-th point of fa.pts: the
// second pass of the Gaussian over the board's columns, without the point itself, pulled
// toward the frame's look fa.mean[c].
func (fa *frameAdapter) localLook(e int, c observe.Stone, side, d int, w []float64) {
	if len(fa.local[c]) != d {
		fa.local[c] = make([]float64, d)
	}
	loc := fa.local[c]
	for t, v := range fa.mean[c] {
		loc[t] = adaptPrior * v
	}
	sum := adaptPrior
	i := fa.pts[e]
	row, col := i/side, i%side
	for from := max(row-adaptReach, 0); from <= min(row+adaptReach, side-1); from++ {
		k := fa.kern[abs(from-row)]
		j := from*side + col
		sum += k * fa.rowW[c][j]
		axpy(loc, fa.rows[c][j*d:(j+1)*d], k)
	}
	// The point's own activations, which both passes gave weight 1 x 1.
	if own := w[3*e+int(c)]; own >= adaptLeast {
		sum -= own
		for t, v := range fa.x[e*d : (e+1)*d] {
			loc[t] -= own * v
		}
	}
	for t := range loc {
		loc[t] /= sum
	}
}

// weigh returns a point's probabilities with the frame's say: only the network's two likeliest
// readings are weighed against each other, by the point's local looks of them (fa.local), and
// only when the frame shows both.
func (fa *frameAdapter) weigh(p observe.Probs, x []float64, cnt [3]float64) [3]float64 {
	out := [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
	k, r := twoLikeliest(p)
	if cnt[k] < adaptMinSure || cnt[r] < adaptMinSure {
		return out
	}
	var l, dist [2]float64
	for t, c := range [2]observe.Stone{k, r} {
		// The hidden activations count once each, the measured look (the last measuredLook
		// numbers) adaptBright times.
		s, dh := 0.0, len(x)-measuredLook
		for j, v := range x[:dh] {
			dv := v - fa.local[c][j]
			s += dv * dv / fa.vr[j]
		}
		for j := dh; j < len(x); j++ {
			dv := x[j] - fa.local[c][j]
			s += adaptBright * dv * dv / fa.vr[j]
		}
		dist[t] = s / float64(dh+measuredLook*adaptBright)
		l[t] = math.Log(math.Max(float64(p[c]), 1e-6))
	}
	// The frame's say is the log of the ratio of the distances, not their difference: a point
	// far from both looks (a black stone with a glare spot) is not pushed hard either way.
	l[0] += adaptWeight * math.Log((dist[1]+adaptNear)/(dist[0]+adaptNear))
	both := float64(p[k] + p[r])
	top := math.Max(l[0], l[1])
	ek, er := math.Exp(l[0]-top), math.Exp(l[1]-top)
	out[k], out[r] = both*ek/(ek+er), both*er/(ek+er)
	return out
}
