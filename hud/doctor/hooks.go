package doctor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/resolver"
)

// hookSource is one settings file Claude Code may run hud-hook from, and
// what it is to the person. Claude Code merges the user settings of the
// config directory it runs with and the settings of the project it runs
// in, so hooks in any of them reach the HUD; another kind of source (a
// plugin) is one more entry in hookSources.
type hookSource struct {
	path string
	// what says whose file it is: "user settings", "project settings of a
	// live session", ...
	what string
	// userWide is set for a config directory's user settings: hooks there
	// report every project's sessions.
	userWide bool
}

// hookSources lists where doctor looks for hud-hook, each file once: the
// user settings of every followed config directory, the project settings
// doctor was pointed at, and those of the live sessions' projects.
func hookSources(env *Env) []hookSource {
	var out []hookSource
	seen := map[string]bool{}
	add := func(path, what string, userWide bool) {
		if path != "" && !seen[path] {
			seen[path] = true
			out = append(out, hookSource{path: path, what: what, userWide: userWide})
		}
	}
	add(env.UserSettings, "user settings", true)
	for _, p := range env.ConfigDirSettings {
		add(p, "user settings of config dir "+filepath.Dir(p), true)
	}
	for _, p := range env.ProjectSettings {
		add(p, "project settings", false)
	}
	for _, dir := range env.SessionProjects {
		for _, name := range []string{"settings.json", "settings.local.json"} {
			add(filepath.Join(dir, ".claude", name), "project settings of a live session", false)
		}
	}
	return out
}

// foundHooks is a source that runs hud-hook, as Inspect found it.
type foundHooks struct {
	hookSource
	install.Status
}

// checkHooks says where hud-hook is wired, one line per file that runs it,
// and what is wrong with each: a missing binary, missing events.
func checkHooks(env *Env) []Finding {
	var out []Finding
	var found []foundHooks
	for _, src := range hookSources(env) {
		st, err := install.Inspect(src.path)
		if err != nil {
			fix := install.HintOf(err)
			if fix == "" {
				fix = "fix the file by hand"
			}
			out = append(out, fail(fix, "Claude Code cannot read %v", err))
			continue
		}
		if len(st.Events) > 0 {
			found = append(found, foundHooks{src, st})
		}
	}
	if len(found) == 0 {
		if len(out) > 0 {
			return out
		}
		return []Finding{fail("run 'hud install'", "hud-hook is not in %s", userSettingsNames(env))}
	}
	userWide := false
	for _, f := range found {
		userWide = userWide || f.userWide
		out = append(out, hooksFinding(f))
	}
	if !userWide {
		out = append(out, warn("run 'hud install' to see the sessions of every project",
			"installed only in %s: sessions of other projects do not report", found[0].path))
	}
	return out
}

// hooksFinding is the line for one file that runs hud-hook.
func hooksFinding(f foundHooks) Finding {
	where := f.path
	if f.what != "user settings" {
		where += " (" + f.what + ")"
	}
	switch {
	case !f.HookExecutable:
		return fail("run 'hud install' to point them at the hud-hook you have now",
			"%s runs %s, which is missing or not executable: every event is lost", where, strings.Join(f.HookPaths, ", "))
	case !f.Installed:
		return warn("run 'hud install' to add the missing ones",
			"%s runs hud-hook on %d events; missing: %s", where, len(f.Events), strings.Join(f.MissingEvents, ", "))
	case len(f.HookPaths) > 1:
		return warn("run 'hud install' to point every event at one binary",
			"%s runs %d different hud-hook binaries: %s", where, len(f.HookPaths), strings.Join(f.HookPaths, ", "))
	}
	return ok("installed in %s for %d events (%s)", where, len(f.Events), f.HookPath)
}

// userSettingsNames lists the user settings files looked in.
func userSettingsNames(env *Env) string {
	return strings.Join(append([]string{env.UserSettings}, env.ConfigDirSettings...), ", ")
}

// checkDisableAllHooks reads "disableAllHooks" from every settings file:
// set anywhere, Claude Code runs no hook at all and says nothing.
func checkDisableAllHooks(env *Env) []Finding {
	var out []Finding
	for _, src := range hookSources(env) {
		// A person's own settings may be a link (dotfiles); a project's
		// file is a stranger's, and a link there is not followed.
		links := safefile.NoFollow
		if src.userWide {
			links = safefile.Follow
		}
		b, _, err := safefile.Read(src.path, safefile.MaxRead, links)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		var s struct {
			DisableAllHooks *bool `json:"disableAllHooks"`
		}
		if err != nil || json.Unmarshal(b, &s) != nil {
			continue // reported by the hooks check
		}
		if s.DisableAllHooks != nil && *s.DisableAllHooks {
			out = append(out, fail(fmt.Sprintf(`remove "disableAllHooks" from %s (or set it to false)`, src.path),
				"%s sets \"disableAllHooks\": true, so Claude Code runs no hooks", src.path))
		}
	}
	if len(out) == 0 {
		out = append(out, ok("no settings file sets \"disableAllHooks\""))
	}
	return out
}

// checkConfigDirs reads the list of Claude config directories `hud install`
// wired: one that cannot be read costs the sessions of every directory it
// names.
func checkConfigDirs(env *Env) []Finding {
	list, err := resolver.LoadConfigDirList(env.Layout)
	switch {
	case err != nil:
		return []Finding{fail("fix or remove "+env.Layout.ConfigDirsPath()+", then run 'hud install --config-dir DIR' for each directory",
			"%v: the sessions of the config directories it names are not followed", err)}
	case len(list.ConfigDirs) == 0:
		return []Finding{ok("following ~/.claude (no other config directory wired)")}
	}
	return []Finding{ok("following ~/.claude and %s", strings.Join(list.ConfigDirs, ", "))}
}
