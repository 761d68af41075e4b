package station

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"tengen/ui"
)

// screen is the kiosk's table screen at the Raspberry Pi display's 800x480, fed the station's
// state as the kiosk's refresh loop feeds it.
type screen struct {
	t   *testing.T
	app *ui.App
	win fyne.Window
}

func newScreen(t *testing.T) *screen {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(ui.NewTheme())
	if err := ui.LoadTranslations(); err != nil {
		t.Fatal(err)
	}
	if err := ui.SetLanguage("en"); err != nil {
		t.Fatal(err)
	}
	w := test.NewWindow(nil)
	t.Cleanup(w.Close)
	w.Resize(fyne.NewSize(800, 480))
	return &screen{t: t, app: ui.NewApp(w, ui.Handlers{}), win: w}
}

// shows updates the screen from the station and fails unless its text contains every want.
func (s *screen) shows(st *Station, want ...string) {
	s.t.Helper()
	c := st.Conditions()
	s.app.Update(st.Table().State(), ui.Conditions{CameraLost: c.CameraLost, BoardMoved: c.BoardMoved, HandsOver: c.HandsOver})
	text := strings.Join(texts(s.t, s.win.Canvas().Content()), " ")
	for _, w := range want {
		if !strings.Contains(text, w) {
			s.t.Fatalf("the screen does not say %q:\n%s", w, text)
		}
	}
}

// texts lists every text drawn under o.
func texts(t *testing.T, o fyne.CanvasObject) []string {
	if o == nil || !o.Visible() {
		return nil
	}
	switch x := o.(type) {
	case *canvas.Text:
		return []string{x.Text}
	case *widget.Label:
		return []string{x.Text}
	case *fyne.Container:
		var out []string
		for _, c := range x.Objects {
			out = append(out, texts(t, c)...)
		}
		return out
	case fyne.Widget:
		var out []string
		for _, c := range test.TempWidgetRenderer(t, x).Objects() {
			out = append(out, texts(t, c)...)
		}
		return out
	}
	return nil
}
