package errtext

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestStrip(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"referee: not possible now: the game is already set up (one game per journal directory)",
			"not possible now: the game is already set up (one game per journal directory)"},
		{"config: /etc/tengen/kiosk.toml: open /etc/tengen/kiosk.toml: no such file or directory",
			"/etc/tengen/kiosk.toml: open /etc/tengen/kiosk.toml: no such file or directory"},
		{"demo journal: vision: camera helper kiosk-camera not found", "demo journal: camera helper kiosk-camera not found"},
		{"calib: no board found: too few straight lines", "no board found: too few straight lines"},
		{"vision: /dev/video0: calib: vision: x", "/dev/video0: x"},
		{"set the clock: 5:00 left", "set the clock: 5:00 left"}, // not a package name
		{"the clock: runs", "the clock: runs"},                   // a word inside a part
		{"referee", "referee"},                                   // the last part stays
		{"referee: ", ""},
		{"", ""},
		{"Referee: wrong", "Referee: wrong"}, // package names are lower case
	} {
		if got := Strip(c.in); got != c.want {
			t.Errorf("Strip(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if Text(nil) != "" {
		t.Error("Text(nil) is not empty")
	}
}

// Text changes the words only: the error it reads still matches with errors.Is and errors.As.
func TestTextKeepsTheError(t *testing.T) {
	base := errors.New("referee: wrong director PIN")
	err := fmt.Errorf("config: load: %w", &fs.PathError{Op: "open", Path: "kiosk.toml", Err: base})
	if got := Text(err); got != "load: open kiosk.toml: wrong director PIN" {
		t.Errorf("Text = %q", got)
	}
	var pe *fs.PathError
	if !errors.Is(err, base) || !errors.As(err, &pe) {
		t.Error("the error lost its chain")
	}
}

// Every package of the module is a known prefix (a new package's errors would keep theirs).
func TestEveryPackageIsKnown(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^package ([a-z0-9_]+)\s*$`)
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if m := re.FindSubmatch(b); m != nil && string(m[1]) != "main" {
			seen[string(m[1])] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 20 {
		t.Fatalf("only %d packages found", len(seen))
	}
	for p := range seen {
		if !isPrefix(p) {
			t.Errorf("package %s is not in the prefixes", p)
		}
	}
}
