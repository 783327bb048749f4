package doctor

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// trayLockName is the tray's single-instance lock in the store directory
// (app.InstanceLockPath); doctor does not import the tray's packages.
const trayLockName = "hud-tray.lock"

// checkTrayRunning asks the tray's single-instance lock whether a tray
// runs: the tray holds an exclusive flock on it for its whole life, so a
// shared one cannot be had while it runs. Not running is a warning: the
// command line works without a tray.
func checkTrayRunning(env *Env) []Finding {
	path := filepath.Join(env.Layout.StoreDir(), trayLockName)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return []Finding{warn("start it with 'hud' ('hud autostart on' starts it at login)", "the tray is not running")}
	}
	if err != nil {
		return []Finding{warn("check the permissions: ls -l "+path, "cannot tell whether the tray runs: %v", err)}
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB); errors.Is(err, unix.EWOULDBLOCK) {
		b, _ := os.ReadFile(path)
		if pid := strings.TrimSpace(string(b)); pid != "" {
			return []Finding{ok("running (pid %s)", pid)}
		}
		return []Finding{ok("running")}
	}
	return []Finding{warn("start it with 'hud' ('hud autostart on' starts it at login)", "the tray is not running")}
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
