package ui

import (
	"fmt"
	"image"
	"math"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"tengen/engine"
)

// pointRect returns the image rectangle around intersection p of board b (half a spacing each way).
func pointRect(img image.Image, sz fyne.Size, b *Board, p engine.Point, frac float32) image.Rectangle {
	x0, y0, step := b.Geometry()
	c := b.Position().AddXY(x0+float32(p.X)*step, y0+float32(p.Y)*step)
	d := step * frac
	return image.Rectangle{Min: scale(img, sz, c.SubtractXY(d, d)), Max: scale(img, sz, c.AddXY(d, d))}
}

// tapPoint taps intersection p of board b.
func tapPoint(b *Board, p engine.Point) {
	x0, y0, step := b.Geometry()
	test.TapAt(b, fyne.NewPos(x0+float32(p.X)*step+2, y0+float32(p.Y)*step-3))
}

func TestCountScreen(t *testing.T) {
	newTestApp(t)
	for _, sz := range allDisplays {
		t.Run(fmt.Sprintf("%vx%v", sz.Width, sz.Height), func(t *testing.T) {
			var toggled []engine.Point
			var agreed []engine.Color
			cs := NewCountScreen(CountHandlers{
				ToggleDead: func(p engine.Point) { toggled = append(toggled, p) },
				Agree:      func(c engine.Color) { agreed = append(agreed, c) },
			})
			v := demoCount(t)
			cs.SetView(v)
			img := capture(t, fmt.Sprintf("count-%vx%v", sz.Width, sz.Height), cs.Content(), sz)
			// The dead white stone on C7 is crossed in red.
			if n := countNear(img, pointRect(img, sz, cs.Board, engine.Point{X: 2, Y: 2}, 0.4), colIllegal, 40); n < 10 {
				t.Errorf("C7: %d red pixels, want a cross", n)
			}
			// Black territory on A9 is shaded black (a small square on the wood).
			if n := countNear(img, pointRect(img, sz, cs.Board, engine.Point{X: 0, Y: 0}, 0.15), colBlack, 40); n < 10 {
				t.Errorf("A9: %d dark pixels, want black territory", n)
			}
			// White territory on J1 is shaded white.
			if n := countNear(img, pointRect(img, sz, cs.Board, engine.Point{X: 8, Y: 8}, 0.15), colWhite, 30); n < 10 {
				t.Errorf("J1: %d white pixels, want white territory", n)
			}
			// Until both agree the figure is provisional.
			if got, want := cs.result.Text, "Provisional: Black wins by 3.5 points"; got != want {
				t.Errorf("result %q, want %q", got, want)
			}
			if !strings.Contains(cs.steps.Text, "Black agrees. Waiting for White") {
				t.Errorf("instructions %q", cs.steps.Text)
			}
			if !cs.agreeB.Disabled() || cs.agreeW.Disabled() {
				t.Error("black has agreed: only white's button should be active")
			}
			// A tap on the dead group asks to toggle it; a tap on an empty point does nothing.
			tapPoint(cs.Board, engine.Point{X: 2, Y: 2})
			tapPoint(cs.Board, engine.Point{X: 0, Y: 0})
			if len(toggled) != 1 || toggled[0] != (engine.Point{X: 2, Y: 2}) {
				t.Errorf("toggled %v, want [C7]", toggled)
			}
			test.Tap(cs.agreeB) // disabled: nothing
			test.Tap(cs.agreeW)
			if len(agreed) != 1 || agreed[0] != engine.White {
				t.Errorf("agreed %v", agreed)
			}
		})
	}
}

func TestCountScreenEnded(t *testing.T) {
	newTestApp(t)
	menu := 0
	cs := NewCountScreen(CountHandlers{Menu: func() { menu++ }})
	v := demoCount(t)
	v.Ended, v.WhiteAgreed = true, true
	cs.SetView(v)
	capture(t, "count-ended-800x480", cs.Content(), displays[0])
	if cs.agreeB.Visible() || cs.resumeW.Visible() {
		t.Error("agree and resume buttons after the result")
	}
	if cs.title.Text != "Game over · AGA" {
		t.Errorf("title %q", cs.title.Text)
	}
	if cs.result.Text != "Black wins by 3.5 points" || cs.result.col != colToMove {
		t.Errorf("final result %q in %v", cs.result.Text, cs.result.col)
	}
	test.Tap(cs.menu)
	if menu != 1 {
		t.Error("the menu button does nothing")
	}
}

// The count adds up under each scoring: the rows counted sum to the total (komi included), and the
// rows not counted are set apart; area scoring counts stones and territory, territory scoring
// territory, prisoners and dead stones.
func TestCountAddsUp(t *testing.T) {
	newTestApp(t)
	for _, rules := range []string{"aga", "japanese", "aga-territory", "chinese"} {
		t.Run(rules, func(t *testing.T) {
			v := countFor(t, rules)
			rows := breakdown(v)
			sums := [2]float64{}
			var total [2]float64
			var labels []string
			counting := true
			for _, r := range rows[1:] {
				switch r.kind {
				case rowCounted:
					if !counting {
						t.Errorf("counted row %q after the total", r.label)
					}
					labels = append(labels, r.label)
					for i, s := range []string{r.b, r.w} {
						x, err := strconv.ParseFloat(s, 64)
						if err != nil {
							t.Fatalf("row %q: %v", r.label, err)
						}
						sums[i] += x
					}
				case rowTotal:
					counting = false
					for i, s := range []string{r.b, r.w} {
						total[i], _ = strconv.ParseFloat(s, 64)
					}
				}
			}
			if math.Abs(sums[0]-total[0]) > 1e-9 || math.Abs(sums[1]-total[1]) > 1e-9 {
				t.Errorf("rows %v add up to %v, totals %v", labels, sums, total)
			}
			if total[0] != v.Score.Black.Total || total[1] != v.Score.White.Total {
				t.Errorf("totals %v, the count's %v %v", total, v.Score.Black.Total, v.Score.White.Total)
			}
			want := map[bool]string{true: "Stones on the board,Territory,Komi", false: "Territory,Prisoners,Dead stones,Komi"}[v.Area]
			if v.PassStonesCount {
				want = "Territory,Prisoners,Dead stones,Pass stones,Komi"
			}
			if got := strings.Join(labels, ","); got != want {
				t.Errorf("counted rows %s, want %s", got, want)
			}
		})
	}
}

// countFor is the demo game's count under rules, C7 dead.
func countFor(t *testing.T, rules string) CountView {
	t.Helper()
	v := demoCount(t)
	r, err := engine.Preset(rules)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(9, r)
	if err != nil {
		t.Fatal(err)
	}
	var black, white []engine.Point
	for i, c := range v.Board.Stones {
		switch c {
		case engine.Black:
			black = append(black, engine.Point{X: i % 9, Y: i / 9})
		case engine.White:
			white = append(white, engine.Point{X: i % 9, Y: i / 9})
		}
	}
	if err := g.Setup(black, white, engine.Black); err != nil {
		t.Fatal(err)
	}
	sc, err := g.Score(v.Score.Dead)
	if err != nil {
		t.Fatal(err)
	}
	sc.Black.Prisoners, sc.White.Prisoners = 2, 1
	sc.Black.PassStones, sc.White.PassStones = 1, 0
	if r.Scoring == engine.TerritoryScoring {
		sc.Black.Total += 2
		sc.White.Total++
		if r.PassStones {
			sc.Black.Total++
		}
	}
	v.Score, v.Area, v.PassStonesCount = sc, r.Scoring == engine.AreaScoring, r.Scoring == engine.TerritoryScoring && r.PassStones
	return v
}
