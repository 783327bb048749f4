package attention

import (
	"testing"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/view"
)

func TestWaitKind(t *testing.T) {
	dialog := func(tool, subject string) *answer.Request {
		return &answer.Request{Tool: tool, Subject: subject}
	}
	for _, tc := range []struct {
		name       string
		waitingFor string
		dialog     *answer.Request
		want       string
	}{
		{"a command", "Bash: curl -H 'Authorization: Bearer s3cr3t' https://x", nil, "permission for Bash"},
		{"a tool alone", "Bash", nil, "permission for Bash"},
		{"a file", "Edit: src/secrets.env", nil, "permission for Edit"},
		{"another agent's tool", "run_shell_command: rm -rf build", nil, "permission for run_shell_command"},
		{"opencode's capitalised name", "Webfetch: https://intranet/x", nil, "permission for Webfetch"},
		{"an MCP tool", "mcp__github__create_issue: title", nil, "permission for mcp__github__create_issue"},
		{"an MCP name that is not a name", "mcp__x y: z", nil, "waiting"},
		{"a plan", "plan approval", nil, "plan approval"},
		{"a question", "Deploy: push to prod with key AKIA…?", nil, "waiting"},
		{"a question with a header like a tool", "Auth method: which?", nil, "waiting"},
		{"a question with no text", "AskUserQuestion", nil, "a question"},
		{"an MCP server's question", "vault: enter the token", nil, "waiting"},
		{"a notification's words", "Claude needs your permission", nil, "waiting"},
		{"Claude's own file", "dialog open", nil, "waiting"},
		{"nothing recorded", "", nil, "waiting"},
		{"the dialog's question", "Deploy: now?", dialog(answer.AskUserQuestion, "Deploy now?"), "a question"},
		{"the dialog's plan", "plan approval", dialog(answer.ExitPlanMode, ""), "plan approval"},
		{"the dialog's tool", "Bash: make", dialog("Bash", "make"), "permission for Bash"},
		{"the dialog's unlisted tool", "Frobnicate: x", dialog("Frobnicate", "x"), "permission for Frobnicate"},
		{"the dialog's tool that is not a name", "x", dialog("Bash; curl evil", "x"), "a permission"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := view.Session{WaitingFor: tc.waitingFor, Dialog: tc.dialog}
			if got := waitKind(s); got != tc.want {
				t.Errorf("waitKind(%q) = %q, want %q", tc.waitingFor, got, tc.want)
			}
		})
	}
}
