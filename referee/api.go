// Package referee is the table's state machine: it turns stable board observations, clock button
// presses and the UI's intents into a refereed, recorded game. It compares what the camera sees
// with the engine's board when a player presses the clock, choosing the likeliest explanation of
// the reading among the legal continuations (referee/infer) rather than trusting each point's
// best guess, accepts a clear move or says exactly what differs and how to fix it, applies the
// rules' policy to illegal moves, runs the end of the game (stop, marking of dead stones,
// confirmation, count), and lets a director correct things behind a PIN. Every input is appended
// to a checksummed journal (and fsynced) before its effect is shown, so that a restarted kiosk
// replays the journal and resumes exactly where it stopped. No press is lost: one made while an
// earlier press is still being checked waits its turn (see applyPress). Time alone (a flag, a
// press that never saw the board) is recorded at the instant it happened; Table.Watch wakes on
// the next such deadline, so nothing has to tick the table. It knows nothing of cameras, windows
// or GPIO: the kiosk command wires those to a Table.
package referee

import (
	"time"

	"tengen/engine"
	"tengen/vision/observe"
)

// Phase is where the table is in the life of a game.
type Phase int

// The phases, in the order a game goes through them.
const (
	// PhaseSetup: no game is configured; the director or the players fill in a Setup.
	PhaseSetup Phase = iota
	// PhaseReady: the game is configured; the board must show exactly the starting position
	// (empty, or the handicap stones) and a clock press starts the clock of the player to move.
	PhaseReady
	// PhasePlaying: moves are made, checked and recorded on each clock press.
	PhasePlaying
	// PhaseHalted: play is suspended until the director rules (an illegal move under the
	// director-call policy, or a director pause).
	PhaseHalted
	// PhaseMarking: two passes stopped the game; players mark dead stones and confirm with their
	// clock buttons, or one of them asks to resume play.
	PhaseMarking
	// PhaseEnded: the game has a result.
	PhaseEnded
)

// String names the phase in lower case ("setup", "ready", "playing", ...).
func (p Phase) String() string {
	switch p {
	case PhaseSetup:
		return "setup"
	case PhaseReady:
		return "ready"
	case PhasePlaying:
		return "playing"
	case PhaseHalted:
		return "halted"
	case PhaseMarking:
		return "marking"
	case PhaseEnded:
		return "ended"
	}
	return "phase?"
}

// Policy is what happens when a player makes an illegal move (suicide, ko, superko).
type Policy string

// The illegal-move policies.
const (
	// PolicyRetractPass is AGA rule 8: the stone is taken back and the offender passes (and
	// hands over a pass stone where the rules use them).
	PolicyRetractPass Policy = "retract-pass"
	// PolicyDirector halts the game and the clocks until the director rules.
	PolicyDirector Policy = "director"
	// PolicyLoss is Japanese rules art. 14: a violation loses the game at once.
	PolicyLoss Policy = "loss"
	// PolicyWarning is a tournament's own rule: the stone is taken back, the offender is warned and
	// plays again (their clock runs on).
	PolicyWarning Policy = "warning"
)

// Policies lists the illegal-move policies.
func Policies() []Policy {
	return []Policy{PolicyRetractPass, PolicyLoss, PolicyWarning, PolicyDirector}
}

// DefaultPolicy is a ruleset's own answer to an illegal move: loss under Japanese rules (art. 14),
// retraction and a pass under the others (AGA rule 8, the basic rules' AGA play, and the area
// rulesets, whose texts leave it to the tournament).
func DefaultPolicy(rules string) Policy {
	if rules == "japanese" {
		return PolicyLoss
	}
	return PolicyRetractPass
}

// Player is one player's name and rank as entered at set-up.
type Player struct {
	Name string `json:"name"`
	Rank string `json:"rank,omitempty"`
}

// Setup is everything entered before a game. The zero values of optional fields take the
// defaults described on each field.
type Setup struct {
	Rules        string   `json:"rules"`                  // engine preset name: "aga", "japanese", ...; "" = "aga"
	Komi         *float64 `json:"komi,omitempty"`         // nil = the preset's komi (even or handicap)
	Size         int      `json:"size"`                   // 0 = 19
	Handicap     int      `json:"handicap,omitempty"`     // 0 or 2..9 stones
	FreeHandicap bool     `json:"freeHandicap,omitempty"` // Black places the handicap stones freely (else fixed AGA points)
	TimeControl  string   `json:"timeControl,omitempty"`  // clock.ParseControlOrPreset text; "" = no clock limit
	Black        Player   `json:"black"`
	White        Player   `json:"white"`
	Event        string   `json:"event,omitempty"`
	Round        string   `json:"round,omitempty"`
	Table        string   `json:"table,omitempty"`
	Date         string   `json:"date,omitempty"`   // YYYY-MM-DD; "" = the day of the set-up
	Policy       Policy   `json:"policy,omitempty"` // "" = PolicyRetractPass
}

// VerdictKind classifies what the referee last said.
type VerdictKind int

// The verdict kinds. Alert reports which need the players' attention.
const (
	VerdictNone           VerdictKind = iota
	VerdictInfo                       // neutral information (set-up done, clocks resumed, ...)
	VerdictWaiting                    // a press is waiting for a clear view of the board
	VerdictMove                       // a move was accepted
	VerdictPass                       // a pass was accepted
	VerdictRemoveCaptures             // the move is right but captured stones are still on the board
	VerdictBoardDiffers               // the board does not match the game; the message says the fix
	VerdictNoChange                   // the clock was pressed but no new stone is on the board
	VerdictNotYourTurn                // a clock press by the player who is not to move
	VerdictNotSeen                    // no clear view of the board in time (hands over it)
	VerdictIllegal                    // suicide, ko or superko: the rule sentence and the policy
	VerdictStopped                    // two passes stopped the game; marking starts
	VerdictMarking                    // news of the marking phase (proposal, confirmation)
	VerdictResult                     // the game ended with a result
	VerdictDirector                   // a director action (or refusal)
	VerdictCamera                     // the camera's view changed: picture lost or back, board moved or found again
)

var verdictNames = [...]string{"none", "info", "waiting", "move", "pass", "remove-captures", "board-differs",
	"no-change", "not-your-turn", "not-seen", "illegal", "stopped", "marking", "result", "director", "camera"}

// String names the kind ("move", "board-differs", ...).
func (k VerdictKind) String() string {
	if int(k) >= 0 && int(k) < len(verdictNames) {
		return verdictNames[k]
	}
	return "verdict?"
}

// Alert reports whether the verdict asks the players to do something about the board or the game.
func (k VerdictKind) Alert() bool {
	switch k {
	case VerdictRemoveCaptures, VerdictBoardDiffers, VerdictNoChange, VerdictNotSeen, VerdictIllegal:
		return true
	}
	return false
}

// Verdict is one thing the referee said: a plain sentence with the fix, and the points involved
// so the UI can highlight them.
type Verdict struct {
	Kind    VerdictKind  `json:"kind"`
	Color   engine.Color `json:"color,omitempty"` // whose move, press or fault; Empty when nobody's
	Message string       `json:"message"`
	// Says is what the verdict says, as phrases a screen translates: every verdict the referee
	// gives has it, and Message is its English (sentences(Says); "Illegal move: " before it for
	// an illegal move), so each sentence has one source.
	Says       []Phrase       `json:"says,omitempty"`
	Points     []engine.Point `json:"points,omitempty"`
	MoveNumber int            `json:"moveNumber,omitempty"` // the game's move number when it was said
	At         time.Time      `json:"at"`
}

// ClockDisplay is one side's clock as the screen shows it.
type ClockDisplay struct {
	Remaining time.Duration // main time left, or time left in the current overtime period
	Overtime  bool          // in byo-yomi / Canadian overtime
	Periods   int           // byo-yomi periods left (overtime only)
	Stones    int           // Canadian stones still to play in the period (overtime only)
	Running   bool          // this side's clock is running
	Flagged   bool          // this side's time has run out
	Text      string        // ready-made text, e.g. "12:34", "0:25 (3)", "4:10 / 7"
}

// Side is one player's part of the state.
type Side struct {
	Player     Player
	Prisoners  int  // stones this player has captured (not pass stones)
	PassStones int  // pass stones this player has received
	Confirmed  bool // in PhaseMarking: confirmed the marking with the clock button
	Clock      ClockDisplay
}

// State is a snapshot of the table for the UI. It is a copy: the UI may keep it.
type State struct {
	Seq          uint64         // increases with every change; equal Seq means equal State
	Phase        Phase          //
	Setup        Setup          // the game's set-up (zero in PhaseSetup)
	Size         int            // board size (0 in PhaseSetup)
	Board        []engine.Color // the game's board, row-major Y*Size+X (Y = 0 is the top row)
	Seen         []observe.Stone
	ToMove       engine.Color // the player to move (Empty when nobody may move)
	MoveNumber   int          // moves (and passes) recorded so far
	LastMove     *engine.Move // the last recorded move, nil before the first
	Black, White Side         //
	ClockRunning engine.Color // whose clock runs; Empty when stopped or paused
	ClocksPaused bool         // the clocks are paused (after a restart or by the director)
	Waiting      bool         // a press waits for a clear view of the board
	// QueuedPresses counts the presses made while an earlier one was still being checked: they
	// count, in order, once it has (or are refused with a verdict if it did not count).
	QueuedPresses int
	Banner        Verdict        // the current message (Kind VerdictNone when there is nothing to say)
	History       []Verdict      // the latest verdicts, newest last (at most HistoryLen)
	Rulings       []Verdict      // the game's rulings (IsRuling), oldest first (at most RulingsLen)
	Expected      []engine.Point // points where the board must change to match the game (highlight), if any
	// Marking and counting.
	Dead            []engine.Point     // stones marked dead (PhaseMarking, PhaseEnded)
	ProposalPending bool               // the GTP engine's dead-stone proposal is being computed
	FromProposal    bool               // the marking is the engine's proposal, unchanged
	Score           *engine.Score      // the count of the current marking (PhaseMarking) or the final one
	Dame            DameState          // dame filling after the stop (Japanese rules art. 8)
	CountBoard      CountBoard         // where the board seen after the stop disagrees with the marking (PhaseMarking): the count waits
	Repetition      *Repetition        // a whole-board repetition standing (Japanese rules art. 12; PhasePlaying), nil if none
	Confirmation    *ConfirmationState // the confirmation of life and death by play (Japanese rules art. 7.2; PhaseMarking), nil if none
	Result          string             // SGF result ("B+3.5", "W+R", "B+T", "0", "Void"); "" until ended
	// Files and recovery.
	SGFPath     string // where the game's SGF is rewritten after each move
	GamePath    string // where the finished game was filed in the games directory (PhaseEnded)
	Recovery    string // what the journal recovery found at start ("" when there was nothing to recover)
	DirectorPIN bool   // a director PIN is configured (director actions are possible)
}

// HistoryLen is how many verdicts State.History keeps.
const HistoryLen = 12

// DirectorKind names a director action.
type DirectorKind string

// The director actions. Each needs the director PIN and is journaled.
const (
	// DirectorUndo takes back the last recorded move.
	DirectorUndo DirectorKind = "undo"
	// DirectorCorrect replaces move Number (0 = the last) with Move (a GTP vertex or "pass");
	// the moves after it are kept, and must still be legal.
	DirectorCorrect DirectorKind = "correct"
	// DirectorAdjustClock sets Color's remaining time to Remaining (and Periods in overtime).
	DirectorAdjustClock DirectorKind = "adjust-clock"
	// DirectorEnd ends the game with Result (an SGF result: "B+R", "W+T", "B+2.5", "0", "Void").
	DirectorEnd DirectorKind = "end"
	// DirectorRetractPass rules on a halted illegal move: retract it and the offender passes.
	DirectorRetractPass DirectorKind = "retract-pass"
	// DirectorPause pauses the clocks and play; DirectorResume continues.
	DirectorPause DirectorKind = "pause"
	// DirectorResume continues after a pause or a halt (the pending illegal move is retracted
	// without a pass).
	DirectorResume DirectorKind = "resume"
	// DirectorExport writes the game record to a file (ExportSGF); it is journaled only when
	// refused for a wrong PIN, as an audit record.
	DirectorExport DirectorKind = "export"
)

// DirectorAction is one director intervention.
type DirectorAction struct {
	Kind      DirectorKind  `json:"kind"`
	Move      string        `json:"move,omitempty"`      // DirectorCorrect: "D4" or "pass"
	Number    int           `json:"number,omitempty"`    // DirectorCorrect: which move (0 = the last)
	Color     engine.Color  `json:"color,omitempty"`     // DirectorAdjustClock: whose clock
	Remaining time.Duration `json:"remaining,omitempty"` // DirectorAdjustClock
	Periods   int           `json:"periods,omitempty"`   // DirectorAdjustClock (overtime periods or stones)
	Result    string        `json:"result,omitempty"`    // DirectorEnd
	Note      string        `json:"note,omitempty"`      // free text recorded with the action
}
