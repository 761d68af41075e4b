package link

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestBrokerURL(t *testing.T) {
	tests := []struct {
		in, scheme, host string
		ok               bool
	}{
		{"mqtt://hall.lan", "mqtt", "hall.lan:1883", true},
		{"mqtt://10.0.0.2:18830", "mqtt", "10.0.0.2:18830", true},
		{"tcp://h:1", "mqtt", "h:1", true},
		{"mqtts://hall.lan", "tls", "hall.lan:8883", true},
		{"http://hall.lan", "", "", false},
		{"hall.lan:1883", "", "", false},
		{"::", "", "", false},
	}
	for _, tc := range tests {
		u, err := brokerURL(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("%q: err %v", tc.in, err)
			continue
		}
		if err == nil && (u.Scheme != tc.scheme || u.Host != tc.host) {
			t.Errorf("%q: %s://%s", tc.in, u.Scheme, u.Host)
		}
	}
}

// TestRefusalInWords: each refusal a broker gives says why, and wraps ErrRefused.
func TestRefusalInWords(t *testing.T) {
	for code, want := range map[byte]string{0x86: "bad user name or password", 0x87: "wrong user name or password", 0x84: "MQTT v5", 0x8A: "banned", 0x99: "0x99"} {
		err := error(&RefusedError{URL: "mqtt://h", User: "table-3", Code: code})
		if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `"table-3"`) {
			t.Errorf("0x%02x: %v", code, err)
		}
	}
}

// TestCheckUnreachable: no broker is said as such, not as a refusal.
func TestCheckUnreachable(t *testing.T) {
	err := Check(context.Background(), Options{URL: "mqtt://127.0.0.1:1", User: "u", Password: "p"})
	if err == nil || errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "cannot be reached") {
		t.Fatalf("Check with no broker: %v", err)
	}
}
