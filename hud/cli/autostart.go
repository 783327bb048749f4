package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/capacitor-hud/hud/hud/autostart"
)

// autostartOptions is what every verb of `hud autostart` acts on: the
// login item of this system and the hud it starts (--exe).
type autostartOptions struct {
	env    *Env
	target autostart.Target
	exe    string
}

// autostartVerbs are the verbs of `hud autostart`.
var autostartVerbs = map[string]func(o *autostartOptions) error{
	"on":     autostartOn,
	"off":    autostartOff,
	"status": autostartStatus,
}

func runAutostart(env *Env, args []string) error {
	fs := newFlagSet(env, "autostart", "autostart on|off|status [--exe PATH]\n\n"+
		"Starts the tray when you log in: a LaunchAgent on macOS\n"+
		"(~/Library/LaunchAgents/"+autostart.Label+".plist), an XDG autostart\n"+
		"entry on Linux ($XDG_CONFIG_HOME/autostart/hud.desktop).\n")
	exeFlag := fs.String("exe", "", "the hud `path` to start (default: this hud)")
	// The action comes first ("hud autostart on --exe X"); the flag package
	// stops at the first argument that is not a flag, so take it off.
	var action string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		action, args = args[0], args[1:]
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if action == "" && fs.NArg() > 0 {
		action = fs.Arg(0)
	} else if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if action == "" {
		return usagef("want one of on, off, status")
	}
	o := &autostartOptions{env: env, target: autostart.Default(env.Home, env.Getenv)}
	var err error
	if o.exe, err = hudExecutable(env, *exeFlag); err != nil {
		return err
	}
	run, ok := autostartVerbs[action]
	if !ok {
		return usagef("unknown action %q (want on, off or status)", action)
	}
	return run(o)
}

// autostartOn writes the login item that starts o.exe.
func autostartOn(o *autostartOptions) error {
	changed, err := o.target.Enable(o.exe)
	if err != nil {
		return withHint(err, "check that "+filepath.Dir(o.target.Path)+" is writable")
	}
	if !changed {
		fmt.Fprintf(o.env.Stdout, "Autostart is already on: %s\n", o.target.Path)
		return nil
	}
	fmt.Fprintf(o.env.Stdout, "Autostart on: %s starts %s at login.\n", o.target.Path, o.exe)
	return nil
}

// autostartOff removes the login item.
func autostartOff(o *autostartOptions) error {
	changed, err := o.target.Disable()
	if err != nil {
		return err
	}
	if !changed {
		fmt.Fprintln(o.env.Stdout, "Autostart is already off.")
		return nil
	}
	fmt.Fprintf(o.env.Stdout, "Autostart off: removed %s\n", o.target.Path)
	return nil
}

// autostartStatus says whether the login item is there and starts o.exe.
func autostartStatus(o *autostartOptions) error {
	st, err := o.target.Status(o.exe)
	if err != nil {
		return err
	}
	switch {
	case !st.Enabled:
		fmt.Fprintln(o.env.Stdout, "off")
	case st.Current:
		fmt.Fprintf(o.env.Stdout, "on (%s)\n", o.target.Path)
	default:
		fmt.Fprintf(o.env.Stdout, "on, but %s does not start %s: run 'hud autostart on' to update it\n", o.target.Path, o.exe)
	}
	return nil
}

// hudExecutable is the absolute path of the hud to start: flagPath if
// given, else this process's executable.
func hudExecutable(env *Env, flagPath string) (string, error) {
	if flagPath != "" {
		return absPath(env, flagPath), nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", withHint(errors.New("cannot tell where this hud is"), "pass --exe PATH")
	}
	return exe, nil
}
