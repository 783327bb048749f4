package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/capacitor-hud/hud/hud/install"
)

// settingsFlags are the flags that choose which settings.json to edit,
// shared by install and uninstall.
type settingsFlags struct {
	settings, project string
	dryRun            bool
}

func (f *settingsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.settings, "settings", "", "edit this settings `file` instead of ~/.claude/settings.json")
	fs.StringVar(&f.project, "project", "", "edit the project settings `dir`/.claude/settings.json")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the change as a diff and write nothing")
}

// path returns the settings file the flags name.
func (f *settingsFlags) path(env *Env) (string, error) {
	switch {
	case f.settings != "" && f.project != "":
		return "", usagef("--settings and --project are exclusive")
	case f.settings != "":
		return absPath(env, f.settings), nil
	case f.project != "":
		return filepath.Join(absPath(env, f.project), ".claude", "settings.json"), nil
	}
	return userSettingsPath(env), nil
}

// userSettingsPath is ~/.claude/settings.json.
func userSettingsPath(env *Env) string {
	return filepath.Join(env.Layout().ClaudeDir(), "settings.json")
}

// absPath expands a leading ~/ (for flags given as --settings=~/x, which
// the shell does not expand) and makes p absolute.
func absPath(env *Env, p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		p = filepath.Join(env.Home, rest)
	}
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

func runInstall(env *Env, args []string) error {
	fs := newFlagSet(env, "install", "install [--settings FILE | --project DIR] [--hook PATH] [--timeout SECONDS] [--statusline] [--dry-run]\n\n"+
		"Wires hud-hook into Claude Code's settings.json for every event the HUD\n"+
		"needs. Everything else in the file is kept; a backup is written first.\n"+
		"Running it again changes nothing. Undo with 'hud uninstall'.\n")
	var sf settingsFlags
	sf.register(fs)
	hook := fs.String("hook", "", "the hud-hook `path` (default: next to hud, else on $PATH)")
	timeout := fs.Int("timeout", install.DefaultTimeout, "hook timeout in `seconds`")
	withStatusLine := fs.Bool("statusline", false, "also show the sessions in Claude Code's status line ('hud statusline'), unless it has one")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *timeout <= 0 {
		return usagef("--timeout must be positive")
	}
	path, err := sf.path(env)
	if err != nil {
		return err
	}
	hookPath, err := locateHook(env, *hook)
	if err != nil {
		return err
	}
	opts := install.Options{SettingsPath: path, HookPath: hookPath, Timeout: *timeout, DryRun: sf.dryRun, Now: env.Now}
	// Unknown (no claude on $PATH) means the oldest supported client,
	// whose events every newer one accepts too.
	opts.Client, _ = install.DetectClient(context.Background(), env.Getenv("PATH"))
	if *withStatusLine {
		// hud is installed beside hud-hook (make install, the release
		// archives), and that is the one the status line should run.
		hud, err := install.CheckExecutable(filepath.Join(filepath.Dir(hookPath), "hud"))
		if err != nil {
			return withHint(err, "--statusline runs the hud next to "+hookPath+"; install both with 'make install'")
		}
		opts.StatusLineHud = hud
	}
	res, err := install.Install(opts)
	if err != nil {
		return installError(err)
	}
	switch {
	case sf.dryRun:
		return printDryRun(env, res)
	case !res.Changed:
		fmt.Fprintf(env.Stdout, "hud-hook is already installed in %s; nothing changed.\n", res.Path)
	default:
		client := ""
		if !opts.Client.IsZero() {
			client = " of Claude Code " + opts.Client.String()
		}
		fmt.Fprintf(env.Stdout, "Installed %s for %d events%s in %s\n", hookPath, len(res.Events), client, res.Path)
		if res.Backup != "" {
			fmt.Fprintf(env.Stdout, "Backup of the previous file: %s\n", res.Backup)
		}
		fmt.Fprintln(env.Stdout, "New Claude Code sessions report to the HUD; running ones after a review in /hooks or a restart.")
	}
	if res.StatusLineKept {
		fmt.Fprintf(env.Stderr, "note: %s already has a statusLine; it was left as it is. 'hud statusline' prints the HUD's line for one of your own.\n", res.Path)
	}
	if st, err := install.Inspect(path); err == nil && st.DisableAllHooks {
		fmt.Fprintf(env.Stderr, "warning: %s sets \"disableAllHooks\": true, so Claude Code runs no hooks at all.\n", res.Path)
	}
	return nil
}

func runUninstall(env *Env, args []string) error {
	fs := newFlagSet(env, "uninstall", "uninstall [--settings FILE | --project DIR] [--dry-run]\n\n"+
		"Removes exactly what 'hud install' added: every hook handler that runs\n"+
		"hud-hook, the entries left empty by that, and a statusLine that runs\n"+
		"'hud statusline'. A backup is written first.\n")
	var sf settingsFlags
	sf.register(fs)
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	path, err := sf.path(env)
	if err != nil {
		return err
	}
	res, err := install.Uninstall(install.Options{SettingsPath: path, DryRun: sf.dryRun, Now: env.Now})
	if err != nil {
		return installError(err)
	}
	switch {
	case sf.dryRun:
		return printDryRun(env, res)
	case !res.Changed:
		fmt.Fprintf(env.Stdout, "No hud-hook entries in %s; nothing changed.\n", res.Path)
	default:
		fmt.Fprintf(env.Stdout, "Removed hud-hook from %s\n", res.Path)
		if res.Removed {
			fmt.Fprintln(env.Stdout, "Nothing else was in it, so the file is removed (Claude Code reads no file as no settings).")
		}
		if res.Backup != "" {
			fmt.Fprintf(env.Stdout, "Backup of the previous file: %s\n", res.Backup)
		}
	}
	return nil
}

func printDryRun(env *Env, res install.Result) error {
	if !res.Changed {
		fmt.Fprintf(env.Stdout, "%s is already as wanted; nothing would change.\n", res.Path)
		return nil
	}
	fmt.Fprint(env.Stdout, res.Diff)
	fmt.Fprintln(env.Stderr, "(dry run: nothing was written)")
	return nil
}

// installError attaches the install package's hint for the person.
func installError(err error) error {
	if h := install.HintOf(err); h != "" {
		return withHint(err, h)
	}
	return err
}

// locateHook returns the hud-hook to install: --hook if given, else the one
// next to this hud, else the one on $PATH.
func locateHook(env *Env, flagPath string) (string, error) {
	if flagPath != "" {
		p, err := install.CheckExecutable(absPath(env, flagPath))
		if err != nil {
			return "", withHint(err, "build it with 'make build' (bin/hud-hook) or 'make install'")
		}
		if filepath.Base(p) != install.HookName {
			return "", withHint(fmt.Errorf("--hook %s: the binary must be named %s", p, install.HookName),
				"uninstall and doctor recognise the HUD's entries by that name; rename or symlink it")
		}
		return p, nil
	}
	exe, err := os.Executable()
	if err != nil {
		exe = ""
	}
	p, err := install.Locator{Executable: exe, PATH: env.Getenv("PATH")}.FindHook()
	if errors.Is(err, install.ErrHookNotFound) {
		return "", withHint(fmt.Errorf("cannot find %s next to %s or on $PATH", install.HookName, exe),
			"run 'make install' (puts both binaries in ~/.local/bin), or pass --hook PATH")
	}
	return p, err
}
