package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLatestWithoutAnAnswer: `make e2e-latest` (run.sh with
// CLAUDE_CODE_VERSION=latest) fails, saying why, when npm names no release
// (it cannot reach its registry, or prints something else), and runs
// nothing: a check of the newest release that quietly ran none would pass.
func TestLatestWithoutAnAnswer(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("run.sh wants tmux before it asks npm; not installed here")
	}
	for _, tt := range []struct {
		name, npm, want string
		wantLog         bool
	}{
		{"npm cannot reach its registry",
			`echo "npm error code ECONNREFUSED" >&2; exit 1`,
			"is its registry (http://registry.invalid/) reachable?", true},
		{"npm answers no release number",
			`echo "../../elsewhere"`,
			`npm named "../../elsewhere" as the latest Claude Code, which is not a release number`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bin := t.TempDir()
			npm := "#!/bin/sh\n" +
				`if [ "$1" = config ]; then echo http://registry.invalid/; exit 0; fi` + "\n" +
				`if [ "$1" != view ]; then echo "npm $* must not run" >&2; exit 3; fi` + "\n" +
				tt.npm + "\n"
			if err := os.WriteFile(filepath.Join(bin, "npm"), []byte(npm), 0o755); err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			cmd := exec.Command("bash", "run.sh")
			cmd.Env = append(os.Environ(),
				"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
				"CLAUDE_CODE_VERSION=latest", "HUD_E2E=", "CI=", "TMPDIR="+tmp)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != 1 {
				t.Fatalf("run.sh: %v, want exit status 1; output:\n%s", err, out)
			}
			if !strings.Contains(string(out), tt.want) {
				t.Errorf("run.sh said:\n%s\nwant it to say %q", out, tt.want)
			}
			// npm's own words are kept where the message says, in the
			// caller's temp dir, not in the cache other checkouts share.
			if logs, _ := filepath.Glob(filepath.Join(tmp, "hud-e2e-npm-view.*")); tt.wantLog != (len(logs) == 1 && strings.Contains(string(out), logs[0])) {
				t.Errorf("npm's log kept: %v, want %v; output:\n%s", logs, tt.wantLog, out)
			}
			for _, ran := range []string{"must not run", "installing", "=== RUN"} {
				if strings.Contains(string(out), ran) {
					t.Errorf("run.sh went on (%q):\n%s", ran, out)
				}
			}
		})
	}
}
