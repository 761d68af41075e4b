package ui

import (
	"time"

	"tengen/clock"
)

// controlText says a time control in words ("60 min, then 5 × 30 s byo-yomi"), so that the
// set-up never shows only a preset's id or the compact form.
func controlText(c clock.Control) string {
	main := durationText(c.Main)
	switch c.Kind {
	case clock.ByoYomi:
		return tr("{{.Main}}, then {{.N}} × {{.Period}} byo-yomi", "Main", main, "N", c.Periods, "Period", durationText(c.Period))
	case clock.Canadian:
		return tr("{{.Main}}, then {{.N}} stones in {{.Period}} (Canadian)", "Main", main, "N", c.Stones, "Period", durationText(c.Period))
	case clock.Fischer:
		return tr("{{.Main}} + {{.Increment}} a move (Fischer)", "Main", main, "Increment", durationText(c.Increment))
	}
	return tr("{{.Main}}, no overtime", "Main", main)
}

// durationText says a duration in minutes and seconds ("90 min", "30 s", "1 min 30 s").
func durationText(d time.Duration) string {
	s := int(d / time.Second)
	m, s := s/60, s%60
	switch {
	case m == 0:
		return tr("{{.S}} s", "S", s)
	case s == 0:
		return tr("{{.M}} min", "M", m)
	}
	return tr("{{.M}} min {{.S}} s", "M", m, "S", s)
}
