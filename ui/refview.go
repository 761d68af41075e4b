package ui

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2/lang"

	"tengen/clock"
	"tengen/engine"
	"tengen/referee"
	"tengen/vision/observe"
)

// Conditions are what the kiosk knows besides the referee's state: the camera.
type Conditions struct {
	CameraLost bool // no frames from the camera
	BoardMoved bool // the board or the camera moved: the board is being found again
	HandsOver  bool // the latest frame shows something over the board (a hand, an arm)
}

// sideView maps one referee side to the clock face's view.
func sideView(st referee.State, c engine.Color) SideView {
	s := st.Black
	if c == engine.White {
		s = st.White
	}
	// While play is halted (the director called, an illegal move to rule on) nobody is to move and
	// both clocks are stopped: both say so.
	halted := st.Phase == referee.PhaseHalted && st.ToMove == engine.Empty
	d := clock.Display{
		Side:       sideOf(c),
		Text:       faceText(s.Clock.Text),
		Remaining:  s.Clock.Remaining,
		InOvertime: s.Clock.Overtime,
		Periods:    s.Clock.Periods,
		Stones:     s.Clock.Stones,
		Flagged:    s.Clock.Flagged,
		Running:    s.Clock.Running,
		Paused:     st.ClocksPaused && (st.ToMove == c || halted),
	}
	d.Low = s.Clock.Text != "" && d.Remaining < 10*time.Second && (d.Running || d.Paused)
	return SideView{Color: c, Name: s.Player.Name, Rank: s.Player.Rank, Clock: d,
		ToMove: st.ToMove == c && st.Phase == referee.PhasePlaying, Prisoners: s.Prisoners, PassStones: s.PassStones}
}

// faceText is the clock's time as its face shows it, in no language: the referee's overtime texts
// ("BY 3×0:30" in byo-yomi, "CAN 7/4:10" in Canadian overtime, as the hall also receives them)
// become "0:30 (3)" (the periods left) and "4:10 / 7" (the stones to play); other texts stay.
func faceText(text string) string {
	if rest, ok := strings.CutPrefix(text, "BY "); ok {
		if n, left, ok := strings.Cut(rest, "×"); ok && allDigits(n) {
			return left + " (" + n + ")"
		}
	}
	if rest, ok := strings.CutPrefix(text, "CAN "); ok {
		if n, left, ok := strings.Cut(rest, "/"); ok && allDigits(n) {
			return left + " / " + n
		}
	}
	return text
}

// allDigits reports whether s is a non-empty run of ASCII digits.
func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// boardView maps the referee's board, last move and the points the verdict names.
func boardView(st referee.State) BoardView {
	v := BoardView{Size: st.Size, Stones: st.Board}
	if lm := st.LastMove; lm != nil && !lm.Pass {
		v.LastMove, v.HasLast = lm.Point, true
	}
	kind := MarkKind(0)
	switch st.Banner.Kind {
	case referee.VerdictIllegal:
		kind = MarkIllegal
	case referee.VerdictRemoveCaptures:
		kind = MarkRemove
	case referee.VerdictBoardDiffers, referee.VerdictNoChange:
		kind = MarkFix
	}
	marked := map[engine.Point]bool{}
	if kind != 0 {
		for _, p := range st.Banner.Points {
			v.Marks = append(v.Marks, Mark{Point: p, Kind: kind})
			marked[p] = true
		}
	}
	for _, p := range st.Expected {
		if !marked[p] {
			v.Marks = append(v.Marks, Mark{Point: p, Kind: MarkFix})
			marked[p] = true
		}
	}
	for _, p := range st.Dead {
		v.Marks = append(v.Marks, Mark{Point: p, Kind: MarkDead})
	}
	return v
}

// colourName is the translated name of a colour.
func colourName(c engine.Color) string {
	if c == engine.White {
		return tr("White")
	}
	return tr("Black")
}

// verdictLook is how the banner shows a kind of verdict: its colour and its title. The sentences
// are the verdict's own (saidText); the title only names the kind.
func verdictLook(k referee.VerdictKind) (BannerKind, string) {
	switch k {
	case referee.VerdictInfo:
		return BannerCalm, tr("Information")
	case referee.VerdictWaiting:
		return BannerCalm, tr("Checking the board…")
	case referee.VerdictMove:
		return BannerCalm, tr("Move recorded")
	case referee.VerdictPass:
		return BannerCalm, tr("Pass")
	case referee.VerdictRemoveCaptures:
		return BannerRemove, tr("Remove the captured stones")
	case referee.VerdictBoardDiffers:
		return BannerDiffers, tr("The board differs from the game")
	case referee.VerdictNoChange:
		return BannerDiffers, tr("No new stone on the board")
	case referee.VerdictNotYourTurn:
		return BannerCalm, tr("Not your turn")
	case referee.VerdictNotSeen:
		return BannerCalm, tr("The board could not be seen")
	case referee.VerdictIllegal:
		return BannerIllegal, tr("Illegal move")
	case referee.VerdictStopped:
		return BannerInfo, tr("The game is stopped")
	case referee.VerdictMarking:
		return BannerInfo, tr("Marking the dead stones")
	case referee.VerdictResult:
		return BannerInfo, tr("Game over")
	case referee.VerdictDirector:
		return BannerCalm, tr("Director")
	case referee.VerdictCamera:
		return BannerCalm, tr("Camera")
	}
	return BannerCalm, tr("Information")
}

// routine reports whether a verdict of kind k only keeps the players informed: what the kiosk sees
// (a lost camera, hands over the board) may take its place on the banner. The verdicts that ask
// the players for something, or end the game, are always shown.
func routine(k referee.VerdictKind) bool {
	switch k {
	case referee.VerdictNone, referee.VerdictMove, referee.VerdictPass, referee.VerdictWaiting:
		return true
	}
	return false
}

// bannerView turns the referee's verdict into a translated banner: a title naming the kind and the
// verdict's own sentences, translated (saidText). Nothing of a verdict's text is composed here.
// A lost camera, or hands over the board, take the place of a routine verdict (a move, a pass, a
// press being checked); with no verdict the banner says what the kiosk sees or the phase needs.
func bannerView(st referee.State, cond Conditions) BannerView {
	b := st.Banner
	if noCameraAtStart(st, cond) {
		return BannerView{Kind: BannerDiffers, Title: tr("No picture from the camera")}
	}
	if !routine(b.Kind) {
		kind, title := verdictLook(b.Kind)
		switch {
		case b.Kind == referee.VerdictResult && st.Result == "Void":
			title = resultText(st.Result) // the game ended with no result (art. 12): said as the title
		case b.Kind == referee.VerdictInfo && st.Repetition != nil && st.Phase == referee.PhasePlaying:
			title = tr("Position repeated (art. 12)")
		}
		return BannerView{Kind: kind, Title: title, Text: saidText(b)}
	}
	switch {
	case cond.CameraLost:
		return BannerView{Kind: BannerCalm, Title: tr("The camera is not seeing the board"), Text: tr("Play on: the clock runs. The board is checked again when the camera is back.")}
	case cond.BoardMoved:
		return BannerView{Kind: BannerCalm, Title: tr("Finding the board again"), Text: tr("Play on: the clock runs. Moves are read once the board is found.")}
	case cond.HandsOver || handsOver(st.Seen):
		return BannerView{Kind: BannerCalm, Title: tr("Hands over the board")}
	case b.Kind != referee.VerdictNone:
		kind, title := verdictLook(b.Kind)
		return BannerView{Kind: kind, Title: title, Text: saidText(b)}
	case st.Phase == referee.PhaseReady:
		return BannerView{Kind: BannerCalm, Title: tr("Ready"), Text: tr("{{.Color}}'s opponent presses their clock to start.", "Color", colourName(st.ToMove))}
	case st.Phase == referee.PhaseHalted:
		return BannerView{Kind: BannerIllegal, Title: tr("Play is halted"), Text: tr("Call the director.")}
	}
	return BannerView{}
}

// noCameraAtStart reports whether the game waits to start with no picture from the camera:
// presses cannot start it then.
func noCameraAtStart(st referee.State, cond Conditions) bool {
	return cond.CameraLost && st.Phase == referee.PhaseReady && !st.Banner.Kind.Alert()
}

// noCameraNotice says, in large type, what is missing at the start, how to fix it, and how to play
// on without the camera.
func noCameraNotice() BannerView {
	return BannerView{Kind: BannerDiffers, Title: tr("No picture from the camera"),
		Text: tr("Check that the camera is plugged in and named in kiosk.toml ([camera] source; kiosk doctor tests it). Wait for it, or play on: the director enters each move (Director, Play this move).")}
}

// saidText is what verdict v says in the screens' language: its phrases translated, the words in
// their word fields (colours, presses, articles: referee.WordField) too, or, for a verdict without
// phrases (from a journal an older kiosk wrote), its English message.
func saidText(v referee.Verdict) string {
	if len(v.Says) == 0 {
		return strings.TrimPrefix(v.Message, "Illegal move: ")
	}
	parts := make([]string, len(v.Says))
	for i, p := range v.Says {
		parts[i] = phraseText(p)
	}
	return strings.Join(parts, " ")
}

// phraseText is one phrase in the screens' language.
func phraseText(p referee.Phrase) string {
	kv := make([]any, 0, 2*len(p.Args))
	for k, val := range p.Args {
		if referee.WordField(k) {
			words := strings.Split(val, ", ")
			for i, w := range words {
				words[i] = lang.L(w)
			}
			val = strings.Join(words, ", ")
		}
		kv = append(kv, k, val)
	}
	return tr(p.Text, kv...)
}

// handsOver reports whether part of the board is hidden (a hand, an arm).
func handsOver(seen []observe.Stone) bool {
	for _, s := range seen {
		if s == observe.Obscured {
			return true
		}
	}
	return false
}

// resultText says an SGF result in words, translated.
func resultText(r string) string {
	switch {
	case r == "":
		return ""
	case r == "0":
		return tr("Draw (jigo)")
	case r == "Void":
		return tr("No result (Void)")
	case len(r) > 2 && r[1] == '+':
		who := colourName(engine.Black)
		if r[0] == 'W' {
			who = colourName(engine.White)
		}
		switch r[2:] {
		case "R":
			return tr("{{.Color}} wins by resignation", "Color", who)
		case "T":
			return tr("{{.Color}} wins on time", "Color", who)
		case "F":
			return tr("{{.Color}} wins by forfeit", "Color", who)
		}
		return tr("{{.Color}} wins by {{.Points}} points", "Color", who, "Points", r[2:])
	}
	return r
}

// statusLine is the quiet line under the move number: rules and komi.
func statusLine(st referee.State) string {
	if st.Phase == referee.PhaseSetup {
		return tr("No game is set up")
	}
	komi := ""
	if st.Setup.Komi != nil {
		komi = fmt.Sprintf("%g", *st.Setup.Komi)
	}
	return tr("Rules: {{.Rules}} · komi {{.Komi}}", "Rules", rulesName(st.Setup.Rules), "Komi", komi)
}

// rulesName is the display name of an engine preset.
func rulesName(preset string) string {
	switch preset {
	case "", "aga":
		return "AGA"
	case "aga-territory":
		return "AGA (territory)"
	case "japanese":
		return tr("Japanese")
	case "chinese":
		return tr("Chinese")
	case "tromp-taylor":
		return "Tromp-Taylor"
	case "new-zealand":
		return tr("New Zealand")
	case "basic":
		return tr("Basic")
	}
	return preset
}

// TableViewOf builds the table screen's view from the referee's state.
func TableViewOf(st referee.State, cond Conditions) TableView {
	ruling, id, _ := rulingOnTable(st)
	if noCameraAtStart(st, cond) {
		ruling, id = noCameraNotice(), "no-camera"
	}
	return TableView{
		Ruling:     ruling,
		RulingID:   id,
		Board:      boardView(st),
		MoveNumber: st.MoveNumber,
		Black:      sideView(st, engine.Black),
		White:      sideView(st, engine.White),
		Banner:     bannerView(st, cond),
		Status:     statusLine(st),
		Repetition: repetitionView(st),
	}
}

// repetitionView is the art. 12 repetition standing, if any.
func repetitionView(st referee.State) *RepetitionView {
	if st.Repetition == nil || st.Phase != referee.PhasePlaying {
		return nil
	}
	return &RepetitionView{Move: st.Repetition.Move, Earlier: st.Repetition.Earlier, Agreed: st.Repetition.Agreed}
}

// dameMarks marks the open dame, the seki's shared liberties and the dame stones filled.
func dameMarks(st referee.State) []Mark {
	var ms []Mark
	for _, p := range st.Dame.Open {
		ms = append(ms, Mark{Point: p, Kind: MarkDame})
	}
	for _, p := range st.Dame.Seki {
		ms = append(ms, Mark{Point: p, Kind: MarkSeki})
	}
	for _, m := range st.Dame.Filled {
		if !m.Pass {
			ms = append(ms, Mark{Point: m.Point, Kind: MarkFilled})
		}
	}
	return ms
}

// dameSaid is what verdict v says about the dame (its phrases that name them), translated, or the
// whole verdict when no phrase does: the counting screen's corner has no room for the stop's
// whole explanation, which the table's banner gave.
func dameSaid(v referee.Verdict) string {
	var parts []string
	for _, p := range v.Says {
		if strings.Contains(p.Text, "dame") {
			parts = append(parts, phraseText(p))
		}
	}
	if len(parts) == 0 {
		return saidText(v)
	}
	return strings.Join(parts, " ")
}

// ConfirmViewOf builds the confirmation screen's view from the referee's state (st.Confirmation
// set).
func ConfirmViewOf(st referee.State) ConfirmView {
	c := st.Confirmation
	v := ConfirmView{Rules: rulesName(st.Setup.Rules), Said: saidText(st.Banner)}
	if c == nil {
		return v
	}
	v.Board = BoardView{Size: st.Size, Stones: c.Board}
	v.ToMove, v.KoBans = c.ToMove, c.KoBans
	moves := make([]string, 0, len(c.Moves))
	for _, m := range c.Moves {
		letter := "B"
		if m.Color == engine.White {
			letter = "W"
		}
		if m.Pass {
			moves = append(moves, letter+" "+tr("pass"))
			continue
		}
		moves = append(moves, letter+" "+m.Point.GTP(st.Size))
	}
	v.Moves = strings.Join(moves, ", ")
	if n := len(c.Moves); n > 0 && !c.Moves[n-1].Pass {
		v.Board.LastMove, v.Board.HasLast = c.Moves[n-1].Point, true
	}
	for _, p := range c.Captured {
		v.Board.Marks = append(v.Board.Marks, Mark{Point: p, Kind: MarkRemove})
	}
	for _, p := range c.KoBans {
		v.Board.Marks = append(v.Board.Marks, Mark{Point: p, Kind: MarkIllegal})
	}
	return v
}

// CountViewOf builds the counting screen's view from the referee's state.
func CountViewOf(st referee.State) CountView {
	v := CountView{Board: boardView(st), Rules: rulesName(st.Setup.Rules), Ended: st.Phase == referee.PhaseEnded,
		BlackAgreed: st.Black.Confirmed, WhiteAgreed: st.White.Confirmed,
		Black: sideView(st, engine.Black), White: sideView(st, engine.White)}
	if r, err := engine.Preset(st.Setup.Rules); err == nil {
		v.Area = r.Scoring == engine.AreaScoring
		v.PassStonesCount = !v.Area && r.PassStones
	} else if st.Setup.Rules == "" {
		v.Area = true // "" is AGA
	}
	// Only the dead marks belong on the counting board.
	marks := v.Board.Marks[:0:0]
	for _, m := range v.Board.Marks {
		if m.Kind == MarkDead {
			marks = append(marks, m)
		}
	}
	v.Board.Marks = append(marks, dameMarks(st)...)
	if d := st.Dame; d.Applies {
		v.Dame = DameView{Applies: true, Open: len(d.Open), Seki: len(d.Seki), Filled: len(d.Filled), Asked: d.Asked}
		if st.Banner.Kind == referee.VerdictMarking || st.Banner.Kind == referee.VerdictStopped || st.Banner.Kind == referee.VerdictInfo {
			v.Said = dameSaid(st.Banner)
		}
	}
	// Where the board disagrees with the marking: marked, and said until it agrees.
	if differs := st.CountBoard.Points(); len(differs) > 0 && st.Phase == referee.PhaseMarking {
		for _, p := range differs {
			v.Board.Marks = append(v.Board.Marks, Mark{Point: p, Kind: MarkFix})
		}
		v.Differs = len(differs)
		parts := make([]string, len(st.CountBoard.Says))
		for i, p := range st.CountBoard.Says {
			parts[i] = phraseText(p)
		}
		v.Said = strings.Join(parts, " ")
	}
	if r, err := engine.Preset(st.Setup.Rules); err == nil && r.ConfirmationKo && st.Phase == referee.PhaseMarking && st.Confirmation == nil {
		v.CanConfirm = true
	}
	if st.Score != nil {
		v.Score, v.HasScore = *st.Score, true
		if len(st.Score.Territory) == st.Size*st.Size {
			v.Board.Territory = st.Score.Territory
		}
	}
	return v
}
