package referee

import (
	"strings"
	"sync"
	"testing"

	"tengen/engine"
	"tengen/internal/saidscan"
)

// said is what the referee's sources can say: the literal templates of phrase(...), the words of
// word(...), and the rules engine's illegal-move templates and the articles they cite.
var said struct {
	once             sync.Once
	err              error
	templates, words map[string]bool
}

// loadSaid parses the package's non-test sources once.
func loadSaid() error {
	said.once.Do(func() {
		said.templates, said.words = map[string]bool{}, map[string]bool{}
		src, err := saidscan.Scan(".")
		if err != nil {
			said.err = err
			return
		}
		for _, s := range src.Templates {
			said.templates[s] = true
		}
		for _, w := range src.Words {
			said.words[w] = true
		}
		for _, name := range engine.PresetNames() {
			r, err := engine.Preset(name)
			if err != nil {
				said.err = err
				return
			}
			for reason := engine.Occupied; reason <= engine.OffBoard; reason++ {
				for _, owed := range []bool{false, true} {
					text, args := (&engine.IllegalMoveError{Reason: reason, Rules: r.Name, Owed: owed}).Sentence()
					said.templates[text+"."] = true
					said.words[args["Rule"]] = true
				}
			}
		}
	})
	return said.err
}

// checkVerdict fails tb unless v says something, in phrases of the referee's sources (or the rules
// engine's), with every word field's value a known word, and Message is what the phrases say.
func checkVerdict(tb testing.TB, v Verdict) {
	tb.Helper()
	if err := loadSaid(); err != nil {
		tb.Fatal(err)
	}
	if v.Kind == VerdictNone {
		return
	}
	if len(v.Says) == 0 {
		tb.Errorf("%v verdict %q says no phrase: a screen cannot show it", v.Kind, v.Message)
		return
	}
	want := sentences(v.Says)
	if v.Kind == VerdictIllegal {
		want = "Illegal move: " + want
	}
	if v.Message != want {
		tb.Errorf("%v verdict's message %q, its phrases say %q", v.Kind, v.Message, want)
	}
	for _, p := range v.Says {
		if !said.templates[p.Text] {
			tb.Errorf("%v verdict says %q, not a phrase(...) of the sources", v.Kind, p.Text)
		}
		for k, val := range p.Args {
			if !WordField(k) {
				continue
			}
			for _, w := range strings.Split(val, ", ") {
				if !said.words[w] {
					tb.Errorf("%v verdict's %s is %q, not a word(...) a screen translates", v.Kind, k, w)
				}
			}
		}
	}
}

// Every template and word of the sources is found, and the illegal-move sentences are among them.
func TestSaidFound(t *testing.T) {
	if err := loadSaid(); err != nil {
		t.Fatal(err)
	}
	if len(said.templates) < 80 || !said.words["Black"] || !said.words["the pass"] || !said.words["AGA rule 6"] {
		t.Errorf("%d templates, words %v", len(said.templates), said.words)
	}
}
