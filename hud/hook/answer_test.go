package hook

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/config/settings"
)

// TestAnswerDialog runs the hook on a dialog against a tray in the same
// process: the tray's choice comes out as Claude's decision, and with
// answering off, no tray, or nothing to answer, the hook says nothing and
// does not wait.
func TestAnswerDialog(t *testing.T) {
	const (
		bash     = `{"session_id":"s1","hook_event_name":"PermissionRequest","cwd":"/p","tool_name":"Bash","tool_input":{"command":"npm test"},"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm test *"}],"behavior":"allow","destination":"localSettings"}]}`
		question = `{"session_id":"s1","hook_event_name":"PermissionRequest","cwd":"/p","tool_name":"AskUserQuestion","tool_input":{"questions":[{"question":"Which?","header":"H","options":[{"label":"A"},{"label":"B"}],"multiSelect":false}]}}`
		plan     = `{"session_id":"s1","hook_event_name":"PermissionRequest","cwd":"/p","tool_name":"ExitPlanMode","tool_input":{"plan":"x"}}`
		pre      = `{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"/p","tool_name":"Bash","tool_input":{"command":"npm test"}}`
	)
	for _, tc := range []struct {
		name    string
		on      bool
		tray    bool
		event   string
		choose  string // "" ends the request without an answer
		offered bool
		want    string
		agent   string // hud-hook's argument, "" for Claude Code
	}{
		{"allowed", true, true, bash, answer.Allow, true, `{"hookSpecificOutput":{"decision":{"behavior":"allow"},"hookEventName":"PermissionRequest"}}`, ""},
		{"always", true, true, bash, answer.Always, true, `"updatedPermissions":[{"type":"addRules"`, ""},
		{"denied", true, true, bash, answer.Deny, true, `"behavior":"deny"`, ""},
		{"a question's option", true, true, question, "B", true, `"updatedInput":{"answers":{"Which?":"B"}`, ""},
		{"ended: answered in the terminal", true, true, bash, "", true, "", ""},
		{"off", false, true, bash, answer.Allow, false, "", ""},
		{"no tray", true, false, bash, answer.Allow, false, "", ""},
		{"a plan is the terminal's", true, true, plan, answer.Allow, false, "", ""},
		{"not a dialog", true, true, pre, answer.Allow, false, "", ""},
		// The decision is written in Claude Code's format: another
		// agent's dialog stays its terminal's.
		{"another agent's dialog", true, true, bash, answer.Allow, false, "", "other"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home, err := os.MkdirTemp("", "hud-hk-") // short: a socket path is limited
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(home)
			path := settings.DefaultPath(home, func(string) string { return "" })
			if err := config.SetBool(path, "answer", "enabled", tc.on); err != nil {
				t.Fatal(err)
			}
			config.Load(path, nil) // leaves the hook its copy
			offers := make(chan answer.Request, 4)
			if tc.tray {
				var s *answer.Server
				s, err = answer.Listen(answer.SocketPath(home), os.Getuid(), t.Logf, func() {
					for _, r := range s.Pending() {
						offers <- r
						if tc.choose == "" {
							s.EndWhere(func(answer.Request) bool { return true })
						} else if _, err := s.Answer(answer.Reply{ID: r.ID, Choice: tc.choose}); err != nil {
							t.Error(err)
						}
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
			}
			var stdout, stderr bytes.Buffer
			env := testEnv(home, tc.event, &stderr)
			env.Stdout = &stdout
			env.Now = time.Now
			start := time.Now()
			var args []string
			if tc.agent != "" {
				args = []string{tc.agent}
			}
			if code := Main(args, env); code != 0 {
				t.Errorf("exit %d", code)
			}
			took := time.Since(start)
			got := stdout.String()
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("stdout %q, want %q", got, tc.want)
			}
			if n := len(offers); (n > 0) != tc.offered {
				t.Errorf("%d offers reached the tray", n)
			}
			if took > 2*time.Second {
				t.Errorf("the hook took %v", took)
			}
		})
	}
}
