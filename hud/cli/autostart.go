package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/capacitor-hud/hud/hud/autostart"
)

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
	target := autostart.Default(env.Home, env.Getenv)
	exe, err := hudExecutable(env, *exeFlag)
	if err != nil {
		return err
	}
	switch action {
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
		return usagef("unknown action %q (want on, off or status)", action)
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
