package doctor

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/capacitor-hud/hud/hud/install"
)

// checkHooks looks for hud-hook in the user's settings, then in the
// project's: Claude Code merges them, so hooks in either reach the HUD.
func checkHooks(env *Env) []Finding {
	files := append([]string{env.UserSettings}, env.ProjectSettings...)
	var out []Finding
	var best *install.Status
	for _, path := range files {
		st, err := install.Inspect(path)
		if err != nil {
			fix := install.HintOf(err)
			if fix == "" {
				fix = "fix the file by hand"
			}
			out = append(out, fail(fix, "Claude Code cannot read %v", err))
			continue
		}
		if len(st.Events) == 0 {
			continue
		}
		if !st.HookExecutable {
			out = append(out, fail("run 'hud install' to point them at the hud-hook you have now",
				"%s runs %s, which is missing or not executable: every event is lost", path, strings.Join(st.HookPaths, ", ")))
			continue
		}
		if best == nil || len(st.Events) > len(best.Events) {
			best = &st
		}
	}
	switch {
	case best == nil && len(out) == 0:
		return []Finding{fail("run 'hud install'", "hud-hook is not in %s", env.UserSettings)}
	case best == nil:
		return out
	case !best.Installed:
		out = append(out, warn("run 'hud install' to add the missing ones",
			"%s runs hud-hook on %d events; missing: %s", best.Path, len(best.Events), strings.Join(best.MissingEvents, ", ")))
	case len(best.HookPaths) > 1:
		out = append(out, warn("run 'hud install' to point every event at one binary",
			"%s runs %d different hud-hook binaries: %s", best.Path, len(best.HookPaths), strings.Join(best.HookPaths, ", ")))
	case best.Path != env.UserSettings:
		out = append(out, warn("run 'hud install' to see the sessions of every project",
			"installed only in %s: sessions of other projects do not report", best.Path))
	default:
		out = append(out, ok("installed in %s for %d events (%s)", best.Path, len(best.Events), best.HookPath))
	}
	return out
}

// checkDisableAllHooks reads "disableAllHooks" from every settings file:
// set anywhere, Claude Code runs no hook at all and says nothing.
func checkDisableAllHooks(env *Env) []Finding {
	var out []Finding
	for _, path := range append([]string{env.UserSettings}, env.ProjectSettings...) {
		b, err := os.ReadFile(path)
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
			out = append(out, fail(fmt.Sprintf(`remove "disableAllHooks" from %s (or set it to false)`, path),
				"%s sets \"disableAllHooks\": true, so Claude Code runs no hooks", path))
		}
	}
	if len(out) == 0 {
		out = append(out, ok("no settings file sets \"disableAllHooks\""))
	}
	return out
}
