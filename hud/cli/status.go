package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/capacitor-hud/hud/hud/status"
	"github.com/capacitor-hud/hud/lockholder"
	"github.com/capacitor-hud/hud/resolver"
)

// runStatus prints the live sessions, or with --project the state of one
// project path, in the format asked for.
func runStatus(env *Env, args []string) error {
	fs := newFlagSet(env, "status", "status [--json | --format NAME] [--project PATH]")
	asJSON := fs.Bool("json", false, "print JSON (same as --format json)")
	format := fs.String("format", "text", "output format: "+strings.Join(status.FormatNames(), ", "))
	project := fs.String("project", "", "resolve the state of the project at `PATH` (the seed's resolve_state)")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	if *asJSON {
		*format = "json"
	}

	snap, err := loadSnapshot(env.Layout())
	if err != nil {
		return err
	}
	now := env.Now()
	if *project != "" {
		render, ok := status.ProjectFormats[*format]
		if !ok {
			return usagef("--project: unknown format %q (want text or json)", *format)
		}
		path := resolver.NormalizePath(*project)
		res, found := resolver.ResolveState(snap, path, now, lockholder.Alive)
		return render(env.Stdout, status.NewProject(path, res, found, now))
	}
	render, ok := status.Formats[*format]
	if !ok {
		return usagef("unknown format %q (want one of %s)", *format, strings.Join(status.FormatNames(), ", "))
	}
	return render(env.Stdout, status.New(resolver.ResolveAll(snap, now, lockholder.Alive), now))
}

// loadSnapshot reads what the resolver needs, turning a corrupt store into
// an error that says where it is and what will happen to it.
func loadSnapshot(l resolver.Layout) (resolver.Snapshot, error) {
	snap, err := resolver.LoadSnapshot(l, claudeProcessStart)
	switch {
	case errors.Is(err, resolver.ErrCorruptStore):
		return snap, withHint(err, fmt.Sprintf(
			"the hook moves %s aside (as sessions.json.corrupt-<time>) and starts a fresh store on its next event; "+
				"to fix it now, remove the file", l.StorePath()))
	case err != nil:
		return snap, withHint(err, "check the permissions of "+l.StoreDir()+" and "+l.LockDir())
	}
	return snap, nil
}

// claudeProcessStart is resolver.ProcessStart over the real processes.
func claudeProcessStart(pid int) (uint64, bool) {
	p, err := lockholder.Inspect(pid)
	if err != nil {
		return 0, !errors.Is(err, lockholder.ErrNoProcess)
	}
	return p.StartTicks, true
}
