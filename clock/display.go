package clock

import (
	"fmt"
	"time"
)

// Display is what one side's clock face shows, with the parts a UI needs to
// style it.
type Display struct {
	Side Side `json:"side"`
	// Text is the face: "1:02:03", "4:59", "9.7" in main time,
	// "BY 3×0:30" in byo-yomi (periods × time left in the period),
	// "CAN 12/5:00" in Canadian overtime (stones / time left in the period).
	Text string `json:"text"`
	// Remaining is the time left before the next event (main time, or the
	// current period in overtime).
	Remaining  time.Duration `json:"remaining"`
	InOvertime bool          `json:"in_overtime"`
	Periods    int           `json:"periods,omitempty"` // byo-yomi periods left
	Stones     int           `json:"stones,omitempty"`  // Canadian stones to play in the period
	Flagged    bool          `json:"flagged"`
	Running    bool          `json:"running"`
	Paused     bool          `json:"paused"`
	// Low is set under 10 seconds, when tenths are shown (and a UI may alert).
	Low bool `json:"low"`
}

// Display returns what side's clock face shows now.
func (c *Clock) Display(side Side) Display {
	c.mu.Lock()
	defer c.mu.Unlock()
	st, _ := c.st.at(c.ts.Now(), nil)
	return DisplayOf(st, side)
}

// DisplayOf computes the face of side from a state (for replays and previews).
func DisplayOf(st State, side Side) Display {
	ss := st.Side(side)
	d := Display{
		Side:       side,
		InOvertime: ss.InOvertime,
		Periods:    ss.Periods,
		Stones:     ss.Stones,
		Flagged:    ss.Flagged,
		Running:    st.Running && st.ToMove == side,
		Paused:     st.Paused() && st.ToMove == side,
		Remaining:  ss.untilEvent(st.Control),
	}
	d.Low = d.Remaining < 10*time.Second
	switch {
	case ss.InOvertime && st.Control.Kind == ByoYomi:
		d.Text = fmt.Sprintf("BY %d×%s", ss.Periods, FormatRemaining(ss.PeriodLeft))
	case ss.InOvertime && st.Control.Kind == Canadian:
		d.Text = fmt.Sprintf("CAN %d/%s", ss.Stones, FormatRemaining(ss.PeriodLeft))
	default:
		d.Text = FormatRemaining(ss.Main)
	}
	return d
}

// FormatRemaining writes time left the way the clock face shows it:
// "h:mm:ss" from an hour, "m:ss" from 10 seconds, and "s.t" (tenths) below.
// Time is truncated, never rounded up: a face never shows more than is left.
func FormatRemaining(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	if d < 10*time.Second {
		t := int64(d / (100 * time.Millisecond))
		return fmt.Sprintf("%d.%d", t/10, t%10)
	}
	s := int64(d / time.Second)
	if s < 3600 {
		return fmt.Sprintf("%d:%02d", s/60, s%60)
	}
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}
