package config

import (
	"errors"
	"os"
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
