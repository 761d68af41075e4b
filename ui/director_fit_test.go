package ui

import (
	"fmt"
	"image"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tengen/referee"
)

// The director's panel, the set-up (before a game and during one), the camera screen and the menu
// fit every display in every language: no text cut or outside its widget, no overlap, and the
// main actions (the result, Start, Find/Save/Back, Lock, the keyboard) in view without scrolling,
// with the on-screen keyboard closed and open; opening and closing it leaves the window's size.
func TestDirectorAndSetupFitEveryLanguage(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	komi := 6.5
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		for _, sz := range allDisplays {
			frame := image.NewRGBA(image.Rect(0, 0, 640, 480))
			a, w := appWindow(t, sz, Handlers{CheckPIN: checkPIN,
				Camera:        CameraHandlers{Grab: func() (CameraView, error) { return CameraView{Frame: frame, Size: 19}, nil }},
				SetupDefaults: referee.Setup{Rules: "japanese", Size: 19, Komi: &komi, TimeControl: "egf-a-byoyomi", Event: "Warsaw Open"}})
			w.SetPadded(false)
			w.Resize(sz)
			name := fmt.Sprintf("%s %vx%v", l.Code, sz.Width, sz.Height)
			a.Update(referee.State{Phase: referee.PhaseSetup}, Conditions{})
			for _, kb := range []bool{false, true} {
				n := fmt.Sprintf("%s keyboard=%v", name, kb)
				a.Show(ScreenSetup)
				toggle := keyboardToggle(t, a.setup.KeyboardSlot)
				if kb {
					test.Tap(toggle)
				}
				fitCheck(t, "set-up "+n, a.Current(), sz, a.setup.Start, toggle)
				if kb {
					test.Tap(toggle)
				}
				if w.Canvas().Size() != sz {
					t.Errorf("set-up %s: the window is %v", n, w.Canvas().Size())
				}
			}
			a.Show(ScreenCamera)
			for range 3 { // a wrapped label's height follows its width at the next layout (as every frame does on a display)
				a.camera.settings.Refresh()
			}
			fitCheck(t, "camera "+name, a.Current(), sz, a.camera.Find, a.camera.Save, a.camera.Back)
			a.Show(ScreenMenu)
			fitCheck(t, "menu "+name, a.Current(), sz)
			a.Update(playingState(t), Conditions{})
			a.Show(ScreenSetup)
			fitCheck(t, "gate "+name, a.Current(), sz)
			a.Gate().Open("2468")
			fitCheck(t, "set-up in a game "+name, a.Current(), sz, a.setup.Start)
			a.Show(ScreenDirector)
			fitCheck(t, "PIN pad "+name, a.Current(), sz)
			a.Director().Unlock("2468")
			for _, kb := range []bool{false, true} {
				n := fmt.Sprintf("%s keyboard=%v", name, kb)
				toggle := keyboardToggle(t, a.director.KeyboardSlot)
				if kb {
					w.Canvas().Focus(a.director.Result)
					test.Tap(toggle)
				}
				fitCheck(t, "director "+n, a.Current(), sz, a.director.Result, toggle)
				if kb {
					test.Tap(toggle)
				}
				if w.Canvas().Size() != sz {
					t.Errorf("director %s: the window is %v", n, w.Canvas().Size())
				}
			}
			a.Show(ScreenGame)
			if t.Failed() {
				return
			}
		}
	}
}

// keyboardToggle is the on-screen keyboard's toggle put in slot.
func keyboardToggle(t *testing.T, slot *fyne.Container) *widget.Button {
	t.Helper()
	if len(slot.Objects) != 1 {
		t.Fatal("no keyboard toggle in its slot")
	}
	b, ok := slot.Objects[0].(*widget.Button)
	if !ok {
		t.Fatalf("the keyboard toggle is a %T", slot.Objects[0])
	}
	return b
}
