package ui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"

	"tengen/engine"
	"tengen/referee"
)

// StatusLine is a one-line English summary of the table for the system's service status
// (`systemctl status tengen-kiosk`), e.g. "game: move 12, playing, white to move". It changes only
// when the game does (not with the clocks), so the kiosk can send it whenever it differs.
func StatusLine(st referee.State, cond Conditions) string {
	var b strings.Builder
	if st.Phase == referee.PhaseSetup {
		b.WriteString("waiting for a game to be set up")
	} else {
		fmt.Fprintf(&b, "game: move %d, %s", st.MoveNumber, st.Phase)
		if st.ToMove != engine.Empty && (st.Phase == referee.PhasePlaying || st.Phase == referee.PhaseReady) {
			fmt.Fprintf(&b, ", %s to move", st.ToMove)
		}
		if st.ClocksPaused {
			b.WriteString(", clocks paused")
		}
		if st.Result != "" {
			b.WriteString(", result " + st.Result)
		}
	}
	if cond.CameraLost {
		b.WriteString("; camera lost")
	}
	return b.String()
}

// ParseWindowSize reads a window size written WIDTHxHEIGHT ("1280x720"), within what a screen can
// be (320x240 to 8192x8192).
func ParseWindowSize(s string) (fyne.Size, error) {
	ws, hs, ok := strings.Cut(strings.ToLower(strings.TrimSpace(s)), "x")
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if !ok || err1 != nil || err2 != nil || w < 320 || h < 240 || w > 8192 || h > 8192 {
		return fyne.Size{}, fmt.Errorf("window size %q: want WIDTHxHEIGHT between 320x240 and 8192x8192, e.g. 1280x720", s)
	}
	return fyne.NewSize(float32(w), float32(h)), nil
}
