// Command funclen fails when a function of the product is longer than the
// house allows: a function that does not fit on a screen hides its steps.
// Tests and the scripts that drive them are not product code.
//
//	go run ./scripts/funclen [-max 80] DIR...
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	maxLines := flag.Int("max", 80, "the most lines a function may span, braces included")
	flag.Parse()
	long, err := longFuncs(flag.Args(), *maxLines)
	if err != nil {
		fmt.Fprintln(os.Stderr, "funclen:", err)
		os.Exit(2)
	}
	for _, l := range long {
		fmt.Println(l)
	}
	if len(long) > 0 {
		fmt.Fprintf(os.Stderr, "funclen: %d functions over %d lines; split them into steps with names\n", len(long), *maxLines)
		os.Exit(1)
	}
}

// longFuncs lists, as "file:line: name is N lines", every function declared
// in a non-test Go file under roots that spans more than maxLines lines.
func longFuncs(roots []string, maxLines int) ([]string, error) {
	fset := token.NewFileSet()
	var long []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			for _, decl := range f.Decls {
				fn, ok := decl.(*ast.FuncDecl)
				if !ok || fn.Body == nil {
					continue
				}
				start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
				if n := end.Line - start.Line + 1; n > maxLines {
					long = append(long, fmt.Sprintf("%s:%d: %s is %d lines", path, start.Line, fn.Name.Name, n))
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return long, nil
}
