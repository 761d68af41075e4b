package vision

import (
	"math"

	"tengen/vision/observe"
	"tengen/vision/stonenet"
)

// The frame's own look: a network trained on other boards is unsure of a point when this board,
// lamp or camera is unlike them (white stones on a pale board under glare, cream stones on a
// blue printed board). The same frame holds many points it is sure of, and a board's stones
// look alike under one lamp. So each point the network is unsure of is also weighed by how like
// this frame's sure empty points, black stones and white stones it looks, in the network's own
// terms (its members' last hidden activations). The settings were chosen on the
// leave-one-source-out folds (README).
const (
	adaptUnsure  = 0.99 // a point read less sure than this is weighed against the frame; the others show what their reading looks like here
	adaptMinSure = 4    // the fewest sure points a reading needs in a frame to be weighed
	adaptPerKind = 24   // sure points per reading used (spread over the board): enough for a mean
	adaptWeight  = 4    // the frame's say against the network's: log-odds per e-fold of distance
	adaptNear    = 0.05 // a distance (mean squared, in the frame's spreads) this small is as near as any
	adaptFloor   = 0.01 // least variance of an activation
	adaptRounds  = 3    // estimates of the frame's looks, each with the points weighed before
	// adaptKeep is the share of a weighed point's probabilities left as the network gave them:
	// held out, a point the frame makes sure of is still wrong a few times in a hundred, and the
	// referee must see that.
	adaptKeep = 0.1
)

// hiddenModel is a PointModel that shows what it has made of a point before it weighs the
// readings: its last hidden activations.
type hiddenModel interface {
	AppendHidden(out, x []float32, buf *stonenet.Buffers) []float32
}

// frameAdapter weighs a frame's unsure points against its sure ones (adapt), keeping its
// buffers from frame to frame so that reading allocates nothing.
type frameAdapter struct {
	pts    []int     // the points weighed or used as examples
	unsure []bool    // per entry of pts: weighed (true) or an example
	feat   []float32 // hidden activations, dim per entry of pts
	orig   []observe.Probs
	w      []float64 // per entry of pts, the weight of each reading
	mean   [3][]float64
	vr     []float64
	post   [][3]float64 // the weighed points' probabilities of the last round
}

// adapt re-weighs the points of probs the network is unsure of by the frame's sure points
// (see adaptUnsure). inputs are the network's inputs, NetInputs per point.
func (fa *frameAdapter) adapt(net hiddenModel, inputs []float32, probs []observe.Probs, buf *stonenet.Buffers) {
	n := len(probs)
	fa.pts, fa.unsure = fa.pts[:0], fa.unsure[:0]
	var sure [3]int
	for i := 0; i < n; i++ {
		k := probs[i].Likeliest()
		if k > observe.White {
			continue
		}
		if probs[i][k] < adaptUnsure {
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
		if k > observe.White || probs[i][k] < adaptUnsure {
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
		fa.feat = net.AppendHidden(fa.feat, inputs[i*netInputs:(i+1)*netInputs], buf)
	}
	m := len(fa.pts)
	d := len(fa.feat) / m
	if d == 0 {
		return
	}
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
		var cnt [3]float64
		for e := range fa.pts {
			o := fa.orig[e]
			for c := 0; c < 3; c++ {
				w[3*e+c] = 0
			}
			switch {
			case !fa.unsure[e]:
				k := o.Likeliest()
				w[3*e+int(k)] = stands[k]
			case round > 0:
				for c := 0; c < 3; c++ {
					w[3*e+c] = post[e][c]
				}
			}
			for c := 0; c < 3; c++ {
				cnt[c] += w[3*e+c]
			}
		}
		for c := 0; c < 3; c++ {
			clear(fa.mean[c])
		}
		clear(fa.vr)
		for e := range fa.pts {
			x := fa.feat[e*d : (e+1)*d]
			for c := 0; c < 3; c++ {
				if wc := w[3*e+c]; wc > 0 {
					for j, v := range x {
						fa.mean[c][j] += wc * float64(v)
					}
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
			x := fa.feat[e*d : (e+1)*d]
			for c := 0; c < 3; c++ {
				if wc := w[3*e+c]; wc > 0 && cnt[c] >= adaptMinSure {
					tot += wc
					for j, v := range x {
						dv := float64(v) - fa.mean[c][j]
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
		for e := range fa.pts {
			if !fa.unsure[e] {
				continue
			}
			post[e] = fa.weigh(fa.orig[e], fa.feat[e*d:(e+1)*d], cnt)
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

// weigh returns a point's probabilities with the frame's say: only the network's two likeliest
// readings are weighed against each other, and only when the frame shows both.
func (fa *frameAdapter) weigh(p observe.Probs, x []float32, cnt [3]float64) [3]float64 {
	out := [3]float64{float64(p[0]), float64(p[1]), float64(p[2])}
	k := p.Likeliest()
	r := observe.Empty
	if r == k {
		r = observe.Black
	}
	for c := observe.Empty; c <= observe.White; c++ {
		if c != k && p[c] > p[r] {
			r = c
		}
	}
	if cnt[k] < adaptMinSure || cnt[r] < adaptMinSure {
		return out
	}
	var l, dist [2]float64
	for t, c := range [2]observe.Stone{k, r} {
		s := 0.0
		for j, v := range x {
			dv := float64(v) - fa.mean[c][j]
			s += dv * dv / fa.vr[j]
		}
		dist[t] = s / float64(len(x))
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
