package install

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/capacitor-hud/hud/hud/hookevents"
)

// An Agent is a coding agent other than Claude Code that `hud install
// <agent>` wires hud-hook into, with the same care as Claude's settings:
// order kept, a backup first, a second run changing nothing, a dry run
// writing nothing. Each agent is one file declaring its Agent and a line
// in Agents; the rest of what hud knows of it is its package under
// hud/agent. Install edits through this package's ordered tree, which the
// hook must not link, so it stays here; the registry's test checks that
// both name the same agents.
type Agent struct {
	// Name is how `hud install <name>`, `hud-hook <name>` and the store
	// name the agent.
	Name string
	// Label is the name a person knows it by ("Codex").
	Label string
	// Files are the files install edits, in order; uninstall takes hud's
	// part out of each, in reverse.
	Files []AgentFile
	// After says what the person must still do once the files are in
	// place ("" for nothing).
	After string
	// Untrusted, when set, names the events whose hud hooks the agent
	// will not run until the person trusts them.
	Untrusted func(AgentEnv) ([]string, error)
}

// An AgentFile is one file an agent's install edits.
type AgentFile struct {
	// What says what the file is to the agent ("hooks", "settings").
	What string
	// Path is the file for a home and environment.
	Path func(AgentEnv) string
	// Install puts hud's part into the file opts.SettingsPath names, the
	// hook at opts.HookPath; Uninstall takes it out.
	Install, Uninstall func(opts Options) (Result, error)
	// Problem inspects the file: what is missing of hud's part, "" when
	// it is in place.
	Problem func(AgentEnv, string) string
}

// AgentEnv is where an agent's files are: the home directory and the
// environment variables that move them (CODEX_HOME, XDG_CONFIG_HOME).
type AgentEnv struct {
	Home   string
	Getenv func(string) string
}

func (e AgentEnv) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// Agents are the agents `hud install <agent>` knows.
var Agents = []*Agent{&Codex, &Opencode, &Gemini, &Copilot}

// LookupAgent returns the agent called name.
func LookupAgent(name string) (*Agent, error) {
	var names []string
	for _, a := range Agents {
		if a.Name == name {
			return a, nil
		}
		names = append(names, a.Name)
	}
	return nil, &Error{Err: fmt.Errorf("unknown agent %q", name),
		Hint: "hud install knows Claude Code (no argument) and " + strings.Join(names, ", ")}
}

// Install wires hud-hook (opts.HookPath) into each of the agent's files,
// in order. It stops at the first file that fails and returns the results
// so far.
func (a *Agent) Install(env AgentEnv, opts Options) ([]Result, error) {
	if !filepath.IsAbs(opts.HookPath) {
		return nil, fmt.Errorf("hook path %q is not absolute", opts.HookPath)
	}
	var out []Result
	for _, f := range a.Files {
		opts.SettingsPath = f.Path(env)
		res, err := f.Install(opts)
		if err != nil {
			return out, fmt.Errorf("%s %s: %w", a.Label, f.What, err)
		}
		out = append(out, res)
	}
	return out, nil
}

// Uninstall takes hud's part out of each of the agent's files, in reverse
// order.
func (a *Agent) Uninstall(env AgentEnv, opts Options) ([]Result, error) {
	var out []Result
	for i := len(a.Files) - 1; i >= 0; i-- {
		f := a.Files[i]
		opts.SettingsPath = f.Path(env)
		res, err := f.Uninstall(opts)
		if err != nil {
			return out, fmt.Errorf("%s %s: %w", a.Label, f.What, err)
		}
		out = append(out, res)
	}
	return out, nil
}

// Problems says what of hud's part is missing from the agent's files;
// none when it is all in place.
func (a *Agent) Problems(env AgentEnv) []string {
	var out []string
	for _, f := range a.Files {
		if p := f.Problem(env, f.Path(env)); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Installed reports whether hud-hook is wired into the agent's first
// file, its hooks: whether `hud doctor` should check the agent at all.
func (a *Agent) Installed(env AgentEnv) bool {
	f := a.Files[0]
	return f.Problem(env, f.Path(env)) != errNotInstalled(f.Path(env))
}

// errNotInstalled is the problem of a file that has nothing of hud's.
func errNotInstalled(path string) string { return "hud-hook is not installed in " + path }

// agentHooks is the AgentFile of a hooks file in Claude Code's shape
// ({"hooks": {"<event>": [{"matcher": …, "hooks": [handler]}]}}), which
// Codex, Gemini CLI and Copilot CLI read: hud's handler runs `hud-hook
// <agent>` on each of events. handler builds the handler object from the
// command; matcher, when set, is the tool matcher of events that take one.
func agentHooks(agent, what string, path func(AgentEnv) string, events []hookevents.Spec, handler func(command string) *node, matcher string) AgentFile {
	ourGroup := func(hookCmd string) func(hookevents.Spec) *node {
		return func(e hookevents.Spec) *node {
			var ms []member
			if e.Tool && matcher != "" {
				ms = append(ms, field("matcher", newScalar(matcher)))
			}
			ms = append(ms, field("hooks", newArray(handler(hookCmd+" "+agent))))
			return newObject(ms...)
		}
	}
	return AgentFile{
		What: what,
		Path: path,
		Install: func(opts Options) (Result, error) {
			res, err := edit(opts, func(root *node) (bool, error) {
				return addGroups(root, events, ourGroup(ShellQuote(opts.HookPath)))
			}, false)
			res.Events = hookevents.Names(events)
			return res, err
		},
		Uninstall: func(opts Options) (Result, error) {
			return edit(opts, func(root *node) (bool, error) { return removeHooks(root), nil }, true)
		},
		Problem: func(_ AgentEnv, p string) string {
			return hooksProblem(agent, p, hookevents.Names(events))
		},
	}
}

// hooksProblem inspects a hooks file in Claude Code's shape: "" when
// hud-hook runs on every one of events and can be run.
func hooksProblem(agent, settingsPath string, events []string) string {
	return handlersProblem(agent, settingsPath, events, ourCommands, nil)
}

// handlersProblem inspects a hooks file: ours lists the commands of hud's
// handlers on an event, check (when set) says what is wrong with one of
// them. "" when hud-hook runs on every one of events and can be run.
func handlersProblem(agent, settingsPath string, events []string, ours func(hooks *node, event string) []string, check func(event, command string) string) string {
	path, err := resolve(settingsPath)
	if err != nil {
		return err.Error()
	}
	data, _, err := read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return errNotInstalled(settingsPath)
	}
	if err != nil {
		return err.Error()
	}
	doc, err := parseSettings(path, data)
	if err != nil {
		return err.Error()
	}
	var hooks *node
	if doc.root.kind == kindObject {
		hooks = doc.root.get("hooks")
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
		return errNotInstalled(settingsPath)
	case len(missing) > 0:
		return fmt.Sprintf("%s lacks hud-hook on %s: run 'hud install %s' again", settingsPath, strings.Join(missing, ", "), agent)
	}
	if _, err := CheckExecutable(prog); err != nil {
		return fmt.Sprintf("%s runs %s, which cannot be run (%v): run 'hud install %s' again", settingsPath, prog, err, agent)
	}
	return ""
}
