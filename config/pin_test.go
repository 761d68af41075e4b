package config

import (
	"errors"
	"strings"
	"testing"
)

func TestHashPIN(t *testing.T) {
	h, err := HashPIN("2468")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "pbkdf2-sha256$") || strings.Contains(h, "2468") {
		t.Errorf("hash %q", h)
	}
	if !CheckPIN(h, "2468") {
		t.Error("the right PIN does not match")
	}
	for _, wrong := range []string{"2469", "24680", "", "abcd"} {
		if CheckPIN(h, wrong) {
			t.Errorf("wrong PIN %q matches", wrong)
		}
	}
	h2, _ := HashPIN("2468")
	if h2 == h {
		t.Error("two hashes of the same PIN are equal: the salt is not random")
	}
	// The hash goes into the config file and passes its check.
	if _, err := Parse([]byte("[director]\npin_hash = \""+h+"\"\n"), "k"); err != nil {
		t.Errorf("config with a fresh hash: %v", err)
	}
}

func TestHashPINRejectsBadPINs(t *testing.T) {
	for _, pin := range []string{"", "123", "1234567890123", "12a4", "１２３４"} {
		if _, err := HashPIN(pin); !errors.Is(err, ErrBadPIN) {
			t.Errorf("HashPIN(%q) = %v, want ErrBadPIN", pin, err)
		}
	}
}

func TestCheckPINMalformedHash(t *testing.T) {
	for _, h := range []string{"", "x", "pbkdf2-sha256$10$AAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAA",
		"pbkdf2-sha256$100000$!!$AAAAAAAAAAAAAAAAAAAAAA", "md5$1$2$3"} {
		if CheckPIN(h, "1234") {
			t.Errorf("malformed hash %q matched", h)
		}
	}
}

// BenchmarkCheckPIN measures one director PIN check (one PBKDF2 derivation at PINIterations).
func BenchmarkCheckPIN(b *testing.B) {
	h, err := HashPIN("2468")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if !CheckPIN(h, "2468") {
			b.Fatal("no match")
		}
	}
}
