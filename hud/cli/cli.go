package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/app"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/resolver"
)

// Env is everything a command may touch of the outside world.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Home is the user's home directory; every file path derives from it.
	Home   string
	Getenv func(string) string
	Now    func() time.Time
	// Tray is the systray adapter the tray application shows itself
	// through (hud/tray.Run, the only package importing systray). It is
	// nil where the binary was built without one (tests, cross-compiles).
	Tray app.ShowFunc
}

// Layout is the file layout under env's home directory, for the Claude
// config directory CLAUDE_CONFIG_DIR names (readers follow it besides
// the others; install edits its settings by default).
func (e *Env) Layout() paths.Layout {
	l := paths.Layout{Home: e.Home}
	if e.Getenv != nil {
		l = l.WithConfig(resolver.ConfigDirFromEnv(l, e.Getenv("CLAUDE_CONFIG_DIR")))
	}
	return l
}

// OSEnv is the real environment of the running process.
func OSEnv(tray app.ShowFunc) *Env {
	home, err := os.UserHomeDir()
	if err != nil {
		home = ""
	}
	return &Env{
		Stdin:  os.Stdin,
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Home:   home,
		Getenv: os.Getenv,
		Now:    time.Now,
		Tray:   tray,
	}
}

// command is one `hud <name>` subcommand.
type command struct {
	name    string
	summary string
	// run executes the command with the arguments after its name.
	run func(env *Env, args []string) error
}

// commands lists every subcommand in the order `hud help` shows them.
// Each lives in its own file of this package.
var commands = []command{
	{"run", "start the tray (the default when no command is given)", runTray},
	{"install", "wire hud-hook into Claude Code's settings.json", runInstall},
	{"uninstall", "remove what 'hud install' added to settings.json", runUninstall},
	{"autostart", "start the tray at login: on, off or status", runAutostart},
	{"doctor", "check the setup and say how to fix what is broken", runDoctor},
	{"status", "print what each live Claude Code session is doing", runStatus},
	{"statusline", "one line for Claude Code's statusLine setting", runStatusline},
	{"watch", "print the live sessions again on every change, until Ctrl-C", runWatch},
	{"focus", "bring a session's terminal forward, as a click in the tray does", runFocus},
	{"remote", "follow the sessions of other machines over ssh: add, remove, list", runRemote},
	{"activity", "show what a session has done: todos, files, commits, agents", runActivity},
	{"history", "show what the sessions did today: a timeline, time working, waits", runHistory},
	{"away", "sum up what happened while you were last away from the keyboard", runAway},
	{"serve", "serve the page: every session and its dialogs, in a browser or on a phone", runServe},
	{"checkpoint", "write the project's checkpoint (.claude/.project-state.json) now", runCheckpoint},
	{"answer", "answer Claude's dialogs from here or the tray: on, off, SESSION CHOICE", runAnswer},
	{"break", "break reminders: status, now, snooze, skip, pause, resume", runBreak},
	{"session", "timed work session: start \"<task>\", pause, resume, stop, status", runSession},
	{"version", "print the version and the commit it was built from", runVersion},
}

// Main runs the hud command line and returns the process exit status:
// 0 on success, 1 when the command failed, 2 for a usage error.
func Main(args []string, env *Env) int {
	if env.Home == "" {
		fmt.Fprintln(env.Stderr, "hud: cannot find your home directory (set $HOME)")
		return 1
	}
	name := "run"
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	if strings.HasPrefix(name, "-") && !isGlobalFlag(name) {
		// `hud --flag` passes flags to the default command.
		args, name = append([]string{name}, args...), "run"
	}
	switch name {
	case "--version", "-version":
		// What every other tool answers; `hud version` says the same.
		name = "version"
	case "help", "-h", "--help":
		if len(args) > 0 {
			return Main([]string{args[0], "--help"}, env)
		}
		printHelp(env.Stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == name {
			return report(env, c.name, c.run(env, args))
		}
	}
	fmt.Fprintf(env.Stderr, "hud: unknown command %q\nRun 'hud help' for the list of commands.\n", name)
	return 2
}

// report prints err the way a person wants to read it and picks the exit
// status. An error may quote a path or a file a project chose, so it is
// printed through hud/text (line breaks kept, escapes gone).
func report(env *Env, name string, err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var exit *ExitError
	if errors.As(err, &exit) {
		if exit.Message != "" {
			fmt.Fprintln(env.Stderr, exit.Message)
		}
		return exit.Code
	}
	var usage *UsageError
	if errors.As(err, &usage) {
		fmt.Fprintf(env.Stderr, "hud %s: %s\nRun 'hud %s --help' for usage.\n", name, usage.Msg, name)
		return 2
	}
	fmt.Fprintf(env.Stderr, "hud %s: %s\n", name, text.Strip(err.Error()))
	var hinted *HintError
	if errors.As(err, &hinted) && hinted.Hint != "" {
		fmt.Fprintf(env.Stderr, "hint: %s\n", text.Strip(hinted.Hint))
	}
	return 1
}

func printHelp(w io.Writer) {
	fmt.Fprint(w, "hud shows what your Claude Code sessions are doing, in the menu bar or system tray.\n\nUsage:\n  hud [command] [flags]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nGetting started: 'hud install' wires the hook into Claude Code, 'hud' starts\n"+
		"the tray, 'hud doctor' says what is wrong when nothing shows.\n"+
		"\nRun 'hud <command> --help' for a command's flags.\n")
}

// UsageError is a mistake in the command line itself.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// usagef returns a UsageError.
func usagef(format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...)}
}

// HintError is a failure with a suggestion of what to do about it.
type HintError struct {
	Err  error
	Hint string
}

func (e *HintError) Error() string { return e.Err.Error() }
func (e *HintError) Unwrap() error { return e.Err }

// withHint attaches a hint to err.
func withHint(err error, hint string) error {
	if err == nil {
		return nil
	}
	return &HintError{Err: err, Hint: hint}
}

// ExitError ends the command with a given status and an optional message,
// for commands whose status carries meaning (doctor: something is wrong).
type ExitError struct {
	Code    int
	Message string
}

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// loadConfig reads the settings file for a command, telling the person on
// stderr about each problem in it (the defaults stand in for what cannot be
// read), so a typo in config.toml never goes unnoticed.
func loadConfig(env *Env) config.Config {
	cfg, problems := config.Load(config.DefaultPath(env.Home, env.Getenv), env.Getenv)
	for _, p := range problems {
		fmt.Fprintf(env.Stderr, "hud: settings: %s\n", p)
	}
	return cfg
}

// newFlagSet returns a flag set for a subcommand that writes its usage to
// env.Stderr (or Stdout for --help) and returns errors instead of exiting.
func newFlagSet(env *Env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("hud "+name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: hud %s\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args with fs; --help prints the usage on stdout and
// ends the command successfully, any other error is a usage error.
func parseFlags(env *Env, fs *flag.FlagSet, args []string) error {
	for _, a := range args {
		if a == "-h" || a == "--help" || a == "-help" {
			fs.SetOutput(env.Stdout)
			fs.Usage()
			return flag.ErrHelp
		}
	}
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return usagef("%v", err)
	}
	return nil
}
