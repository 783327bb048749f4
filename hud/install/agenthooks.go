package install

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/capacitor-hud/hud/hud/hookevents"
)

// ClaudeHooks is a hooks file in Claude Code's shape ({"hooks":
// {"<event>": [{"matcher": …, "hooks": [handler]}]}}), which other agents
// read too (Codex's hooks.json, Gemini CLI's settings.json): hud's
// handler runs `hud-hook <Agent>` on each of Events, the payload naming
// its event.
type ClaudeHooks struct {
	// Agent is the agent's name: the hook's argument, and the command a
	// problem tells the person to run again (hud install <Agent>).
	Agent string
	// What says what the file is to the agent ("hooks", "settings").
	What string
	// Path is the file for a home and environment.
	Path func(Env) string
	// Events are the events hud's handler runs on.
	Events []hookevents.Spec
	// TimeoutKey and Timeout are the handler's timeout field and its
	// value, in the agent's unit; no field when TimeoutKey is "".
	TimeoutKey string
	Timeout    int
	// Matcher, when set, is the tool matcher of the events that take one
	// (Spec.Tool); without one an agent may match every tool.
	Matcher string
}

// File is the File install edits.
func (h ClaudeHooks) File() File {
	group := func(hookCmd string) func(hookevents.Spec) *node {
		return func(e hookevents.Spec) *node {
			var ms []member
			if e.Tool && h.Matcher != "" {
				ms = append(ms, field("matcher", newScalar(h.Matcher)))
			}
			handler := agentHandler(hookCmd+" "+h.Agent, h.TimeoutKey, h.Timeout)
			return newObject(append(ms, field("hooks", newArray(handler)))...)
		}
	}
	names := hookevents.Names(h.Events)
	return File{
		What: h.What,
		Path: h.Path,
		Install: func(opts Options) (Result, error) {
			res, err := edit(opts, func(root *node) (bool, error) {
				return addGroups(root, h.Events, group(ShellQuote(opts.HookPath)))
			}, false)
			res.Events = names
			return res, err
		},
		Uninstall: func(opts Options) (Result, error) {
			return edit(opts, func(root *node) (bool, error) { return removeHooks(root), nil }, true)
		},
		Problem: func(_ Env, path string) string {
			return handlersProblem(h.Agent, path, names, ourCommands, nil)
		},
	}
}

// agentHandler is hud's handler object in an agent's hooks file: a
// command, and its timeout when the agent names one (timeoutKey).
func agentHandler(command, timeoutKey string, timeout int) *node {
	ms := []member{field("type", newScalar("command")), field("command", newScalar(command))}
	if timeoutKey != "" {
		ms = append(ms, field(timeoutKey, newScalar(timeout)))
	}
	return newObject(ms...)
}

// handlersProblem inspects a hooks file: ours lists the commands of hud's
// handlers on an event, check (when set) says what is wrong with one of
// them. "" when hud-hook runs on every one of events and can be run.
func handlersProblem(agent, settingsPath string, events []string, ours func(hooks *node, event string) []string, check func(event, command string) string) string {
	hooks, problem := readHooks(settingsPath)
	if problem != "" {
		return problem
	}
	var missing []string
	prog := ""
	for _, e := range events {
		var cmds []string
		if hooks != nil && hooks.kind == kindObject {
			cmds = ours(hooks, e)
		}
		if len(cmds) == 0 {
			missing = append(missing, e)
			continue
		}
		if check != nil {
			if p := check(e, cmds[0]); p != "" {
				return fmt.Sprintf("%s: %s: run 'hud install %s' again", settingsPath, p, agent)
			}
		}
		if prog == "" {
			prog, _ = firstWord(cmds[0])
		}
	}
	switch {
	case len(missing) == len(events):
		return NotInstalledIn(settingsPath)
	case len(missing) > 0:
		return fmt.Sprintf("%s lacks hud-hook on %s: run 'hud install %s' again", settingsPath, strings.Join(missing, ", "), agent)
	}
	if _, err := CheckExecutable(prog); err != nil {
		return fmt.Sprintf("%s runs %s, which cannot be run (%v): run 'hud install %s' again", settingsPath, prog, err, agent)
	}
	return ""
}

// readHooks is the "hooks" member of a hooks file (nil for none), or the
// problem reading it: NotInstalledIn for a file that is not there.
func readHooks(settingsPath string) (hooks *node, problem string) {
	path, err := resolve(settingsPath)
	if err != nil {
		return nil, err.Error()
	}
	data, _, err := read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, NotInstalledIn(settingsPath)
	}
	if err != nil {
		return nil, err.Error()
	}
	doc, err := parseSettings(path, data)
	if err != nil {
		return nil, err.Error()
	}
	if doc.root.kind == kindObject {
		hooks = doc.root.get("hooks")
	}
	return hooks, ""
}
