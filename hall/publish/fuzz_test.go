package publish

import (
	"errors"
	"testing"
)

// FuzzParseRecord: any journal payload is read or refused with ErrBadRecord; what is read folds
// into a game and its event and state without panicking.
func FuzzParseRecord(f *testing.F) {
	f.Add([]byte(`{"seq":1,"k":"setup","at":"2026-01-01T10:00:00Z","setup":{"rules":"aga","size":9,"black":{"name":"A"},"white":{"name":"B"}}}`))
	f.Add([]byte(`{"seq":4,"k":"out","at":"2026-01-01T10:00:01Z","verdicts":[{"kind":10,"color":1,"message":"Illegal move"}],"moves":["B E5"]}`))
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
