package config

import (
	"strings"
)

// lineIndex maps dotted keys and table headers to the line that defines them.
type lineIndex map[string]int

// keyLines finds the line of every key and table header in a TOML document. It is a forgiving
// scanner for error messages only (the real parsing is done by the TOML decoder): it understands
// [table] headers, bare, quoted and dotted keys, and skips multi-line strings.
func keyLines(data []byte) lineIndex {
	idx := lineIndex{}
	prefix := ""
	inMulti := "" // the delimiter of an open multi-line string
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		s := strings.TrimSpace(line)
		if inMulti != "" {
			if strings.Count(s, inMulti)%2 == 1 {
				inMulti = ""
			}
			continue
		}
		if s == "" || s[0] == '#' {
			continue
		}
		if s[0] == '[' {
			h := strings.Trim(s, "[]")
			if j := strings.IndexByte(s, '#'); j >= 0 {
				h = strings.Trim(strings.TrimSpace(s[:j]), "[]")
			}
			prefix = joinKey(splitKey(h))
			if _, ok := idx[prefix]; !ok && prefix != "" {
				idx[prefix] = n
			}
			continue
		}
		eq := keyEnd(s)
		if eq < 0 {
			continue
		}
		parts := splitKey(s[:eq])
		if len(parts) == 0 {
			continue
		}
		full := joinKey(parts)
		if prefix != "" {
			full = prefix + "." + full
		}
		if _, ok := idx[full]; !ok {
			idx[full] = n
		}
		val := strings.TrimSpace(s[eq+1:])
		for _, d := range []string{`"""`, `'''`} {
			if strings.HasPrefix(val, d) && strings.Count(val, d)%2 == 1 {
				inMulti = d
			}
		}
	}
	return idx
}

// find returns the line of key, else of its nearest enclosing key or table, else 0.
func (idx lineIndex) find(key string) int {
	for key != "" {
		if n, ok := idx[key]; ok {
			return n
		}
		j := strings.LastIndexByte(key, '.')
		if j < 0 {
			return 0
		}
		key = key[:j]
	}
	return 0
}

// keyEnd returns the index of the '=' that ends the key part of s, ignoring '=' inside quotes.
func keyEnd(s string) int {
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '=':
			return i
		}
	}
	return -1
}

// splitKey splits a possibly dotted, possibly quoted TOML key into its parts.
func splitKey(s string) []string {
	var parts []string
	var cur strings.Builder
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else {
				cur.WriteByte(c)
			}
		case c == '"' || c == '\'':
			q = c
		case c == '.':
			parts = append(parts, strings.TrimSpace(cur.String()))
			cur.Reset()
		case c == ' ' || c == '\t':
		default:
			cur.WriteByte(c)
		}
	}
	parts = append(parts, strings.TrimSpace(cur.String()))
	return parts
}

// joinKey joins key parts the way toml.Key.String does for simple keys.
func joinKey(parts []string) string { return strings.Join(parts, ".") }
