package install

import (
	"fmt"
	"path/filepath"
)

// A Setup is how `hud install <agent>` wires hud-hook into a coding agent
// other than Claude Code, with the same care as Claude's settings: order
// kept, a backup first, a second run changing nothing, a dry run writing
// nothing. Each agent's package under hud/agent builds its Setup from the
// shapes this package offers (ClaudeHooks, FlatHooks, EditFile); the
// agent's name is the agent's own (agent.Kind).
type Setup struct {
	// Product is the agent's full name, as install and doctor speak of
	// it ("Gemini CLI"); the menu's shorter label is the agent's.
	Product string
	// Files are the files install edits, in order; uninstall takes hud's
	// part out of each, in reverse. The first is the agent's hooks: hud
	// is installed for the agent when hud-hook is in it.
	Files []File
	// After says what the person must still do once the files are in
	// place ("" for nothing).
	After string
	// Untrusted, when set, names the events whose hud hooks the agent
	// will not run until the person trusts them.
	Untrusted func(Env) ([]string, error)
}

// A File is one file an agent's install edits.
type File struct {
	// What says what the file is to the agent ("hooks", "settings").
	What string
	// Path is the file for a home and environment.
	Path func(Env) string
	// Install puts hud's part into the file opts.SettingsPath names, the
	// hook at opts.HookPath; Uninstall takes it out.
	Install, Uninstall func(opts Options) (Result, error)
	// Problem inspects the file at path: what is missing of hud's part, ""
	// when it is in place, NotInstalledIn(path) when none of it is.
	Problem func(env Env, path string) string
}

// Env is where an agent's files are: the home directory and the
// environment variables that move them (CODEX_HOME, XDG_CONFIG_HOME).
type Env struct {
	Home   string
	Getenv func(string) string
}

// getenv is the environment variable k, "" when unset or when there is
// no environment at all.
func (e Env) getenv(k string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(k)
}

// Dir is the directory the environment variable k names when it holds an
// absolute path, else def below the home: how an agent's directory is
// moved ($CODEX_HOME, else ~/.codex). A relative value is ignored, as
// the agents themselves would resolve it against a directory hud cannot
// know.
func (e Env) Dir(k string, def ...string) string {
	if d := e.getenv(k); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(append([]string{e.Home}, def...)...)
}

// Install wires hud-hook (opts.HookPath) into each of the agent's files,
// in order. It stops at the first file that fails and returns the results
// so far.
func (s *Setup) Install(env Env, opts Options) ([]Result, error) {
	if !filepath.IsAbs(opts.HookPath) {
		return nil, fmt.Errorf("hook path %q is not absolute", opts.HookPath)
	}
	var out []Result
	for _, f := range s.Files {
		opts.SettingsPath = f.Path(env)
		res, err := f.Install(opts)
		if err != nil {
			return out, fmt.Errorf("%s %s: %w", s.Product, f.What, err)
		}
		out = append(out, res)
	}
	return out, nil
}

// Uninstall takes hud's part out of each of the agent's files, in reverse
// order.
func (s *Setup) Uninstall(env Env, opts Options) ([]Result, error) {
	var out []Result
	for i := len(s.Files) - 1; i >= 0; i-- {
		f := s.Files[i]
		opts.SettingsPath = f.Path(env)
		res, err := f.Uninstall(opts)
		if err != nil {
			return out, fmt.Errorf("%s %s: %w", s.Product, f.What, err)
		}
		out = append(out, res)
	}
	return out, nil
}

// Problems says what of hud's part is missing from the agent's files;
// none when it is all in place.
func (s *Setup) Problems(env Env) []string {
	var out []string
	for _, f := range s.Files {
		if p := f.Problem(env, f.Path(env)); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// Installed reports whether hud-hook is wired into the agent's first
// file, its hooks: whether `hud doctor` should check the agent at all.
func (s *Setup) Installed(env Env) bool {
	f := s.Files[0]
	return f.Problem(env, f.Path(env)) != NotInstalledIn(f.Path(env))
}

// NotInstalledIn is the problem of a file that has nothing of hud's.
func NotInstalledIn(path string) string { return "hud-hook is not installed in " + path }
