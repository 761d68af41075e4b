package ui

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"tengen/clock"
	"tengen/config"
	"tengen/engine"
)

// FaultClockScreen is the journal fault screen with the game clock beside it: the referee cannot
// run (its journal cannot be opened), but the players keep a working clock, pressed with the table's
// buttons (or the keyboard) as usual. Nothing is recorded.
type FaultClockScreen struct {
	Fault        *ConfigFaultScreen
	White, Black *ClockFace
	content      *fyne.Container
}

// NewFaultClockScreen returns the fault screen for err with both clocks (White above, Black below,
// as at the table).
func NewFaultClockScreen(err *config.Error) *FaultClockScreen {
	s := &FaultClockScreen{Fault: NewConfigFaultScreen(err),
		White: NewClockFace(SideView{Color: engine.White}), Black: NewClockFace(SideView{Color: engine.Black})}
	s.Fault.clocks = true
	s.content = container.New(&faultClockLayout{s: s}, s.Fault, s.White, s.Black)
	return s
}

// Content is the screen's root object.
func (s *FaultClockScreen) Content() fyne.CanvasObject { return s.content }

// SetClock shows the clock's state: each side's face, the side to move lit once it is started.
func (s *FaultClockScreen) SetClock(st clock.State) {
	for _, f := range []struct {
		face *ClockFace
		c    engine.Color
		side clock.Side
	}{{s.Black, engine.Black, clock.Black}, {s.White, engine.White, clock.White}} {
		f.face.SetView(SideView{Color: f.c, Clock: clock.DisplayOf(st, f.side), ToMove: st.Started && st.ToMove == f.side})
	}
}

// faultClockLayout puts the fault on the left and the clocks on the right (White above, Black
// below); on a portrait screen, the fault above the two clocks side by side.
type faultClockLayout struct{ s *FaultClockScreen }

func (l *faultClockLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(400, 240) }

func (l *faultClockLayout) Layout(_ []fyne.CanvasObject, sz fyne.Size) {
	s, pad := l.s, float32(8)
	if sz.Width >= sz.Height*1.2 {
		clockW := sz.Width * 0.36
		faceH := (sz.Height - 3*pad) / 2
		s.Fault.Move(fyne.NewPos(0, 0))
		s.Fault.Resize(fyne.NewSize(sz.Width-clockW-pad, sz.Height))
		s.White.Move(fyne.NewPos(sz.Width-clockW, pad))
		s.White.Resize(fyne.NewSize(clockW-pad, faceH))
		s.Black.Move(fyne.NewPos(sz.Width-clockW, 2*pad+faceH))
		s.Black.Resize(fyne.NewSize(clockW-pad, faceH))
		return
	}
	faceH := max(sz.Height*0.25, s.White.MinSize().Height)
	faceW := (sz.Width - 3*pad) / 2
	s.Fault.Move(fyne.NewPos(0, 0))
	s.Fault.Resize(fyne.NewSize(sz.Width, sz.Height-faceH-2*pad))
	s.Black.Move(fyne.NewPos(pad, sz.Height-faceH-pad))
	s.Black.Resize(fyne.NewSize(faceW, faceH))
	s.White.Move(fyne.NewPos(2*pad+faceW, sz.Height-faceH-pad))
	s.White.Resize(fyne.NewSize(faceW, faceH))
}

// PressForKey is the keyboard's stand-in for the table's buttons: B or Left for Black's clock, W or
// Right for White's, P, Space or Down to pass, L for a long pass (stop and count), D for the
// director. ok is false for any other key.
func PressForKey(name fyne.KeyName, at time.Time) (p clock.Press, ok bool) {
	switch name {
	case fyne.KeyB, fyne.KeyLeft:
		return clock.NewPress(clock.BlackClock, at), true
	case fyne.KeyW, fyne.KeyRight:
		return clock.NewPress(clock.WhiteClock, at), true
	case fyne.KeyP, fyne.KeySpace, fyne.KeyDown:
		return clock.NewPress(clock.PassButton, at), true
	case fyne.KeyL:
		return clock.NewLongPress(clock.PassButton, at), true
	case fyne.KeyD:
		return clock.NewPress(clock.DirectorButton, at), true
	}
	return clock.Press{}, false
}
