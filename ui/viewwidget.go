package ui

import "fyne.io/fyne/v2/widget"

// viewWidget is what the widgets drawn from one comparable view value (Banner, ClockFace) share:
// the Fyne base widget, the view, and SetView that redraws only when the view changed. The widget
// embedding it must call ExtendBaseWidget with itself so Refresh reaches its renderer.
type viewWidget[V comparable] struct {
	widget.BaseWidget
	view V
}

// SetView shows v; an unchanged view costs nothing.
func (w *viewWidget[V]) SetView(v V) {
	if w.view == v {
		return
	}
	w.view = v
	w.Refresh()
}

// View returns what the widget shows.
func (w *viewWidget[V]) View() V { return w.view }
