package attention

import (
	"strings"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/view"
)

// waitKind says what kind of dialog s waits on, in words that hold
// nothing of the dialog's subject: "permission for Bash", "a question",
// "plan approval", "a permission", else "waiting". The away push says
// this much by default (notifications.push_detail "session"): the push
// leaves the machine, and a command or a question may hold a secret.
//
// The dialog the tray was offered (hud answer on) names its tool. Without
// it, what the session waits for is the store's one line, whose words
// before ": " are a tool's name for a permission dialog but a question's
// header or an MCP server's name for other dialogs; so they are named only
// when they are a tool hud knows. Anything else reads "waiting": less,
// never wrong, and never the subject.
func waitKind(s view.Session) string {
	if d := s.Dialog; d != nil {
		switch {
		case d.Tool == answer.AskUserQuestion:
			return "a question"
		case d.Tool == answer.ExitPlanMode:
			return "plan approval"
		case plainName(d.Tool):
			return "permission for " + d.Tool
		}
		return "a permission"
	}
	if s.WaitingFor == "plan approval" {
		return "plan approval" // hook.describeDialog's words for ExitPlanMode
	}
	name, _, _ := strings.Cut(s.WaitingFor, ": ")
	switch {
	case name == answer.AskUserQuestion:
		return "a question" // a question whose text could not be read
	case name == answer.ExitPlanMode:
		return "plan approval"
	case knownTool(name):
		return "permission for " + name
	}
	return "waiting"
}

// knownTool reports whether name is a tool that asks permission in one of
// the agents hud follows, or an MCP server's tool (mcp__server__tool).
// A name not listed makes the push say "waiting": the list needs no
// completeness, only no words that are not tools.
func knownTool(name string) bool {
	if !plainName(name) {
		return false
	}
	if strings.HasPrefix(name, "mcp__") {
		return true
	}
	return permissionTools[strings.ToLower(name)]
}

// permissionTools are the tools that ask the person's permission, by
// lowercase name: Claude Code's, Codex's, Gemini CLI's, Copilot CLI's and
// opencode's (whose permission names hud/agent/opencode capitalises).
var permissionTools = map[string]bool{
	// Claude Code (and Codex, whose shell calls are named Bash)
	"agent": true, "bash": true, "bashoutput": true, "edit": true, "glob": true,
	"grep": true, "killshell": true, "ls": true, "multiedit": true,
	"notebookedit": true, "powershell": true, "read": true, "skill": true,
	"slashcommand": true, "task": true, "webfetch": true, "websearch": true,
	"write": true, "apply_patch": true,
	// Gemini CLI ("Shell" is hud's name for its command dialogs)
	"shell": true, "run_shell_command": true, "write_file": true, "replace": true,
	"read_file": true, "read_many_files": true, "web_fetch": true,
	"google_web_search": true, "list_directory": true, "search_file_content": true,
	// Copilot CLI and opencode
	"create": true, "view": true, "list": true, "codesearch": true,
	"external_directory": true,
}

// maxToolName bounds a tool's name in the push: a name is a word, not a
// sentence.
const maxToolName = 64

// plainName reports whether name reads as a tool's name: ASCII letters,
// digits, '_', '-' and '.', at most maxToolName of them. Anything else
// (spaces, punctuation, control characters) could be text, not a name.
func plainName(name string) bool {
	if name == "" || len(name) > maxToolName {
		return false
	}
	for _, r := range name {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '_', r == '-', r == '.':
		default:
			return false
		}
	}
	return true
}
