package ui

import (
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/widget"

	"tengen/config"
)

// maxFaultProblems is how many problems the configuration screen lists; the rest are counted (the
// director fixes the first ones, or reads them all with kiosk doctor).
const maxFaultProblems = 8

// ConfigFaultScreen is shown instead of the game when the configuration file cannot be used: a calm,
// large panel naming the file, every problem (line, key, what is wrong) and what to do. Nothing on
// it can be touched: the kiosk waits for the file to be fixed and the kiosk restarted.
type ConfigFaultScreen struct {
	widget.BaseWidget
	err    *config.Error
	path   string
	clocks bool // the game clock runs beside it (FaultClockScreen)
}

// NewConfigFaultScreen returns the screen for err. Its fixed texts are translated (lang.L) in the
// language set when it is built; the problems are config's own (English) messages.
func NewConfigFaultScreen(err *config.Error) *ConfigFaultScreen {
	s := &ConfigFaultScreen{err: err, path: err.Path}
	if s.path == "" {
		s.path = config.DefaultPath
	}
	s.ExtendBaseWidget(s)
	return s
}

// Heading is the screen's large heading.
func (s *ConfigFaultScreen) Heading() string { return tr("Configuration problem") }

// Problems returns the problem lines the screen lists, in order, each "Line N · key: message".
func (s *ConfigFaultScreen) Problems() []string {
	var out []string
	if s.err.Err != nil {
		out = append(out, tr("Cannot read the file: {{.Err}}", "Err", errorText(s.err.Err)))
	}
	for _, p := range s.err.Problems {
		var loc []string
		if p.Line > 0 {
			loc = append(loc, tr("Line {{.Line}}", "Line", strconv.Itoa(p.Line)))
		}
		if p.Key != "" {
			loc = append(loc, p.Key)
		}
		line := p.Msg
		if len(loc) > 0 {
			line = strings.Join(loc, " · ") + ": " + p.Msg
		}
		out = append(out, line)
	}
	if len(out) > maxFaultProblems {
		more := len(out) - (maxFaultProblems - 1)
		out = append(out[:maxFaultProblems-1], tr("…and {{.N}} more", "N", strconv.Itoa(more)))
	}
	return out
}

// Advice says what to do, naming the file.
func (s *ConfigFaultScreen) Advice() string {
	advice := tr("The referee is not running until the configuration is fixed.") + "\n" +
		tr("Fix {{.Path}} and restart the kiosk, or run “kiosk doctor” for help.", "Path", s.path)
	if s.clocks {
		advice = tr("The clocks run: press your clock as usual. Nothing is recorded until this is fixed.") + "\n" + advice
	}
	return advice
}

// CreateRenderer builds the panel.
func (s *ConfigFaultScreen) CreateRenderer() fyne.WidgetRenderer {
	r := &faultRenderer{s: s, bg: canvas.NewRectangle(colCalm),
		heading:  &textBlock{col: colText, style: fyne.TextStyle{Bold: true}, align: fyne.TextAlignCenter},
		title:    &textBlock{col: colText, align: fyne.TextAlignCenter},
		problems: &textBlock{col: colText, align: fyne.TextAlignLeading},
		advice:   &textBlock{col: colToMove, align: fyne.TextAlignCenter}}
	return r
}

type faultRenderer struct {
	s                                *ConfigFaultScreen
	bg                               *canvas.Rectangle
	heading, title, problems, advice *textBlock
	objs                             []fyne.CanvasObject
}

func (r *faultRenderer) Destroy() {}

func (r *faultRenderer) MinSize() fyne.Size { return fyne.NewSize(320, 240) }

func (r *faultRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *faultRenderer) Refresh() {
	r.Layout(r.s.Size())
	canvas.Refresh(r.s)
}

// Layout stacks heading, title, problems and advice; each block shrinks its text until it fits its
// band, so nothing is cut off on a 800x480 screen and everything is large on a bigger one.
func (r *faultRenderer) Layout(sz fyne.Size) {
	r.objs = r.objs[:0]
	r.bg.Move(fyne.NewPos(0, 0))
	r.bg.Resize(sz)
	r.objs = append(r.objs, r.bg)
	pad := sz.Width * 0.04
	w := sz.Width - 2*pad
	h := sz.Height - 2*pad
	y := pad
	band := func(tb *textBlock, text string, frac, maxSize float32) {
		bh := h * frac
		r.objs = append(r.objs, tb.set(text, fyne.NewPos(pad, y), fyne.NewSize(w, bh), maxSize)...)
		y += bh
	}
	unit := sz.Height / 480 // text sizes are chosen for a 480-pixel-high screen and grow with it
	band(r.heading, r.s.Heading(), 0.16, 40*unit)
	band(r.title, r.s.err.Title(), 0.12, 24*unit)
	lines := r.s.Problems()
	for i, l := range lines {
		lines[i] = "• " + l
	}
	band(r.problems, strings.Join(lines, "\n"), 0.50, 24*unit)
	band(r.advice, r.s.Advice(), 0.22, 22*unit)
}
