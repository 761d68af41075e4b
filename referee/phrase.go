package referee

import (
	"errors"
	"strings"

	"tengen/engine"
)

// Phrase is one sentence of a verdict as a template and its values, so that a screen can say it in
// the players' language. Text is English with {{.Name}} fields and is the key a screen's
// translations are looked up by; Args fills the fields. The values of word fields (WordField: a
// colour "Black", a press "the pass", a rule "AGA rule 6") are English words a screen translates
// too, each one written word("...") or cited by the rules engine; points, numbers, results,
// errors and notes are said as they are. Every template is a literal phrase("...") so that the
// translations' test finds it.
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

// word marks s as an English word that a screen translates when it is the value of a word field
// (see WordField): a player's colour ("Black"), a stone's colour ("black"), a press ("the pass"), a
// reason. It returns s; the translations' test collects every word(...) of the referee's sources.
func word(s string) string { return s }

// WordField reports whether the values of phrase field name are words a screen translates (each
// item of a ", "-separated list on its own): the players' colours, the stones' colours, presses,
// reasons and the articles cited. Points, numbers, times, results, errors and notes are said as
// they are.
func WordField(name string) bool {
	switch name {
	case "Color", "Opponent", "ToMove", "Rule", "Stone", "Want", "Seen", "Press", "Presses", "Why":
		return true
	}
	return false
}

// errPhrase says err: the rules engine's sentence for an illegal move, else its text as it is.
func errPhrase(err error) Phrase {
	var ime *engine.IllegalMoveError
	if errors.As(err, &ime) {
		return illegalPhrase(ime)
	}
	return phrase("{{.Err}}.", "Err", strings.TrimSuffix(err.Error(), "."))
}

// stoneWord is a stone's colour as a word for a word field: "black" or "white".
func stoneWord(c engine.Color) string {
	if c == engine.White {
		return word("white")
	}
	return word("black")
}

// resultPhrase says an SGF result in words with the result itself, as the end of a sentence:
// "White wins by 5.5 (W+5.5)."
func resultPhrase(r string) Phrase {
	switch {
	case r == "0":
		return phrase("a draw (jigo) ({{.Result}}).", "Result", r)
	case r == "Void":
		return phrase("no result ({{.Result}}).", "Result", r)
	case len(r) > 2 && r[1] == '+':
		who := title(engine.Black)
		if r[0] == 'W' {
			who = title(engine.White)
		}
		switch r[2:] {
		case "R":
			return phrase("{{.Color}} wins by resignation ({{.Result}}).", "Color", who, "Result", r)
		case "T":
			return phrase("{{.Color}} wins on time ({{.Result}}).", "Color", who, "Result", r)
		case "F":
			return phrase("{{.Color}} wins by forfeit ({{.Result}}).", "Color", who, "Result", r)
		}
		return phrase("{{.Color}} wins by {{.Margin}} ({{.Result}}).", "Color", who, "Margin", r[2:], "Result", r)
	}
	return phrase("{{.Result}}.", "Result", r)
}
