package publish

import (
	"errors"
	"testing"

	"tengen/hall/wire"
	"tengen/referee"
)

// FuzzParseRecord: any journal payload is read or refused with ErrBadRecord; what is read folds
// into a game and its event and state without panicking.
func FuzzParseRecord(f *testing.F) {
	f.Add([]byte(`{"seq":1,"k":"setup","at":"2026-01-01T10:00:00Z","setup":{"rules":"aga","size":9,"black":{"name":"A"},"white":{"name":"B"}}}`))
	f.Add([]byte(`{"seq":4,"k":"out","at":"2026-01-01T10:00:01Z","verdicts":[{"kind":10,"color":1,"message":"Illegal move"}],"moves":["B E5"]}`))
	f.Add([]byte(`{"seq":5,"k":"pin-locked","at":"2026-01-01T10:00:02Z","lockout":60000000000,"wrong":5}`))
	f.Add([]byte(`{"seq":0}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := parseRecord(b)
		if err != nil {
			if !errors.Is(err, ErrBadRecord) {
				t.Fatal(err)
			}
			return
		}
		var g game
		g.add(r)
		_ = g.event(r)
		_ = g.state("h", 1, []byte("(;SZ[9];B[ee])"))
	})
}

// TestSetupOf: an assignment put over the table's defaults.
func TestSetupOf(t *testing.T) {
	base := referee.Setup{Rules: "japanese", Size: 19, TimeControl: "60m+5x30s", Policy: referee.PolicyLoss, Event: "Club"}
	tests := []struct {
		name string
		a    wire.Assignment
		want func(referee.Setup) bool
	}{
		{"even game", wire.Assignment{Event: "Cup", Round: 2, Table: 7, Black: wire.Player{Name: "A", Rank: "1d"}, White: wire.Player{Name: "B", Rank: "2d"}, Komi: 6.5, TimeControl: "40m+15/300s", Size: 19},
			func(s referee.Setup) bool {
				return s.Black.Name == "A" && s.White.Rank == "2d" && *s.Komi == 6.5 && s.TimeControl == "40m+15/300s" && s.Round == "2" && s.Table == "7" && s.Event == "Cup" && s.Rules == "japanese" && s.Policy == referee.PolicyLoss
			}},
		{"handicap", wire.Assignment{Round: 1, Table: 3, Handicap: 4, Komi: 0.5},
			func(s referee.Setup) bool {
				return s.Handicap == 4 && *s.Komi == 0.5 && s.TimeControl == "60m+5x30s" && s.Event == "Club" && s.Size == 19
			}},
		{"one stone", wire.Assignment{Round: 1, Table: 3, Handicap: 1, Komi: 0.5},
			func(s referee.Setup) bool { return s.Handicap == 0 && *s.Komi == 0.5 }},
	}
	for _, tc := range tests {
		if got := SetupOf(tc.a, base); !tc.want(got) {
			t.Errorf("%s: %+v", tc.name, got)
		}
	}
}
