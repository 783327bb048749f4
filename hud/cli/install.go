package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/capacitor-hud/hud/hud/hookevents"
	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/resolver"
)

// settingsFlags are the flags that choose which settings.json to edit,
// shared by install and uninstall.
type settingsFlags struct {
	settings, project, configDir string
	dryRun                       bool
}

func (f *settingsFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.settings, "settings", "", "edit this settings `file` instead of ~/.claude/settings.json")
	fs.StringVar(&f.project, "project", "", "edit the project settings `dir`/.claude/settings.json")
	fs.StringVar(&f.configDir, "config-dir", "", "edit the user settings of the Claude config `dir` (as CLAUDE_CONFIG_DIR names it; default $CLAUDE_CONFIG_DIR, else ~/.claude)")
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the change as a diff and write nothing")
}

// target is the settings file the flags name and, for a config
// directory's user settings, that directory ("" for ~/.claude and for
// other files): the one install remembers and uninstall forgets.
type target struct {
	path, configDir string
}

// target resolves the flags: --settings, --project, --config-dir, else
// the config directory CLAUDE_CONFIG_DIR names, else ~/.claude.
func (f *settingsFlags) target(env *Env) (target, error) {
	n := 0
	for _, v := range []string{f.settings, f.project, f.configDir} {
		if v != "" {
			n++
		}
	}
	switch {
	case n > 1:
		return target{}, usagef("--settings, --project and --config-dir are exclusive")
	case f.settings != "":
		return target{path: absPath(env, f.settings)}, nil
	case f.project != "":
		path, err := projectSettings(absPath(env, f.project))
		return target{path: path}, err
	}
	l := env.Layout()
	if f.configDir != "" {
		l = l.WithConfig(resolver.ConfigDirFromEnv(l, absPath(env, f.configDir)))
	}
	return target{path: l.UserSettingsPath(), configDir: l.Config}, nil
}

// projectSettings is dir/.claude/settings.json, and an error when a link
// on the way there (.claude, settings.json) leads out of the project: a
// repository may carry a .claude that points at the person's own settings,
// or anywhere else, and install would edit that file, and back it up
// beside it, instead of the project's.
func projectSettings(dir string) (string, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("--project %s: %w", dir, err)
	}
	path := filepath.Join(dir, ".claude", "settings.json")
	for _, p := range []string{filepath.Dir(path), path} {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			break // made by install, inside the project
		}
		if err != nil {
			return "", fmt.Errorf("--project: %w", err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return "", fmt.Errorf("--project: %s is a link that leads nowhere: %w", p, err)
		}
		if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("--project: %s is a link out of the project (to %s); not followed. Edit the file it names with --settings %s if that is what you want", p, real, real)
		}
	}
	return path, nil
}

// userSettingsPath is the user settings file of the config directory
// hud runs with: ~/.claude/settings.json unless CLAUDE_CONFIG_DIR says.
func userSettingsPath(env *Env) string { return env.Layout().UserSettingsPath() }

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

// installOptions are the flags of `hud install`.
type installOptions struct {
	settingsFlags
	hook       string
	timeout    int
	statusLine bool
}

func runInstall(env *Env, args []string) error {
	fs := newFlagSet(env, "install", "install [--settings FILE | --project DIR | --config-dir DIR] [--hook PATH] [--timeout SECONDS] [--statusline] [--dry-run] [AGENT]\n\n"+
		"Wires hud-hook into Claude Code's settings.json for every event the HUD\n"+
		"needs. Everything else in the file is kept; a backup is written first.\n"+
		"Running it again changes nothing. Undo with 'hud uninstall'.\n\n"+
		"A second Claude config directory (CLAUDE_CONFIG_DIR=~/.claude-work claude):\n"+
		"run 'hud install --config-dir ~/.claude-work' (or install with that\n"+
		"variable set). hud remembers it and follows the sessions of every\n"+
		"directory it wired, and of ~/.claude, at once.\n"+agentUsage())
	var o installOptions
	o.settingsFlags.register(fs)
	fs.StringVar(&o.hook, "hook", "", "the hud-hook `path` (default: next to hud, else on $PATH)")
	fs.IntVar(&o.timeout, "timeout", install.DefaultTimeout, "hook timeout in `seconds`")
	fs.BoolVar(&o.statusLine, "statusline", false, "also show the sessions in Claude Code's status line ('hud statusline'), unless it has one")
	agent, err := parseAgentArgs(env, fs, args)
	if err != nil {
		return err
	}
	if agent != "" {
		return installAgent(env, agent, o.hook, o.settingsFlags)
	}
	if o.timeout <= 0 {
		return usagef("--timeout must be positive")
	}
	tgt, err := o.target(env)
	if err != nil {
		return err
	}
	opts, err := o.installer(env, tgt.path)
	if err != nil {
		return err
	}
	res, err := install.Install(opts)
	if err != nil {
		return installError(err)
	}
	if tgt.configDir != "" && !o.dryRun {
		if _, err := install.RememberConfigDir(env.Layout(), tgt.configDir); err != nil {
			return installError(fmt.Errorf("the hooks are installed, but hud will not follow %s: %w", tgt.configDir, err))
		}
	}
	if o.dryRun {
		err = printDryRun(env, res)
	} else {
		printInstalled(env, tgt, opts, res)
	}
	return errors.Join(err, gnomeExtension(env, true, o.dryRun))
}

// gnomeExtension puts hud's GNOME Shell extension in place on GNOME
// (installing), or removes it, and says so: on stdout, for a dry run on
// stderr, where the diff on stdout stays a patch.
func gnomeExtension(env *Env, installing, dryRun bool) error {
	var res install.GNOMEResult
	var err error
	if installing {
		res, err = install.InstallGNOME(context.Background(), agentEnv(env), dryRun)
	} else {
		res, err = install.UninstallGNOME(agentEnv(env), dryRun)
	}
	if err != nil {
		return installError(err)
	}
	out := env.Stdout
	if dryRun {
		out = env.Stderr
	}
	if line := res.Report(installing, dryRun); line != "" {
		fmt.Fprintln(out, line)
	}
	return nil
}

// installer is what install.Install is told to do for the settings file
// at path: the hook to wire (--hook, else the one found), for the Claude
// Code client on $PATH, and with --statusline the hud beside that hook.
func (o *installOptions) installer(env *Env, path string) (install.Options, error) {
	hookPath, err := locateHook(env, o.hook)
	if err != nil {
		return install.Options{}, err
	}
	opts := install.Options{SettingsPath: path, HookPath: hookPath, Timeout: o.timeout, DryRun: o.dryRun, Now: env.Now}
	// Unknown (no claude on $PATH) means the oldest supported client,
	// whose events every newer one accepts too.
	opts.Client, _ = install.DetectClient(context.Background(), env.Getenv("PATH"))
	if o.statusLine {
		// hud is installed beside hud-hook (make install, the release
		// archives), and that is the one the status line should run.
		hud, err := install.CheckExecutable(filepath.Join(filepath.Dir(hookPath), "hud"))
		if err != nil {
			return install.Options{}, withHint(err, "--statusline runs the hud next to "+hookPath+"; install both with 'make install'")
		}
		opts.StatusLineHud = hud
		opts.StatusLineRefresh = statusLineRefresh(env, opts.Client)
	}
	return opts, nil
}

// printInstalled says what an install (not a dry run) did, and warns of
// what keeps the HUD from showing.
func printInstalled(env *Env, tgt target, opts install.Options, res install.Result) {
	if !res.Changed {
		fmt.Fprintf(env.Stdout, "hud-hook is already installed in %s; nothing changed.\n", res.Path)
	} else {
		client := ""
		if !opts.Client.IsZero() {
			client = " of Claude Code " + opts.Client.String()
		}
		fmt.Fprintf(env.Stdout, "Installed %s for %d events%s in %s\n", opts.HookPath, len(res.Events), client, res.Path)
		if res.Backup != "" {
			fmt.Fprintf(env.Stdout, "Backup of the previous file: %s\n", res.Backup)
		}
		fmt.Fprintln(env.Stdout, "New Claude Code sessions report to the HUD; running ones after a review in /hooks or a restart.")
	}
	if tgt.configDir != "" {
		fmt.Fprintf(env.Stdout, "hud follows the sessions of %s (as well as ~/.claude).\n", tgt.configDir)
	}
	if res.StatusLineKept {
		fmt.Fprintf(env.Stderr, "note: %s already has a statusLine; it was left as it is. 'hud statusline' prints the HUD's line for one of your own.\n", res.Path)
	}
	if st, err := install.Inspect(tgt.path); err == nil && st.DisableAllHooks {
		fmt.Fprintf(env.Stderr, "warning: %s sets \"disableAllHooks\": true, so Claude Code runs no hooks at all.\n", res.Path)
	}
}

func runUninstall(env *Env, args []string) error {
	fs := newFlagSet(env, "uninstall", "uninstall [--settings FILE | --project DIR | --config-dir DIR] [--dry-run] [AGENT]\n\n"+
		"Removes exactly what 'hud install' added: every hook handler that runs\n"+
		"hud-hook, the entries left empty by that, and a statusLine that runs\n"+
		"'hud statusline'. A backup is written first. For a config directory\n"+
		"other than ~/.claude, hud stops following its sessions.\n"+agentUsage())
	var sf settingsFlags
	sf.register(fs)
	agent, err := parseAgentArgs(env, fs, args)
	if err != nil {
		return err
	}
	if agent != "" {
		return uninstallAgent(env, agent, sf)
	}
	tgt, err := sf.target(env)
	if err != nil {
		return err
	}
	res, err := install.Uninstall(install.Options{SettingsPath: tgt.path, DryRun: sf.dryRun, Now: env.Now})
	if err != nil {
		return installError(err)
	}
	if tgt.configDir != "" && !sf.dryRun {
		if forgot, err := install.ForgetConfigDir(env.Layout(), tgt.configDir); err != nil {
			return installError(err)
		} else if forgot {
			fmt.Fprintf(env.Stdout, "hud no longer follows the sessions of %s.\n", tgt.configDir)
		}
	}
	switch {
	case sf.dryRun:
		err = printDryRun(env, res)
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
	// The extension serves hud whichever settings it was wired into: only
	// a plain uninstall, of the user settings, takes it away.
	if sf.settings == "" && sf.project == "" && sf.configDir == "" {
		err = errors.Join(err, gnomeExtension(env, false, sf.dryRun))
	}
	return err
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

// statusLineRefresh is the refreshInterval install gives the status line
// of client (see install.RefreshInterval), with a note when that client
// is too old to read it.
func statusLineRefresh(env *Env, client hookevents.Version) int {
	n := install.RefreshInterval(client)
	if n == 0 {
		fmt.Fprintf(env.Stderr, "note: Claude Code %s redraws the status line only on its own events; update it to %s or later for a line that follows every change.\n",
			client, install.RefreshIntervalSince)
	}
	return n
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
