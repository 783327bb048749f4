package install

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/capacitor-hud/hud/internal/safefile"
)

// PluginStatus is an enabled Claude Code plugin whose hooks run hud-hook:
// hud's own plugin, or any other that does.
type PluginStatus struct {
	// ID is the plugin as Claude Code names it, "hud@hud".
	ID string
	// HooksFile is the plugin's hooks/hooks.json.
	HooksFile string
	// Events run hud-hook; MissingEvents (from Events()) do not.
	Events, MissingEvents []string
}

// Installed is true when the plugin runs hud-hook on every event.
func (p PluginStatus) Installed() bool { return len(p.MissingEvents) == 0 }

// Limits on what is read of Claude Code's plugin files, which are JSON of
// a few KiB.
const maxPluginFile = 1 << 20

// InspectPlugins finds the enabled plugins that wire hud-hook. claudeDir is
// Claude Code's configuration directory (~/.claude); settings are the
// settings files in rising precedence (user, project, local), because a
// later file's "enabledPlugins" entry overrides an earlier one's, as in
// Claude Code. Where each plugin lives comes from
// claudeDir/plugins/installed_plugins.json, and its hooks from
// hooks/hooks.json there (the standard place; hooks a manifest declares
// elsewhere are not seen). Files that cannot be read count as no plugin:
// the settings files' own problems are Inspect's to report.
//
// Plugins loaded for one session (`claude --plugin-dir`) are in no file,
// so they cannot be seen here.
func InspectPlugins(claudeDir string, settings []string) []PluginStatus {
	enabled := map[string]bool{}
	var order []string
	for _, path := range settings {
		var s struct {
			EnabledPlugins map[string]json.RawMessage `json:"enabledPlugins"`
		}
		if readJSON(path, &s) != nil {
			continue
		}
		for id, v := range s.EnabledPlugins {
			if _, seen := enabled[id]; !seen {
				order = append(order, id)
			}
			// Claude Code also accepts a list of versions for true.
			enabled[id] = string(v) != "false" && string(v) != "null"
		}
	}
	if len(order) == 0 {
		return nil
	}
	var installed struct {
		Plugins map[string][]struct {
			InstallPath string `json:"installPath"`
		} `json:"plugins"`
	}
	if readJSON(filepath.Join(claudeDir, "plugins", "installed_plugins.json"), &installed) != nil {
		return nil
	}
	var out []PluginStatus
	for _, id := range order {
		if !enabled[id] {
			continue
		}
		for _, inst := range installed.Plugins[id] {
			if !filepath.IsAbs(inst.InstallPath) {
				continue
			}
			hooksFile := filepath.Join(inst.InstallPath, "hooks", "hooks.json")
			st, ok := inspectPluginHooks(hooksFile)
			if !ok {
				continue
			}
			st.ID = id
			if len(st.Events) > 0 {
				out = append(out, st)
			}
			break
		}
	}
	return out
}

// inspectPluginHooks reads one plugin hooks file; ok is false when it
// cannot be read.
func inspectPluginHooks(path string) (st PluginStatus, ok bool) {
	var f struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if readJSON(path, &f) != nil {
		return st, false
	}
	st.HooksFile = path
	for _, ev := range Events() {
		found := false
		for _, g := range f.Hooks[ev] {
			for _, h := range g.Hooks {
				found = found || runsHook(h.Command)
			}
		}
		if found {
			st.Events = append(st.Events, ev)
		} else {
			st.MissingEvents = append(st.MissingEvents, ev)
		}
	}
	return st, true
}

// runsHook reports whether a plugin's hook command runs hud-hook: as its
// program (a path ending in /hud-hook, such as one under
// ${CLAUDE_PLUGIN_ROOT}), or the way PluginCommand does (this version's
// launcher, or an earlier one's "exec hud-hook").
func runsHook(command string) bool {
	if prog, ok := firstWord(command); ok && (prog == HookName || strings.HasSuffix(prog, "/"+HookName)) {
		return true
	}
	return command == PluginCommand || strings.Contains(command, "exec "+HookName)
}

// readJSON decodes a file of at most maxPluginFile bytes. A marketplace
// is a stranger's repository: its files are read bounded, and a FIFO or a
// device among them is refused rather than waited on.
func readJSON(path string, v any) error {
	data, _, err := safefile.Read(path, maxPluginFile, safefile.Follow)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}
