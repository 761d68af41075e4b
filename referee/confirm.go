package referee

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"tengen/engine"
	"tengen/referee/infer"
	"tengen/vision/observe"
)

// The confirmation of life and death by play after the stop (Japanese rules art. 7.2). When the
// players dispute a group after the stop, they may play the dispute out on the board. That play
// is hypothetical: it is said on screen and noted in the record as confirmation, never recorded
// as moves of the game (engine.Game.Confirmation is its sandbox). A player whose stone was just
// captured in a ko may retake that ko only after passing once for it, each ko on its own (the
// pass button passes for the oldest ko the player is banned from; PassForKo names one). When the
// players end it, every group of the stop position that the play captured is marked dead, every
// other group alive, and the players put the board back as it stood at the stop.

// ConfirmationState is the confirmation of life and death being played (State.Confirmation).
type ConfirmationState struct {
	Board  []engine.Color // the board of the confirmation, row-major
	ToMove engine.Color   // who plays next in it
	Moves  []engine.Move  // the hypothetical moves so far
	// KoBans are the kos the player to move may not retake before passing once for each (art. 7.2).
	KoBans []engine.Point
	// Captured are the stones of the position at the stop that the play has captured so far.
	Captured []engine.Point
}

// confirmation is the core's confirmation in progress.
type confirmation struct {
	game  *engine.Game
	moves []engine.Move
}

// confirmationRule reports whether disputes after the stop are played out under art. 7.2.
func (t *core) confirmationRule() bool { return t.game != nil && t.rules.ConfirmationKo }

// StartConfirmation starts the confirmation of life and death by play (Japanese rules art. 7.2)
// after the stop; first plays first.
func (t *Table) StartConfirmation(first engine.Color, at time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.phase != PhaseMarking || t.conf != nil || !t.confirmationRule() || (first != engine.Black && first != engine.White) {
		return fmt.Errorf("%w: confirmation by play is for disputes after the stop under Japanese rules", ErrPhase)
	}
	return t.runEvent(&event{Kind: kindConfStart, At: at, Color: first})
}

func (t *core) applyConfStart(first engine.Color, at time.Time) error {
	if t.phase != PhaseMarking || t.conf != nil || !t.confirmationRule() {
		return fmt.Errorf("%w: confirmation outside marking", ErrPhase)
	}
	sandbox, err := t.game.Confirmation(first)
	if err != nil {
		return err
	}
	t.conf = &confirmation{game: sandbox}
	t.confirm = [3]bool{}
	t.comment(fmt.Sprintf("Confirmation of life and death by play (Japanese rules art. 7.2), %s first: hypothetical play, not moves of the game.", title(first)))
	t.setBanner(Verdict{Kind: VerdictMarking, Color: first, At: at, Says: []Phrase{
		phrase("Confirmation of life and death by play (Japanese rules art. 7.2): {{.Color}} plays first. These moves are hypothetical, not moves of the game; a ko may be retaken only after passing once for it.",
			"Color", title(first))}})
	return nil
}

// confPress is a press during the confirmation: the player to move's clock press waits for the
// board to be still and is read as a hypothetical move; the pass button passes for the player to
// move (for the oldest ko that player is banned from).
func (t *core) confPress(c engine.Color, at, deadline time.Time) error {
	g := t.conf.game
	if c == engine.Empty {
		return t.confPass(g.ToMove(), nil, at)
	}
	if c != g.ToMove() {
		t.setBanner(Verdict{Kind: VerdictNotYourTurn, Color: c, At: at,
			Says: []Phrase{phrase("It is {{.ToMove}}'s turn: {{.Color}}'s clock press changes nothing.", "ToMove", title(g.ToMove()), "Color", title(c))}})
		return nil
	}
	t.pending = &pendingPress{Color: c, At: at, Deadline: deadline}
	return nil
}

// PassForKo is a pass during the confirmation by the player to move for the ko at ko only (art.
// 7.2: each ko on its own).
func (t *Table) PassForKo(ko engine.Point, at time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conf == nil || t.phase != PhaseMarking {
		return fmt.Errorf("%w: a pass for a ko is made during the confirmation", ErrPhase)
	}
	return t.runEvent(&event{Kind: kindConfPass, At: at, Point: ko.GTP(t.game.Size())})
}

func (t *core) applyConfPass(ev *event) error {
	if t.conf == nil || t.phase != PhaseMarking {
		return fmt.Errorf("%w: pass for a ko outside the confirmation", ErrPhase)
	}
	ko, err := t.parsePoint(ev.Point)
	if err != nil {
		return err
	}
	return t.confPass(t.conf.game.ToMove(), &ko, ev.At)
}

// confPass passes for c in the confirmation, for the ko at ko (nil: the oldest ko c is banned from).
func (t *core) confPass(c engine.Color, ko *engine.Point, at time.Time) error {
	g := t.conf.game
	size := g.Size()
	var played engine.Played
	var err error
	bans := g.KoBans(c)
	if ko != nil {
		played, err = g.PassForKo(c, *ko)
	} else {
		played, err = g.Play(engine.Move{Color: c, Pass: true})
	}
	if err != nil {
		t.setBanner(Verdict{Kind: VerdictInfo, Color: c, At: at, Says: []Phrase{errPhrase(err)}})
		return nil
	}
	t.conf.moves = append(t.conf.moves, played.Move)
	says := phrase("Confirmation: {{.Color}} passes.", "Color", title(c))
	var pts []engine.Point
	switch {
	case ko != nil:
		pts = []engine.Point{*ko}
	case len(bans) > 0:
		pts = bans[:1]
	}
	if len(pts) > 0 {
		says = phrase("Confirmation: {{.Color}} passes for the ko at {{.Point}} and may retake it (Japanese rules art. 7.2).",
			"Color", title(c), "Point", pts[0].GTP(size))
	}
	t.setBanner(Verdict{Kind: VerdictMarking, Color: c, At: at, Points: pts, Says: []Phrase{says}})
	return nil
}

// resolveConf reads the board seen for a press during the confirmation.
func (t *core) resolveConf(o observe.Observation) {
	p := t.pending
	t.pending = nil
	g := t.conf.game
	size := g.Size()
	c, at := p.Color, p.At
	r, err := infer.Rank(g, c, o)
	if err != nil {
		t.setBanner(Verdict{Kind: VerdictBoardDiffers, Color: c, At: at, Says: []Phrase{errPhrase(err)}})
		return
	}
	b := r.Best
	switch {
	case !r.Decisive() || len(r.Misfits) > 0 || b.Kind == infer.WrongColor || b.Kind == infer.MoveThenNext:
		t.setBanner(Verdict{Kind: VerdictBoardDiffers, Color: c, At: at, Points: misfitPoints(r),
			Says: []Phrase{phrase("Confirmation: the board does not clearly show one new stone. Check the board and press your clock again.")}})
	case b.Kind == infer.NoChange:
		t.setBanner(Verdict{Kind: VerdictNoChange, Color: c, At: at,
			Says: []Phrase{phrase("No new stone on the board: {{.Color}}, place your stone and press your clock again, or press pass.", "Color", title(c))}})
	case b.Kind == infer.Illegal:
		says := []Phrase{illegalPhrase(b.Err)}
		if b.Err.Reason == engine.KoConfirmation {
			says = append(says, phrase("Take the stone on {{.Point}} back: pass once for this ko first (the pass button).", "Point", b.Move.Point.GTP(size)))
		} else {
			says = append(says, phrase("Take the stone on {{.Point}} back.", "Point", b.Move.Point.GTP(size)))
		}
		t.setBanner(Verdict{Kind: VerdictIllegal, Color: c, At: at, Points: []engine.Point{b.Move.Point}, Says: says})
	default: // Move, CapturesOnBoard
		played, err := g.Play(b.Move)
		if err != nil {
			t.setBanner(Verdict{Kind: VerdictBoardDiffers, Color: c, At: at, Says: []Phrase{errPhrase(err)}})
			return
		}
		t.conf.moves = append(t.conf.moves, played.Move)
		pts := []engine.Point{played.Move.Point}
		says := []Phrase{phrase("Confirmation: {{.Color}} {{.Point}}.", "Color", title(c), "Point", played.Move.Point.GTP(size))}
		if len(played.Captured) > 0 {
			caps := sortedPoints(played.Captured)
			pts = append(pts, caps...)
			says = []Phrase{phrase("Confirmation: {{.Color}} {{.Point}}, capturing {{.Count}} ({{.Points}}): take them off the board.",
				"Color", title(c), "Point", played.Move.Point.GTP(size), "Count", fmt.Sprint(len(caps)), "Points", vertices(size, caps))}
		}
		t.setBanner(Verdict{Kind: VerdictMarking, Color: c, At: at, Points: pts, Says: says})
	}
}

// misfitPoints are the points of r that contradict its best explanation or are not seen.
func misfitPoints(r infer.Ranking) []engine.Point {
	pts := slices.Clone(r.Unseen)
	for _, m := range r.Misfits {
		pts = append(pts, m.Point)
	}
	return sortedPoints(pts)
}

// EndConfirmation ends the confirmation by play: the groups of the stop position it captured are
// marked dead, the others alive, and the players put the board back as it stood at the stop.
func (t *Table) EndConfirmation(at time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.conf == nil || t.phase != PhaseMarking {
		return fmt.Errorf("%w: no confirmation to end", ErrPhase)
	}
	return t.runEvent(&event{Kind: kindConfEnd, At: at})
}

func (t *core) applyConfEnd(at time.Time) error {
	if t.conf == nil || t.phase != PhaseMarking {
		return fmt.Errorf("%w: no confirmation to end", ErrPhase)
	}
	conf := t.conf
	t.conf, t.pending = nil, nil
	g := t.game
	size := g.Size()
	captured := t.confCaptured(conf)
	gone := map[engine.Point]bool{}
	for _, p := range captured {
		gone[p] = true
	}
	t.dead = map[engine.Point]bool{}
	for _, p := range captured {
		t.dead[p] = true
	}
	t.liftDead = map[engine.Point]bool{}
	t.refillDame()
	t.markingChanged()
	var played []string
	var placed []engine.Point
	for _, m := range conf.moves {
		played = append(played, m.GTP(size))
		if !m.Pass && g.At(m.Point) == engine.Empty && conf.game.At(m.Point) != engine.Empty {
			placed = append(placed, m.Point)
		}
	}
	t.comment(fmt.Sprintf("Confirmation (Japanese rules art. 7.2), hypothetical play: %s.", strings.Join(played, ", ")))
	says := phrase("Confirmation over: no stone of the position at the stop was captured; all are alive.")
	if len(captured) > 0 {
		t.comment(fmt.Sprintf("Captured in the confirmation, so dead: %s.", vertices(size, captured)))
		says = phrase("Confirmation over: the stones at {{.Points}} were captured and are marked dead; the others are alive.",
			"Points", vertices(size, captured))
	}
	all := []Phrase{says}
	if placed = sortedPoints(placed); len(placed) > 0 {
		all = append(all, phrase("Take the stones played in the confirmation off the board: {{.Points}}.", "Points", vertices(size, placed)))
	}
	all = append(all, phrase("Both players press their clock to confirm."))
	t.setBanner(Verdict{Kind: VerdictMarking, At: at, Points: append(slices.Clone(captured), placed...), Says: all})
	return nil
}

// confCaptured returns the stones of the stop position that are gone from the confirmation's board
// (captured in it), whole chains, sorted.
func (t *core) confCaptured(conf *confirmation) []engine.Point {
	g := t.game
	size := g.Size()
	var out []engine.Point
	for i, c := range g.Board() {
		p := engine.Point{X: i % size, Y: i / size}
		if c != engine.Empty && conf.game.At(p) != c {
			out = append(out, p)
		}
	}
	return sortedPoints(out)
}

// confirmationState is the confirmation for State (nil: none).
func (t *core) confirmationState() *ConfirmationState {
	if t.conf == nil {
		return nil
	}
	g := t.conf.game
	return &ConfirmationState{Board: g.Board(), ToMove: g.ToMove(), Moves: slices.Clone(t.conf.moves),
		KoBans: g.KoBans(g.ToMove()), Captured: t.confCaptured(t.conf)}
}
