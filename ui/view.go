// Package ui is the kiosk's touch screens (Fyne): the table, set-up, camera and calibration,
// counting, director and language screens. Screens render plain view data (built from the referee's
// state by the caller) and report what the user asks for through callbacks; no game logic lives here.
package ui

import (
	"tengen/clock"
	"tengen/engine"
)

// MarkKind says why a point is marked on the board.
type MarkKind int8

// The marks the board draws.
const (
	MarkIllegal MarkKind = iota + 1 // a stone placed against the rules (red)
	MarkRemove                      // a captured stone still on the board (orange)
	MarkFix                         // the board differs from the game here (blue)
	MarkDead                        // a stone marked dead when counting
	MarkDame                        // an open dame still to fill (Japanese rules art. 8)
	MarkSeki                        // a shared liberty of a seki: it stays open and nobody's point
	MarkFilled                      // a stone placed on a dame after the stop: dame filling, not a move
)

// Mark is one marked point.
type Mark struct {
	Point engine.Point
	Kind  MarkKind
}

// BoardView is the board as recorded (not the camera picture) with what to draw over it.
type BoardView struct {
	Size      int
	Stones    []engine.Color // Size*Size, row-major, row 0 = top as seen from Black's side
	LastMove  engine.Point
	HasLast   bool           // LastMove is set
	Marks     []Mark         // drawn over the stones
	Territory []engine.Color // owner of each point when counting (nil otherwise)
}

// At returns the stone at p (Empty off the board).
func (v BoardView) At(p engine.Point) engine.Color {
	if !p.In(v.Size) || len(v.Stones) != v.Size*v.Size {
		return engine.Empty
	}
	return v.Stones[p.Y*v.Size+p.X]
}

// SideView is one player's half of the table: name, clock face, prisoners and pass stones.
type SideView struct {
	Color      engine.Color
	Name, Rank string
	Clock      clock.Display
	ToMove     bool
	Prisoners  int // stones this player has captured
	PassStones int // pass stones this player has received
}

// BannerKind says how loud a banner is.
type BannerKind int8

// The banners of the table screen.
const (
	BannerNone    BannerKind = iota
	BannerIllegal            // a flagged illegal move: red, with the rule sentence
	BannerRemove             // remove the captured stones: orange
	BannerDiffers            // the board differs from the game: amber
	BannerCalm               // camera lost, hands over the board, paused: visible but calm
	BannerInfo               // game over, result: green
)

// BannerView is the message shown beside the board. Title and Text are already translated.
type BannerView struct {
	Kind  BannerKind
	Title string
	Text  string
}

// TableView is everything the table screen shows.
type TableView struct {
	Board      BoardView
	MoveNumber int
	Black      SideView
	White      SideView
	Banner     BannerView
	Status     string // a quiet status line (rules, komi), already translated
	// Ruling is the game's latest ruling in large type (Kind BannerNone: none to show), shown until
	// the next move or a tap; RulingID names it, so that a tap closes this one only.
	Ruling   BannerView
	RulingID string
	// Repetition is a whole-board repetition standing (Japanese rules art. 12), nil if none: each
	// player may agree to end the game with no result.
	Repetition *RepetitionView
}

// RepetitionView is a whole-board repetition the players may end the game on (art. 12).
type RepetitionView struct {
	Move, Earlier int     // the move that recreated the position, and the move after which it first stood
	Agreed        [3]bool // who agreed to no result (index engine.Black, engine.White)
}

// DameView is the dame filling after the stop under Japanese rules (art. 8).
type DameView struct {
	Applies bool // the rules fill dame after the stop
	Open    int  // open dame left that can be filled
	Seki    int  // shared liberties of a seki (they stay open)
	Filled  int  // dame stones placed since the stop
	Asked   bool // both players confirmed with dame open: fill them, or both confirm again
}

// ConfirmView is the confirmation of life and death by play (Japanese rules art. 7.2).
type ConfirmView struct {
	Board  BoardView      // the board of the confirmation, the stop position's captured stones marked
	ToMove engine.Color   // who plays next in it
	Moves  string         // the hypothetical moves so far ("B C8, W pass"), "" before the first
	KoBans []engine.Point // the kos the player to move may retake only after passing for each
	Said   string         // what the referee said last, translated
	Rules  string         // the rules' name
}

// CountView is everything the counting screen shows.
type CountView struct {
	Board       BoardView // with Territory and MarkDead marks
	Score       engine.Score
	HasScore    bool
	BlackAgreed bool
	WhiteAgreed bool
	Ended       bool   // the count is agreed and the game has its result
	Rules       string // the rules' name as the players know it
	// Area: the rules count by area (stones and territory); else by territory (territory,
	// prisoners and dead stones). PassStonesCount: pass stones are added to the count.
	Area            bool
	PassStonesCount bool
	Black           SideView
	White           SideView
	// Dame is the dame filling (Japanese art. 8); Said is the referee's latest instruction for it,
	// translated ("" when there is none), or what it says of the board while the board disagrees
	// with the marking.
	Dame DameView
	Said string
	// Differs counts the points where the board disagrees with the marking (a live stone lifted, a
	// stone that is not the game's; marked on the board): the count waits until it agrees.
	Differs int
	// CanConfirm: a disputed group may be played out (Japanese rules art. 7.2).
	CanConfirm bool
}
