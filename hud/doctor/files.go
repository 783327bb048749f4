package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// checkStore reads sessions.json as the tray would.
func checkStore(env *Env) []Finding {
	path := env.Layout.StorePath()
	st, err := store.Load(path)
	switch {
	case errors.Is(err, store.ErrCorrupt):
		return []Finding{fail("nothing to do: the hook moves it aside at its next event; or remove it: rm "+path,
			"%v", err)}
	case err != nil:
		return []Finding{fail("check the permissions: ls -l "+path, "%v", err)}
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return []Finding{warn("start a Claude Code session; the hook writes it at the first event",
			"no store yet (%s)", path)}
	}
	return []Finding{ok("%s: %d session(s)", path, len(st.Sessions))}
}

// checkLocks counts, in the sessions/ of every followed config directory,
// lock directories whose Claude process lives, and stale ones (a dead or
// reused pid): a few stale ones are normal after a crash and are swept at
// the next hook event; many mean sweeping fails.
func checkLocks(env *Env) []Finding {
	dirs := env.LockDirs
	if len(dirs) == 0 {
		dirs = []string{env.Layout.LockDir()}
	}
	var out []Finding
	for _, dir := range dirs {
		locks, err := resolver.LoadLocks(dir)
		if err != nil {
			out = append(out, fail("check the permissions: ls -ld "+dir, "%v", err))
			continue
		}
		live, stale := 0, 0
		for _, l := range locks {
			if env.Alive(l.PID, l.ProcStarted) {
				live++
			} else {
				stale++
			}
		}
		if stale > 0 {
			out = append(out, warn("none needed: the next hook event sweeps them (or remove them: they are the *.lock dirs in "+dir+")",
				"%d live, %d stale lock(s) in %s", live, stale, dir))
			continue
		}
		out = append(out, ok("%d live lock(s) in %s", live, dir))
	}
	return out
}

// checkConfig loads config.toml as the tray does.
func checkConfig(env *Env) []Finding {
	if _, err := os.Stat(env.ConfigPath); errors.Is(err, fs.ErrNotExist) {
		return []Finding{ok("no %s: the defaults apply", env.ConfigPath)}
	}
	_, problems := config.Load(env.ConfigPath, env.Getenv)
	if len(problems) == 0 {
		return []Finding{ok("%s is valid", env.ConfigPath)}
	}
	var out []Finding
	for _, p := range problems {
		out = append(out, fail("edit "+env.ConfigPath+" (the comments in it list every setting)", "%s", p.String()))
	}
	return out
}

// checkPermissions wants the HUD's private files private: the store holds
// the first line of every prompt, the debug log the events. A file others
// can write is a failure (they could make the tray lie); one they can
// read is a warning.
func checkPermissions(env *Env) []Finding {
	l := env.Layout
	paths := []struct {
		path string
		want fs.FileMode
	}{
		{l.StoreDir(), 0o700},
		{l.StorePath(), 0o600},
		{l.StoreLockPath(), 0o600},
		{l.DebugLogPath(), 0o600},
	}
	var out []Finding
	checked := 0
	for _, p := range paths {
		fi, err := os.Stat(p.path)
		if err != nil {
			continue
		}
		checked++
		mode := fi.Mode().Perm()
		fix := fmt.Sprintf("chmod %o %s", p.want, p.path)
		switch {
		case mode&0o022 != 0:
			out = append(out, fail(fix, "%s is %o: others can write it", p.path, mode))
		case mode&^p.want != 0:
			out = append(out, warn(fix, "%s is %o: others can read it", p.path, mode))
		}
	}
	switch {
	case len(out) > 0:
	case checked == 0:
		out = append(out, ok("none of the HUD's files exist yet"))
	default:
		out = append(out, ok("%d file(s) private (%s, %s)", checked, l.StoreDir(), l.DebugLogPath()))
	}
	return out
}
