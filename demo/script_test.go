package demo

import (
	"context"
	"errors"
	"testing"
	"time"

	"tengen/engine"
)

func toStones(b []engine.Color) []Stone {
	out := make([]Stone, len(b))
	for i, c := range b {
		switch c {
		case engine.Black:
			out[i] = Black
		case engine.White:
			out[i] = White
		}
	}
	return out
}

// TestDefaultScriptAgreesWithEngine replays the record against the rules engine: every move is
// legal, the penalty pass follows a ko capture whose immediate retake the engine refuses, the game
// stops after the passes, and the agreed count is the expected result. It also checks that the
// physical board matches the game whenever it stands still between moves.
func TestDefaultScriptAgreesWithEngine(t *testing.T) {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	rules, err := engine.Preset("aga")
	if err != nil {
		t.Fatal(err)
	}
	rules.Komi = s.Record.Komi
	g, err := engine.NewGame(s.Size, rules)
	if err != nil {
		t.Fatal(err)
	}
	boards := [][]Stone{toStones(g.Board())}
	for i, m := range s.Record.Moves {
		if i+1 == DefaultChoreography().IllegalKoAt {
			retake := engine.Move{Color: m.Color, Point: engine.Point{X: 4, Y: 4}}
			var ill *engine.IllegalMoveError
			if err := g.Check(retake); !errors.As(err, &ill) {
				t.Fatalf("move %d: the retake is not refused: %v", i+1, err)
			}
		}
		if _, err := g.Play(m.Engine()); err != nil {
			t.Fatalf("move %d: %v", i+1, err)
		}
		boards = append(boards, toStones(g.Board()))
	}
	if g.Phase() != engine.Stopped {
		t.Fatalf("after the record the game is %v, want stopped", g.Phase())
	}
	var dead []engine.Point
	for _, p := range DefaultChoreography().Dead {
		dead = append(dead, g.Chain(p)...)
	}
	sc, err := g.Score(dead)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Result != "B+3.5" {
		t.Errorf("result %s, want B+3.5", sc.Result)
	}
	// Every board that stands still for a second is a game position (the illegal retake shows the
	// position after move 20 again), except the forgotten capture.
	known := func(p []Stone) bool {
		for _, b := range boards {
			if equalStones(b, p) {
				return true
			}
		}
		return false
	}
	odd := 0
	for _, p := range s.StillPositions(time.Second) {
		if !known(p) {
			odd++
		}
	}
	if odd != 1 {
		t.Errorf("%d still boards are not game positions, want 1 (the forgotten capture)", odd)
	}
	// Presses: White starts the clock, then one per move, then both confirm the count.
	presses := 0
	for _, a := range s.Actions() {
		if a.Kind == PressButton {
			presses++
			if sc := s.SceneAt(a.At); sc.Hand != nil {
				t.Errorf("%s: pressed with a hand over the board", a.Note)
			}
		}
	}
	if want := 1 + len(s.Record.Moves) + 2; presses != want {
		t.Errorf("%d presses, want %d", presses, want)
	}
}

func TestScriptHandsAndTiming(t *testing.T) {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Duration(); d < time.Minute || d > 5*time.Minute {
		t.Errorf("demo lasts %v, want a few minutes", d)
	}
	hands, handFrames := 0, 0
	var prev *Hand
	for d := time.Duration(0); d < s.Duration(); d += 100 * time.Millisecond {
		h := s.SceneAt(d).Hand
		if h != nil {
			handFrames++
			if prev == nil {
				hands++
			}
			if h.Reach < 0 || h.Reach > 1 {
				t.Fatalf("reach %v at %v", h.Reach, d)
			}
		}
		prev = h
	}
	// One visit per stone placed, plus the forgotten capture and the illegal ko.
	if hands < 30 {
		t.Errorf("%d hand visits, want one before each move", hands)
	}
	end := s.SceneAt(s.Duration() + time.Hour)
	if end.Hand != nil || len(end.Stones) != 81 {
		t.Error("after the end the last board should stay, without a hand")
	}
}

func TestNewRejectsBadGames(t *testing.T) {
	for _, tc := range []struct{ name, sgf string }{
		{"not sgf", "hello"},
		{"setup stones", "(;SZ[9]AB[aa];W[bb])"},
		{"occupied", "(;SZ[9];B[aa];W[aa])"},
		{"suicide", "(;SZ[9];B[ab];W[bb];B[ba];W[aa])"},
		{"size", "(;SZ[1];B[aa])"},
	} {
		if _, err := New([]byte(tc.sgf), DefaultPace(), Choreography{}); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if _, err := New([]byte("(;SZ[9];B[ee];W[ff];B[gg])"), DefaultPace(), Choreography{IllegalKoAt: 3}); err == nil {
		t.Error("illegal ko after a move that captured nothing: no error")
	}
}

func TestCameraFramesAndActions(t *testing.T) {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cam, err := NewCamera(s, NewRenderer(1), 320, 240, 50, start)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var last uint64
	for i := 0; i < 3; i++ {
		img, at, seq, err := cam.NextFrame(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if seq <= last || img.Bounds().Dx() != 320 || at.Before(start) {
			t.Fatalf("frame %d: seq %d after %d, bounds %v", i, seq, last, img.Bounds())
		}
		last = seq
	}
	cancel()
	if _, _, err := cam.Next(ctx); !errors.Is(err, context.Canceled) {
		// A cancelled context may still return a frame that was already due; the next wait must not block.
		t.Logf("next after cancel: %v", err)
	}
	// Actions: the first (White starts the clock) comes 1.5 s in; a cancelled run stops early.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel2()
	n := 0
	err = s.RunActions(ctx2, time.Now(), func(Action) error { n++; return nil })
	if !errors.Is(err, context.DeadlineExceeded) || n != 0 {
		t.Errorf("RunActions: %v after %d actions", err, n)
	}
	boom := errors.New("boom")
	err = s.RunActions(context.Background(), time.Now().Add(-time.Hour), func(Action) error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("RunActions error: %v", err)
	}
	if _, err := NewCamera(s, NewRenderer(1), 320, 240, 0, start); err == nil {
		t.Error("fps 0: no error")
	}
}

// FuzzNew feeds arbitrary records to the script builder: it must return a script or an error, never
// panic.
func FuzzNew(f *testing.F) {
	f.Add(GameSGF())
	f.Add([]byte("(;SZ[9];B[aa];W[bb];B[];W[])"))
	f.Add([]byte("(;SZ[5];B[ab];W[bb];B[ba];W[aa])"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := New(data, DefaultPace(), DefaultChoreography())
		if err == nil && s.Duration() <= 0 {
			t.Fatal("script without length")
		}
	})
}

func TestUntil(t *testing.T) {
	s, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	cut := s.Until(3 * time.Second)
	if cut.Duration() != 3*time.Second {
		t.Errorf("duration %v", cut.Duration())
	}
	if n := len(cut.Actions()); n != 1 {
		t.Errorf("%d actions before 3 s, want White starting the clock", n)
	}
	// Mid-reach at the cut: afterwards the board stays, without the hand.
	mid := s.Actions()[1].At - 2*time.Second
	c2 := s.Until(mid)
	if h := c2.SceneAt(mid + time.Hour).Hand; h != nil {
		t.Error("the hand stays after the cut")
	}
	if !equalStones(c2.SceneAt(mid+time.Hour).Stones, s.SceneAt(mid).Stones) {
		t.Error("the board changed after the cut")
	}
	if s.Until(0).SceneAt(time.Second).Size != 9 {
		t.Error("an empty cut has no board")
	}
}
