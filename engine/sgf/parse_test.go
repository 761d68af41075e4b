package sgf

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// treesEqual compares two collections property by property, without recursion.
func treesEqual(a, b *Collection) error {
	if len(a.Games) != len(b.Games) {
		return fmt.Errorf("%d games vs %d", len(a.Games), len(b.Games))
	}
	type pair struct{ x, y *Node }
	var stack []pair
	for i := range a.Games {
		stack = append(stack, pair{a.Games[i], b.Games[i]})
	}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if len(p.x.Props) != len(p.y.Props) {
			return fmt.Errorf("node at %d: %d properties vs %d", p.x.Offset, len(p.x.Props), len(p.y.Props))
		}
		for i := range p.x.Props {
			px, py := p.x.Props[i], p.y.Props[i]
			if px.ID != py.ID || !slices.Equal(px.Values, py.Values) {
				return fmt.Errorf("node at %d: %s%q vs %s%q", p.x.Offset, px.ID, px.Values, py.ID, py.Values)
			}
		}
		if len(p.x.Children) != len(p.y.Children) {
			return fmt.Errorf("node at %d: %d children vs %d", p.x.Offset, len(p.x.Children), len(p.y.Children))
		}
		for i := range p.x.Children {
			stack = append(stack, pair{p.x.Children[i], p.y.Children[i]})
		}
	}
	return nil
}

func TestParseStructure(t *testing.T) {
	src := "junk before (;GM[1]FF[4]SZ[19]C[a \\] b \\\\ c\\\nd]AB[aa][bb:cc]\n;B[dd] ;W[ee](;B[ff];W[])(;B[gg]C[line1\r\nline2]))(;SZ[9])trailing"
	c, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Games) != 2 {
		t.Fatalf("games = %d, want 2", len(c.Games))
	}
	root := c.Games[0]
	if v, _ := root.Get("C"); v != "a ] b \\ cd" {
		t.Errorf("C = %q", v)
	}
	if p := root.Prop("AB"); p == nil || !slices.Equal(p.Values, []string{"aa", "bb:cc"}) {
		t.Errorf("AB = %v", p)
	}
	line := root.MainLine()
	if len(line) != 5 {
		t.Fatalf("main line has %d nodes, want 5", len(line))
	}
	w := line[2]
	if len(w.Children) != 2 {
		t.Fatalf("variations = %d, want 2", len(w.Children))
	}
	if v, _ := w.Children[1].Get("C"); v != "line1\nline2" {
		t.Errorf("variation comment = %q", v)
	}
	if v, ok := line[4].Get("W"); !ok || v != "" {
		t.Errorf("pass = %q %v", v, ok)
	}
	if root.Offset != len("junk before (") {
		t.Errorf("root offset = %d", root.Offset)
	}
}

func TestParseFF3Identifiers(t *testing.T) {
	c, err := Parse([]byte("(;AddBlack[aa]CoPyright[x])"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Games[0].Get("AB"); !ok {
		t.Error("AddBlack not read as AB")
	}
	if _, ok := c.Games[0].Get("CP"); !ok {
		t.Error("CoPyright not read as CP")
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, src string
		offset    int
	}{
		{"empty", "", 0},
		{"no tree", "hello", 5},
		{"unclosed tree", "(;B[aa]", 7},
		{"unclosed value", "(;C[abc", 3},
		{"empty tree", "(;B[aa]())", 8},
		{"variation first", "((;B[aa]))", 1},
		{"no value", "(;B ;W[aa])", 2},
		{"node after variation", "(;B[aa](;W[bb]);B[cc])", 15},
		{"junk", "(;B[aa]?)", 7},
		{"lowercase id", "(;b[aa])", 2},
		{"value without id", "(;[aa])", 2},
		{"escape at end", "(;C[\\", 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want *SyntaxError", err)
			}
			if se.Offset != tc.offset {
				t.Errorf("offset = %d, want %d (%v)", se.Offset, tc.offset, se)
			}
		})
	}
}

func TestCharsets(t *testing.T) {
	cases := []struct {
		name string
		src  []byte
		want string
	}{
		{"utf8", []byte("(;CA[UTF-8]PB[Dvo\xc5\x99\xc3\xa1k])"), "Dvořák"},
		{"latin1", []byte("(;CA[ISO-8859-1]PB[M\xfcller];C[\xe9t\xe9])"), "Müller"},
		{"latin1 alias", []byte("(;CA[latin1]PB[M\xfcller])"), "Müller"},
		{"cp1252", []byte("(;CA[windows-1252]PB[\x80 \xe9])"), "€ é"},
		{"invalid utf8", []byte("(;CA[UTF-8]PB[a\xff\xfeb])"), "a\uFFFDb"},
		{"no CA invalid", []byte("(;PB[\xb0\xa1])"), "\uFFFD"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if v, _ := c.Games[0].Get("PB"); v != tc.want {
				t.Errorf("PB = %q, want %q", v, tc.want)
			}
			if v, ok := c.Games[0].Get("CA"); ok && v != "UTF-8" {
				t.Errorf("CA = %q after conversion, want UTF-8", v)
			}
		})
	}
	c, _ := Parse([]byte("(;CA[ISO-8859-1]PB[x];C[\xe9t\xe9])"))
	if v, _ := c.Games[0].Children[0].Get("C"); v != "été" {
		t.Errorf("latin1 in a later node = %q", v)
	}
}

func TestRoundTripGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "roundtrip", "*.sgf"))
	if len(files) == 0 {
		t.Fatal("no testdata/roundtrip/*.sgf")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			out := c.Marshal()
			golden := f[:len(f)-len(".sgf")] + ".golden"
			if *update {
				os.WriteFile(golden, out, 0o644)
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != string(want) {
				t.Errorf("Marshal differs from %s:\n%s", golden, out)
			}
			c2, err := Parse(out)
			if err != nil {
				t.Fatalf("reparse: %v", err)
			}
			if err := treesEqual(c, c2); err != nil {
				t.Error(err)
			}
		})
	}
}
