package doctor

import (
	"os"
	"strings"

	"github.com/capacitor-hud/hud/internal/safefile"
)

// checkTrayRunning asks the tray's single-instance lock whether a tray
// runs: the tray holds an exclusive flock on it for its whole life. Not
// running is a warning: the command line works without a tray.
func checkTrayRunning(env *Env) []Finding {
	path := env.Layout.TrayLockPath()
	if !safefile.Held(path) {
		return []Finding{warn("start it with 'hud' ('hud autostart on' starts it at login)", "the tray is not running")}
	}
	b, _ := os.ReadFile(path) // the tray writes its pid there, for people
	if pid := strings.TrimSpace(string(b)); pid != "" {
		return []Finding{ok("running (pid %s)", pid)}
	}
	return []Finding{ok("running")}
}

// checkAutostart reports whether the tray starts at login, and whether it
// would start this hud. Off is a choice, not a problem.
func checkAutostart(env *Env) []Finding {
	if env.Autostart == nil || env.Executable == "" {
		return nil
	}
	st, err := env.Autostart.Status(env.Executable)
	switch {
	case err != nil:
		return []Finding{warn("check the permissions: ls -l "+env.Autostart.Path, "%v", err)}
	case !st.Enabled:
		return []Finding{ok("off ('hud autostart on' starts the tray at login)")}
	case !st.Current:
		return []Finding{warn("run 'hud autostart on' to start this one",
			"%s starts another hud than %s", env.Autostart.Path, env.Executable)}
	}
	return []Finding{ok("on (%s)", env.Autostart.Path)}
}
