package referee

import (
	"time"

	"tengen/clock"
	"tengen/engine"
)

// Journal record kinds. Inputs are replayed on start; outputs ("out") are kept for the audit
// trail (what the referee said and recorded, with the clock) and skipped by the replay.
const (
	kindSetup        = "setup"         // Setup
	kindPress        = "press"         // Press: a clock, pass or director button
	kindObs          = "obs"           // Board/Probs/Frame: the stable observation the referee acted on
	kindTimeout      = "timeout"       // a waiting press found no clear view in time
	kindToggle       = "toggle"        // Point: a group marked dead or alive
	kindConfirm      = "confirm"       // Color: a player confirmed the marking
	kindResume       = "resume"        // Color: a player asked to resume play after the stop
	kindResign       = "resign"        // Color: a player resigned
	kindVoid         = "void"          // Color: a player agreed to no result after a repetition (Japanese art. 12)
	kindConfStart    = "conf-start"    // Color: the confirmation of life and death by play starts, Color first (Japanese art. 7.2)
	kindConfPass     = "conf-pass"     // Point: a pass in the confirmation for the ko at Point
	kindConfEnd      = "conf-end"      // the confirmation by play ends
	kindResumeClocks = "resume-clocks" // the clocks run again after a restart
	kindFlag         = "flag"          // Color: that player's time ran out
	kindProposal     = "proposal"      // Points or Error: the dead-stone proposal of the GTP engine
	kindDirector     = "director"      // Director: an action taken with the director PIN
	kindRecovered    = "recovered"     // the kiosk restarted: clocks paused at At
	kindOutput       = "out"           // Verdicts, Moves, Clock: what event Of produced
	kindDenied       = "denied"        // a director action refused for a wrong PIN (audit only)
	kindPINLocked    = "pin-locked"    // Lockout, Wrong: the director PIN locked after repeated wrong PINs (audit only)
	kindSight        = "sight"         // View, Error: the camera's view changed (picture lost or back, board moved or found)
)

// event is one journal record, JSON-encoded. Fields not used by a kind are omitted.
type event struct {
	Seq      uint64          `json:"seq"`
	Kind     string          `json:"k"`
	At       time.Time       `json:"at"`
	Setup    *Setup          `json:"setup,omitempty"`
	Press    clock.Press     `json:"press,omitzero"`
	Board    string          `json:"board,omitempty"` // Size*Size characters ".XO?", row-major
	Probs    string          `json:"probs,omitempty"` // the reading's probabilities (probsText), when it has more than best guesses
	Frame    uint64          `json:"frame,omitempty"`
	Color    engine.Color    `json:"color,omitzero"`
	Point    string          `json:"point,omitempty"`
	Points   []string        `json:"points,omitempty"`
	Error    string          `json:"error,omitempty"`
	Gen      int             `json:"gen,omitempty"`
	Director *DirectorAction `json:"director,omitempty"`
	View     string          `json:"view,omitempty"`
	// kindPINLocked: how long every PIN is refused from At, and the wrong PINs that locked it.
	Lockout time.Duration `json:"lockout,omitempty"`
	Wrong   int           `json:"wrong,omitempty"`
	// Moving: the pass button was pressed while the board was not still (a hand over it, a stone
	// just put down); the pass waits for the still board (see passWithStone).
	Moving bool `json:"moving,omitempty"`
	// Outputs.
	Of       uint64       `json:"of,omitempty"`
	Verdicts []Verdict    `json:"verdicts,omitempty"`
	Moves    []string     `json:"moves,omitempty"`
	Clock    *clock.State `json:"clock,omitempty"`
}

func (e *event) isOutput() bool {
	return e.Kind == kindOutput || e.Kind == kindDenied || e.Kind == kindPINLocked
}
