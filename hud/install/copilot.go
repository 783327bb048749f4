package install

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
)

// Copilot is GitHub's Copilot CLI. It reads every *.json in its hooks
// directory (~/.copilot/hooks, or $COPILOT_HOME/hooks), so hud's hooks go
// into a file of their own, hud.json: the person's files are never
// touched. The format is Copilot's ("version": 1, each event an array of
// handlers, no matcher groups), and its payloads do not name their event,
// so each handler passes it: `hud-hook copilot <event>`.
var Copilot = Agent{
	Name:  "copilot",
	Label: "Copilot CLI",
	Files: []AgentFile{{
		What: "hooks",
		Path: copilotHooksFile,
		Install: func(opts Options) (Result, error) {
			res, err := edit(opts, func(root *node) (bool, error) {
				return addCopilotHooks(root, ShellQuote(opts.HookPath))
			}, false)
			res.Events = copilotEvents
			return res, err
		},
		Uninstall: func(opts Options) (Result, error) {
			return edit(opts, removeCopilotHooks, true)
		},
		Problem: copilotProblem,
	}},
}

// copilotEvents are Copilot's hook events that carry state. Left out:
// permissionRequest, which fires for every tool call, also the ones the
// person allowed for good (the open dialog is notification's
// permission_prompt), and preCompact, subagentStop, whose ends Copilot
// does not report.
var copilotEvents = []string{
	"sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse",
	"postToolUseFailure", "notification", "errorOccurred", "agentStop", "sessionEnd",
}

// copilotTimeout is the handler's timeout in seconds (timeoutSec).
const copilotTimeout = DefaultTimeout

func copilotHandler(command string) *node {
	return newObject(
		field("type", newScalar("command")),
		field("command", newScalar(command)),
		field("timeoutSec", newScalar(copilotTimeout)),
	)
}

// copilotHome is Copilot's directory: $COPILOT_HOME, else ~/.copilot.
func copilotHome(e AgentEnv) string {
	if h := e.getenv("COPILOT_HOME"); filepath.IsAbs(h) {
		return h
	}
	return filepath.Join(e.Home, ".copilot")
}

func copilotHooksFile(e AgentEnv) string { return filepath.Join(copilotHome(e), "hooks", "hud.json") }

// addCopilotHooks makes root carry exactly one handler of ours on each
// event, naming the event; a second run changes nothing.
func addCopilotHooks(root *node, hookCmd string) (bool, error) {
	if root.kind != kindObject {
		return false, shapeError("the hooks file", "a JSON object")
	}
	changed := false
	if root.get("version") == nil {
		root.set("version", newScalar(1))
		changed = true
	}
	hooks, err := objectMember(root, "hooks")
	if err != nil {
		return false, err
	}
	for _, ev := range copilotEvents {
		want := copilotHandler(hookCmd + " copilot " + ev)
		handlers := hooks.get(ev)
		if handlers == nil {
			handlers = newArray()
			hooks.set(ev, handlers)
		}
		if handlers.kind != kindArray {
			return false, shapeError(fmt.Sprintf(`"hooks.%s"`, ev), "an array")
		}
		var ours []*node
		for _, h := range handlers.elems {
			if isOurs(h) {
				ours = append(ours, h)
			}
		}
		if len(ours) == 1 && reflect.DeepEqual(ours[0].value(), want.value()) {
			continue
		}
		removeCopilotOurs(handlers)
		handlers.elems = append(handlers.elems, want)
		handlers.dirty = true
		changed = true
	}
	return changed, nil
}

// removeCopilotOurs deletes our handlers from one event's array.
func removeCopilotOurs(handlers *node) bool {
	if handlers == nil || handlers.kind != kindArray {
		return false
	}
	kept := handlers.elems[:0:0]
	for _, h := range handlers.elems {
		if !isOurs(h) {
			kept = append(kept, h)
		}
	}
	if len(kept) == len(handlers.elems) {
		return false
	}
	handlers.elems = kept
	handlers.dirty = true
	return true
}

// removeCopilotHooks takes every handler of ours out, then the arrays and
// the "hooks" object our removal left empty, and the "version" left
// alone, so the file hud created goes away and one the person added to
// keeps theirs.
func removeCopilotHooks(root *node) (bool, error) {
	removed := removeHooksWith(root, removeCopilotOurs)
	if removed && len(root.members) == 1 && root.get("version") != nil {
		root.remove("version")
	}
	return removed, nil
}

// copilotProblem says what is missing of hud's hooks in hud.json.
func copilotProblem(_ AgentEnv, settingsPath string) string {
	return handlersProblem("copilot", settingsPath, copilotEvents, copilotCommands,
		func(event, command string) string {
			if !strings.HasSuffix(command, " copilot "+event) {
				return fmt.Sprintf("%q on %s does not name the event", command, event)
			}
			return ""
		})
}

// copilotCommands returns the commands of our handlers on event: Copilot
// lists handlers directly, without Claude's matcher groups.
func copilotCommands(hooks *node, event string) []string {
	var out []string
	if hs := hooks.get(event); hs != nil && hs.kind == kindArray {
		for _, h := range hs.elems {
			if isOurs(h) {
				cmd, _ := h.get("command").str()
				out = append(out, cmd)
			}
		}
	}
	return out
}
