// Package errtext turns an error into words for a person: the Go package prefixes our packages
// put on their errors ("referee: ", "config: ", "vision: ") are left out, wherever they stand in
// the chain of wrapped messages. The error itself is not changed: callers keep it, wrapped with
// %w, for errors.Is and errors.As, and only the text they print goes through Text.
package errtext

import "strings"

// prefixes are the names of this module's packages (and the few other words its errors start
// with in the package's place), each as it heads an error message. The test checks that every
// package of the module is here.
var prefixes = []string{
	"benchcpu", "brokerconf", "calib", "capture", "clock", "config", "cutframe", "dashboard", "demo", "doctor",
	"engine", "errtext", "evalset", "fonttrim", "framepipe", "gomem", "gotha", "gpio", "gpiocdev", "gtp", "halltest", "homography",
	"hoshi", "imagefile", "infer", "journal", "link", "locale", "localeenv", "mtrim", "observe",
	"publish", "readertrain", "record", "referee", "rendertest", "replay", "saidscan", "sdnotify", "sfnt", "sgf",
	"shapefont", "shareddata", "station", "stonenet", "systemd", "testenv", "ui", "vision", "wire",
	"xwd",
}

// isPrefix reports whether word is one of prefixes.
func isPrefix(word string) bool {
	for _, p := range prefixes {
		if p == word {
			return true
		}
	}
	return false
}

// Text is err's message without the package prefixes: at the start and after each ": " that
// joins a wrapped message, a package name followed by ": " is left out. A nil error is "".
func Text(err error) string {
	if err == nil {
		return ""
	}
	return Strip(err.Error())
}

// Strip leaves the package prefixes out of an error message (see Text).
func Strip(msg string) string {
	parts := strings.Split(msg, ": ")
	out := parts[:0]
	for i, p := range parts {
		// A package name heads the part that follows it; the last part is never a prefix.
		if i < len(parts)-1 && isPrefix(p) {
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, ": ")
}
