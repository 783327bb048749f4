package hook

import (
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
)

// testSources stand for the registry's (hud/agent/registry) in this
// package's own tests, which cannot import the agents' packages (they
// import this one): Claude Code and one other agent, "other", whose
// payloads are Claude's, whose process is never found and whose dialogs
// the tray does not answer. The real agents run through the hook in
// agent_run_test.go.
var testSources = []*Source{&ClaudeCode, {
	Name:    "other",
	Process: "Other",
	Decode:  ClaudeCode.Decode,
	IsProcess: func(paths.Layout) func(proc.Process) bool {
		return func(proc.Process) bool { return false }
	},
}}

func TestLookupAgent(t *testing.T) {
	cases := []struct {
		args      []string
		name, ev  string
		wantError bool
	}{
		{args: nil, name: ""},
		{args: []string{"other"}, name: "other"},
		{args: []string{"other", "Stop"}, name: "other", ev: "Stop"},
		{args: []string{""}, wantError: true},
		{args: []string{"nosuchagent"}, wantError: true},
	}
	for _, c := range cases {
		a, ev, err := lookupSource(c.args, testSources)
		if c.wantError {
			if err == nil || !strings.Contains(err.Error(), "knows other)") {
				t.Errorf("lookupAgent(%q) = %v, want an error naming the known agents", c.args, err)
			}
			continue
		}
		if err != nil || a.Name != c.name || ev != c.ev {
			t.Errorf("lookupAgent(%q) = %q, %q, %v; want %q, %q", c.args, a.Name, ev, err, c.name, c.ev)
		}
	}
}
