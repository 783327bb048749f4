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
	if path := wiredBySettings(env); path != "" {
		out = append(out, warn("keep one: 'hud uninstall' (the plugin stays), or 'claude plugin uninstall "+ps[0].ID+"'",
			"%s wires hud-hook too, so it runs twice on every event", path))
	}
	return out
}

// checkHooksOrPlugin is the hooks check, except where every settings file
// reads well, none wires hud-hook and a plugin does, on every event: then
// the hooks are in place, and the plugin check below says by what.
func checkHooksOrPlugin(env *Env) []Finding {
	readable := true
	for _, src := range hookSources(env) {
		if _, err := install.Inspect(src.path); err != nil {
			readable = false
		}
	}
	if readable && wiredBySettings(env) == "" && wiredByPlugin(env) {
		return []Finding{ok("not in %s: a plugin wires them (below)", env.UserSettings)}
	}
	return checkHooks(env)
}

// wiredBySettings is the first settings file that runs hud-hook on any
// event, "" when none does.
func wiredBySettings(env *Env) string {
	for _, src := range hookSources(env) {
		if st, err := install.Inspect(src.path); err == nil && len(st.Events) > 0 {
			return src.path
		}
	}
	return ""
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
