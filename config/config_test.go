package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestShippedFileIsTheDefault(t *testing.T) {
	c, err := Load("kiosk.toml")
	if err != nil {
		t.Fatalf("the shipped kiosk.toml does not load: %v", err)
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Errorf("kiosk.toml differs from Default():\n file    %+v\n default %+v", c, Default())
	}
}

func TestEmptyFileIsTheDefault(t *testing.T) {
	c, err := Parse(nil, "empty.toml")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Errorf("empty file gave %+v", c)
	}
}

func TestParseOverrides(t *testing.T) {
	src := `
table = 12
event = "Paris Open"
[camera]
source = "/dev/video2"
[pins]
black = "gpio5"
director = ""
debounce = "35ms"
[game]
rules = "aga"
size = 9
komi = 7.5
time_control = "30m+3x20s"
`
	c, err := Parse([]byte(src), "t.toml")
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Table, want.Event = 12, "Paris Open"
	want.Camera.Source = "/dev/video2"
	want.Pins.Black, want.Pins.Director, want.Pins.Debounce = "gpio5", "", 35*time.Millisecond
	komi := 7.5
	want.Game.Rules, want.Game.Size, want.Game.Komi, want.Game.TimeControl = "aga", 9, &komi, "30m+3x20s"
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
}

// TestBadConfig checks that each kind of mistake is reported with its key and line.
func TestBadConfig(t *testing.T) {
	tests := []struct {
		name, src string
		key       string
		line      int
		msg       string
	}{
		{"unknown top-level key", "table = 1\ntabel = 2\n", "tabel", 2, "unknown key (did you mean table?)"},
		{"unknown key in table", "[pins]\nblack = \"GPIO5\"\nblak = \"GPIO6\"\n", "pins.blak", 3, "did you mean pins.black?"},
		{"unknown table", "[camra]\nsource = \"demo\"\n", "camra", 1, "unknown key"},
		{"dotted unknown key", "pins.whit = \"GPIO6\"\n", "pins.whit", 1, "unknown key"},
		{"syntax error", "table = 1\n[pins\nblack = 1\n", "", 2, ""},
		{"wrong type", "[display]\n\nfullscreen = \"yes\"\n", "display.fullscreen", 3, "should be true or false, not text in quotes"},
		{"wrong number type", "[game]\nsize = \"19\"\n", "game.size", 2, "should be a whole number, not text in quotes"},
		{"unknown language", "language = \"xx\"\n", "language", 1, "use one of en, pl, bg, ru, cs"},
		{"size 21", "[game]\nsize = 21\n", "game.size", 2, "9, 13 or 19"},
		{"time control in words", "[game]\ntime_control = \"1 hour\"\n", "game.time_control", 2, "not a time control"},
		{"bad duration", "[pins]\ndebounce = \"fast\"\n", "pins.debounce", 2, ""},
		{"bad pin", "[pins]\nblack = \"GPIO40\"\n", "pins.black", 2, "not a GPIO pin name"},
		{"pin shared", "[pins]\nblack = \"GPIO5\"\nwhite = \"GPIO5\"\n", "pins.white", 3, "already used by pins.black"},
		{"bad pull", "[pins]\npull = \"sideways\"\n", "pins.pull", 2, "use \"up\""},
		{"bad rules", "[game]\nrules = \"ing\"\n", "game.rules", 2, "not a rules preset"},
		{"bad size", "[game]\nsize = 30\n", "game.size", 2, "out of range"},
		{"bad komi", "[game]\nkomi = 6.25\n", "game.komi", 2, "not a komi"},
		{"bad handicap", "[game]\nhandicap = 1\n", "game.handicap", 2, "2..9"},
		{"bad source", "[camera]\nsource = \"webcam\"\n", "camera.source", 2, "not a camera"},
		{"bad fps", "[camera]\nfps = 0\n", "camera.fps", 2, "out of range"},
		{"bad language", "language = \"English\"\n", "language", 1, "not a language tag"},
		{"bad hash", "[director]\npin_hash = \"1234\"\n", "director.pin_hash", 2, "not a PIN hash"},
		{"empty path", "[paths]\ngames_dir = \"\"\n", "paths.games_dir", 2, "empty"},
		{"negative table", "table = -1\n", "table", 1, "out of range"},
		{"not utf-8", "event = \"\xff\"\n", "", 0, "not UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src), "kiosk.toml")
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("Parse = %v, want *config.Error", err)
			}
			if len(ce.Problems) == 0 {
				t.Fatalf("no problems in %v", err)
			}
			p := ce.Problems[0]
			if p.Key != tt.key || p.Line != tt.line || !strings.Contains(p.Msg, tt.msg) {
				t.Errorf("problem = {Key:%q Line:%d Msg:%q}, want key %q line %d msg containing %q",
					p.Key, p.Line, p.Msg, tt.key, tt.line, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), "kiosk.toml: ") {
				t.Errorf("Error() = %q, want it to start with the file name", err.Error())
			}
		})
	}
}

// Every wrongly typed value is reported, with the other problems, not only the first.
func TestEveryTypeProblemReported(t *testing.T) {
	src := "language = \"xx\"\n[display]\nfullscreen = \"yes\"\n[game]\nsize = \"19\"\ntime_control = \"1 hour\"\nhandicap = \"two\"\n"
	_, err := Parse([]byte(src), "k.toml")
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ce.Problems {
		got = append(got, fmt.Sprintf("%d %s: %s", p.Line, p.Key, p.Msg))
	}
	want := []string{"language", "display.fullscreen", "game.size", "game.time_control", "game.handicap"}
	if len(got) != len(want) {
		t.Fatalf("problems:\n%s", strings.Join(got, "\n"))
	}
	for i, k := range want {
		if !strings.Contains(got[i], " "+k+": ") {
			t.Errorf("problem %d is %q, want one about %s", i, got[i], k)
		}
		if strings.Contains(got[i], "TOML value") {
			t.Errorf("not in words: %q", got[i])
		}
	}
}

func TestAllProblemsReported(t *testing.T) {
	src := "tabel = 1\n[pins]\nblack = \"x\"\n[game]\nsize = 1\n"
	_, err := Parse([]byte(src), "k.toml")
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatal(err)
	}
	var keys []string
	for _, p := range ce.Problems {
		keys = append(keys, p.Key)
	}
	if got := strings.Join(keys, ","); got != "tabel,pins.black,game.size" {
		t.Errorf("problems in order %s, want tabel,pins.black,game.size", got)
	}
	if !strings.Contains(ce.Title(), "3 problem") {
		t.Errorf("Title() = %q", ce.Title())
	}
}

func TestLoadMissingAndLarge(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "none.toml")
	if _, err := Load(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(missing) = %v, want fs.ErrNotExist", err)
	}
	c, found, err := LoadIfExists(missing)
	if err != nil || found || !reflect.DeepEqual(c, Default()) {
		t.Errorf("LoadIfExists(missing) = %+v, %v, %v", c, found, err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, []byte(strings.Repeat("#", MaxFileSize+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("Load(big) = %v", err)
	}
	bad := filepath.Join(dir, "bad.toml")
	if err := os.WriteFile(bad, []byte("nope = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, found, err := LoadIfExists(bad); err == nil || found {
		t.Errorf("LoadIfExists(bad) = %v, %v", found, err)
	}
}

func TestLocate(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		env  map[string]string
		want string
	}{
		{nil, DefaultPath},
		{map[string]string{"CONFIGURATION_DIRECTORY": "/etc/tengen"}, "/etc/tengen/kiosk.toml"},
		{map[string]string{"CONFIGURATION_DIRECTORY": "/a:/b"}, "/a/kiosk.toml"},
		{map[string]string{"TENGEN_CONFIG": "/tmp/k.toml", "CONFIGURATION_DIRECTORY": "/etc/tengen"}, "/tmp/k.toml"},
	}
	for _, tt := range tests {
		if got := Locate(env(tt.env)); got != tt.want {
			t.Errorf("Locate(%v) = %q, want %q", tt.env, got, tt.want)
		}
	}
}

func TestParsePin(t *testing.T) {
	for _, ok := range []string{"GPIO0", "GPIO17", "gpio27", "Gpio4"} {
		if _, err := ParsePin(ok); err != nil {
			t.Errorf("ParsePin(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", "GPIO", "GPIO28", "GPIO-1", "GPIO017", "GPIO07", "17", "PIN11", "GPIO1x"} {
		if _, err := ParsePin(bad); err == nil {
			t.Errorf("ParsePin(%q) succeeded", bad)
		}
	}
}

func TestKeyLines(t *testing.T) {
	src := `a = 1
s = """
fake = 2
"""
[t1]  # comment
"quoted key" = 3
x.y = "a=b"
[[arr]]
z = 1
`
	idx := keyLines([]byte(src))
	want := map[string]int{"a": 1, "s": 2, "t1": 5, "t1.quoted key": 6, "t1.x.y": 7, "arr.z": 9}
	for k, n := range want {
		if idx[k] != n {
			t.Errorf("line of %q = %d, want %d", k, idx[k], n)
		}
	}
	if _, ok := idx["fake"]; ok {
		t.Error("a key inside a multi-line string was indexed")
	}
	if idx.find("t1.x.y.w") != 7 || idx.find("nothing") != 0 {
		t.Error("find does not fall back to the enclosing key")
	}
}

func TestCameraSpec(t *testing.T) {
	noUSB := func(string) ([]string, error) { return nil, nil }
	usb := func(string) ([]string, error) { return []string{"/dev/v4l/by-id/usb-Logi_C920-video-index0"}, nil }
	eval := func(p string) (string, error) { return "/dev/video2", nil }
	cam := Default().Camera
	tests := []struct {
		source string
		glob   func(string) ([]string, error)
		want   string
	}{
		{"auto", noUSB, "libcamera:1920x1080@15"},
		{"auto", usb, "/dev/video2"},
		{"libcamera", usb, "libcamera:1920x1080@15"},
		{"/dev/video1", usb, "/dev/video1"},
		{"0", noUSB, "0"},
		{"demo", usb, "demo"},
	}
	for _, tt := range tests {
		cam.Source = tt.source
		if got := cam.spec(tt.glob, eval); got != tt.want {
			t.Errorf("Spec(%q) = %q, want %q", tt.source, got, tt.want)
		}
	}
}

func TestAlertEvents(t *testing.T) {
	c, err := Parse([]byte("[alerts]\nbuzzer = true\nevents = [\"flag\"]\n"), "k")
	if err != nil {
		t.Fatal(err)
	}
	if !c.Alerts.Buzzer || len(c.Alerts.Events) != 1 || c.Alerts.Events[0] != "flag" {
		t.Fatalf("alerts %+v", c.Alerts)
	}
	if Default().Alerts.Buzzer {
		t.Error("the buzzer is on by default; a tournament hall is silent")
	}
	if _, err := Parse([]byte("[alerts]\nevents = [\"fire\"]\n"), "k"); err == nil || !strings.Contains(err.Error(), "alerts.events") {
		t.Fatalf("an unknown alert: err %v", err)
	}
}

func TestIllegalMovePolicy(t *testing.T) {
	c, err := Parse([]byte("[game]\nillegal_move = \"warning\"\n"), "k")
	if err != nil || c.Game.IllegalMove != "warning" {
		t.Fatalf("warning: %v %+v", err, c.Game)
	}
	if _, err := Parse([]byte("[game]\nillegal_move = \"flogging\"\n"), "k"); err == nil || !strings.Contains(err.Error(), "game.illegal_move") {
		t.Fatalf("an unknown policy: err %v", err)
	}
}

// TestDeepNestingRefused: values nested deeper than maxNesting are refused before the TOML decoder
// sees them, quickly, with the line; brackets inside strings and comments do not count, and the
// nesting a real file uses passes.
func TestDeepNestingRefused(t *testing.T) {
	deep := func(n int, open, close string) string {
		return "table = 1\n\n[game]\nx = " + strings.Repeat(open, n) + "1" + strings.Repeat(close, n) + "\n"
	}
	for _, tc := range []struct {
		name, src string
		refused   bool
	}{
		{"100,000 nested inline tables", deep(100_000, "{a = ", "}"), true},
		{"100,000 nested arrays", deep(100_000, "[", "]"), true},
		{"17 nested inline tables", deep(maxNesting+1, "{a = ", "}"), true},
		{"10,000 inline tables 14 deep", "table = 1\n\n[game]\nx = [" + strings.Repeat(strings.Repeat("{a = ", 14)+"1"+strings.Repeat("}", 14)+",", 10_000) + "]\n", true},
		{"brackets in strings and comments", "event = \"{{{{{{{{{{{{{{{{{{{{[[[[[[[[[[[[[[[[[[\"\n" +
			"# {{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{\n" + "language = '''\n[[[[[[[[[[[[[[[[[[[[[[\n'''\n", false},
		{"the shipped nesting", "[alerts]\nevents = [\"flag\", \"illegal\"]\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := Parse([]byte(tc.src), "k.toml")
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
			var ce *Error
			nested := errors.As(err, &ce) && len(ce.Problems) == 1 && (strings.Contains(ce.Problems[0].Msg, "nested more than") ||
				strings.Contains(ce.Problems[0].Msg, "inline tables or table headers"))
			if nested != tc.refused {
				t.Fatalf("refused for nesting %v, want %v (err %v)", nested, tc.refused, err)
			}
			if tc.refused && ce.Problems[0].Line != 4 {
				t.Errorf("line %d, want 4", ce.Problems[0].Line)
			}
		})
	}
}

// TestEveryWrongTypeListed: a file with seven values of the wrong type lists all seven, each with
// its key and line (the decoder stops at the first; it used to be the only one said).
func TestEveryWrongTypeListed(t *testing.T) {
	src := "table = \"three\"\nevent = 5\nlanguage = 1\n\n[camera]\nwidth = \"wide\"\nfps = \"fast\"\n\n[pins]\nblack = 17\ndebounce = true\n"
	_, err := Parse([]byte(src), "k.toml")
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ce.Problems {
		got = append(got, fmt.Sprintf("%d:%s", p.Line, p.Key))
	}
	want := "1:table 2:event 3:language 6:camera.width 7:camera.fps 10:pins.black 11:pins.debounce"
	if strings.Join(got, " ") != want {
		t.Errorf("problems %v, want %s\n%v", got, want, ce)
	}
	// A syntax error after a wrong type: the wrong type and the syntax error, nothing invented.
	_, err = Parse([]byte("table = \"x\"\n[pins\n"), "k.toml")
	if !errors.As(err, &ce) || len(ce.Problems) < 1 {
		t.Fatalf("%v", err)
	}
}
