package referee

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tengen/clock"
	"tengen/engine"
)

// ErrNoGame is returned when there is no game record to export yet.
var ErrNoGame = errors.New("referee: no game to export")

// ExportSGF writes the game record as it stands to dir/export-<at>.sgf, atomically and synced, for a
// director who gives the PIN (the export button of the director screen). It changes nothing in the
// game, so nothing is journaled but a wrong PIN (as a refused DirectorExport, like any refused
// director action). It returns the file's path.
func (t *Table) ExportSGF(pin, dir string, at time.Time) (string, error) {
	if t.opts.CheckPIN == nil {
		return "", ErrNoDirector
	}
	if !t.opts.CheckPIN(pin) {
		t.deny(DirectorAction{Kind: DirectorExport}, at)
		return "", ErrBadPIN
	}
	rec := t.Record()
	if rec == nil {
		return "", ErrNoGame
	}
	path := filepath.Join(dir, "export-"+at.Format("20060102-150405")+".sgf")
	if err := WriteFileAtomic(path, rec.MarshalSGF(), !t.opts.NoSync); err != nil {
		return "", err
	}
	return path, nil
}

// Director performs a director action after checking the PIN. The action (never the PIN) is
// journaled and noted in the SGF; a wrong PIN is journaled as a refusal and changes nothing.
//
// The PIN is checked (a key derivation, tens of milliseconds on a Pi) before the table's lock is
// taken, so that the screens and the buttons are never held up by it.
func (t *Table) Director(pin string, a DirectorAction, at time.Time) error {
	if t.opts.CheckPIN == nil {
		return ErrNoDirector
	}
	if !t.opts.CheckPIN(pin) {
		t.deny(a, at)
		return ErrBadPIN
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if at.IsZero() {
		at = t.live.Now()
	}
	if err := t.checkDirector(a); err != nil {
		return err
	}
	return t.runEvent(&event{Kind: kindDirector, At: at, Director: &a})
}

// deny journals a refused director action (a wrong PIN) as an audit record and says so on the
// banner; nothing else changes.
func (t *Table) deny(a DirectorAction, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if at.IsZero() {
		at = t.live.Now()
	}
	t.seq++
	if err := t.append(&event{Seq: t.seq, Kind: kindDenied, At: at, Director: &a}); err != nil {
		t.seq--
	}
	says := phrase("Wrong director PIN: nothing was changed.")
	if t.opts.PINLockedFor != nil {
		if d := t.opts.PINLockedFor(); d > 0 {
			says = phrase("The director PIN is locked after repeated wrong PINs: try again in {{.Minutes}} min. Nothing was changed.",
				"Minutes", strconv.Itoa(int((d+time.Minute-1)/time.Minute)))
		}
	}
	t.setBanner(Verdict{Kind: VerdictDirector, At: at, Says: []Phrase{says}})
	t.bump() // said, not journaled: the denied record is the audit
}

// PINLocked journals that the director PIN has just locked after wrong PINs (config.PINGuard's
// lock: every PIN is refused for lockout from at), as an audit record that replays as nothing;
// the hall's dashboard shows it as an alert. The screens say the lock themselves (PINLockedFor).
func (t *Table) PINLocked(at time.Time, lockout time.Duration, wrong int) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if at.IsZero() {
		at = t.live.Now()
	}
	t.seq++
	if err := t.append(&event{Seq: t.seq, Kind: kindPINLocked, At: at, Lockout: lockout, Wrong: wrong}); err != nil {
		t.seq--
		return err
	}
	return nil
}

// checkDirector refuses, before anything is journaled, an action that cannot apply now.
func (t *core) checkDirector(a DirectorAction) error {
	if t.game == nil {
		return fmt.Errorf("%w: no game is set up", ErrPhase)
	}
	g := t.game
	switch a.Kind {
	case DirectorUndo:
		if g.MoveNumber() == 0 {
			return fmt.Errorf("%w: no move to take back", ErrPhase)
		}
	case DirectorCorrect:
		if g.MoveNumber() == 0 {
			return fmt.Errorf("%w: no move to correct", ErrPhase)
		}
		if _, err := parseMove(a.Move, g.Size()); err != nil {
			return err
		}
		if a.Number < 0 || a.Number > g.MoveNumber() {
			return fmt.Errorf("%w: there is no move %d", ErrPhase, a.Number)
		}
	case DirectorAdjustClock:
		if t.clk == nil {
			return fmt.Errorf("%w: this game has no clock", ErrPhase)
		}
		if a.Color != engine.Black && a.Color != engine.White {
			return fmt.Errorf("%w: whose clock?", ErrPhase)
		}
		if a.Remaining <= 0 || a.Remaining > clock.MaxDuration {
			return fmt.Errorf("%w: remaining time %v out of range", ErrPhase, a.Remaining)
		}
	case DirectorEnd:
		if !validResult(a.Result) {
			return fmt.Errorf("%w: result %q: write B+3.5, W+R, B+T, B+F, 0 or Void", ErrPhase, a.Result)
		}
		if t.phase == PhaseEnded {
			return fmt.Errorf("%w: the game has already ended", ErrPhase)
		}
	case DirectorRetractPass:
		if t.halted == nil || t.halted.Move == nil {
			return fmt.Errorf("%w: no illegal move is waiting for a ruling", ErrPhase)
		}
	case DirectorPause:
		if t.phase != PhasePlaying {
			return fmt.Errorf("%w: only a game in play can be paused", ErrPhase)
		}
	case DirectorResume:
		if t.phase != PhaseHalted {
			return fmt.Errorf("%w: the game is not halted", ErrPhase)
		}
	case DirectorPlay:
		return t.checkPlay(a)
	default:
		return fmt.Errorf("%w: unknown director action %q", ErrPhase, a.Kind)
	}
	return nil
}

func parseMove(s string, size int) (engine.Move, error) {
	if strings.EqualFold(strings.TrimSpace(s), "pass") {
		return engine.Move{Pass: true}, nil
	}
	p, err := engine.ParsePoint(strings.TrimSpace(s), size)
	if err != nil {
		return engine.Move{}, fmt.Errorf("%w: move %q: %w", ErrPhase, s, err)
	}
	return engine.Move{Point: p}, nil
}

// validResult accepts the SGF results a director may give.
func validResult(r string) bool {
	if r == "0" || r == "Void" || r == "?" {
		return true
	}
	if len(r) < 3 || (r[0] != 'B' && r[0] != 'W') || r[1] != '+' {
		return false
	}
	switch r[2:] {
	case "R", "T", "F", "Resign", "Time", "Forfeit":
		return true
	}
	for _, c := range r[2:] {
		if (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return true
}

func (t *core) applyDirector(a DirectorAction, at time.Time) error {
	if err := t.checkDirector(a); err != nil {
		return err
	}
	g := t.game
	size := g.Size()
	note := ""
	if a.Note != "" {
		note = " (" + a.Note + ")"
	}
	// withNote adds the director's note to what the banner says.
	withNote := func(ps []Phrase) []Phrase {
		if a.Note != "" {
			ps = append(ps, phrase("({{.Note}})", "Note", a.Note))
		}
		return ps
	}
	// say announces the director's action, noted in the record too.
	say := func(ps []Phrase, pts ...engine.Point) {
		ps = withNote(ps)
		t.comment(sentences(ps))
		t.setBanner(Verdict{Kind: VerdictDirector, At: at, Points: pts, Says: ps})
	}
	switch a.Kind {
	case DirectorUndo, DirectorCorrect:
		t.repeat, t.repeatSeen = nil, nil // the record changes: a repetition is looked for afresh
		t.conf = nil                      // and a confirmation by play started on it is over
	}
	switch a.Kind {
	case DirectorPlay:
		return t.applyPlay(a, at)
	case DirectorUndo:
		n := g.MoveNumber()
		last := g.Moves()[n-1]
		fills := g.DameFilled() // the undo takes them off the game's board
		if err := g.Undo(); err != nil {
			return err
		}
		delete(t.notes, n)
		t.reopen(at)
		var fix []engine.Point
		says := []Phrase{phrase("Director: move {{.N}} ({{.Move}}) taken back; {{.Color}} to play.",
			"N", fmt.Sprint(n), "Move", last.Move.GTP(size), "Color", title(g.ToMove()))}
		if !last.Move.Pass {
			fix = append([]engine.Point{last.Move.Point}, last.Captured...)
			if len(last.Captured) > 0 {
				says = append(says, phrase("Take the stone off {{.Point}} and put back the stones at {{.Points}}.",
					"Point", last.Move.Point.GTP(size), "Points", vertices(size, sortedPoints(last.Captured))))
			} else {
				says = append(says, phrase("Take the stone off {{.Point}}.", "Point", last.Move.Point.GTP(size)))
			}
		}
		if dame := fillPoints(fills); len(dame) > 0 {
			fix = append(fix, dame...)
			says = append(says, phrase("Take the dame stones at {{.Points}} off the board first: dame filling after the stop is not a move.",
				"Points", vertices(size, dame)))
		}
		t.differs = fix
		say(says, fix...)
	case DirectorCorrect:
		n := a.Number
		if n == 0 {
			n = g.MoveNumber()
		}
		old := g.Moves()[n-1]
		m, _ := parseMove(a.Move, size)
		m.Color = old.Move.Color
		fills := g.DameFilled() // the correction takes them off the game's board
		if err := t.rewrite(n, m); err != nil {
			t.setBanner(Verdict{Kind: VerdictDirector, At: at,
				Says: []Phrase{phrase("Director: correction refused: {{.Err}}", "Err", err.Error())}})
			return err
		}
		t.reopen(at)
		t.differs = fillPoints(fills) // the dame stones are still on the wooden board
		args := []string{"N", fmt.Sprint(n), "From", old.Move.GTP(size), "To", m.GTP(size)}
		if !old.Move.Pass || !m.Pass {
			say([]Phrase{phrase("Director: move {{.N}} corrected from {{.From}} to {{.To}}; make the board match the record.", args...)})
		} else {
			say([]Phrase{phrase("Director: move {{.N}} corrected from {{.From}} to {{.To}}.", args...)})
		}
		if g.Phase() == engine.Stopped {
			t.differs = nil // the count board's check names what is not the game's
			t.enterStop(at)
		}
	case DirectorAdjustClock:
		side := sideOf(a.Color)
		d := t.clk.Display(side)
		if delta := a.Remaining - d.Remaining; delta != 0 {
			if err := t.clk.Adjust(side, delta); err != nil {
				return err
			}
		}
		if a.Periods > 0 {
			if err := t.clk.SetOvertime(side, a.Periods); err != nil {
				return err
			}
		}
		say([]Phrase{phrase("Director: {{.Color}}'s clock set to {{.Time}}.", "Color", title(a.Color), "Time", t.clk.Display(side).Text)})
	case DirectorEnd:
		t.comment("Director: the game ends with the result " + a.Result + note)
		t.end(a.Result, at, withNote([]Phrase{phrase("Director: the game ends:"), resultPhrase(a.Result)}))
		return nil
	case DirectorRetractPass:
		m := *t.halted.Move
		t.halted = nil
		t.phase = PhasePlaying
		played, err := g.RetractAndPass(m)
		if err != nil {
			return err
		}
		t.accept(played, at, "Director: illegal move "+m.GTP(size)+" retracted; "+title(m.Color)+" passes"+note)
		t.differs = []engine.Point{m.Point}
		says := withNote([]Phrase{phrase("Director: {{.Color}} takes the stone on {{.Point}} back and passes.",
			"Color", title(m.Color), "Point", m.Point.GTP(size))})
		t.setBanner(Verdict{Kind: VerdictDirector, At: at, Points: []engine.Point{m.Point}, Says: says}) // accept wrote the comment
	case DirectorPause:
		t.pauseClock(at)
		t.phase = PhaseHalted
		t.halted = &halt{Message: a.Note}
		say([]Phrase{phrase("Director: play paused; the clocks are stopped.")})
	case DirectorResume:
		h := t.halted
		t.halted = nil
		t.phase = PhasePlaying
		if t.clk != nil && t.paused {
			_ = t.clk.Resume(at)
		}
		t.paused = false
		if h != nil && h.Move != nil {
			t.differs = []engine.Point{h.Move.Point}
			say([]Phrase{phrase("Director: play resumes; the illegal stone on {{.Point}} is taken back and {{.Color}} plays again.",
				"Point", h.Move.Point.GTP(size), "Color", title(h.Move.Color))}, h.Move.Point)
		} else {
			say([]Phrase{phrase("Director: play resumes: {{.Color}} to play.", "Color", title(g.ToMove()))})
		}
	}
	t.emit(RecordChanged{})
	return nil
}

// reopen puts the table back in play after the record changed under it (undo, correction): the
// end-of-game state is dropped and the clock follows the game's player to move.
func (t *core) reopen(at time.Time) {
	g := t.game
	wasOver := t.phase == PhaseEnded || t.phase == PhaseMarking
	if g.Phase() == engine.Ended {
		// An ended game's result is not part of the move record; only an undo past the end
		// reaches here, and the engine restored the state before that move.
		t.result = ""
	}
	t.result = ""
	t.phase = PhasePlaying
	t.pending, t.capture, t.halted, t.queue = nil, nil, nil, nil
	t.dead = map[engine.Point]bool{}
	t.score = nil
	t.resetCountBoard()
	t.confirm = [3]bool{}
	t.fromProp, t.propBusy = false, false
	t.propGen++
	t.emit(GameReopened{})
	t.syncClock(at)
	if t.clk != nil {
		st := t.clk.State()
		if wasOver && st.Started && !st.Running {
			t.paused = true
		}
	}
}

// rewrite replaces move n with m and plays the later moves again. If a later move no longer fits
// (it became illegal, or a retracted illegal move became legal) the record is restored exactly
// and the error says which.
func (t *core) rewrite(n int, m engine.Move) error {
	g := t.game
	size := g.Size()
	tail := g.Moves()[n-1:]
	back := func() {
		for g.MoveNumber() >= n {
			if g.Undo() != nil {
				return
			}
		}
	}
	again := func(p engine.Played) error {
		var err error
		if p.Retracted != nil {
			_, err = g.RetractAndPass(*p.Retracted)
		} else {
			_, err = g.Play(p.Move)
		}
		return err
	}
	back()
	var fail error
	if _, err := g.Play(m); err != nil {
		fail = fmt.Errorf("%w: %s cannot replace move %d: %w", ErrPhase, m.GTP(size), n, err)
	} else {
		for _, p := range tail[1:] {
			if err := again(p); err != nil {
				fail = fmt.Errorf("%w: with %s as move %d, move %d (%s) no longer fits: %w", ErrPhase, m.GTP(size), n, p.Number, p.Move.GTP(size), err)
				break
			}
		}
	}
	if fail != nil {
		back()
		for _, p := range tail {
			if err := again(p); err != nil {
				return errors.Join(fail, fmt.Errorf("referee: restoring move %d: %w", p.Number, err))
			}
		}
	}
	return fail
}

// callDirector is a press of the director button. During play it stops the clocks, as a player
// does in a tournament when calling the director, and holds play until the director resumes it
// (DirectorResume) or the button is pressed again to withdraw the call; otherwise it only calls.
func (t *core) callDirector(at time.Time) {
	switch {
	case t.phase == PhasePlaying:
		t.pauseClock(at)
		t.phase = PhaseHalted
		t.halted = &halt{Called: true}
		t.comment("A player called the director; the clocks were stopped.")
		t.setBanner(Verdict{Kind: VerdictDirector, At: at, Says: []Phrase{phrase("The director is called: the clocks are stopped until the director resumes play. Press the director button again to withdraw the call.")}})
	case t.phase == PhaseHalted && t.halted != nil && t.halted.Called:
		t.halted = nil
		t.phase = PhasePlaying
		if t.clk != nil && t.paused {
			_ = t.clk.Resume(at)
		}
		t.paused = false
		t.comment("The call for the director was withdrawn; the clocks run again.")
		t.setBanner(Verdict{Kind: VerdictDirector, At: at, Says: []Phrase{phrase("The call is withdrawn: the clocks run again, {{.Color}} to play.", "Color", title(t.game.ToMove()))}})
	default:
		t.setBanner(Verdict{Kind: VerdictDirector, At: at, Says: []Phrase{phrase("The director is called.")}})
	}
}
