package clock

import (
	"testing"
	"time"
)

func TestSmoke(t *testing.T) {
	mt := NewManualTime(time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC))
	c, err := New(MustParseControl("1m+5x30s"), mt)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(time.Time{}); err != nil {
		t.Fatal(err)
	}
	mt.Advance(70 * time.Second)
	if got := c.Display(Black).Text; got != "BY 5×0:20" {
		t.Fatalf("display %q", got)
	}
}
