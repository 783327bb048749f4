package install

import (
	"os"
	"slices"
	"sync"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// NotInstalled is the Problem of a settings file that wires none of the
// HUD's hooks.
const NotInstalled = "Hooks not installed"

// UserSettingsPaths lists the user settings file of every config directory
// readers follow (~/.claude, those install wired, those records name).
func UserSettingsPaths(l paths.Layout) []string {
	list, _ := resolver.LoadConfigDirList(l)
	store, _ := store.Load(l.StorePath())
	var out []string
	for _, dir := range resolver.FollowedConfigDirs(l, list, store) {
		out = append(out, l.WithConfig(dir).UserSettingsPath())
	}
	return out
}

// SettingsProblem is what is wrong with the HUD's hooks in one settings
// file, "" when they are in place and runnable.
func SettingsProblem(path string) string {
	st, err := Inspect(path)
	switch {
	case err != nil:
		return "Claude Code settings unreadable"
	case st.DisableAllHooks:
		return "All hooks disabled in settings"
	}
	return st.Problem()
}

// HooksProblem sums up the user settings at paths: "" when one of them has
// our hooks in place (the others may belong to a config directory used
// without hud), else the problem of the first that has any of our hooks,
// else NotInstalled.
func HooksProblem(paths []string, problemOf func(path string) string) string {
	var first string
	for _, p := range paths {
		switch prob := problemOf(p); {
		case prob == "":
			return ""
		case first == "" && prob != NotInstalled:
			first = prob
		}
	}
	if first == "" {
		return NotInstalled
	}
	return first
}

// Checker answers HooksProblem for the tray, which asks on every redraw:
// it inspects each settings file again only when its size or modification
// time changed, and forgets the files Paths no longer lists.
type Checker struct {
	// Paths lists the settings files to sum up (UserSettingsPaths).
	Paths func() []string
	// ProblemOf inspects one file; nil means SettingsProblem.
	ProblemOf func(path string) string

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

// Problem is HooksProblem of the files Paths lists now.
func (c *Checker) Problem() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cache == nil {
		c.cache = map[string]checkedFile{}
	}
	problemOf := c.ProblemOf
	if problemOf == nil {
		problemOf = SettingsProblem
	}
	paths := c.Paths()
	for p := range c.cache {
		if !slices.Contains(paths, p) {
			delete(c.cache, p)
		}
	}
	return HooksProblem(paths, func(path string) string {
		var now checkedFile
		if fi, err := os.Stat(path); err == nil {
			now = checkedFile{exists: true, modTime: fi.ModTime(), size: fi.Size()}
		}
		if was, ok := c.cache[path]; ok && was.exists == now.exists && was.modTime.Equal(now.modTime) && was.size == now.size {
			return was.problem
		}
		now.problem = problemOf(path)
		c.cache[path] = now
		return now.problem
	})
}
