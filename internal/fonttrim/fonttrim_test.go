package fonttrim

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"fyne.io/fyne/v2/theme"
	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
)

// latinAndCyrillic keeps Basic Latin to Latin Extended-A, Cyrillic and the punctuation block.
func latinAndCyrillic(r rune) bool {
	return r < 0x180 || (r >= 0x400 && r < 0x500) || (r >= 0x2000 && r < 0x2070)
}

func parse(t *testing.T, b []byte) *font.Face {
	t.Helper()
	f, err := font.ParseTTF(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("parsing: %v", err)
	}
	return f
}

// shape returns the glyphs and advances of text in face, as the screens shape it.
func shape(face *font.Face, text string) []shaping.Glyph {
	rs := []rune(text)
	out := (&shaping.HarfbuzzShaper{}).Shape(shaping.Input{Text: rs, RunEnd: len(rs), Direction: di.DirectionLTR,
		Face: face, Size: fixed.I(20), Script: language.LookupScript(rs[0]), Language: language.NewLanguage("en")})
	return out.Glyphs
}

// The kept characters shape to the same glyphs with the same advances and offsets, and each of
// those glyphs has the same outline, in the regular and the bold font: what is drawn is unchanged.
func TestKeptTextDrawsTheSame(t *testing.T) {
	texts := []string{
		"Ko: White may not retake at once. fi fl ff ffi — “quoted” …",
		"Dobrý den, Čeněk Šťastný; Łódź, żółć, Gęś; Müller, Çağ, Øresund",
		"Бяла не може да вземе веднага. Ход 130 · Чёрные пасуют",
		"AVATAR Tj Wo Yo 0123456789 +-×÷ «»",
	}
	for _, res := range []interface {
		Name() string
		Content() []byte
	}{theme.DefaultTextFont(), theme.DefaultTextBoldFont()} {
		full := parse(t, res.Content())
		b, err := Trim(res.Content(), latinAndCyrillic)
		if err != nil {
			t.Fatalf("%s: %v", res.Name(), err)
		}
		trimmed := parse(t, b)
		if len(b) >= len(res.Content()) {
			t.Errorf("%s: trimmed to %d bytes from %d", res.Name(), len(b), len(res.Content()))
		}
		for _, text := range texts {
			want, got := shape(full, text), shape(trimmed, text)
			if len(want) != len(got) {
				t.Fatalf("%s: %q shapes to %d glyphs, want %d", res.Name(), text, len(got), len(want))
			}
			for i := range want {
				w, g := want[i], got[i]
				if w.GlyphID != g.GlyphID || w.XAdvance != g.XAdvance || w.XOffset != g.XOffset || w.YOffset != g.YOffset {
					t.Errorf("%s: %q glyph %d: got %+v, want %+v", res.Name(), text, i, g, w)
					continue
				}
				if g.GlyphID == 0 {
					t.Errorf("%s: %q glyph %d is missing from the font", res.Name(), text, i)
				}
				if !reflect.DeepEqual(full.GlyphData(w.GlyphID), trimmed.GlyphData(g.GlyphID)) {
					t.Errorf("%s: %q glyph %d (%d): outline differs", res.Name(), text, i, g.GlyphID)
				}
			}
		}
	}
}

// A character left out is no longer in the character map, so it is drawn as a missing character,
// and its glyph's outline is gone.
func TestLeftOutCharacters(t *testing.T) {
	full := theme.DefaultTextFont().Content()
	b, err := Trim(full, latinAndCyrillic)
	if err != nil {
		t.Fatal(err)
	}
	f, trimmed := parse(t, full), parse(t, b)
	for _, r := range []rune{'α', 'Ω', 'π', 'ễ'} {
		g, ok := f.Cmap.Lookup(r)
		if !ok {
			t.Fatalf("%q: not in the full font", r)
		}
		if _, ok := trimmed.Cmap.Lookup(r); ok {
			t.Errorf("%q: still mapped in the trimmed font", r)
		}
		if o, ok := trimmed.GlyphData(g).(font.GlyphOutline); ok && len(o.Segments) > 0 {
			t.Errorf("%q: glyph %d keeps its outline", r, g)
		}
	}
	for _, r := range []rune{'a', 'ł', 'Ж', '—'} {
		if _, ok := trimmed.Cmap.Lookup(r); !ok {
			t.Errorf("%q: not mapped in the trimmed font", r)
		}
	}
}

// Keeping every character changes no glyph: trimming only drops what is unreachable.
func TestKeepEverything(t *testing.T) {
	full := theme.DefaultTextBoldFont().Content()
	b, err := Trim(full, func(rune) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	f, trimmed := parse(t, full), parse(t, b)
	for r := rune(0x20); r < 0x2400; r++ {
		g1, ok1 := f.Cmap.Lookup(r)
		g2, ok2 := trimmed.Cmap.Lookup(r)
		if ok1 != ok2 || g1 != g2 {
			t.Fatalf("%U: maps to %d,%v, want %d,%v", r, g2, ok2, g1, ok1)
		}
		if ok1 && !reflect.DeepEqual(f.GlyphData(g1), trimmed.GlyphData(g2)) {
			t.Fatalf("%U: outline differs", r)
		}
	}
}

func TestRefusesOtherData(t *testing.T) {
	full := theme.DefaultTextFont().Content()
	cut := append([]byte(nil), full[:200]...)
	for _, tc := range []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, ErrNotTrueType},
		{"text", []byte("this is not a font at all"), ErrNotTrueType},
		{"CFF font", append([]byte("OTTO"), full[4:]...), ErrNotTrueType},
		{"collection", append([]byte("ttcf"), full[4:]...), ErrNotTrueType},
		{"cut short", cut, nil},
	} {
		_, err := Trim(tc.data, latinAndCyrillic)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if tc.want != nil && !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

// FuzzTrim feeds Trim damaged fonts: it returns a font or an error, never panics, and what it
// returns parses.
func FuzzTrim(f *testing.F) {
	full := theme.DefaultTextFont().Content()
	f.Add(full)
	f.Add(full[:len(full)/2])
	f.Add(full[:300])
	f.Add([]byte{0, 1, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Trim(data, latinAndCyrillic)
		if err != nil {
			return
		}
		if _, err := font.ParseTTF(bytes.NewReader(out)); err != nil {
			t.Fatalf("the trimmed font does not parse: %v", err)
		}
	})
}
