package install

import (
	"os"
	"slices"
	"testing"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/resolver"
)

func TestRememberAndForgetConfigDirs(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	steps := []struct {
		op      string // "+" remember, "-" forget
		dir     string
		changed bool
		want    []string
	}{
		{"+", l.DefaultConfigDir(), false, nil}, // followed anyway: never listed
		{"+", "/w/.claude-work", true, []string{"/w/.claude-work"}},
		{"+", "/w/.claude-work", false, []string{"/w/.claude-work"}},
		{"+", "/w/.claude-b", true, []string{"/w/.claude-work", "/w/.claude-b"}},
		{"-", "/w/.claude-work", true, []string{"/w/.claude-b"}},
		{"-", "/w/.claude-work", false, []string{"/w/.claude-b"}},
		{"-", "/w/.claude-b", true, []string{}},
	}
	for i, s := range steps {
		f := RememberConfigDir
		if s.op == "-" {
			f = ForgetConfigDir
		}
		changed, err := f(l, s.dir)
		if err != nil || changed != s.changed {
			t.Fatalf("step %d (%s%s): changed %v, %v; want %v", i, s.op, s.dir, changed, err, s.changed)
		}
		list, err := resolver.LoadConfigDirList(l)
		if err != nil {
			t.Fatal(err)
		}
		if len(list.ConfigDirs) != len(s.want) || !slices.Equal(list.ConfigDirs, s.want) && len(s.want) > 0 {
			t.Errorf("step %d (%s%s): list %q, want %q", i, s.op, s.dir, list.ConfigDirs, s.want)
		}
	}
	if fi, err := os.Stat(l.ConfigDirsPath()); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("config-dirs.json: %v, %v; want mode 0600", fi.Mode(), err)
	}
}

// A list that does not parse is never written over: it would lose what
// it names.
func TestRememberKeepsABrokenList(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	must(t, os.MkdirAll(l.StoreDir(), 0o700))
	must(t, os.WriteFile(l.ConfigDirsPath(), []byte("{"), 0o600))
	if _, err := RememberConfigDir(l, "/w/.claude-work"); err == nil || HintOf(err) == "" {
		t.Errorf("err = %v, want one with a hint", err)
	}
	if b, _ := os.ReadFile(l.ConfigDirsPath()); string(b) != "{" {
		t.Errorf("the broken list was rewritten: %q", b)
	}
}
