package clock

import (
	"strings"
	"testing"
)

// FuzzParseSide: a name read as a side is that side's name (or its initial, or empty), whatever
// its case; anything else is an error.
func FuzzParseSide(f *testing.F) {
	for _, s := range []string{"black", "B", "White", "w", "none", "", "blac", "\u0130"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		s, err := ParseSide(name)
		if err != nil {
			return
		}
		l := strings.ToLower(name)
		if l != s.String() && l != s.String()[:1] && !(s == NoSide && l == "") {
			t.Fatalf("ParseSide(%q) = %v", name, s)
		}
	})
}

// FuzzParseButton: a name read as a button names it ("black" for "black-clock" too); anything else
// is an error.
func FuzzParseButton(f *testing.F) {
	for _, s := range []string{"black-clock", "BLACK", "white", "pass", "Director", "", "pas", "black-clockk"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		b, err := ParseButton(name)
		if err != nil {
			return
		}
		l := strings.ToLower(name)
		if l != b.String() && l+"-clock" != b.String() {
			t.Fatalf("ParseButton(%q) = %v", name, b)
		}
		if again, err := ParseButton(b.String()); err != nil || again != b {
			t.Fatalf("%v's name %q reads back as %v, %v", b, b.String(), again, err)
		}
	})
}
