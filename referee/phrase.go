package referee

import (
	"strings"

	"tengen/engine"
)

// Phrase is one sentence of a verdict as a template and its values, so that a screen can say it in
// the players' language. Text is English with {{.Name}} fields and is the key a screen's
// translations are looked up by; Args fills the fields. Colour and rule values ("Black", "AGA rule
// 6") are English words a screen translates too; points, numbers and errors are said as they are.
type Phrase struct {
	Text string            `json:"text"`
	Args map[string]string `json:"args,omitempty"`
}

// phrase builds a Phrase from its text and field/value pairs ("Color", "Black", ...).
func phrase(text string, kv ...string) Phrase {
	p := Phrase{Text: text}
	if len(kv) > 1 {
		p.Args = make(map[string]string, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			p.Args[kv[i]] = kv[i+1]
		}
	}
	return p
}

// String is the phrase in English.
func (p Phrase) String() string { return engine.FillSentence(p.Text, p.Args) }

// illegalPhrase is the rules engine's sentence about an illegal move, as a full sentence.
func illegalPhrase(e *engine.IllegalMoveError) Phrase {
	text, args := e.Sentence()
	return Phrase{Text: text + ".", Args: args}
}

// sentences is ps in English, one after the other.
func sentences(ps []Phrase) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, " ")
}
