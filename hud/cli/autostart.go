package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/capacitor-hud/hud/hud/autostart"
)

func runAutostart(env *Env, args []string) error {
	fs := newFlagSet(env, "autostart", "autostart on|off|status [--exe PATH]\n\n"+
		"Starts the tray when you log in: a LaunchAgent on macOS\n"+
		"(~/Library/LaunchAgents/"+autostart.Label+".plist), an XDG autostart\n"+
		"entry on Linux ($XDG_CONFIG_HOME/autostart/hud.desktop).\n")
	exeFlag := fs.String("exe", "", "the hud `path` to start (default: this hud)")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("want one of on, off, status")
	}
	target := autostart.Default(env.Home, env.Getenv)
	exe, err := hudExecutable(env, *exeFlag)
	if err != nil {
		return err
	}
	switch fs.Arg(0) {
	case "on":
		changed, err := target.Enable(exe)
		if err != nil {
			return withHint(err, "check that "+filepath.Dir(target.Path)+" is writable")
		}
		if !changed {
			fmt.Fprintf(env.Stdout, "Autostart is already on: %s\n", target.Path)
			return nil
		}
		fmt.Fprintf(env.Stdout, "Autostart on: %s starts %s at login.\n", target.Path, exe)
	case "off":
		changed, err := target.Disable()
		if err != nil {
			return err
		}
		if !changed {
			fmt.Fprintln(env.Stdout, "Autostart is already off.")
			return nil
		}
		fmt.Fprintf(env.Stdout, "Autostart off: removed %s\n", target.Path)
	case "status":
		st, err := target.Status(exe)
		if err != nil {
			return err
		}
		switch {
		case !st.Enabled:
			fmt.Fprintln(env.Stdout, "off")
		case st.Current:
			fmt.Fprintf(env.Stdout, "on (%s)\n", target.Path)
		default:
			fmt.Fprintf(env.Stdout, "on, but %s does not start %s: run 'hud autostart on' to update it\n", target.Path, exe)
		}
	default:
		return usagef("unknown action %q (want on, off or status)", fs.Arg(0))
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
