package ui

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tengen/clock"
	"tengen/demo"
	"tengen/engine"
)

// displays are the screen sizes the kiosk must work on.
var displays = []fyne.Size{{Width: 800, Height: 480}, {Width: 1280, Height: 720}}

// capture shows content in a test window of size sz and returns the rendered picture. With
// TENGEN_UI_SHOTS=dir set, it also saves it there (to look at).
func capture(t *testing.T, name string, content fyne.CanvasObject, sz fyne.Size) image.Image {
	t.Helper()
	w := test.NewWindow(content)
	t.Cleanup(w.Close)
	w.SetPadded(false)
	w.Resize(sz)
	img := w.Canvas().Capture()
	if dir := os.Getenv("TENGEN_UI_SHOTS"); dir != "" {
		f, err := os.Create(filepath.Join(dir, name+".png"))
		if err == nil {
			_ = png.Encode(f, img)
			_ = f.Close()
		}
	}
	return img
}

func newTestApp(t testing.TB) fyne.App {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(NewTheme())
	if err := LoadTranslations(); err != nil {
		t.Fatal(err)
	}
	if err := SetLanguage("en"); err != nil {
		t.Fatal(err)
	}
	return a
}

// appWindow opens a test window, resized to sz unless sz is zero, with an App on it using h; the
// window closes when the test ends.
func appWindow(t *testing.T, sz fyne.Size, h Handlers) (*App, fyne.Window) {
	t.Helper()
	w := test.NewWindow(nil)
	t.Cleanup(w.Close)
	if sz != (fyne.Size{}) {
		w.Resize(sz)
	}
	return NewApp(w, h), w
}

// near reports whether c is within tol of want in every channel.
func near(c color.Color, want color.NRGBA, tol int) bool {
	r, g, b, _ := c.RGBA()
	d := func(a uint32, b uint8) int {
		x := int(a>>8) - int(b)
		if x < 0 {
			return -x
		}
		return x
	}
	return d(r, want.R) <= tol && d(g, want.G) <= tol && d(b, want.B) <= tol
}

// countNear counts the pixels of img inside r that are near want.
func countNear(img image.Image, r image.Rectangle, want color.NRGBA, tol int) int {
	n := 0
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if near(img.At(x, y), want, tol) {
				n++
			}
		}
	}
	return n
}

// scale converts a canvas position to image pixels (the test canvas may render at a scale).
func scale(img image.Image, sz fyne.Size, p fyne.Position) image.Point {
	b := img.Bounds()
	return image.Pt(int(p.X*float32(b.Dx())/sz.Width), int(p.Y*float32(b.Dy())/sz.Height))
}

// sampleGame plays a few moves of a 9x9 game and returns its board view and table view.
func sampleTable(t *testing.T) TableView {
	t.Helper()
	r, err := engine.Preset("aga")
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(9, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"E6", "F6", "E4", "F4", "D5", "G5", "E5"} {
		p, err := engine.ParsePoint(m, 9)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Play(engine.Move{Color: g.ToMove(), Point: p}); err != nil {
			t.Fatal(err)
		}
	}
	last, _ := engine.ParsePoint("E5", 9)
	return TableView{
		Board:      BoardView{Size: 9, Stones: g.Board(), LastMove: last, HasLast: true},
		MoveNumber: g.MoveNumber(),
		Black: SideView{Color: engine.Black, Name: "Ada Black", Rank: "3k", Prisoners: 1,
			Clock: clock.Display{Side: clock.Black, Text: "9:41"}},
		White: SideView{Color: engine.White, Name: "Bo White", Rank: "2k", ToMove: true, PassStones: 1,
			Clock: clock.Display{Side: clock.White, Text: "BY 3×0:27", InOvertime: true, Periods: 3, Running: true}},
		Status: "AGA · komi 7.5",
	}
}

// demoCount replays the built-in demo game and counts it with C7-C8 dead.
func demoCount(t *testing.T) CountView {
	t.Helper()
	s, err := demo.Default()
	if err != nil {
		t.Fatal(err)
	}
	r, _ := engine.Preset("aga")
	r.Komi = s.Record.Komi
	g, err := engine.NewGame(9, r)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range s.Record.Moves {
		if _, err := g.Play(m.Engine()); err != nil {
			t.Fatal(err)
		}
	}
	dead := g.Chain(engine.Point{X: 2, Y: 2})
	sc, err := g.Score(dead)
	if err != nil {
		t.Fatal(err)
	}
	v := CountView{Board: BoardView{Size: 9, Stones: g.Board(), Territory: sc.Territory}, Score: sc, HasScore: true,
		BlackAgreed: true, Rules: "AGA", Area: true}
	for _, p := range dead {
		v.Board.Marks = append(v.Board.Marks, Mark{Point: p, Kind: MarkDead})
	}
	return v
}

// uiQueue makes the camera screen hand its background results to the test instead of applying
// them on the background goroutine (which is what fyne.Do does under Fyne's test driver).
func uiQueue(a *App) <-chan func() {
	q := make(chan func(), 256)
	a.camera.onUI = func(f func()) { q <- f }
	return q
}

// showCamera shows the camera screen and applies, on the test's goroutine, the result of the board
// search that showing it starts in the background.
func showCamera(t *testing.T, a *App) {
	t.Helper()
	q := uiQueue(a)
	a.Show(ScreenCamera)
	if a.h.Camera.Grab == nil {
		return // nothing to search with
	}
	select {
	case f := <-q:
		f()
	case <-time.After(10 * time.Second):
		t.Fatal("the camera screen's board search did not finish")
	}
}
