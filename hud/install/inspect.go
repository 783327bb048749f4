package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/capacitor-hud/hud/hud/hookevents"
)

// Status is what a settings file says about the HUD's hooks.
type Status struct {
	// Path is the settings file inspected; Exists is false when there is none.
	Path   string
	Exists bool
	// Installed is true when every event in Events() runs hud-hook.
	Installed bool
	// Events run hud-hook; MissingEvents (from Events()) do not.
	Events, MissingEvents []string
	// HookPath is the program our handlers run (the first one found), and
	// HookPaths every distinct one, for a file edited by hand or by two
	// installs from different places.
	HookPath  string
	HookPaths []string
	// HookExecutable is false when HookPath no longer exists or cannot be
	// run: the hooks are installed but every event fails.
	HookExecutable bool
	// DialogTimeout is the timeout, in seconds, of our PermissionRequest
	// handler (0: none wired, or no timeout given): how long the hook may
	// wait there for the tray's answer.
	DialogTimeout int
	// DisableAllHooks is set when the file turns every hook off.
	DisableAllHooks bool
	// Plugins are the Claude Code plugins this file enables that run
	// hud-hook (hud's own, hud@hud), when the file is a user settings file
	// with the plugins directory beside it.
	Plugins []PluginStatus
}

// Problem describes in a few words what is wrong, for the tray's menu and
// doctor; "" when the hooks are in place and runnable, or when the file
// wires none but enables a plugin that does.
func (s Status) Problem() string {
	switch {
	case len(s.Events) == 0 && s.pluginInstalled():
		return ""
	case len(s.Events) == 0:
		return NotInstalled
	case !s.HookExecutable:
		return "Hook binary missing: " + s.HookPath
	case len(s.MissingEvents) > 0:
		return fmt.Sprintf("Hooks incomplete (%d events missing)", len(s.MissingEvents))
	case len(s.HookPaths) > 1:
		return fmt.Sprintf("Hooks point at %d different binaries", len(s.HookPaths))
	}
	return ""
}

// pluginInstalled reports whether a plugin runs hud-hook on every event.
func (s Status) pluginInstalled() bool {
	for _, p := range s.Plugins {
		if p.Installed() {
			return true
		}
	}
	return false
}

// Inspect reads a settings file without changing it. A missing file is
// not an error: it has no hooks. A file that is not JSON is (a
// *SyntaxError), because Claude Code will not run any hook from it.
func Inspect(settingsPath string) (Status, error) {
	st := Status{Path: settingsPath}
	path, err := resolve(settingsPath)
	if err != nil {
		return st, err
	}
	data, _, err := read(path)
	if errors.Is(err, fs.ErrNotExist) {
		st.MissingEvents = append([]string(nil), Events()...)
		return st, nil
	}
	if err != nil {
		return st, err
	}
	st.Exists = true
	doc, err := parseSettings(path, data)
	if err != nil {
		return st, err
	}
	root := doc.root
	if root.kind != kindObject {
		return st, fmt.Errorf("%s: %w", path, shapeError("the settings file", "a JSON object"))
	}
	if v := root.get("disableAllHooks"); v != nil && string(v.raw) == "true" {
		st.DisableAllHooks = true
	}
	// The plugins directory is beside the settings file as Claude Code
	// names it, not beside a symlink's target (a dotfiles checkout).
	st.Plugins = InspectPlugins(filepath.Dir(settingsPath), []string{path})
	hooks := root.get("hooks")
	seen := map[string]bool{}
	for _, event := range Events() {
		var cmds []string
		if hooks != nil && hooks.kind == kindObject {
			cmds = ourCommands(hooks, event)
		}
		if len(cmds) == 0 {
			st.MissingEvents = append(st.MissingEvents, event)
			continue
		}
		st.Events = append(st.Events, event)
		for _, c := range cmds {
			prog, _ := firstWord(c)
			if !seen[prog] {
				seen[prog] = true
				st.HookPaths = append(st.HookPaths, prog)
			}
		}
	}
	if len(st.HookPaths) > 0 {
		st.HookPath = st.HookPaths[0]
		st.HookExecutable = true
		for _, p := range st.HookPaths {
			st.HookExecutable = st.HookExecutable && isExecutable(p)
		}
	}
	if hooks != nil && hooks.kind == kindObject {
		forEachHandler(hooks.get(hookevents.PermissionRequest), func(_, h *node) {
			if t := h.get("timeout"); isOurs(h) && t != nil {
				var secs float64
				if json.Unmarshal(t.raw, &secs) == nil {
					st.DialogTimeout = int(secs)
				}
			}
		})
	}
	st.Installed = len(st.MissingEvents) == 0
	return st, nil
}
