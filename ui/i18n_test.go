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
	"tengen/referee"
)

// sourceKeys returns every string the screens pass to tr, and the breakdown's row labels.
func sourceKeys(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`tr\("((?:[^"\\]|\\.)*)"`)
	set := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(b), -1) {
			set[m[1]] = true
		}
	}
	for _, r := range countRows {
		set[r] = true
	}
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
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
