package sgf

import (
	"strings"
	"unicode/utf8"
)

// charset is a text encoding the reader converts to UTF-8.
type charset int

const (
	csUTF8    charset = iota // UTF-8, US-ASCII and any charset not known here (invalid bytes become U+FFFD)
	csLatin1                 // ISO-8859-1
	csWin1252                // Windows-1252 (latin1 with printable characters in 0x80..0x9F)
)

// lookupCharset maps a CA value to a known charset; unknown names read as UTF-8.
func lookupCharset(name string) charset {
	b := make([]byte, 0, len(name))
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b = append(b, c)
		}
	}
	n := string(b)
	switch n {
	case "iso88591", "latin1", "l1", "iso885911987", "isoir100", "cp819", "ibm819", "csisolatin1":
		return csLatin1
	case "windows1252", "cp1252", "win1252":
		return csWin1252
	}
	return csUTF8
}

// win1252 maps bytes 0x80..0x9F of Windows-1252 to Unicode (0 = undefined, read as in latin1).
var win1252 = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

// decode converts s from the charset to valid UTF-8. ASCII text is returned as is, without copying.
func (cs charset) decode(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	switch cs {
	case csLatin1, csWin1252:
		var b strings.Builder
		b.Grow(len(s) + len(s)/2)
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c < 0x80:
				b.WriteByte(c)
			case cs == csWin1252 && c < 0xA0 && win1252[c-0x80] != 0:
				b.WriteRune(win1252[c-0x80])
			default:
				b.WriteRune(rune(c))
			}
		}
		return b.String()
	default:
		if utf8.ValidString(s) {
			return s
		}
		return strings.ToValidUTF8(s, "\uFFFD")
	}
}

// escapeValue writes v as the inside of an SGF value: '\' and ']' are escaped.
func escapeValue(b []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '\\' || c == ']' {
			b = append(b, '\\')
		}
		b = append(b, c)
	}
	return b
}
