package ui

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"tengen/internal/homography"
)

// CameraView is a camera frame with the board the kiosk found in it.
type CameraView struct {
	Frame      image.Image
	Size       int           // board size of the grid
	Corners    [4][2]float64 // corner intersections in frame pixels: top-left, top-right, bottom-right, bottom-left
	HasGrid    bool          // Corners are set
	Confidence float64       // 0..1
	BlackSide  string        // "bottom", "top", "left" or "right": the image edge on Black's side
}

// CameraHandlers are what the camera screen asks for.
type CameraHandlers struct {
	Grab  func() (CameraView, error)                                    // a fresh frame with the automatic detection
	Frame func() (image.Image, error)                                   // just a fresh frame, for the live picture
	Save  func(corners [4][2]float64, size int, blackSide string) error // store the calibration
	Back  func()
}

// Preview shows a camera frame with the detected grid over it and four corner handles that can be
// dragged by touch.
type Preview struct {
	widget.BaseWidget
	view     CameraView
	dragging int // index of the corner being dragged, -1 for none
	OnMoved  func([4][2]float64)
}

// NewPreview returns an empty preview.
func NewPreview() *Preview {
	p := &Preview{dragging: -1}
	p.ExtendBaseWidget(p)
	return p
}

// SetView shows v.
func (p *Preview) SetView(v CameraView) {
	p.view = v
	p.Refresh()
}

// View returns what the preview shows (with the corners as dragged).
func (p *Preview) View() CameraView { return p.view }

// frameRect returns where the frame is drawn inside the widget and its scale.
func (p *Preview) frameRect() (x0, y0, s float32) {
	if p.view.Frame == nil {
		return 0, 0, 1
	}
	b := p.view.Frame.Bounds()
	sz := p.Size()
	s = min(sz.Width/float32(b.Dx()), sz.Height/float32(b.Dy()))
	return (sz.Width - s*float32(b.Dx())) / 2, (sz.Height - s*float32(b.Dy())) / 2, s
}

func (p *Preview) toWidget(c [2]float64) fyne.Position {
	x0, y0, s := p.frameRect()
	return fyne.NewPos(x0+float32(c[0])*s, y0+float32(c[1])*s)
}

// Dragged moves the corner nearest to where the drag started.
func (p *Preview) Dragged(ev *fyne.DragEvent) {
	if !p.view.HasGrid || p.view.Frame == nil {
		return
	}
	_, _, s := p.frameRect()
	if p.dragging < 0 {
		best, bestD := -1, float32(60)
		start := ev.Position.Subtract(ev.Dragged)
		for i, c := range p.view.Corners {
			w := p.toWidget(c)
			if d := float32(math.Hypot(float64(w.X-start.X), float64(w.Y-start.Y))); d < bestD {
				best, bestD = i, d
			}
		}
		if best < 0 {
			return
		}
		p.dragging = best
	}
	b := p.view.Frame.Bounds()
	c := &p.view.Corners[p.dragging]
	c[0] = math.Max(0, math.Min(float64(b.Dx()-1), c[0]+float64(ev.Dragged.DX/s)))
	c[1] = math.Max(0, math.Min(float64(b.Dy()-1), c[1]+float64(ev.Dragged.DY/s)))
	p.Refresh()
	if p.OnMoved != nil {
		p.OnMoved(p.view.Corners)
	}
}

// DragEnd lets the corner go.
func (p *Preview) DragEnd() { p.dragging = -1 }

// CreateRenderer builds the preview.
func (p *Preview) CreateRenderer() fyne.WidgetRenderer {
	img := canvas.NewImageFromImage(nil)
	img.FillMode = canvas.ImageFillContain
	img.ScaleMode = canvas.ImageScaleSmooth
	r := &previewRenderer{p: p, img: img, bg: canvas.NewRectangle(color.Black)}
	for i := range r.handles {
		h := canvas.NewCircle(color.NRGBA{R: colToMove.R, G: colToMove.G, B: colToMove.B, A: 0x90})
		h.StrokeColor = colDark
		h.StrokeWidth = 2
		r.handles[i] = h
	}
	return r
}

type previewRenderer struct {
	p       *Preview
	bg      *canvas.Rectangle
	img     *canvas.Image
	lines   []*canvas.Line
	handles [4]*canvas.Circle
	objs    []fyne.CanvasObject
}

func (r *previewRenderer) Destroy() {}

func (r *previewRenderer) MinSize() fyne.Size { return fyne.NewSize(240, 180) }

func (r *previewRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *previewRenderer) Refresh() {
	if r.img.Image != r.p.view.Frame {
		r.img.Image = r.p.view.Frame
		r.img.Refresh()
	}
	r.Layout(r.p.Size())
	canvas.Refresh(r.p)
}

func (r *previewRenderer) Layout(sz fyne.Size) {
	v := r.p.view
	r.bg.Resize(sz)
	r.img.Resize(sz)
	r.objs = append(r.objs[:0], r.bg, r.img)
	if !v.HasGrid || v.Size < 2 || v.Frame == nil {
		return
	}
	n := v.Size
	src := [4][2]float64{{0, 0}, {float64(n - 1), 0}, {float64(n - 1), float64(n - 1)}, {0, float64(n - 1)}}
	h, ok := homography.From4(src, v.Corners)
	if !ok {
		return
	}
	at := func(col, row int) [2]float64 {
		x, y := h.Apply(float64(col), float64(row))
		return [2]float64{x, y}
	}
	for len(r.lines) < 2*n {
		l := canvas.NewLine(color.NRGBA{R: 0x40, G: 0xff, B: 0x60, A: 0xd0})
		l.StrokeWidth = 2
		r.lines = append(r.lines, l)
	}
	for i := 0; i < n; i++ {
		a, b := at(i, 0), at(i, n-1)
		c, d := at(0, i), at(n-1, i)
		r.lines[2*i].Position1, r.lines[2*i].Position2 = r.p.toWidget(a), r.p.toWidget(b)
		r.lines[2*i+1].Position1, r.lines[2*i+1].Position2 = r.p.toWidget(c), r.p.toWidget(d)
		r.objs = append(r.objs, r.lines[2*i], r.lines[2*i+1])
	}
	const rad = 22
	for i, c := range v.Corners {
		w := r.p.toWidget(c)
		r.handles[i].Move(fyne.NewPos(w.X-rad, w.Y-rad))
		r.handles[i].Resize(fyne.NewSize(2*rad, 2*rad))
		r.objs = append(r.objs, r.handles[i])
	}
}

// CameraScreen is the camera and calibration screen: the live picture with the detected grid, its
// confidence, corners to drag by touch, Black's side, and save.
type CameraScreen struct {
	Preview    *Preview
	Confidence *widget.Label
	Side       *widget.Select
	Size       *widget.Select
	Message    *widget.Label
	// Find, Save and Back stay in view under the settings (which scroll when they must).
	Find, Save, Back *widget.Button
	settings         *fyne.Container
	h                CameraHandlers
	content          fyne.CanvasObject
	edited           bool
	// onUI runs a background result on Fyne's goroutine: fyne.Do on a display. Fyne's test
	// driver runs fyne.Do on the caller's goroutine, so tests put a queue here that they drain.
	onUI func(func())
}

// blackSides are the image edges Black can sit at, in the order the selector shows them.
var blackSides = []string{"bottom", "top", "left", "right"}

func sideLabel(s string) string {
	switch s {
	case "top":
		return tr("Top of the picture")
	case "left":
		return tr("Left of the picture")
	case "right":
		return tr("Right of the picture")
	}
	return tr("Bottom of the picture")
}

// NewCameraScreen builds the screen.
func NewCameraScreen(h CameraHandlers) *CameraScreen {
	c := &CameraScreen{Preview: NewPreview(), h: h, onUI: fyne.Do}
	c.Preview.OnMoved = func([4][2]float64) { c.edited = true }
	c.Confidence = widget.NewLabel("")
	c.Message = widget.NewLabel("")
	c.Message.Wrapping = fyne.TextWrapWord
	labels := make([]string, len(blackSides))
	for i, s := range blackSides {
		labels[i] = sideLabel(s)
	}
	c.Side = widget.NewSelect(labels, nil)
	c.Side.SetSelectedIndex(0)
	c.Size = widget.NewSelect([]string{"9", "13", "19"}, func(string) { c.applySize() })
	c.Size.PlaceHolder = tr("Choose") // not Fyne's own "(Select one)", which is not translated
	refresh := widget.NewButton(tr("Find the board"), func() {
		c.edited = false
		c.GrabAsync()
	})
	save := widget.NewButton(tr("Save"), c.save)
	save.Importance = widget.HighImportance
	back := widget.NewButton(tr("Back"), func() {
		if h.Back != nil {
			h.Back()
		}
	})
	title := widget.NewLabelWithStyle(tr("Camera and board"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	hint := widget.NewLabel(tr("Drag the yellow corners onto the corner intersections."))
	hint.Wrapping = fyne.TextWrapWord
	c.Confidence.Wrapping = fyne.TextWrapWord
	c.Find, c.Save, c.Back = refresh, save, back
	c.settings = container.NewVBox(c.Confidence,
		widget.NewLabel(tr("Black sits at:")), c.Side,
		widget.NewLabel(tr("Board size")), c.Size,
		hint, c.Message)
	panel := container.NewBorder(title, container.NewVBox(refresh, save, back), nil, nil, container.NewVScroll(c.settings))
	c.content = container.New(&previewLayout{}, c.Preview, panel)
	return c
}

// setText changes a label of the panel and lays the panel out again (a wrapped label's height
// follows its text).
func (c *CameraScreen) setText(l *widget.Label, s string) {
	l.SetText(s)
	c.settings.Refresh()
}

// Content is the screen's root object.
func (c *CameraScreen) Content() fyne.CanvasObject { return c.content }

// SetView shows a new frame. Corners the user has dragged are kept.
func (c *CameraScreen) SetView(v CameraView) {
	if c.edited {
		old := c.Preview.View()
		v.Corners, v.HasGrid, v.Size = old.Corners, old.HasGrid, old.Size
	} else {
		c.Size.Selected = strconv.Itoa(v.Size)
		c.Size.Refresh()
		for i, s := range blackSides {
			if s == v.BlackSide {
				c.Side.SetSelectedIndex(i)
			}
		}
	}
	c.Preview.SetView(v)
	if v.HasGrid {
		c.setText(c.Confidence, tr("Confidence: {{.Percent}}%", "Percent", fmt.Sprintf("%.0f", 100*v.Confidence)))
	} else {
		c.setText(c.Confidence, tr("No board found: drag the corners by hand."))
	}
}

// applySize redraws the grid for a size chosen by hand.
func (c *CameraScreen) applySize() {
	v := c.Preview.View()
	n, err := strconv.Atoi(c.Size.Selected)
	if err != nil || n == v.Size {
		return
	}
	v.Size = n
	if !v.HasGrid && v.Frame != nil {
		b := v.Frame.Bounds()
		w, h := float64(b.Dx()), float64(b.Dy())
		v.Corners = [4][2]float64{{0.25 * w, 0.2 * h}, {0.75 * w, 0.2 * h}, {0.75 * w, 0.8 * h}, {0.25 * w, 0.8 * h}}
		v.HasGrid = true
	}
	c.edited = true
	c.Preview.SetView(v)
}

// SetFrame shows a new live picture under the grid as it stands.
func (c *CameraScreen) SetFrame(img image.Image) {
	if img == nil {
		return
	}
	v := c.Preview.View()
	v.Frame = img
	c.Preview.SetView(v)
}

// GrabAsync asks for a fresh frame and detection without blocking the screen (finding the board
// takes a moment); the result is shown when it comes.
func (c *CameraScreen) GrabAsync() {
	if c.h.Grab == nil {
		return
	}
	c.setText(c.Message, tr("Finding the board…"))
	grab := c.h.Grab
	onUI := c.onUI
	go func() {
		v, err := grab()
		onUI(func() {
			c.setText(c.Message, "")
			if err != nil {
				c.setText(c.Message, errorText(err))
				return
			}
			c.SetView(v)
		})
	}()
}

// Grab asks for a fresh frame and detection and waits for it.
func (c *CameraScreen) Grab() {
	if c.h.Grab == nil {
		return
	}
	v, err := c.h.Grab()
	if err != nil {
		c.setText(c.Message, errorText(err))
		return
	}
	c.SetView(v)
}

func (c *CameraScreen) save() {
	v := c.Preview.View()
	if !v.HasGrid {
		c.setText(c.Message, tr("No board found: drag the corners by hand."))
		return
	}
	side := blackSides[max(c.Side.SelectedIndex(), 0)]
	if c.h.Save == nil {
		return
	}
	if err := c.h.Save(v.Corners, v.Size, side); err != nil {
		c.setText(c.Message, errorText(err))
		return
	}
	c.edited = false
	c.setText(c.Message, tr("Saved."))
}

// previewLayout gives the preview most of the screen and the panel a column on the right.
type previewLayout struct{}

func (previewLayout) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(400, 240) }

func (previewLayout) Layout(objs []fyne.CanvasObject, sz fyne.Size) {
	panelW := max(min(sz.Width*0.34, 380), 220)
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(sz.Width-panelW, sz.Height))
	objs[1].Move(fyne.NewPos(sz.Width-panelW+6, 0))
	objs[1].Resize(fyne.NewSize(panelW-6, sz.Height))
}
