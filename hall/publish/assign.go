package publish

import (
	"os"
	"path/filepath"
	"strconv"

	"tengen/hall/wire"
	"tengen/referee"
)

// ReadAssignment reads the assignment kept in the journal directory (ok false when there is none
// or it cannot be read).
func ReadAssignment(journalDir string) (wire.Assignment, bool) {
	b, err := os.ReadFile(filepath.Join(journalDir, AssignmentFileName))
	if err != nil {
		return wire.Assignment{}, false
	}
	a, err := wire.ParseAssignment(b)
	if err != nil {
		return wire.Assignment{}, false
	}
	return a, true
}

// SetupOf is the table's set-up with its assignment's players, colours, handicap, komi, time
// control, board size, event, round and table put over base (the table's own defaults: rules,
// illegal-move policy).
func SetupOf(a wire.Assignment, base referee.Setup) referee.Setup {
	s := base
	s.Black = referee.Player{Name: a.Black.Name, Rank: a.Black.Rank}
	s.White = referee.Player{Name: a.White.Name, Rank: a.White.Rank}
	s.Handicap = a.Handicap
	if a.Handicap == 1 {
		s.Handicap = 0 // one stone of handicap is Black first without komi: the komi says it
	}
	komi := a.Komi
	s.Komi = &komi
	if a.TimeControl != "" {
		s.TimeControl = a.TimeControl
	}
	if a.Size != 0 {
		s.Size = a.Size
	}
	if a.Event != "" {
		s.Event = a.Event
	}
	if a.Round != 0 {
		s.Round = strconv.Itoa(a.Round)
	}
	s.Table = strconv.Itoa(a.Table)
	return s
}
