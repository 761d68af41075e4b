package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestViewWidgetSetViewRedraws checks SetView on a widget built on viewWidget reaches the widget's
// own renderer: a banner set from nothing to an illegal move draws its panel, and back to nothing
// draws nothing.
func TestViewWidgetSetViewRedraws(t *testing.T) {
	test.NewTempApp(t)
	b := NewBanner(BannerView{})
	b.Resize(b.MinSize().AddWidthHeight(200, 40))
	r := test.WidgetRenderer(b)
	if n := len(r.Objects()); n != 0 {
		t.Fatalf("empty banner draws %d objects", n)
	}
	v := BannerView{Kind: BannerIllegal, Title: "Illegal move", Text: "suicide"}
	b.SetView(v)
	if b.View() != v {
		t.Fatalf("View() = %+v, want %+v", b.View(), v)
	}
	if len(r.Objects()) == 0 {
		t.Fatal("SetView did not redraw the banner")
	}
	b.SetView(BannerView{})
	if n := len(r.Objects()); n != 0 {
		t.Fatalf("banner set back to empty still draws %d objects", n)
	}
}
