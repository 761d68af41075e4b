package publish

import (
	"testing"
	"time"

	"tengen/hall/wire"
)

// TestPINLockIsAnAlert: the journal's record of a director PIN lock becomes one alert of the
// table's state (with the lock's time, how long and after how many wrong PINs), and its event
// goes to the hall like any record; the refused PINs' own records make none.
func TestPINLockIsAnAlert(t *testing.T) {
	at := time.Date(2026, 11, 25, 14, 32, 5, 0, time.UTC)
	payloads := []string{
		`{"seq":1,"k":"setup","at":"2026-11-25T14:00:00Z","setup":{"rules":"aga","size":9,"black":{"name":"Ann"},"white":{"name":"Bo"}}}`,
		`{"seq":2,"k":"denied","at":"2026-11-25T14:32:01Z","director":{"kind":"pause"}}`,
		`{"seq":3,"k":"pin-locked","at":"2026-11-25T14:32:05Z","lockout":60000000000,"wrong":5}`,
		`{"seq":4,"k":"denied","at":"2026-11-25T14:32:05Z","director":{"kind":"pause"}}`,
	}
	var g game
	var events []wire.Event
	for _, p := range payloads {
		r, err := parseRecord([]byte(p))
		if err != nil {
			t.Fatal(err)
		}
		g.add(r)
		events = append(events, g.event(r))
	}
	s := g.state("h", 3, nil)
	if len(s.Alerts) != 1 {
		t.Fatalf("alerts %+v, want the lock's only", s.Alerts)
	}
	a := s.Alerts[0]
	if a.Kind != wire.KindPINLocked || !a.Alert() || !a.At.Equal(at) || a.Message != "Director PIN locked for 1 min after 5 wrong PINs" {
		t.Errorf("alert %+v", a)
	}
	if e := events[2]; e.Kind != "pin-locked" || e.Seq != 3 || !e.At.Equal(at) {
		t.Errorf("the lock's event %+v", e)
	}
}

// TestPINLockedMessage: the alert's words for each lock.
func TestPINLockedMessage(t *testing.T) {
	tests := []struct {
		wrong   int
		lockout time.Duration
		want    string
	}{
		{5, time.Minute, "Director PIN locked for 1 min after 5 wrong PINs"},
		{6, 2 * time.Minute, "Director PIN locked for 2 min after 6 wrong PINs"},
		{12, time.Hour, "Director PIN locked for 60 min after 12 wrong PINs"},
		{1, 90 * time.Second, "Director PIN locked for 2 min after 1 wrong PIN"},
		{5, 30 * time.Second, "Director PIN locked for 30 s after 5 wrong PINs"},
		{0, 0, "Director PIN locked"},
	}
	for _, tc := range tests {
		if got := pinLockedMessage(tc.wrong, tc.lockout); got != tc.want {
			t.Errorf("pinLockedMessage(%d, %v) = %q, want %q", tc.wrong, tc.lockout, got, tc.want)
		}
	}
}
