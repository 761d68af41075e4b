package ui

import "tengen/referee"

// OfferSetup offers a new set-up for the table's next game, such as the hall's pairing for this
// table arriving while the kiosk runs. With no game set up, the set-up screen shows it at once
// (what was typed in the form is replaced: the pairing is the director's). While a game is set up
// or being played it waits, and the next game's set-up shows it (after Next game, or the set-up
// opened once the game is over). Call it on Fyne's goroutine (fyne.Do).
func (a *App) OfferSetup(s referee.Setup) {
	a.h.SetupDefaults = s // a language change rebuilds the screens from it
	if a.st.Phase != referee.PhaseSetup {
		a.offered = &s
		return
	}
	a.offered = nil
	a.showOffer(s)
}

// takeOffer is the set-up offered while a game was on, if any, and forgets it.
func (a *App) takeOffer() (referee.Setup, bool) {
	if a.offered == nil {
		return referee.Setup{}, false
	}
	s := *a.offered
	a.offered = nil
	return s, true
}

// applyOffer shows the set-up offered while a game was on, if any.
func (a *App) applyOffer() {
	if s, ok := a.takeOffer(); ok {
		a.showOffer(s)
	}
}

// showOffer rebuilds the set-up screen filled with s, and shows it again if it is showing.
func (a *App) showOffer(s referee.Setup) {
	showing := a.shown == a.setupKB
	a.buildSetup(s)
	if showing {
		a.show()
	}
}
