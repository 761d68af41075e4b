package ui

import (
	"errors"

	"tengen/internal/errtext"
	"tengen/referee"
)

// errorText is err in words for a screen: the director PIN's errors in the screen's language, any
// other error's message without its Go package prefixes ("referee: ", "config: ").
func errorText(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, referee.ErrBadPIN):
		return tr("Wrong director PIN: nothing was changed.")
	case errors.Is(err, referee.ErrNoDirector):
		return noDirectorText()
	}
	return errtext.Text(err)
}

// noDirectorText says that the director's actions are off for want of a PIN.
func noDirectorText() string {
	return tr("No director PIN is configured: the director's actions are off (kiosk doctor says how to set one).")
}

// spokenError is an error whose message is errorText's words; it wraps the error, so errors.Is
// and errors.As still see it. A screen that shows err.Error() is given one.
type spokenError struct{ err error }

func (e spokenError) Error() string { return errorText(e.err) }
func (e spokenError) Unwrap() error { return e.err }

// spoken wraps err as a spokenError (nil stays nil).
func spoken(err error) error {
	if err == nil {
		return nil
	}
	return spokenError{err}
}
