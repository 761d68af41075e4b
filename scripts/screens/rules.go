package main

import (
	"fmt"
	"strings"

	"tengen/engine"
	"tengen/referee"
	"tengen/ui"
)

// The Japanese rules' screens (issue 15): dame filling at the count (art. 8), the confirmation of
// life and death by play (art. 7.2) and a whole-board repetition (art. 12). The states are the
// referee's, with the board, dame, seki and ko bans the engine finds.

// setupRows plays the rows' stones onto a new game under rules and stops it by two passes.
func setupRows(rules string, rows []string) (*engine.Game, error) {
	r, err := engine.Preset(rules)
	if err != nil {
		return nil, err
	}
	g, err := engine.NewGame(len(rows), r)
	if err != nil {
		return nil, err
	}
	var black, white []engine.Point
	for y, row := range rows {
		for x, c := range row {
			switch c {
			case 'X':
				black = append(black, engine.Point{X: x, Y: y})
			case 'O':
				white = append(white, engine.Point{X: x, Y: y})
			}
		}
	}
	if err := g.Setup(black, white, engine.Black); err != nil {
		return nil, err
	}
	for i := 0; i < 2; i++ {
		if _, err := g.Play(engine.Move{Color: g.ToMove(), Pass: true}); err != nil {
			return nil, err
		}
	}
	return g, nil
}

func japanese(st *referee.State) {
	players(st)
	komi := 6.5
	st.Setup = referee.Setup{Rules: "japanese", Komi: &komi, Size: st.Size}
}

func names(size int, pts []engine.Point) string {
	s := make([]string, len(pts))
	for i, p := range pts {
		s[i] = p.GTP(size)
	}
	return strings.Join(s, ", ")
}

// dameState is the count after the stop with a seki (H9 J8) and one open dame (G3); asked: two
// walls with the E line open between them, E9 and E1 filled, and the players confirmed with dame
// still open.
func dameState(asked bool) (referee.State, error) {
	rows := []string{
		".X.XO.O.X",
		"...XOOOX.",
		".XXXXXXOO",
		"XOOOOOXO.",
		"XO.O.OXOO",
		"XOOOOOXXX",
		"XXXO...OO",
		".XXXOOOO.",
		".X.XO.O.O",
	}
	if asked {
		// Two walls with the E line open between them; Black filled E9 and White E1.
		rows = []string{
			"...X.O...",
			"...X.O...",
			"...X.O...",
			"...X.O...",
			"...X.O...",
			"...X.O...",
			"...X.O...",
			"...X.O...",
			"...X.O...",
		}
	}
	g, err := setupRows("japanese", rows)
	if err != nil {
		return referee.State{}, err
	}
	if asked {
		for _, m := range []engine.Move{{Color: engine.Black, Point: engine.Point{X: 4, Y: 0}}, {Color: engine.White, Point: engine.Point{X: 4, Y: 8}}} {
			if err := g.FillDame(m, nil); err != nil {
				return referee.State{}, err
			}
		}
	}
	open, seki, err := g.OpenDame(nil)
	if err != nil {
		return referee.State{}, err
	}
	sc, err := g.Score(nil)
	if err != nil {
		return referee.State{}, err
	}
	st := referee.State{Seq: 1, Phase: referee.PhaseMarking, Size: 9, Board: g.Board(), MoveNumber: 96, Score: &sc,
		Dame: referee.DameState{Applies: true, Open: open, Seki: seki, Filled: g.DameFilled(), Asked: asked}}
	japanese(&st)
	if len(open) == 0 {
		return st, fmt.Errorf("no open dame on the board")
	}
	st.Banner = referee.Verdict{Kind: referee.VerdictMarking, Points: open, Says: []referee.Phrase{{
		Text: "Open dame left at {{.Points}}: fill them, then both players press their clock to confirm.",
		Args: map[string]string{"Points": names(9, open)}}}}
	if asked {
		st.Banner.Says = []referee.Phrase{{Text: "Open dame remain at {{.Points}} (Japanese rules art. 8): fill them (a stone on each; dame filling is not a move) and both press your clock, or both press your clock again to count them as filled.",
			Args: map[string]string{"Points": names(9, open)}}}
	}
	return st, nil
}

// confirmState is a confirmation by play after the stop: after H7 and G5, Black took the ko at C4
// with D4, so White passes once for it before retaking it.
func confirmState() (referee.State, error) {
	rows := []string{
		".........",
		".........",
		"......O..",
		"......XX.",
		"..XO.....",
		".XO.O....",
		"..XO.....",
		".........",
		".........",
	}
	g, err := setupRows("japanese", rows)
	if err != nil {
		return referee.State{}, err
	}
	sb, err := g.Confirmation(engine.Black)
	if err != nil {
		return referee.State{}, err
	}
	moves := []engine.Move{{Color: engine.Black, Point: engine.Point{X: 7, Y: 2}}, {Color: engine.White, Point: engine.Point{X: 6, Y: 4}},
		{Color: engine.Black, Point: engine.Point{X: 3, Y: 5}}}
	for _, m := range moves {
		if _, err := sb.Play(m); err != nil {
			return referee.State{}, fmt.Errorf("%s: %w", m.GTP(9), err)
		}
	}
	st := referee.State{Seq: 1, Phase: referee.PhaseMarking, Size: 9, Board: g.Board(), MoveNumber: 61,
		Confirmation: &referee.ConfirmationState{Board: sb.Board(), ToMove: sb.ToMove(), Moves: moves, KoBans: sb.KoBans(sb.ToMove()),
			Captured: []engine.Point{{X: 2, Y: 5}}}}
	japanese(&st)
	st.Banner = referee.Verdict{Kind: referee.VerdictMarking, Says: []referee.Phrase{{
		Text: "Confirmation of life and death by play (Japanese rules art. 7.2): {{.Color}} plays first. These moves are hypothetical, not moves of the game; a ko may be retaken only after passing once for it.",
		Args: map[string]string{"Color": "Black"}}}}
	return st, nil
}

// repetitionState is a game under Japanese rules whose move 9 recreated the position after move 5
// (a triple ko's cycle), Black having agreed to no result; void: both agreed and the game ended.
func repetitionState(void bool) (referee.State, ui.Conditions, error) {
	st, cond, err := rulingState()
	if err != nil {
		return st, cond, err
	}
	st.Rulings = nil
	komi := 6.5
	st.Setup.Rules, st.Setup.Komi = "japanese", &komi
	st.Repetition = &referee.Repetition{Move: st.MoveNumber, Earlier: st.MoveNumber - 4, Agreed: [3]bool{engine.Black: true}}
	st.Banner = referee.Verdict{Kind: referee.VerdictInfo, Says: []referee.Phrase{{
		Text: "The whole-board position after move {{.N}} repeats the one after move {{.Earlier}} (Japanese rules art. 12): if both players agree, the game ends with no result; otherwise one of them must play elsewhere.",
		Args: map[string]string{"N": fmt.Sprint(st.MoveNumber), "Earlier": fmt.Sprint(st.MoveNumber - 4)}}}}
	if void {
		st.Repetition, st.Phase, st.Result = nil, referee.PhaseEnded, "Void"
		st.ClockRunning, st.Black.Clock.Running, st.White.Clock.Running = engine.Empty, false, false
		st.Banner = referee.Verdict{Kind: referee.VerdictResult, Says: []referee.Phrase{
			{Text: "Both players agree to end the game with no result, the position having repeated (Japanese rules art. 12):"},
			{Text: "no result ({{.Result}}).", Args: map[string]string{"Result": "Void"}}}}
	}
	return st, cond, nil
}
