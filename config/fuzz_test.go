package config

import (
	"bytes"
	"crypto/pbkdf2"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the parser: it must never panic, and it must either return a
// configuration that passes its own checks or an *Error with at least one problem or a cause.
func FuzzParse(f *testing.F) {
	if b, err := os.ReadFile("kiosk.toml"); err == nil {
		f.Add(b)
	}
	for _, s := range []string{"", "table = 1", "[pins]\nblack = \"GPIO5\"\nblak = 1", "[game]\nkomi = 6.5",
		"a = \"\"\"\nx = 1\n\"\"\"", "[[paths]]\nx=1", "pins.debounce = 5", "x = {y = 1}", "[display]\nwidth = 1e9"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data, "fuzz.toml")
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a *config.Error", err)
			}
			if len(ce.Problems) == 0 && ce.Err == nil {
				t.Fatalf("empty *config.Error")
			}
			_ = ce.Error()
			return
		}
		if ps := c.check(); len(ps) > 0 {
			t.Fatalf("accepted a configuration with problems: %v", ps)
		}
	})
}

// FuzzParsePin: a pin name read is GPIO0..GPIO27 in one spelling only.
func FuzzParsePin(f *testing.F) {
	for _, s := range []string{"GPIO17", "gpio4", "GPIO07", "GPIO28", "GPIO", "GPIO-1", "17", "GPIO+1", "GPIO٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		n, err := ParsePin(name)
		if err != nil {
			return
		}
		if n < 0 || n > MaxBCMPin {
			t.Fatalf("ParsePin(%q) = %d, out of range", name, n)
		}
		if want := fmt.Sprintf("GPIO%d", n); !strings.EqualFold(name, want) {
			t.Fatalf("ParsePin(%q) = %d: it is not %s", name, n, want)
		}
	})
}

// FuzzCheckPIN: a stored hash of any text never panics the check and never matches unless it is
// a well-formed hash; a well-formed one (with few iterations, to keep the fuzzer fast) matches
// the PIN it was derived from and no other.
func FuzzCheckPIN(f *testing.F) {
	f.Add("pbkdf2-sha256$1000$c2FsdHNhbHQ$AAAAAAAAAAAAAAAAAAAAAA", "1234")
	f.Add("pbkdf2-sha256$99999999$c2FsdHNhbHQ$AAAAAAAAAAAAAAAAAAAAAA", "0000")
	f.Add("", "")
	f.Add("pbkdf2-sha256$$$", "12345678901234")
	f.Fuzz(func(t *testing.T, hash, pin string) {
		h, err := parseHash(hash)
		if err != nil {
			if CheckPIN(hash, pin) {
				t.Fatalf("a malformed hash %q matched %q", hash, pin)
			}
			return
		}
		if h.iter > 2000 {
			return // a real derivation: correct, but too slow for a fuzzer
		}
		ok := CheckPIN(hash, pin)
		if ok && !validPIN(pin) {
			t.Fatalf("an invalid PIN %q matched", pin)
		}
		key, err := pbkdf2.Key(sha256.New, pin, h.salt, h.iter, len(h.key))
		if validPIN(pin) && err == nil && ok != bytes.Equal(key, h.key) {
			t.Fatalf("CheckPIN(%q, %q) = %v, the key says otherwise", hash, pin, ok)
		}
	})
}
