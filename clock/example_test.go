package clock_test

import (
	"fmt"
	"time"

	"tengen/clock"
)

func ExampleParseControl() {
	for _, s := range []string{"90m", "1h+5x30s", "60m+25/5m", "30m+20s<=40m", "60m+5x"} {
		c, err := clock.ParseControl(s)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: %v %s\n", s, c.Kind, c)
	}
	// Output:
	// 90m: absolute 90m
	// 1h+5x30s: byo-yomi 60m+5x30s
	// 60m+25/5m: canadian 60m+25/5m
	// 30m+20s<=40m: fischer 30m+20s<=40m
	// time control "60m+5x": at offset 6: expected a duration such as 30s, 5m or 1h30m, found end of input
}

func ExampleClock() {
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	mt := clock.NewManualTime(start)
	c, _ := clock.New(clock.MustParseControl("1m+3x10s"), mt)
	// White presses White's clock: Black's clock starts.
	d, _ := c.Handle(clock.NewPress(clock.WhiteClock, mt.Now()))
	fmt.Println(d.Action, d.Side)
	mt.Advance(65 * time.Second)
	fmt.Println(c.Display(clock.Black).Text)
	d, _ = c.Handle(clock.NewPress(clock.BlackClock, mt.Now()))
	fmt.Println(d.Action, d.Side, c.Display(clock.Black).Text)
	d, _ = c.Handle(clock.NewPress(clock.BlackClock, mt.Now()))
	fmt.Println(d)
	// Output:
	// start black
	// BY 3×5.0
	// move black BY 3×0:10
	// black-clock at 10:01:05.000: ignored: not this player's turn
}
