package replay

import (
	"time"

	"tengen/demo"
	"tengen/referee"
)

// DemoScript turns the built-in demo's presses and dead-stone taps into a press script with the
// given set-up, starting at DefaultStart: `kiosk replay --demo` and the hall's tests replay the
// demo game through it.
func DemoScript(s *demo.Script, setup referee.Setup) *Script {
	script := &Script{Start: DefaultStart, Interval: 2 * time.Second, Setup: setup}
	for i, a := range s.Actions() {
		ra := Action{Line: i + 1, Frame: -1, At: a.At}
		switch a.Kind {
		case demo.PressButton:
			ra.Kind, ra.Button = Press, a.Button
		case demo.ToggleDead:
			ra.Kind, ra.Point = Dead, a.Point.GTP(s.Size)
		default:
			continue
		}
		script.Actions = append(script.Actions, ra)
	}
	return script
}
