package referee

import (
	"context"
	"fmt"
	"slices"
	"time"

	"tengen/engine"
)

// enterStop starts the end of the game after the stopping passes.
func (t *core) enterStop(at time.Time) {
	g := t.game
	size := g.Size()
	if g.WhiteOwesPass() {
		played, err := g.Play(engine.Move{Color: engine.White, Pass: true})
		if err == nil {
			if t.clk != nil && t.clk.State().Running {
				_ = t.clk.Switch(at)
			}
			note := &moveNote{Comments: []string{"White passes once more so that both players made the same number of moves (AGA rule 11)."}}
			if t.clk != nil {
				st := t.clk.State()
				note.Time = &st
			}
			t.notes[played.Number] = note
			t.emit(Recorded{Move: played.Move.GTP(size)})
			says := phrase("{{.N}}: White passes once more (AGA rule 11).", "N", fmt.Sprint(played.Number))
			if t.rules.PassStones {
				says = phrase("{{.N}}: White passes once more (AGA rule 11) and hands one pass stone to Black.", "N", fmt.Sprint(played.Number))
			}
			t.setBanner(Verdict{Kind: VerdictPass, Color: engine.White, At: at, MoveNumber: played.Number, Says: []Phrase{says}})
		}
	}
	if t.clk != nil && t.clk.State().Running {
		_ = t.clk.Pause(at)
	}
	t.paused = false
	if g.AllAlive() {
		// count comments the four passes with the result.
		t.dead = map[engine.Point]bool{}
		t.count(at, phrase("Four passes in a row after the resumption: every stone is alive (AGA rule 10)."))
		return
	}
	t.phase = PhaseMarking
	t.repeat, t.repeatSeen = nil, nil
	t.dead = map[engine.Point]bool{}
	t.fromProp = false
	t.propGen++
	t.confirm = [3]bool{}
	t.dameAsked = false
	t.resetCountBoard()
	t.rescore()
	t.comment("The game stopped after two passes.")
	says := []Phrase{phrase("Two passes stop the game. Mark the dead stones (touch a group, or take its stones off the board), then both players press their clock to confirm; or ask to resume play.")}
	if open := t.openDame(); len(open) > 0 {
		says = append(says, phrase("Open dame at {{.Points}}: fill them before confirming (a stone on each; dame filling is not a move).",
			"Points", vertices(size, open)))
	}
	t.setBanner(Verdict{Kind: VerdictStopped, At: at, Points: t.openDame(), Says: says})
	if t.cfg.HasProposer {
		t.propBusy = true
		t.emit(ProposeDead{Gen: t.propGen})
	}
}

// startProposal asks the DeadProposer in the background; its answer is journaled like any input.
func (t *Table) startProposal() {
	g := t.game
	pos := Position{Size: g.Size(), Komi: g.Komi(), Handicap: g.Handicap()}
	for _, p := range g.Moves() {
		pos.Moves = append(pos.Moves, p.Move)
	}
	gen := t.propGen
	prop := t.opts.Proposer
	timeout := t.opts.ProposeTimeout
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		ctx, cancel := context.WithTimeout(t.ctx, timeout)
		dead, err := prop.ProposeDead(ctx, pos)
		cancel()
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.closed || t.phase != PhaseMarking || t.propGen != gen || !t.propBusy || t.ctx.Err() != nil {
			return
		}
		ev := &event{Kind: kindProposal, At: t.live.Now(), Gen: gen}
		if err != nil {
			ev.Error = err.Error()
		} else {
			for _, p := range dead {
				ev.Points = append(ev.Points, p.GTP(pos.Size))
			}
		}
		if ev.At.Before(t.lastAt) {
			ev.At = t.lastAt
		}
		_ = t.runEvent(ev)
	}()
}

func (t *core) applyProposal(ev *event, at time.Time) error {
	if t.phase != PhaseMarking || ev.Gen != t.propGen {
		return nil
	}
	t.propBusy = false
	if ev.Error != "" {
		t.setBanner(Verdict{Kind: VerdictMarking, At: at,
			Says: []Phrase{phrase("The engine could not propose the dead stones ({{.Err}}): mark them by touching groups.", "Err", ev.Error)}})
		return nil
	}
	size := t.game.Size()
	t.dead = map[engine.Point]bool{}
	for _, s := range ev.Points {
		p, err := engine.ParsePoint(s, size)
		if err != nil {
			continue
		}
		for _, q := range t.game.Chain(p) {
			t.dead[q] = true
		}
	}
	t.liftDead = map[engine.Point]bool{}
	t.refillDame()
	t.markingChanged()
	t.fromProp = true
	dead := t.deadList()
	says := phrase("The engine proposes that no stone is dead.")
	if len(dead) > 0 {
		says = phrase("The engine proposes {{.N}} dead stones: {{.Points}}.", "N", fmt.Sprint(len(dead)), "Points", vertices(size, dead))
	}
	t.setBanner(t.withCountBoard(Verdict{Kind: VerdictMarking, At: at, Points: dead,
		Says: []Phrase{says, phrase("Both players press their clock to accept, or touch groups to change it.")}}))
	return nil
}

// markingChanged resets the confirmations and recounts after a change of the marking.
func (t *core) markingChanged() {
	t.fromProp = false
	t.dameAsked = false
	t.confirm = [3]bool{}
	t.rescore()
	t.recheckCountBoard()
}

func (t *core) rescore() {
	sc, err := t.game.Score(t.deadList())
	if err != nil {
		t.score = nil
		return
	}
	t.score = &sc
}

// ToggleDead marks the chain at p dead, or alive again if it was marked dead (PhaseMarking).
func (t *Table) ToggleDead(p engine.Point, at time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.phase != PhaseMarking {
		return fmt.Errorf("%w: dead stones are marked after the game stopped", ErrPhase)
	}
	chain := t.game.Chain(p)
	if len(chain) == 0 {
		return fmt.Errorf("%w: no stone at %s", ErrPhase, p.GTP(t.game.Size()))
	}
	if !slices.ContainsFunc(chain, func(q engine.Point) bool { return !t.isFill(q) }) {
		return fmt.Errorf("%w: the stones at %s are dame stones placed after the stop, not a group to mark", ErrPhase, vertices(t.game.Size(), sortedPoints(chain)))
	}
	return t.runEvent(&event{Kind: kindToggle, At: at, Point: p.GTP(t.game.Size())})
}

func (t *core) applyToggle(p engine.Point, at time.Time) error {
	if t.phase != PhaseMarking {
		return fmt.Errorf("%w: toggle outside marking", ErrPhase)
	}
	chain := t.game.Chain(p)
	if len(chain) == 0 {
		return fmt.Errorf("%w: no stone at %s", ErrPhase, p.GTP(t.game.Size()))
	}
	if !slices.ContainsFunc(chain, func(q engine.Point) bool { return !t.isFill(q) }) {
		return fmt.Errorf("%w: the stones at %s are dame stones placed after the stop, not a group to mark", ErrPhase, vertices(t.game.Size(), sortedPoints(chain)))
	}
	dead := !t.dead[p]
	for _, q := range chain {
		if dead {
			t.dead[q] = true
		} else {
			delete(t.dead, q)
		}
		delete(t.liftDead, q) // the players' marking now, whatever the board showed
	}
	t.refillDame()
	t.markingChanged()
	args := []string{"Stone", stoneWord(t.game.At(p)), "Point", p.GTP(t.game.Size()), "N", fmt.Sprint(len(chain))}
	says := phrase("The {{.Stone}} group at {{.Point}} ({{.N}} stones) is marked alive.", args...)
	if dead {
		says = phrase("The {{.Stone}} group at {{.Point}} ({{.N}} stones) is marked dead.", args...)
	}
	t.setBanner(t.withCountBoard(Verdict{Kind: VerdictMarking, At: at, Points: sortedPoints(chain),
		Says: []Phrase{says, phrase("Both players press their clock to confirm.")}}))
	return nil
}

// Confirm records that c agrees with the marking (the same as c's clock press in PhaseMarking).
func (t *Table) Confirm(c engine.Color, at time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.phase != PhaseMarking || (c != engine.Black && c != engine.White) {
		return fmt.Errorf("%w: nothing to confirm", ErrPhase)
	}
	return t.runEvent(&event{Kind: kindConfirm, At: at, Color: c})
}

func (t *core) applyConfirm(c engine.Color, at time.Time) error {
	if t.phase != PhaseMarking || t.conf != nil || (c != engine.Black && c != engine.White) {
		return nil
	}
	t.confirm[c] = true
	if t.confirm[c.Opponent()] {
		if !t.countBoardBeforeCount(at) || !t.dameBeforeCount(at) {
			return nil
		}
		t.count(at)
		return nil
	}
	t.setBanner(Verdict{Kind: VerdictMarking, Color: c, At: at,
		Says: []Phrase{phrase("{{.Color}} confirms the marking; {{.Opponent}}, press your clock to confirm too, or change the marking.",
			"Color", title(c), "Opponent", title(c.Opponent()))}})
	return nil
}

// count scores the agreed marking and ends the game.
func (t *core) count(at time.Time, prefix ...Phrase) {
	g := t.game
	size := g.Size()
	dead := t.deadList()
	sc, err := g.Score(dead)
	if err != nil {
		t.setBanner(Verdict{Kind: VerdictDirector, At: at, Says: []Phrase{phrase("The count failed ({{.Err}}): call the director.", "Err", err.Error())}})
		return
	}
	t.score = &sc
	args := []string{"Black", fmt.Sprintf("%g", sc.Black.Total), "White", fmt.Sprintf("%g", sc.White.Total), "Komi", fmt.Sprintf("%g", g.Komi())}
	counted := phrase("Count by area: Black {{.Black}}, White {{.White}} (komi {{.Komi}}):", args...)
	if t.rules.Scoring == engine.TerritoryScoring {
		counted = phrase("Count by territory: Black {{.Black}}, White {{.White}} (komi {{.Komi}}):", args...)
	}
	says := append(slices.Clone(prefix), counted, resultPhrase(sc.Result))
	if len(dead) > 0 {
		t.comment(fmt.Sprintf("Dead stones agreed: %s.", vertices(size, dead)))
	}
	t.dameNote()
	t.comment(sentences(says))
	t.end(sc.Result, at, says)
}

// Resume is a player's request to resume play after the stop because the players disagree about
// the dead stones (AGA rule 10, Japanese art. 9.3).
func (t *Table) Resume(requester engine.Color, at time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.phase != PhaseMarking || (requester != engine.Black && requester != engine.White) {
		return fmt.Errorf("%w: play can be resumed only after the stop", ErrPhase)
	}
	return t.runEvent(&event{Kind: kindResume, At: at, Color: requester})
}

func (t *core) applyResume(req engine.Color, at time.Time) error {
	if t.phase != PhaseMarking {
		return fmt.Errorf("%w: resume outside marking", ErrPhase)
	}
	g := t.game
	t.conf = nil
	fills := g.DameFilled()
	if err := g.Resume(req); err != nil {
		return err
	}
	t.phase = PhasePlaying
	t.dead = map[engine.Point]bool{}
	t.resetCountBoard()
	t.score = nil
	t.confirm = [3]bool{}
	t.fromProp, t.propBusy = false, false
	t.propGen++
	t.syncClock(at)
	if t.clk != nil {
		_ = t.clk.Resume(at)
	}
	t.paused = false
	rule := word("AGA rule 10")
	if t.rules.Resumption == engine.ResumeOtherThanRequester {
		rule = word("Japanese rules art. 9")
	}
	t.comment(fmt.Sprintf("Play resumed at %s's request (%s); %s to play.", title(req), rule, title(g.ToMove())))
	says := []Phrase{phrase("Play resumes at {{.Color}}'s request ({{.Rule}}): {{.ToMove}} to play.", "Color", title(req), "Rule", rule, "ToMove", title(g.ToMove()))}
	var pts []engine.Point
	if len(fills) > 0 {
		pts = fillPoints(fills)
		t.differs = pts
		says = append(says, phrase("Take the dame stones at {{.Points}} off the board first: dame filling after the stop is not a move.",
			"Points", vertices(g.Size(), pts)))
	}
	t.setBanner(Verdict{Kind: VerdictInfo, Color: req, At: at, Points: pts, Says: says})
	t.emit(RecordChanged{})
	return nil
}

// Resign ends the game: c resigns.
func (t *Table) Resign(c engine.Color, at time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.game == nil || t.phase == PhaseEnded || t.phase == PhaseSetup || (c != engine.Black && c != engine.White) {
		return fmt.Errorf("%w: no game to resign", ErrPhase)
	}
	return t.runEvent(&event{Kind: kindResign, At: at, Color: c})
}

func (t *core) applyResign(c engine.Color, at time.Time) error {
	if t.game == nil || t.phase == PhaseEnded || t.phase == PhaseSetup {
		return fmt.Errorf("%w: resign", ErrPhase)
	}
	res := "W+R"
	if c == engine.White {
		res = "B+R"
	}
	t.comment(fmt.Sprintf("%s resigns.", title(c)))
	t.end(res, at, []Phrase{phrase("{{.Color}} resigns: {{.Opponent}} wins ({{.Result}}).", "Color", title(c), "Opponent", title(c.Opponent()), "Result", res)})
	return nil
}
