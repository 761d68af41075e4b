// Package saidscan finds what the referee can say: the literal templates of its phrase("...")
// calls and the words of its word("...") calls, read from its Go sources. The referee's and the
// screens' tests use it to check that every verdict is in phrases and every phrase translated.
package saidscan

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
)

// Said is what a package's sources can say.
type Said struct {
	Templates []string // first arguments of phrase(...), in source order
	Words     []string // first arguments of word(...)
}

// Scan parses the non-test Go files of dir. A call to phrase or word with anything but a string
// literal is an error: its text could escape the translations.
func Scan(dir string) (Said, error) {
	var out Said
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return out, err
	}
	fset := token.NewFileSet()
	var errs []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			return out, err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			id, ok := call.Fun.(*ast.Ident)
			if !ok || (id.Name != "phrase" && id.Name != "word") {
				return true
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				errs = append(errs, fmt.Sprintf("%s: %s called without a string literal: its text cannot be translated", fset.Position(call.Pos()), id.Name))
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				errs = append(errs, fmt.Sprintf("%s: %v", fset.Position(lit.Pos()), err))
				return true
			}
			if id.Name == "phrase" {
				out.Templates = append(out.Templates, s)
			} else {
				out.Words = append(out.Words, s)
			}
			return true
		})
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("saidscan: %s", strings.Join(errs, "; "))
	}
	return out, nil
}
