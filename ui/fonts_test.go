package ui

import (
	"bytes"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/fontscan"
	"github.com/go-text/typesetting/language"

	"tengen/internal/fonttrim"
	"tengen/internal/testenv"
)

// themeFontsChild makes the test binary run TestThemeFontsOnly's checks in a fresh process, since
// the system font index is built once per process and other tests may already have built it.
const themeFontsChild = "TENGEN_THEME_FONTS_CHILD"

func TestThemeFontsOnly(t *testing.T) {
	if os.Getenv(themeFontsChild) == "1" {
		themeFontsOnlyChild(t)
		return
	}
	out, err := testenv.RunAlone(t, "TestThemeFontsOnly",
		append(os.Environ(), themeFontsChild+"=1", "HOME=/home/fonts-test", "XDG_CACHE_HOME=/tmp/fonts-test"))
	if err != nil || !bytes.Contains(out, []byte("--- PASS: TestThemeFontsOnly")) {
		t.Fatalf("child process: %v\n%s", err, out)
	}
}

// themeFontsOnlyChild checks, in a process that has not touched any font yet, that after
// ThemeFontsOnly no system font can be found, that the environment is as it was, and that a
// second call reports the fallback index as already built.
func themeFontsOnlyChild(t *testing.T) {
	if err := ThemeFontsOnly(); err != nil {
		t.Fatalf("ThemeFontsOnly: %v", err)
	}
	if h, x := os.Getenv("HOME"), os.Getenv("XDG_CACHE_HOME"); h != "/home/fonts-test" || x != "/tmp/fonts-test" {
		t.Errorf("environment not restored: HOME=%q XDG_CACHE_HOME=%q", h, x)
	}
	// What Fyne does for each text style (internal/painter.lookupLangFont).
	fm := fontscan.NewFontMap(nil)
	if err := fm.UseSystemFonts(""); err != nil {
		t.Fatalf("UseSystemFonts after ThemeFontsOnly: %v", err)
	}
	english, _ := fontscan.NewLangID(language.NewLanguage("en"))
	for _, family := range []string{fontscan.SansSerif, fontscan.Monospace} {
		fm.SetQuery(fontscan.Query{Families: []string{family}})
		if f := fm.ResolveFaceForLang(english); f != nil {
			t.Errorf("a system %s font was still found: %v", family, f.Describe())
		}
		if f := fm.ResolveFace('A'); f != nil {
			t.Errorf("a system %s font was still found for 'A': %v", family, f.Describe())
		}
	}
	if err := ThemeFontsOnly(); !errors.Is(err, ErrSystemFontsLoaded) {
		t.Errorf("second call: got %v, want ErrSystemFontsLoaded", err)
	}
}

// TestThemeFontsCoverEveryString checks that the theme's fonts have a glyph for every character
// the screens can show on their own: every translation, the language names, and every string
// literal in the ui, referee, engine and clock packages (their messages appear in banners). This is
// what lets ThemeFontsOnly drop the system fonts without a character turning into a box.
func TestThemeFontsCoverEveryString(t *testing.T) {
	runes, symbols := map[rune][]string{}, map[rune][]string{}
	collect := func(into map[rune][]string) func(s, where string) {
		return func(s, where string) {
			for _, r := range s {
				if unicode.IsPrint(r) && r != ' ' && len(into[r]) < 3 {
					into[r] = append(into[r], where)
				}
			}
		}
	}
	add := collect(runes)
	files, err := filepath.Glob("translations/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no translation files: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		add(string(b), f)
	}
	for _, l := range Languages() {
		add(l.Name, "Languages()")
	}
	for _, dir := range []string{".", "../referee", "../engine", "../clock"} {
		stringLiterals(t, dir, add, collect(symbols))
	}
	if len(symbols) == 0 {
		t.Fatal("no symbol-font key labels found: the collection is broken")
	}
	if len(runes) < 150 {
		t.Fatalf("only %d distinct characters collected: the collection is broken", len(runes))
	}

	th := NewTheme()
	checkCoverage(t, "symbol", th.Font(fyne.TextStyle{Symbol: true}), symbols)
	styles := map[string]fyne.TextStyle{"regular": {}, "bold": {Bold: true}, "italic": {Italic: true},
		"bold italic": {Bold: true, Italic: true}, "monospace": {Monospace: true}}
	for name, style := range styles {
		checkCoverage(t, name, th.Font(style), runes)
	}
	// The kiosk draws with the regular and bold fonts trimmed to screenRune (TrimThemeFonts).
	for name, style := range map[string]fyne.TextStyle{"trimmed regular": {}, "trimmed bold": {Bold: true}} {
		b, err := fonttrim.Trim(th.Font(style).Content(), screenRune)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkCoverage(t, name, fyne.NewStaticResource(name, b), runes)
	}
}

// trimFontsChild makes the test binary run TestTrimThemeFonts's checks in a process of its own,
// since TrimThemeFonts changes Fyne's built-in fonts for the whole process.
const trimFontsChild = "TENGEN_TRIM_FONTS_CHILD"

// TestTrimThemeFonts checks that the built-in regular and bold fonts become smaller, still parse,
// map what the screens show and no longer map a Greek letter.
func TestTrimThemeFonts(t *testing.T) {
	if os.Getenv(trimFontsChild) != "1" {
		out, err := testenv.RunAlone(t, "TestTrimThemeFonts", append(os.Environ(), trimFontsChild+"=1"))
		if err != nil || !bytes.Contains(out, []byte("--- PASS: TestTrimThemeFonts")) {
			t.Fatalf("child process: %v\n%s", err, out)
		}
		return
	}
	res := []fyne.Resource{theme.DefaultTextFont(), theme.DefaultTextBoldFont()}
	before := []int{len(res[0].Content()), len(res[1].Content())}
	if err := TrimThemeFonts(); err != nil {
		t.Fatal(err)
	}
	for i, r := range res {
		if n := len(r.Content()); n >= before[i]*3/4 {
			t.Errorf("%s: %d bytes after trimming, %d before", r.Name(), n, before[i])
		}
		face, err := font.ParseTTF(bytes.NewReader(r.Content()))
		if err != nil {
			t.Fatalf("%s: %v", r.Name(), err)
		}
		for _, c := range "Aaž€Жё—…•" {
			if _, ok := face.NominalGlyph(c); !ok {
				t.Errorf("%s: %q is missing", r.Name(), c)
			}
		}
		if _, ok := face.NominalGlyph('λ'); ok {
			t.Errorf("%s: 'λ' is still mapped", r.Name())
		}
	}
}

// checkCoverage reports every rune that the font has no glyph for, with where it was found.
func checkCoverage(t *testing.T, name string, res fyne.Resource, runes map[rune][]string) {
	t.Helper()
	face, err := font.ParseTTF(bytes.NewReader(res.Content()))
	if err != nil {
		t.Fatalf("%s theme font: %v", name, err)
	}
	var missing []string
	for r, where := range runes {
		if _, ok := face.NominalGlyph(r); !ok {
			missing = append(missing, strconv.QuoteRune(r)+" in "+where[0])
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("the %s theme font has no glyph for %d characters: %v", name, len(missing), missing)
	}
}

// stringLiterals passes every string literal in the non-test Go files of dir to add, except the
// labels of keys drawn in the symbol font (newSymbolKeyCap), which go to addSymbol.
func stringLiterals(t *testing.T, dir string, add, addSymbol func(s, where string)) {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		symbolLabels := map[*ast.BasicLit]bool{}
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "newSymbolKeyCap" && len(call.Args) > 0 {
					if lit, ok := call.Args[0].(*ast.BasicLit); ok {
						symbolLabels[lit] = true
					}
				}
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			if symbolLabels[lit] {
				addSymbol(s, fset.Position(lit.Pos()).String())
			} else {
				add(s, fset.Position(lit.Pos()).String())
			}
			return true
		})
	}
}
