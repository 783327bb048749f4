package opencode

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/hook"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/store"
)

// hookSource is how hud-hook reads opencode. It has no command hooks:
// hud's plugin (opencode.js, which `hud install opencode` puts in
// ~/.config/opencode/plugins/) runs in the opencode process and runs
// `hud-hook opencode <event>` for each bus event that carries state, the
// event's properties on stdin with the plugin's directory beside them,
// one at a time and without opencode waiting for them. The decoder maps
// them onto Claude Code's events:
//
//   - chat.message (the plugin's own, from opencode's hook of that Name:
//     the person's prompt) is UserPromptSubmit; session.created is
//     SessionStart (at the first prompt, like Codex).
//   - session.status busy, fired at every step of a turn, is a sign of
//     work: PostToolUse without a tool, which keeps an open dialog open.
//     retry (the model's API failed, opencode tries again) carries nothing.
//   - session.status idle and session.idle (both fire) end the turn: Stop.
//     session.error ends it too, as StopFailure with the error, unless it
//     is the person's own Esc (MessageAbortedError), whose idle follows.
//   - permission.asked is the dialog (PermissionRequest; bash's command as
//     Bash's); permission.replied, which the plugin gives the ask's
//     request again, is the call going on (PostToolUse of the same call),
//     or, rejected, the turn's end. question.asked / question.replied are
//     the same for opencode's question tool, read as AskUserQuestion.
//   - session.deleted is SessionEnd. Nothing fires when opencode exits:
//     its sessions end with its process (the lock holder).
var hookSource = hook.Source{
	Name:    Name,
	Process: "opencode",
	Decode:  decode,
	// opencode is one Bun binary, named opencode, running the plugin.
	IsProcess: func(paths.Layout) func(proc.Process) bool { return isOpencode },
}

var isOpencode = proc.IsExecutable("opencode")

// payload is what hud's plugin sends: an event's properties, with
// the plugin's directory and, for an answer, the request it answers.
type payload struct {
	SessionID string `json:"sessionID"`
	Directory string `json:"directory"`
	Info      struct {
		Directory string `json:"directory"`
	} `json:"info"`
	Prompt string `json:"prompt"` // chat.message
	Status struct {
		Type string `json:"type"`
	} `json:"status"`
	Error *struct {
		Name string `json:"name"`
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
	} `json:"error"`
	Reply string `json:"reply"` // permission.replied: once, always, reject
	// permission.asked
	Permission string   `json:"permission"`
	Patterns   []string `json:"patterns"`
	Metadata   struct {
		Command string `json:"command"`
	} `json:"metadata"`
	// question.asked
	Questions json.RawMessage `json:"questions"`
	// Asked is, on an answer, the request it answers (permission.asked's
	// or question.asked's properties), kept by the plugin.
	Asked *payload `json:"asked"`
}

func decode(event string, b []byte) (*hook.Event, error) {
	var p payload
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("decoding opencode %s: %w", event, err)
	}
	if event == "" {
		return nil, errors.New("decoding opencode event: no event named (hud-hook opencode <event>)")
	}
	if err := store.CheckSessionID(p.SessionID); err != nil {
		return nil, fmt.Errorf("decoding opencode %s: %w", event, err)
	}
	ev := &hook.Event{SessionID: p.SessionID, CWD: p.Directory}
	if p.Info.Directory != "" {
		ev.CWD = p.Info.Directory
	}
	switch event {
	case "session.created":
		ev.HookEventName, ev.Source = hook.EventSessionStart, "startup"
	case "chat.message":
		ev.HookEventName, ev.Prompt = hook.EventUserPromptSubmit, p.Prompt
	case "session.status":
		switch p.Status.Type {
		case "busy":
			ev.HookEventName = hook.EventPostToolUse
		case "idle":
			ev.HookEventName = hook.EventStop
		default:
			return nil, nil
		}
	case "session.idle":
		ev.HookEventName = hook.EventStop
	case "session.error":
		if p.Error == nil || p.Error.Name == "MessageAbortedError" {
			return nil, nil
		}
		ev.HookEventName = hook.EventStopFailure
		ev.Error, _ = json.Marshal(map[string]string{"message": cmp.Or(p.Error.Data.Message, p.Error.Name)})
	case "permission.asked":
		ev.HookEventName = hook.EventPermissionRequest
		ev.ToolName, ev.ToolInput = tool(&p)
	case "permission.replied", "question.replied", "question.rejected":
		if p.Reply == "reject" || event == "question.rejected" || p.Asked == nil {
			ev.HookEventName = hook.EventStop
			break
		}
		ev.HookEventName = hook.EventPostToolUse
		ev.ToolName, ev.ToolInput = tool(p.Asked)
	case "question.asked":
		ev.HookEventName = hook.EventPermissionRequest
		ev.ToolName, ev.ToolInput = tool(&p)
	case "session.deleted":
		ev.HookEventName = hook.EventSessionEnd
	default:
		return nil, nil
	}
	return ev, nil
}

// tool is the tool an ask is about, as Claude Code names it: a
// question is AskUserQuestion (with the same questions), bash is Bash with
// its command, any other permission its name with the patterns it asks
// for.
func tool(p *payload) (string, json.RawMessage) {
	switch {
	case len(p.Questions) > 0:
		in, _ := json.Marshal(map[string]json.RawMessage{"questions": p.Questions})
		return answer.AskUserQuestion, in
	case p.Permission == "bash":
		in, _ := json.Marshal(map[string]string{"command": cmp.Or(p.Metadata.Command, strings.Join(p.Patterns, " "))})
		return "Bash", in
	}
	name := p.Permission
	if name != "" {
		name = strings.ToUpper(name[:1]) + name[1:]
	}
	in, _ := json.Marshal(map[string]string{"pattern": strings.Join(p.Patterns, ", ")})
	return name, in
}
