package cli

import (
	"os"
	"slices"
	"sync"
	"time"

	"github.com/capacitor-hud/hud/hud/breaks"
	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/resolver"
)

// shownFiles are the files besides the sessions whose changes the tray
// and the watch screens show: Claude Code's user settings (are the hooks
// installed?) and the break reminders' files.
func shownFiles(l resolver.Layout) []string {
	return append([]string{l.WithConfig(l.DefaultConfigDir()).UserSettingsPath(), l.UserSettingsPath()},
		breaks.Files{Layout: l}.Shown()...)
}

// userSettingsPaths lists the user settings of every config directory
// readers follow (~/.claude, those install wired, those records name).
func userSettingsPaths(l resolver.Layout) []string {
	list, _ := resolver.LoadConfigDirList(l)
	store, _ := resolver.LoadStore(l.StorePath())
	var out []string
	for _, dir := range resolver.FollowedConfigDirs(l, list, store) {
		out = append(out, l.WithConfig(dir).UserSettingsPath())
	}
	return out
}

// settingsProblem is what is wrong with our hooks in one settings file,
// "" when they are in place and runnable.
func settingsProblem(path string) string {
	st, err := install.Inspect(path)
	switch {
	case err != nil:
		return "Claude Code settings unreadable"
	case st.DisableAllHooks:
		return "All hooks disabled in settings"
	}
	return st.Problem()
}

// hooksProblem sums up the user settings at paths: "" when one of them
// has our hooks in place (the others may belong to a config directory
// used without hud), else the problem of the first that has any of our
// hooks, else "Hooks not installed".
func hooksProblem(paths []string, problemOf func(path string) string) string {
	var first string
	for _, p := range paths {
		switch prob := problemOf(p); {
		case prob == "":
			return ""
		case first == "" && prob != "Hooks not installed":
			first = prob
		}
	}
	if first == "" {
		return "Hooks not installed"
	}
	return first
}

// hookCheck inspects the user settings for our hooks, each file again only
// when it changed: the tray's loop asks on every redraw.
type hookCheck struct {
	paths func() []string

	mu    sync.Mutex
	cache map[string]checkedFile
}

// checkedFile is one settings file as last inspected.
type checkedFile struct {
	exists  bool
	modTime time.Time
	size    int64
	problem string
}

func (h *hookCheck) problem() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cache == nil {
		h.cache = map[string]checkedFile{}
	}
	paths := h.paths()
	for p := range h.cache {
		if !slices.Contains(paths, p) {
			delete(h.cache, p)
		}
	}
	return hooksProblem(paths, func(path string) string {
		var now checkedFile
		if fi, err := os.Stat(path); err == nil {
			now = checkedFile{exists: true, modTime: fi.ModTime(), size: fi.Size()}
		}
		if c, ok := h.cache[path]; ok && c.exists == now.exists && c.modTime.Equal(now.modTime) && c.size == now.size {
			return c.problem
		}
		now.problem = settingsProblem(path)
		h.cache[path] = now
		return now.problem
	})
}
