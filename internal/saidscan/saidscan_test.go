package saidscan

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestScan(t *testing.T) {
	dir := t.TempDir()
	src := "package x\n\nfunc f(v string) {\n\t_ = phrase(\"Hello {{.Color}}.\", \"Color\", word(\"Black\"))\n\t_ = phrase(\"Bye.\")\n}\n"
	os.WriteFile(filepath.Join(dir, "a.go"), []byte(src), 0o644)
	os.WriteFile(filepath.Join(dir, "a_test.go"), []byte("package x\n\nvar _ = phrase(\"not scanned\")\n"), 0o644)
	s, err := Scan(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Templates, []string{"Hello {{.Color}}.", "Bye."}) || !slices.Equal(s.Words, []string{"Black"}) {
		t.Fatalf("%+v", s)
	}
	os.WriteFile(filepath.Join(dir, "b.go"), []byte("package x\n\nfunc g(v string) { _ = phrase(v) }\n"), 0o644)
	if _, err := Scan(dir); err == nil || !strings.Contains(err.Error(), "without a string literal") {
		t.Fatalf("a phrase of a variable: err %v", err)
	}
}
