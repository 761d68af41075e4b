package ui

import (
	"regexp"
	"strings"
	"testing"

	"tengen/referee"
)

// templateFields matches the {{.Name}} fields of a phrase template.
var templateFields = regexp.MustCompile(`\{\{\.([A-Za-z]+)\}\}`)

// sampleArgs fills every field of template: word fields with words the screens translate, the
// others with a value said as it is.
func sampleArgs(template string) map[string]string {
	args := map[string]string{}
	for _, m := range templateFields.FindAllStringSubmatch(template, -1) {
		f := m[1]
		switch {
		case f == "Stone" || f == "Want" || f == "Seen":
			args[f] = "white"
		case f == "Press":
			args[f] = "The pass"
		case f == "Presses":
			args[f] = "The pass, Black's clock press"
		case f == "Why":
			args[f] = "since the press before did not count"
		case f == "Rule":
			args[f] = "AGA rule 6"
		case referee.WordField(f):
			args[f] = "White"
		default:
			args[f] = "7"
		}
	}
	return args
}

// onlyFields reports whether a template says nothing but its fields ("({{.Note}})", "{{.Err}}."):
// its translation may equal the English.
func onlyFields(template string) bool {
	return strings.Trim(templateFields.ReplaceAllString(template, ""), " .():") == ""
}

// Every kind of verdict the referee can give reaches the banner, in every language: a title naming
// the kind and the verdict's own sentences, translated, with every field filled. The test takes
// every phrase template of the referee's sources (and the rules engine's illegal-move sentences)
// under every verdict kind, from VerdictNone to the last kind, and fails on an empty banner, an
// unfilled field or a sentence left in English.
func TestEveryVerdictOnScreen(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	templates, _ := refereeTemplates(t)
	illegal, _ := illegalTemplates(t)
	templates = append(templates, illegal...)
	var kinds []referee.VerdictKind
	for k := referee.VerdictKind(0); k.String() != "verdict?"; k++ {
		kinds = append(kinds, k)
	}
	if last := kinds[len(kinds)-1]; last < referee.VerdictDirector {
		t.Fatalf("the kinds end at %v", last)
	}
	english := map[string]string{} // title and text by kind and template, in English
	for _, l := range Languages() {
		if err := SetLanguage(l.Code); err != nil {
			t.Fatal(err)
		}
		// Nothing said: nothing on the banner.
		if got := bannerView(referee.State{Size: 9, Phase: referee.PhasePlaying}, Conditions{}); got.Kind != BannerNone {
			t.Errorf("%s: no verdict shows %+v", l.Code, got)
		}
		for _, k := range kinds[1:] {
			for _, tpl := range templates {
				p := referee.Phrase{Text: tpl, Args: sampleArgs(tpl)}
				v := referee.Verdict{Kind: k, Says: []referee.Phrase{p}}
				for _, phase := range []referee.Phase{referee.PhaseReady, referee.PhaseMarking} {
					got := bannerView(referee.State{Size: 9, Phase: phase, Banner: v}, Conditions{})
					key := k.String() + "\x00" + tpl
					switch {
					case got.Kind == BannerNone || got.Title == "" || strings.TrimSpace(got.Text) == "":
						t.Errorf("%s: %v verdict %q in phase %v shows %+v", l.Code, k, tpl, phase, got)
					case strings.Contains(got.Text, "{{") || strings.Contains(got.Text, "<no value>"):
						t.Errorf("%s: %v verdict %q shows an unfilled field: %q", l.Code, k, tpl, got.Text)
					case l.Code == "en":
						if want := p.String(); got.Text != want {
							t.Errorf("en: %v verdict shows %q, the referee says %q", k, got.Text, want)
						}
						english[key] = got.Title + "\x00" + got.Text
					default:
						title, text, _ := strings.Cut(english[key], "\x00")
						if got.Title == title {
							t.Errorf("%s: %v verdict's title %q is left in English", l.Code, k, got.Title)
						}
						if got.Text == text && !onlyFields(tpl) {
							t.Errorf("%s: %v verdict %q is left in English", l.Code, k, got.Text)
						}
					}
					if t.Failed() {
						return
					}
				}
			}
		}
	}
}

// The words in word fields are translated on the banner, each item of a list on its own.
func TestVerdictWordsTranslated(t *testing.T) {
	newTestApp(t)
	t.Cleanup(func() { _ = SetLanguage("en") })
	v := referee.Verdict{Kind: referee.VerdictNoChange, Says: []referee.Phrase{
		{Text: "No new stone on the board: {{.Color}}, place your stone and press your clock again, or press pass.", Args: map[string]string{"Color": "White"}},
		{Text: "({{.Presses}} made while the board was being checked: not counted, {{.Why}}. Press again if needed.)",
			Args: map[string]string{"Presses": "The pass, Black's clock press", "Why": "since the press before did not count"}},
	}}
	for _, tc := range []struct{ lang, want string }{
		{"en", "No new stone on the board: White, place your stone and press your clock again, or press pass. (The pass, Black's clock press made while the board was being checked: not counted, since the press before did not count. Press again if needed.)"},
		{"pl", "Biały"}, {"cs", "Bílý"}, {"ru", "Белые"}, {"bg", "Белите"},
	} {
		if err := SetLanguage(tc.lang); err != nil {
			t.Fatal(err)
		}
		got := bannerView(referee.State{Size: 9, Banner: v}, Conditions{}).Text
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: banner %q lacks %q", tc.lang, got, tc.want)
		}
		if tc.lang != "en" && (strings.Contains(got, "Black's clock press") || strings.Contains(got, "since the press")) {
			t.Errorf("%s: banner %q leaves a word in English", tc.lang, got)
		}
	}
}
