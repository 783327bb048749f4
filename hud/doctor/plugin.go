package doctor

import (
	"strings"

	"github.com/capacitor-hud/hud/hud/install"
)

// plugins are the enabled Claude Code plugins that wire hud-hook (hud's
// own, hud@hud, or any other), from the same settings files as the hooks
// check, in Claude Code's order of precedence.
func plugins(env *Env) []install.PluginStatus {
	return install.InspectPlugins(env.Layout.ClaudeDir(), append([]string{env.UserSettings}, env.ProjectSettings...))
}

// checkPlugin reports hud-hook wired by a plugin: whether the plugin finds
// a hud-hook to run, and whether settings.json wires it as well, in which
// case Claude Code runs it twice on every event.
func checkPlugin(env *Env) []Finding {
	ps := plugins(env)
	if len(ps) == 0 {
		return nil
	}
	var out []Finding
	for _, p := range ps {
		if p.Installed() {
			out = append(out, ok("the plugin %s runs hud-hook on %d events", p.ID, len(p.Events)))
		} else {
			out = append(out, warn("claude plugin update "+p.ID,
				"the plugin %s runs hud-hook on %d events; missing: %s", p.ID, len(p.Events), strings.Join(p.MissingEvents, ", ")))
		}
	}
	if hook := install.FindPluginHook(env.Getenv); hook == "" {
		out = append(out, fail("install hud's package, or 'make install' (into ~/.local/bin)",
			"the plugin runs the hud-hook on PATH, and there is none: every event is dropped"))
	}
	for _, path := range append([]string{env.UserSettings}, env.ProjectSettings...) {
		if st, err := install.Inspect(path); err == nil && len(st.Events) > 0 {
			out = append(out, warn("keep one: 'hud uninstall' (the plugin stays), or 'claude plugin uninstall "+ps[0].ID+"'",
				"%s wires hud-hook too, so it runs twice on every event", path))
		}
	}
	return out
}

// wiredByPlugin reports whether a plugin runs hud-hook on every event.
func wiredByPlugin(env *Env) bool {
	for _, p := range plugins(env) {
		if p.Installed() {
			return true
		}
	}
	return false
}
