package engine

import (
	"errors"
	"fmt"
	"strings"
)

// Reason says which rule an illegal move breaks.
type Reason int8

// The reasons a move is refused.
const (
	Occupied                 Reason = iota + 1 // the point already holds a stone
	Suicide                                    // the move would leave its own chain without liberties
	Ko                                         // immediate recapture of a ko (simple ko rule)
	KoConfirmation                             // ko retaken during confirmation without a pass for it (Japanese 7.2)
	ReasonPositionalSuperko                    // the board would repeat an earlier board
	ReasonSituationalSuperko                   // the board would repeat an earlier board with the same player to move
	WrongPlayer                                // not this player's turn
	GameStopped                                // two passes stopped the game (or White owes the last pass)
	GameEnded                                  // the game has a result
	OffBoard                                   // the point is not on the board
)

// String names the reason ("occupied", "suicide", "ko", ...).
func (r Reason) String() string {
	switch r {
	case Occupied:
		return "occupied"
	case Suicide:
		return "suicide"
	case Ko:
		return "ko"
	case KoConfirmation:
		return "ko during confirmation"
	case ReasonPositionalSuperko:
		return "positional superko"
	case ReasonSituationalSuperko:
		return "situational superko"
	case WrongPlayer:
		return "wrong player"
	case GameStopped:
		return "game stopped"
	case GameEnded:
		return "game ended"
	case OffBoard:
		return "off the board"
	}
	return fmt.Sprintf("Reason(%d)", int(r))
}

// ErrIllegalMove is matched (errors.Is) by every *IllegalMoveError.
var ErrIllegalMove = errors.New("illegal move")

// IllegalMoveError is why a move was refused. Error() is a plain-language sentence citing the article.
type IllegalMoveError struct {
	Reason  Reason
	Move    Move
	Repeats int    // for superko and repetition: the move number after which the repeated position stood (0 = start)
	Rules   string // the ruleset's name, which picks the articles cited
	Size    int    // board size, to name points
	ToMove  Color  // the player whose turn it was
	KoPoint Point  // for Ko and KoConfirmation: the ko point
	Owed    bool   // for GameStopped: White owes the last pass (AGA rule 11)
}

// Is makes errors.Is(err, ErrIllegalMove) true.
func (e *IllegalMoveError) Is(target error) bool { return target == ErrIllegalMove }

// citations maps a ruleset family and a reason to the article a sentence cites.
func citation(rules string, r Reason) string {
	switch strings.ToLower(rules) {
	case "aga", "aga-territory":
		switch r {
		case OffBoard:
			return "AGA rule 1"
		case Occupied, WrongPlayer:
			return "AGA rule 2"
		case Suicide:
			return "AGA rule 5"
		case Ko, ReasonPositionalSuperko, ReasonSituationalSuperko, KoConfirmation:
			return "AGA rule 6"
		case GameStopped:
			return "AGA rule 9"
		}
		return "AGA rules"
	case "japanese":
		switch r {
		case WrongPlayer:
			return "Japanese rules art. 2"
		case Occupied, OffBoard:
			return "Japanese rules art. 3"
		case Suicide:
			return "Japanese rules art. 4"
		case Ko, ReasonPositionalSuperko, ReasonSituationalSuperko:
			return "Japanese rules art. 6"
		case KoConfirmation:
			return "Japanese rules art. 7.2"
		case GameStopped:
			return "Japanese rules art. 9"
		}
		return "Japanese rules"
	case "basic":
		switch r {
		case Occupied, WrongPlayer, OffBoard:
			return "Basic rule 1"
		case Suicide:
			return "Basic rule 3"
		case Ko, ReasonPositionalSuperko, ReasonSituationalSuperko, KoConfirmation:
			return "Basic rule 4"
		case GameStopped:
			return "Basic rule 5"
		}
		return "Basic rules"
	case "tromp-taylor":
		switch r {
		case WrongPlayer:
			return "Tromp-Taylor rule 5"
		case ReasonPositionalSuperko, ReasonSituationalSuperko, Ko:
			return "Tromp-Taylor rule 6"
		case Occupied, Suicide, OffBoard:
			return "Tromp-Taylor rule 7"
		case GameStopped:
			return "Tromp-Taylor rule 8"
		}
		return "Tromp-Taylor rules"
	case "chinese":
		return "Chinese rules"
	case "new-zealand":
		return "New Zealand rules"
	}
	if rules == "" {
		return "Rules"
	}
	return "Rules (" + rules + ")"
}

// Error is the plain-language sentence, e.g.
// "AGA rule 6: this would repeat the position after move 112 with Black to play".
func (e *IllegalMoveError) Error() string {
	text, args := e.Sentence()
	return FillSentence(text, args)
}

// Sentence is Error's sentence as an English template with {{.Name}} fields and their values, so
// that a screen can say it in another language: Rule is the article cited ("AGA rule 6"), Color
// and Opponent are "Black" or "White", Point a vertex ("D4"), the rest numbers and moves.
func (e *IllegalMoveError) Sentence() (text string, args map[string]string) {
	size := e.Size
	if size == 0 {
		size = 19
	}
	args = map[string]string{
		"Rule":     citation(e.Rules, e.Reason),
		"Point":    e.Move.Point.GTP(size),
		"Color":    e.Move.Color.title(),
		"Opponent": e.Move.Color.Opponent().title(),
	}
	switch e.Reason {
	case Occupied:
		return "{{.Rule}}: {{.Point}} is not empty; a stone may only be played on an empty point", args
	case OffBoard:
		args["Size"] = fmt.Sprint(size)
		return "{{.Rule}}: the point is not on the {{.Size}}x{{.Size}} board", args
	case Suicide:
		return "{{.Rule}}: suicide is not allowed; {{.Color}} at {{.Point}} would leave its own stones without liberties", args
	case Ko:
		return "{{.Rule}}: ko; {{.Color}} may not retake the ko at {{.Point}} at once, play elsewhere first", args
	case KoConfirmation:
		return "{{.Rule}}: while confirming life and death, {{.Color}} may retake the ko at {{.Point}} only after passing for it", args
	case ReasonPositionalSuperko:
		args["Move"] = fmt.Sprint(e.Repeats)
		return "{{.Rule}}: this would repeat the board position after move {{.Move}} (positional superko)", args
	case ReasonSituationalSuperko:
		args["Move"] = fmt.Sprint(e.Repeats)
		return "{{.Rule}}: this would repeat the position after move {{.Move}} with {{.Opponent}} to play", args
	case WrongPlayer:
		args["ToMove"] = e.ToMove.title()
		return "{{.Rule}}: it is {{.ToMove}}'s turn, not {{.Color}}'s", args
	case GameStopped:
		if e.Owed {
			args["Rule"] = "AGA rule 11"
			return "{{.Rule}}: the game is stopped; White owes the last pass so that both have made the same number of moves", args
		}
		return "{{.Rule}}: two passes stopped the game; resume play before moving", args
	case GameEnded:
		return "{{.Rule}}: the game has ended; no more moves", args
	}
	args["Move"], args["Reason"] = e.Move.GTP(size), e.Reason.String()
	return "{{.Rule}}: illegal move {{.Move}} ({{.Reason}})", args
}

// FillSentence puts args into text's {{.Name}} fields (a field without a value is left as it is).
func FillSentence(text string, args map[string]string) string {
	if len(args) == 0 || !strings.Contains(text, "{{.") {
		return text
	}
	pairs := make([]string, 0, 2*len(args))
	for k, v := range args {
		pairs = append(pairs, "{{."+k+"}}", v)
	}
	return strings.NewReplacer(pairs...).Replace(text)
}
