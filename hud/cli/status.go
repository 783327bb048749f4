package cli

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/capacitor-hud/hud/hud/agent/registry"
	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/hud/present"
	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
)

// runStatus prints the live sessions, or with --project the state of one
// project path, in the format asked for.
func runStatus(env *Env, args []string) error {
	fs := newFlagSet(env, "status", "status [--json | --format NAME] [--project PATH] [--watch]\n\n"+
		status.FormatHelp()+
		"--watch prints one line of "+status.FormatNames(status.Streams)+" output on every change.\n")
	asJSON := fs.Bool("json", false, "print JSON (same as --format json)")
	format := fs.String("format", status.Formats[0].Name, "output format: "+status.FormatNames(nil))
	project := fs.String("project", "", "resolve the state of the project at `PATH`")
	watchLines := fs.Bool("watch", false, "print a line on every change until interrupted ("+status.FormatNames(status.Streams)+");\nthis machine's sessions only: it is the stream remote machines read")
	local := fs.Bool("local", false, "leave out the remote machines ('hud remote')")
	remoteTimeout := fs.Duration("remote-timeout", 3*time.Second, "how long to wait for each remote machine before showing it as unreachable")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *asJSON {
		*format = "json"
	}

	// Check the format before reading anything: a usage mistake should
	// not hide behind (or be hidden by) a problem with the files.
	f, ok := status.LookupFormat(*format)
	switch {
	case !ok:
		return usagef("unknown format %q (want one of %s)", *format, status.FormatNames(nil))
	case *project != "" && f.Project == nil:
		return usagef("unknown format %q with --project (want %s)", *format, status.FormatNames(status.HasProject))
	}

	if *watchLines {
		return watchStatusLines(env, f, *project, *local)
	}

	snap, err := loadSnapshot(env.Layout())
	if err != nil {
		return err
	}
	now := env.Now()
	if *project != "" {
		path := paths.Normalize(*project)
		res, found := resolver.ResolveState(snap, path, now, proc.Alive)
		return f.Project(env.Stdout, status.NewProject(path, res, found, now))
	}
	sessions := resolver.ResolveAll(snap, now, proc.Alive)
	v := status.New(sessions, now).LoadActivity(env.Layout())
	v.Accounts = view.Accounts(env.Home, snap.Accounts)
	v.HooksProblem = hooksDoubt(env.Layout(), sessions)
	if !*local {
		v.AddRemotes(fetchRemotes(env, *remoteTimeout))
	}
	return f.Render(env.Stdout, v)
}

// hooksDoubt is what the tray's unsure icon would say about the hooks
// (present.HooksDoubt): the user settings' problem while no live
// session's events arrive.
func hooksDoubt(l paths.Layout, sessions []resolver.Session) string {
	arrive := slices.ContainsFunc(sessions, func(s resolver.Session) bool { return s.Record != nil })
	if arrive {
		return ""
	}
	return present.HooksDoubt(install.HooksProblem(install.UserSettingsPaths(l), install.SettingsProblem), false)
}

// loadSnapshot reads what the resolver needs, turning a corrupt store into
// an error that says where it is and what will happen to it.
func loadSnapshot(l paths.Layout) (resolver.Snapshot, error) {
	snap, err := resolver.LoadSnapshot(l, proc.StartTicks, registry.Logs)
	switch {
	case errors.Is(err, store.ErrCorrupt):
		return snap, withHint(err, fmt.Sprintf(
			"the hook moves %s aside (as sessions.json.corrupt-<time>) and starts a fresh store on its next event; "+
				"to fix it now, remove the file", l.StorePath()))
	case err != nil:
		return snap, withHint(err, "check the permissions of "+l.StoreDir()+" and "+l.LockDir())
	}
	return snap, nil
}
