package config

import "fmt"

// maxNesting bounds how deep arrays and inline tables may nest in a configuration file. The
// kiosk's own keys nest two deep at most ([alerts] events = [...]); the TOML decoder's memory
// and time grow much faster than the depth (100,000 nested inline tables, a 600 KB file, took
// gigabytes), so a deeper file is refused before it is decoded.
const maxNesting = 16

// maxBrackets bounds how many arrays, inline tables and table headers a configuration file
// opens: the kiosk's own file has about ten; ten thousand inline tables nested 14 deep (a 600 KB
// file) took the decoder 8 s and 320 MB.
const maxBrackets = 1000

// checkNesting scans TOML text for arrays and inline tables nested deeper than maxNesting, or
// more than maxBrackets of them, outside strings and comments, and returns the problem with its line. It does not check the
// syntax otherwise: the decoder does that.
func checkNesting(data []byte) *Problem {
	depth, line, opened := 0, 1, 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '\n':
			line++
		case '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			multi := i+2 < len(data) && data[i+1] == c && data[i+2] == c
			if multi {
				i += 2
			}
			i, line = skipString(data, i+1, c, multi, line)
		case '[', '{':
			if opened++; opened > maxBrackets {
				return &Problem{Line: line, Msg: fmt.Sprintf("more than %d arrays, inline tables or table headers: not a kiosk configuration", maxBrackets)}
			}
			if depth++; depth > maxNesting {
				return &Problem{Line: line, Msg: fmt.Sprintf("arrays or inline tables nested more than %d deep: not a kiosk configuration", maxNesting)}
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// skipString returns the index of the last byte of a string whose body starts at i (quote q,
// three of them when multi; backslash escapes only in "..." strings) and the line it ends on. An
// unterminated string runs to the end of its line (or of the data when multi): the decoder reports it.
func skipString(data []byte, i int, q byte, multi bool, line int) (int, int) {
	for ; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\\' && q == '"':
			if i+1 < len(data) && data[i+1] == '\n' {
				line++
			}
			i++
		case c == '\n':
			if !multi {
				return i - 1, line
			}
			line++
		case c == q && !multi:
			return i, line
		case c == q && i+2 < len(data) && data[i+1] == q && data[i+2] == q:
			return i + 2, line
		}
	}
	return len(data), line
}
