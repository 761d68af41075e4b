package replay

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"tengen/engine"
	"tengen/internal/shareddata"
	"tengen/referee/infer"
	"tengen/vision/observe"
)

// readingSets are the recorded readings and the labels beside their photos.
var readingSets = []struct {
	name string
	dir  []string
}{
	{"t1", []string{"vision-eval", "imago-tests", "t1"}},
	{"t2", []string{"vision-eval", "imago-tests", "t2"}},
	{"t2-050", []string{"vision-eval", "imago-tests", "t2"}},
	{"t2-075", []string{"vision-eval", "imago-tests", "t2"}},
	{"t2-100", []string{"vision-eval", "imago-tests", "t2"}},
	{"t3", []string{"vision-eval", "imago-tests", "t3"}},
	{"t3-050", []string{"vision-eval", "imago-tests", "t3"}},
	{"gomrade", []string{"vision-eval", "gomrade-sample", "testing_sequence"}},
}

// label reads frame's ground truth. t2_053 and t2_054 have label errors in column R, rows 9-11
// (vision-eval/imago-tests/MANIFEST.md): the photos show the stones of t2_052 there.
func label(t *testing.T, dir, frame string) observe.Observation {
	t.Helper()
	o, err := ReadLabel(filepath.Join(dir, strings.TrimSuffix(frame, filepath.Ext(frame))+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	if base := filepath.Base(frame); base == "t2_053.jpg" || base == "t2_054.jpg" {
		ref, err := ReadLabel(filepath.Join(dir, "skip", "t2_052.txt"))
		if err != nil {
			t.Fatal(err)
		}
		for y := 8; y <= 10; y++ {
			o.Stones[y*19+16] = ref.Stones[y*19+16]
		}
	}
	return o
}

// outcome is what a rule does with a press: a move recorded, or none.
type outcome struct {
	move engine.Point
	ok   bool
}

// bestGuessRule is the referee's rule before likelihoods: the best guesses must show exactly the
// game plus one stone of the pressing colour with its captures off (or still on, waiting to be
// taken off), or that stone and one stone of the opponent being played.
func bestGuessRule(g *engine.Game, c engine.Color, o observe.Observation) outcome {
	size := g.Size()
	type mm struct {
		i          int
		want, seen engine.Color
	}
	diff := func(want []engine.Color) []mm {
		var out []mm
		for i, w := range want {
			s := engine.Empty
			switch o.Stones[i] {
			case observe.Black:
				s = engine.Black
			case observe.White:
				s = engine.White
			case observe.Obscured:
				s = -1
			}
			if s != w {
				out = append(out, mm{i, w, s})
			}
		}
		return out
	}
	ms := diff(g.Board())
	var ad []mm
	for _, m := range ms {
		if m.want == engine.Empty && m.seen > 0 {
			ad = append(ad, m)
		}
	}
	var other *mm
	if len(ad) == 2 && ad[0].seen != ad[1].seen {
		if ad[0].seen != c {
			ad[0], ad[1] = ad[1], ad[0]
		}
		other = &ad[1]
		ad = ad[:1]
	}
	if len(ad) != 1 || ad[0].seen != c {
		return outcome{}
	}
	p := engine.Point{X: ad[0].i % size, Y: ad[0].i / size}
	played, err := g.Play(engine.Move{Color: c, Point: p})
	if err != nil {
		return outcome{}
	}
	defer func() { _ = g.Undo() }()
	rest := diff(g.Board())
	if other != nil {
		if len(rest) == 1 && rest[0].i == other.i {
			return outcome{p, true}
		}
		return outcome{}
	}
	captured := map[int]bool{}
	for _, q := range played.Captured {
		captured[q.Y*size+q.X] = true
	}
	for _, m := range rest {
		if !captured[m.i] || m.seen != c.Opponent() {
			return outcome{}
		}
	}
	return outcome{p, true}
}

// likelihoodRule is the referee's rule now (evaluate and playSeen): the likeliest explanation,
// decisive, a legal move, and no point contradicting it but captured stones still on the board.
func likelihoodRule(t *testing.T, g *engine.Game, c engine.Color, o observe.Observation) outcome {
	r, err := infer.Rank(g, c, o)
	if err != nil {
		t.Fatal(err)
	}
	b := r.Best
	if len(r.Unseen) > 0 || b.Kind.Slip() || !r.Decisive() {
		return outcome{}
	}
	size := g.Size()
	captured := map[engine.Point]bool{}
	for _, q := range b.Captured {
		captured[q] = true
	}
	seen := b.Board(size, g.Board())
	if b.Kind == infer.CapturesOnBoard {
		seen = infer.Candidate{Kind: infer.Move, Move: b.Move, Captured: b.Captured, Removed: true}.Board(size, g.Board())
	}
	sc, err := infer.NewScorer(o, size)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range sc.Misfits(seen) {
		if !captured[m.Point] || m.Seen != c.Opponent() || b.Kind == infer.MoveThenNext {
			return outcome{}
		}
	}
	return outcome{b.Move.Point, true}
}

// transition is one press between two consecutive photos: the position before (from the label),
// the colour that pressed, the reading after, and the move the labels show (none when they show
// several stones at once, which must be refused).
type transition struct {
	name  string
	game  *engine.Game
	color engine.Color
	read  observe.Observation
	want  outcome
}

func transitions(t *testing.T) []transition {
	var out []transition
	for _, set := range readingSets {
		dir := shareddata.Path(t, set.dir...)
		frames, obs := loadReadings(t, set.name)
		for i := 1; i < len(frames); i++ {
			o, ok := obs[frames[i]]
			if !ok {
				continue
			}
			prev, next := label(t, dir, frames[i-1]), label(t, dir, frames[i])
			var added []int
			var black, white []engine.Point
			for k, s := range prev.Stones {
				if s == observe.Empty && next.Stones[k] != observe.Empty {
					added = append(added, k)
				}
				switch s {
				case observe.Black:
					black = append(black, engine.Point{X: k % 19, Y: k / 19})
				case observe.White:
					white = append(white, engine.Point{X: k % 19, Y: k / 19})
				}
			}
			if len(added) == 0 {
				continue // nobody played: no press
			}
			c := engine.Black
			if next.Stones[added[0]] == observe.White {
				c = engine.White
			}
			rules, err := engine.Preset("aga")
			if err != nil {
				t.Fatal(err)
			}
			g, err := engine.NewGame(19, rules)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Setup(black, white, c); err != nil {
				t.Fatal(err)
			}
			tr := transition{name: set.name + "/" + frames[i], game: g, color: c, read: o}
			if len(added) == 1 {
				tr.want = outcome{engine.Point{X: added[0] % 19, Y: added[0] / 19}, true}
			}
			out = append(out, tr)
		}
	}
	return out
}

// score tallies outcomes: moves right, wrong, refused; and the steps that must be refused
// (several stones at once), refused or recorded.
type score struct {
	tally
	mustRefuse, refusedOK int
}

func (s score) String() string {
	return fmt.Sprintf("%v; %d of %d multi-stone steps refused", s.tally, s.refusedOK, s.mustRefuse)
}

func (s *score) add(got, want outcome) {
	switch {
	case !want.ok:
		s.mustRefuse++
		if !got.ok {
			s.refusedOK++
		}
	case !got.ok:
		s.refused++
	case got.move == want.move:
		s.right++
	default:
		s.wrong++
	}
}

// misread returns o with point i read as s at the given confidence. A reading with
// probabilities gets s at conf, the stone truly there at 90% of the rest, and the other two
// readings a share each of what is left; a reading with confidences only (the hand-tuned reader)
// gets s at conf.
func misread(o observe.Observation, i int, s observe.Stone, conf float32) observe.Observation {
	o = o.Clone()
	was := o.Stones[i]
	o.Stones[i] = s
	if o.Probs != nil {
		var p observe.Probs
		for k := range p {
			p[k] = (1 - conf) * 0.05
		}
		p[s], p[was] = conf, (1-conf)*0.9
		o.Probs[i] = p
	}
	if o.Confidence == nil {
		o.Confidence = make([]float32, len(o.Stones))
		for k := range o.Confidence {
			o.Confidence[k] = 1
		}
	}
	o.Confidence[i] = conf
	return o
}

// TestVisionReadingsMoves measures move reading press by press on every consecutive pair of
// labelled photos (the replayed sequences and the mid-game runs t2 050-054, 075-079, 100-104 and
// t3 050-051): the position before is the label's, the reading after is vision's. It compares
// the rule before likelihoods (exact best guesses) with the ranking, on the readings as they are
// and with one misread point added elsewhere on the board (read at a confidence of 0.6 or 0.8,
// unsure readings, and of 0.99, a sure one). The ranking must never record a wrong move.
func TestVisionReadingsMoves(t *testing.T) {
	trs := transitions(t)
	if len(trs) < 50 {
		t.Fatalf("only %d presses", len(trs))
	}
	for _, variant := range []struct {
		name string
		conf float32 // 0: the readings as they are
	}{{"as read", 0}, {"one misread at 0.6", 0.6}, {"one misread at 0.8", 0.8}, {"one misread at 0.99", 0.99}} {
		var before, after score
		rng := rand.New(rand.NewPCG(14, 3)) // the same points misread in every variant and run
		for _, tr := range trs {
			o := tr.read
			if variant.conf > 0 {
				// A point away from the move and from the stones it captures.
				away := map[engine.Point]bool{}
				if tr.want.ok {
					away[tr.want.move] = true
					if played, err := tr.game.Play(engine.Move{Color: tr.color, Point: tr.want.move}); err == nil {
						for _, q := range played.Captured {
							away[q] = true
						}
						_ = tr.game.Undo()
					}
				}
				for {
					i := rng.IntN(len(o.Stones))
					if away[engine.Point{X: i % 19, Y: i / 19}] || o.Stones[i] == observe.Obscured {
						continue
					}
					s := observe.Empty
					if o.Stones[i] == observe.Empty {
						s = observe.Stone(1 + rng.IntN(2))
					}
					o = misread(o, i, s, variant.conf)
					break
				}
			}
			b, a := bestGuessRule(tr.game, tr.color, o), likelihoodRule(t, tr.game, tr.color, o)
			before.add(b, tr.want)
			after.add(a, tr.want)
			if a.ok && (!tr.want.ok || a.move != tr.want.move) {
				t.Errorf("%s (%s): the ranking recorded %s, the labels show %v", tr.name, variant.name, a.move.GTP(19), tr.want)
			}
		}
		t.Logf("%-20s %d presses. exact best guesses: %v. ranking: %v", variant.name, len(trs), before, after)
		if after.right < before.right || after.refusedOK < after.mustRefuse {
			t.Errorf("%s: the ranking does worse than exact best guesses", variant.name)
		}
	}
}
