package hook

import (
	"context"
	"strconv"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/lockholder"
)

// A helperMode is a hidden way to run the hook binary, for the helpers it
// starts detached (the lock holder, the activity worker): the helper is
// `hud-hook <name> <args...>`, so it shares the hook's small, fast binary
// and nothing else needs installing. Claude Code never passes arguments
// to the hook, so a name cannot collide with a hook run.
type helperMode struct {
	name string
	// run executes the mode with the arguments after its name and returns
	// the process exit status. Stdout is not the mode's to use either.
	run func(args []string, env Env) int
}

// helperModes lists every hidden mode; each is one line, its code in the
// package that owns the helper.
var helperModes = []helperMode{
	{lockholder.HoldMode, runLockHolder},
	{activity.WorkerMode, runActivityWorker},
}

// lookupMode finds the helper mode called name.
func lookupMode(name string) (helperMode, bool) {
	for _, m := range helperModes {
		if m.name == name {
			return m, true
		}
	}
	return helperMode{}, false
}

// runLockHolder is the hidden mode the lock holder runs in; it starts the
// activity worker for the jobs its Claude's hooks hand it, and records the
// ledger while no other holder does (env.Record).
func runLockHolder(args []string, env Env) int {
	var beside func(ctx context.Context)
	if env.Record != nil && len(args) == 3 {
		pid, _ := strconv.Atoi(args[1])
		beside = func(ctx context.Context) { env.Record(ctx, pid, helperLog(env)) }
	}
	return lockholder.HoldMain(args, activity.HolderJobs(helperLog(env)), beside)
}
