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
	d := clock.Display{
		Side:       sideOf(c),
		Text:       s.Clock.Text,
		Remaining:  s.Clock.Remaining,
		InOvertime: s.Clock.Overtime,
		Periods:    s.Clock.Periods,
		Stones:     s.Clock.Stones,
		Flagged:    s.Clock.Flagged,
		Running:    s.Clock.Running,
		Paused:     st.ClocksPaused && st.ToMove == c,
	}
	d.Low = s.Clock.Text != "" && d.Remaining < 10*time.Second && (d.Running || d.Paused)
	return SideView{Color: c, Name: s.Player.Name, Rank: s.Player.Rank, Clock: d,
		ToMove: st.ToMove == c && st.Phase == referee.PhasePlaying, Prisoners: s.Prisoners, PassStones: s.PassStones}
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

// points names points for a sentence: "C3, D4".
func points(size int, ps []engine.Point) string {
	names := make([]string, 0, len(ps))
	for _, p := range ps {
		names = append(names, p.GTP(size))
	}
	return strings.Join(names, ", ")
}

// colourName is the translated name of a colour.
func colourName(c engine.Color) string {
	if c == engine.White {
		return tr("White")
	}
	return tr("Black")
}

// bannerView turns the referee's verdict into a translated banner. The rule sentences of illegal
// moves and the director's announcements are the verdict's phrases, translated (see saidText).
func bannerView(st referee.State, cond Conditions) BannerView {
	b := st.Banner
	size := st.Size
	switch b.Kind {
	case referee.VerdictIllegal:
		return BannerView{Kind: BannerIllegal, Title: tr("Illegal move"), Text: saidText(b, "Illegal move: ")}
	case referee.VerdictRemoveCaptures:
		return BannerView{Kind: BannerRemove, Title: tr("Remove the captured stones"),
			Text: tr("Take the stones off at {{.Points}}. The move counts once they are off the board.", "Points", points(size, b.Points))}
	case referee.VerdictBoardDiffers:
		text := tr("Put the board back as the game has it at {{.Points}}, then press the clock again.", "Points", points(size, b.Points))
		if len(b.Says) > 0 {
			// The referee says why it cannot decide (part of the board unseen, two moves too
			// close to tell apart): its own sentence, translated.
			text = saidText(b, "")
		}
		return BannerView{Kind: BannerDiffers, Title: tr("The board differs from the game"), Text: text}
	case referee.VerdictNoChange:
		return BannerView{Kind: BannerDiffers, Title: tr("No new stone on the board"),
			Text: tr("{{.Color}}, place your stone and press your clock again, or press pass.", "Color", colourName(b.Color))}
	case referee.VerdictNotSeen:
		return BannerView{Kind: BannerCalm, Title: tr("The board could not be seen"),
			Text: tr("Keep hands off the board and press the clock again.")}
	case referee.VerdictNotYourTurn:
		return BannerView{Kind: BannerCalm, Title: tr("It is {{.Color}}'s turn", "Color", colourName(st.ToMove))}
	case referee.VerdictStopped:
		return BannerView{Kind: BannerInfo, Title: tr("The game is stopped"), Text: tr("Mark the dead stones by touching them, then both press your clock to agree.")}
	case referee.VerdictResult:
		return BannerView{Kind: BannerInfo, Title: tr("Game over"), Text: resultText(st.Result)}
	case referee.VerdictDirector:
		return BannerView{Kind: BannerCalm, Title: tr("Director"), Text: saidText(b, "")}
	}
	// Nothing needs the players: say calmly what the kiosk sees.
	switch {
	case cond.CameraLost:
		return BannerView{Kind: BannerCalm, Title: tr("The camera is not seeing the board"), Text: tr("Play on: the clock runs. The board is checked again when the camera is back.")}
	case st.Waiting:
		return BannerView{Kind: BannerCalm, Title: tr("Checking the move…"), Text: tr("Keep hands off the board.")}
	case cond.HandsOver || handsOver(st.Seen):
		return BannerView{Kind: BannerCalm, Title: tr("Hands over the board")}
	case st.Phase == referee.PhaseReady:
		return BannerView{Kind: BannerCalm, Title: tr("Ready"), Text: tr("{{.Color}}'s opponent presses their clock to start.", "Color", colourName(st.ToMove))}
	case b.Kind == referee.VerdictPass && st.LastMove != nil:
		return BannerView{Kind: BannerCalm, Title: tr("{{.Color}} passes", "Color", colourName(st.LastMove.Color))}
	case st.Phase == referee.PhaseHalted:
		return BannerView{Kind: BannerIllegal, Title: tr("Play is halted"), Text: tr("Call the director.")}
	}
	return BannerView{}
}

// translatedArg reports whether a phrase field's value is an English word the screens translate:
// the players' colours and the articles cited. Points, numbers, errors and notes are said as they are.
func translatedArg(field string) bool {
	switch field {
	case "Color", "Opponent", "ToMove", "Rule":
		return true
	}
	return false
}

// saidText is what verdict v says in the screens' language: its phrases translated, or, for a
// verdict without phrases (from a journal an older kiosk wrote), its English message less prefix.
func saidText(v referee.Verdict, prefix string) string {
	if len(v.Says) == 0 {
		return strings.TrimPrefix(v.Message, prefix)
	}
	parts := make([]string, len(v.Says))
	for i, p := range v.Says {
		kv := make([]any, 0, 2*len(p.Args))
		for k, val := range p.Args {
			if translatedArg(k) {
				val = lang.L(val)
			}
			kv = append(kv, k, val)
		}
		parts[i] = tr(p.Text, kv...)
	}
	return strings.Join(parts, " ")
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
		return tr("No result")
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
	return TableView{
		Board:      boardView(st),
		MoveNumber: st.MoveNumber,
		Black:      sideView(st, engine.Black),
		White:      sideView(st, engine.White),
		Banner:     bannerView(st, cond),
		Status:     statusLine(st),
	}
}

// CountViewOf builds the counting screen's view from the referee's state.
func CountViewOf(st referee.State) CountView {
	v := CountView{Board: boardView(st), Rules: rulesName(st.Setup.Rules), Ended: st.Phase == referee.PhaseEnded,
		BlackAgreed: st.Black.Confirmed, WhiteAgreed: st.White.Confirmed,
		Black: sideView(st, engine.Black), White: sideView(st, engine.White)}
	// Only the dead marks belong on the counting board.
	marks := v.Board.Marks[:0:0]
	for _, m := range v.Board.Marks {
		if m.Kind == MarkDead {
			marks = append(marks, m)
		}
	}
	v.Board.Marks = marks
	if st.Score != nil {
		v.Score, v.HasScore = *st.Score, true
		if len(st.Score.Territory) == st.Size*st.Size {
			v.Board.Territory = st.Score.Territory
		}
	}
	return v
}
