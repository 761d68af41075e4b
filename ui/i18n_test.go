package ui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"tengen/engine"
	"tengen/internal/saidscan"
	"tengen/referee"
)

// sourceKeys returns every string the screens pass to tr, and the breakdown's row labels.
func sourceKeys(t *testing.T) []string {
	t.Helper()
	set := map[string]bool{}
	for _, k := range literalArgs(t, "*.go", "tr") {
		set[k] = true
	}
	for _, r := range countRows {
		set[r] = true
	}
	for _, k := range verdictKeys(t) {
		set[k] = true
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// literalArgs returns the string literals passed first to calls of fn in the non-test files that
// match pattern.
func literalArgs(t *testing.T, pattern, fn string) []string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`\b` + fn + `\("((?:[^"\\]|\\.)*)"`)
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// refereeTemplates parses the referee's non-test sources and returns the literal first arguments
// of every call to phrase (the templates of the verdicts' sentences) and to word (the words a
// screen translates in word fields: colours, presses, reasons). A call to either with anything
// but a string literal is an error: its text could escape the translations.
func refereeTemplates(t *testing.T) (templates, words []string) {
	t.Helper()
	said, err := saidscan.Scan(filepath.Join("..", "referee"))
	if err != nil {
		t.Fatal(err)
	}
	templates, words = said.Templates, said.Words
	if len(templates) < 50 || len(words) < 5 {
		t.Fatalf("only %d referee phrases and %d words found", len(templates), len(words))
	}
	return templates, words
}

// illegalTemplates returns the rules engine's illegal-move sentences as the referee says them
// (illegalPhrase) and the articles they cite, for every preset, reason and case.
func illegalTemplates(t *testing.T) (templates, rules []string) {
	t.Helper()
	for _, name := range engine.PresetNames() {
		r, err := engine.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		for reason := engine.Occupied; reason <= engine.OffBoard; reason++ {
			for _, owed := range []bool{false, true} {
				e := &engine.IllegalMoveError{Reason: reason, Rules: r.Name, Owed: owed, Move: engine.Move{Color: engine.Black}}
				text, args := e.Sentence()
				templates, rules = append(templates, text+"."), append(rules, args["Rule"])
			}
		}
	}
	return templates, rules
}

// verdictKeys returns what the screens translate of the referee's verdicts: every phrase template
// and word of the referee's sources, and the rules engine's illegal-move sentences and the
// articles they cite.
func verdictKeys(t *testing.T) []string {
	t.Helper()
	templates, words := refereeTemplates(t)
	illegal, rules := illegalTemplates(t)
	keys := append(append(templates, words...), illegal...)
	return append(keys, rules...)
}

// TestTranslationsComplete checks that every language file translates every string on the screens,
// keeps the template fields, and is really translated (not a copy of the English).
func TestTranslationsComplete(t *testing.T) {
	keys := sourceKeys(t)
	if len(keys) < 80 {
		t.Fatalf("only %d strings found in the sources", len(keys))
	}
	fields := regexp.MustCompile(`\{\{\.[A-Za-z]+\}\}`)
	for _, l := range Languages() {
		data, err := translations.ReadFile("translations/" + l.Code + ".json")
		if err != nil {
			t.Fatalf("%s: %v", l.Code, err)
		}
		var m map[string]string
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: %v", l.Code, err)
		}
		same := 0
		for _, k := range keys {
			v, ok := m[k]
			if !ok || v == "" {
				t.Errorf("%s: no translation of %q", l.Code, k)
				continue
			}
			if strings.Join(fields.FindAllString(k, -1), ",") != strings.Join(sortedFields(fields.FindAllString(v, -1), k, fields), ",") {
				t.Errorf("%s: %q -> %q changes the template fields", l.Code, k, v)
			}
			if v == k {
				same++
			}
		}
		if l.Code != "en" && same > len(keys)/10 {
			t.Errorf("%s: %d of %d strings are left in English", l.Code, same, len(keys))
		}
		if len(m) != len(keys) {
			t.Errorf("%s: %d entries, the screens use %d strings", l.Code, len(m), len(keys))
		}
	}
}

// sortedFields orders a translation's fields as the key has them (word order may differ).
func sortedFields(got []string, key string, re *regexp.Regexp) []string {
	want := re.FindAllString(key, -1)
	if len(got) != len(want) {
		return got
	}
	left := map[string]int{}
	for _, f := range got {
		left[f]++
	}
	for _, f := range want {
		if left[f] == 0 {
			return got
		}
		left[f]--
	}
	return want
}

// TestLanguageSwitchAtRuntime switches the running table to every language and back.
func TestLanguageSwitchAtRuntime(t *testing.T) {
	newTestApp(t)
	a, _ := appWindow(t, fyne.Size{}, Handlers{})
	a.Update(playingState(t), Conditions{})
	want := map[string]string{"en": "Move 7", "pl": "Ruch 7", "ru": "Ход 7", "bg": "Ход 7", "cs": "Tah 7"}
	for _, code := range []string{"pl", "ru", "bg", "cs", "en"} {
		if err := a.SetLanguage(code); err != nil {
			t.Fatal(err)
		}
		if got := a.Table().move.Text; got != want[code] {
			t.Errorf("%s: move line %q, want %q", code, got, want[code])
		}
		if a.Current() != a.Table().Content() {
			t.Errorf("%s: the table is not showing after the switch", code)
		}
		st := playingState(t)
		st.Banner = referee.Verdict{Kind: referee.VerdictRemoveCaptures, Points: []engine.Point{{X: 5, Y: 4}}}
		a.Update(st, Conditions{})
		capture(t, "table-"+code+"-800x480", a.Table().Content(), displays[0])
		if got := a.Table().Banner.View().Title; code != "en" && got == "Remove the captured stones" {
			t.Errorf("%s: banner title left in English", code)
		}
	}
	if err := a.SetLanguage("xx"); err == nil {
		t.Error("unknown language accepted")
	}
}

// The rule sentence of an illegal move and the director's words are translated on the banner,
// the colours and the article cited included; a verdict from an older journal (no phrases) still
// shows its English.
func TestVerdictPhrasesTranslated(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	e := &engine.IllegalMoveError{Reason: engine.ReasonSituationalSuperko, Rules: "aga", Repeats: 20, Size: 9,
		Move: engine.Move{Color: engine.White, Point: engine.Point{X: 5, Y: 5}}}
	text, args := e.Sentence()
	illegal := referee.Verdict{Kind: referee.VerdictIllegal, Color: engine.White, Says: []referee.Phrase{
		{Text: text + ".", Args: args},
		{Text: "{{.Color}} takes the stone on {{.Point}} back and passes instead (AGA rule 8).", Args: map[string]string{"Color": "White", "Point": "F4"}},
	}}
	director := referee.Verdict{Kind: referee.VerdictDirector, Says: []referee.Phrase{
		{Text: "Director: play resumes: {{.Color}} to play.", Args: map[string]string{"Color": "Black"}},
		{Text: "({{.Note}})", Args: map[string]string{"Note": "misclick"}},
	}}
	for _, tc := range []struct {
		lang           string
		illegal, words []string // what the illegal banner and the director's banner must contain
	}{
		{"en", []string{"AGA rule 6: this would repeat the position after move 20 with Black to play.", "White takes the stone on F4 back"},
			[]string{"Director: play resumes: Black to play. (misclick)"}},
		{"pl", []string{"Zasady AGA, reguła 6", "20", "F4", "Czarny", "Biały"}, []string{"Sędzia", "Czarny", "(misclick)"}},
		{"cs", []string{"Pravidla AGA, pravidlo 6", "20", "F4", "Černý", "Bílý"}, []string{"Rozhodčí", "Černý", "(misclick)"}},
		{"ru", []string{"AGA", "6", "20", "F4"}, []string{"Судья", "(misclick)"}},
		{"bg", []string{"AGA", "6", "20", "F4"}, []string{"Съдия", "(misclick)"}},
	} {
		if err := SetLanguage(tc.lang); err != nil {
			t.Fatal(err)
		}
		got := bannerView(referee.State{Size: 9, Banner: illegal}, Conditions{}).Text
		for _, w := range tc.illegal {
			if !strings.Contains(got, w) {
				t.Errorf("%s: illegal-move banner %q lacks %q", tc.lang, got, w)
			}
		}
		if tc.lang != "en" && (strings.Contains(got, "would repeat") || strings.Contains(got, "takes the stone")) {
			t.Errorf("%s: illegal-move banner %q is still English", tc.lang, got)
		}
		said := bannerView(referee.State{Size: 9, Banner: director}, Conditions{}).Text
		for _, w := range tc.words {
			if !strings.Contains(said, w) {
				t.Errorf("%s: director's banner %q lacks %q", tc.lang, said, w)
			}
		}
	}
	old := referee.Verdict{Kind: referee.VerdictIllegal, Message: "Illegal move: AGA rule 5: suicide is not allowed."}
	if got := bannerView(referee.State{Size: 9, Banner: old}, Conditions{}).Text; got != "AGA rule 5: suicide is not allowed." {
		t.Errorf("a verdict without phrases shows %q", got)
	}
}

// A board-differs verdict that says why the referee cannot decide (two moves too close, part of
// the board unseen) shows that sentence, translated, instead of the generic "put the board back".
func TestBoardDiffersSaysWhy(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	v := referee.Verdict{Kind: referee.VerdictBoardDiffers, Color: engine.Black, Points: []engine.Point{{X: 2, Y: 2}},
		Says: []referee.Phrase{{Text: "The board does not show clearly which move was played. {{.Color}}, check the stones at {{.Points}} and press your clock again.",
			Args: map[string]string{"Color": "Black", "Points": "C7, D7"}}}}
	for _, lang := range []string{"en", "pl", "cs", "ru", "bg"} {
		if err := SetLanguage(lang); err != nil {
			t.Fatal(err)
		}
		got := bannerView(referee.State{Size: 9, Banner: v}, Conditions{}).Text
		if !strings.Contains(got, "C7, D7") || strings.Contains(got, "Put the board back") {
			t.Errorf("%s: banner %q does not say why", lang, got)
		}
		if lang != "en" && strings.Contains(got, "does not show clearly") {
			t.Errorf("%s: banner %q is still English", lang, got)
		}
	}
}
