package halltest

import (
	"context"
	"time"

	"tengen/demo"
	"tengen/engine/sgf"
	"tengen/referee"
	"tengen/referee/replay"
	"tengen/vision/observe"
)

// Play and Moves: the kiosk's built-in demo game as `kiosk replay --demo --labels` plays it: the
// demo's script of presses and an ideal camera (each frame's true stones, all hidden while a hand
// reaches over the board), through the kiosk's station and referee, into a real journal directory.

// Moves is the demo's game record as the referee should record it ("B E5", "W pass", ...).
func Moves() ([]string, error) {
	s, err := demo.Default()
	if err != nil {
		return nil, err
	}
	return RecordMoves(s.Record), nil
}

// RecordMoves lists a record's main-line moves as the hall carries them.
func RecordMoves(r *sgf.Record) []string {
	var out []string
	for _, m := range r.Moves {
		if m.IsMove() {
			out = append(out, m.Engine().GTP(r.Size))
		}
	}
	return out
}

// Play replays the demo into journalDir at speed times real time (0 = as fast as it can) and
// returns the table's final state.
func Play(ctx context.Context, journalDir string, speed float64) (referee.State, error) {
	s, err := demo.Default()
	if err != nil {
		return referee.State{}, err
	}
	rec := s.Record
	komi := rec.Komi
	setup := referee.Setup{Rules: "aga", Komi: &komi, Size: s.Size, TimeControl: "10m+3x30s",
		Black: referee.Player{Name: rec.BlackName, Rank: rec.BlackRank},
		White: referee.Player{Name: rec.WhiteName, Rank: rec.WhiteRank},
		Event: "Tengen demo", Round: "1", Table: "1", Date: replay.DefaultStart.Format("2006-01-02"),
		Policy: referee.PolicyRetractPass}
	script := replay.DemoScript(s, setup)
	res, err := replay.Run(ctx, replay.Config{Script: script, Duration: s.Duration(), Tick: 200 * time.Millisecond,
		Speed: speed, JournalDir: journalDir, NoSync: true,
		Observe: func(_ context.Context, _ string, at time.Duration, _ uint64) (observe.Sight, error) {
			return observe.Reading(s.SceneAt(at).Ideal()), nil
		}})
	return res.State, err
}
