package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLongFuncs(t *testing.T) {
	body := func(lines int) string { return strings.Repeat("\t_ = 0\n", lines) }
	dir := t.TempDir()
	files := map[string]string{
		// 80 lines with its braces: allowed.
		"ok.go": "package p\n\nfunc fits() {\n" + body(78) + "}\n",
		// 81 lines: one too many.
		"long.go": "package p\n\nfunc tooLong() {\n" + body(79) + "}\n\nfunc (T) short() {}\n\ntype T struct{}\n",
		// Tests and fixtures are not product code.
		"long_test.go":          "package p\n\nfunc TestX() {\n" + body(200) + "}\n",
		"testdata/fixture.go":   "package p\n\nfunc fixture() {\n" + body(200) + "}\n",
		".hidden/generated.go":  "package p\n\nfunc hidden() {\n" + body(200) + "}\n",
		"sub/nested_longer.go":  "package sub\n\nfunc nested() {\n" + body(100) + "}\n",
		"sub/declared_only.go":  "package sub\n\nfunc asm()\n",
		"sub/not_go_source.txt": "func notGo() {\n" + body(200) + "}\n",
	}
	for name, src := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := longFuncs([]string{dir}, 80)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(dir, "long.go") + ":3: tooLong is 81 lines",
		filepath.Join(dir, "sub/nested_longer.go") + ":3: nested is 102 lines",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("longFuncs =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	if _, err := longFuncs([]string{filepath.Join(dir, "missing")}, 80); err == nil {
		t.Error("a missing directory: no error")
	}
	bad := filepath.Join(dir, "bad")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bad, "broken.go"), []byte("package p\nfunc {"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := longFuncs([]string{bad}, 80); err == nil {
		t.Error("a file that does not parse: no error")
	}
}
