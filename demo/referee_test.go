package demo_test

import (
	"log/slog"
	"testing"
	"time"

	"tengen/clock"
	"tengen/demo"
	"tengen/referee"
	"tengen/vision/observe"
)

// demoSetup is the referee set-up of the demo game (cmd/kiosk builds the same from the record).
func demoSetup(s *demo.Script) referee.Setup {
	komi := s.Record.Komi
	return referee.Setup{Rules: "aga", Komi: &komi, Size: s.Size, TimeControl: "10m+3x30s",
		Black: referee.Player{Name: s.Record.BlackName, Rank: s.Record.BlackRank},
		White: referee.Player{Name: s.Record.WhiteName, Rank: s.Record.WhiteRank},
		Event: s.Record.Event, Round: s.Record.Round, Table: "1", Policy: referee.PolicyRetractPass}
}

// fakeSight reads a scene as an ideal camera would: every stone as it lies, and the points under and
// behind the hand (toward the player's edge) obscured.
func fakeSight(sc demo.Scene, seq uint64, at time.Time) observe.Observation {
	o := observe.New(sc.Size)
	for i, s := range sc.Stones {
		o.Stones[i] = observe.Stone(s) // demo.Stone and observe.Stone share Empty, Black, White
	}
	if h := sc.Hand; h != nil && h.Reach > 0.25 {
		for y := 0; y < sc.Size; y++ {
			for x := 0; x < sc.Size; x++ {
				dx := float64(x) - h.Col
				behind := float64(y) >= h.Row-1
				if h.Player == demo.White {
					behind = float64(y) <= h.Row+1
				}
				if dx > -2 && dx < 3 && behind {
					o.Stones[y*sc.Size+x] = observe.Obscured
				}
			}
		}
	}
	o.Seq, o.Time = seq, at
	return o
}

// TestDemoRefereed plays the whole demo through the real referee with an ideal camera: every move is
// recorded, the forgotten capture and the illegal ko retake are flagged, and the count ends the game
// with the record's result.
func TestDemoRefereed(t *testing.T) {
	s, err := demo.Default()
	if err != nil {
		t.Fatal(err)
	}
	runRefereed(t, s, 100*time.Millisecond, fakeSight)
}

// runRefereed drives a referee through the script in simulated time, one observation per step.
func runRefereed(t *testing.T, s *demo.Script, step time.Duration, sight func(demo.Scene, uint64, time.Time) observe.Observation) {
	t.Helper()
	t0 := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	tm := clock.NewManualTime(t0)
	tab, err := referee.Open(referee.Options{JournalDir: t.TempDir(), Time: tm, NoSync: true,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	if err := tab.Setup(demoSetup(s), t0); err != nil {
		t.Fatal(err)
	}
	seen := map[referee.VerdictKind]int{}
	var illegalMsg string
	actions := s.Actions()
	ai := 0
	var seq, lastSeq uint64
	for d := time.Duration(0); d <= s.Duration()+2*time.Second; d += step {
		now := t0.Add(d)
		tm.Set(now)
		seq++
		sc := s.SceneAt(d)
		sc.Frame = seq
		tab.Observe(sight(sc, seq, now))
		for ai < len(actions) && actions[ai].At <= d {
			a := actions[ai]
			ai++
			var err error
			switch a.Kind {
			case demo.PressButton:
				b := a.Button
				err = tab.Press(clock.Press{Button: b, At: now})
			case demo.ToggleDead:
				err = tab.ToggleDead(a.Point, now)
			}
			if err != nil {
				t.Fatalf("%s: %v", a.Note, err)
			}
		}
		tab.Tick(now)
		st := tab.State()
		if st.Seq != lastSeq {
			lastSeq = st.Seq
			if k := st.Banner.Kind; k != referee.VerdictNone {
				seen[k]++
				if k == referee.VerdictIllegal {
					illegalMsg = st.Banner.Message
				}
				if k == referee.VerdictBoardDiffers || k == referee.VerdictNotSeen || k == referee.VerdictNoChange {
					t.Logf("%v: %s", d, st.Banner.Message)
				}
			}
		}
	}
	st := tab.State()
	if st.Phase != referee.PhaseEnded {
		t.Fatalf("the demo ends in phase %v (banner %q)", st.Phase, st.Banner.Message)
	}
	if st.Result != "B+3.5" {
		t.Errorf("result %q, want B+3.5", st.Result)
	}
	if got, want := len(tab.Moves()), len(s.Record.Moves); got != want {
		t.Errorf("%d moves recorded, want %d", got, want)
	}
	for i, m := range tab.Moves() {
		if i < len(s.Record.Moves) && m.Move != s.Record.Moves[i].Engine() {
			t.Errorf("move %d recorded as %v, want %v", i+1, m.Move, s.Record.Moves[i].Engine())
		}
	}
	for _, k := range []referee.VerdictKind{referee.VerdictRemoveCaptures, referee.VerdictIllegal, referee.VerdictPass,
		referee.VerdictStopped, referee.VerdictResult} {
		if seen[k] == 0 {
			t.Errorf("verdict %v never shown (seen %v)", k, seen)
		}
	}
	for _, k := range []referee.VerdictKind{referee.VerdictNotSeen, referee.VerdictNoChange, referee.VerdictNotYourTurn} {
		if seen[k] > 0 {
			t.Errorf("verdict %v shown %d times: the choreography confuses the referee", k, seen[k])
		}
	}
	if illegalMsg == "" {
		t.Error("no rule sentence for the illegal retake")
	}
}
