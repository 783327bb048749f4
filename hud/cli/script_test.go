package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts in testdata/script run `hud` as a command: the
// test binary re-executes itself as hud (cli.Main with the real
// environment), so the scripts exercise exactly what a person runs.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"hud": func() { os.Exit(Main(os.Args[1:], OSEnv(nil))) },
	})
}

// TestScripts runs every testdata/script/*.txtar. Each gets a fresh home
// directory, $WORK/home, so nothing touches the real ~/.claude.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("testdata", "script"),
		Setup: func(e *testscript.Env) error {
			home := filepath.Join(e.WorkDir, "home")
			e.Setenv("HOME", home)
			e.Setenv("XDG_CONFIG_HOME", "")
			e.Setenv("XDG_STATE_HOME", "")
			e.Setenv("CLAUDE_CONFIG_DIR", "")
			// testscript put the hud command in a directory of its own at
			// the front of $PATH; scripts that need a PATH without anything
			// else on it use $HUDBIN.
			e.Setenv("HUDBIN", filepath.SplitList(e.Getenv("PATH"))[0])
			return os.MkdirAll(home, 0o700)
		},
		RequireExplicitExec: true,
	})
}
