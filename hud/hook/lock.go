package hook

import (
	"fmt"
	"os"

	"github.com/capacitor-hud/hud/lockholder"
)

// ensureLockHolder makes sure a lock holder watches the Claude process: on
// SessionStart (after sweeping locks whose process is gone) and, in case
// the holder died or the hook was installed mid-session, on a prompt when
// the process has no live lock. Other events never pay for it.
func ensureLockHolder(c *Context) error {
	if c.process.PID == 0 {
		return nil // not under Claude (or it could not be found): nothing to hold
	}
	switch c.Event.HookEventName {
	case EventSessionStart:
		if n, err := lockholder.Sweep(c.Layout); err != nil {
			c.Logf("sweeping stale locks: %v", err)
		} else if n > 0 {
			c.Logf("swept %d stale lock(s)", n)
		}
	case EventUserPromptSubmit:
		if lockholder.HasLiveLockAt(c.Layout, c.process, c.lockPath()) {
			return nil
		}
	default:
		return nil
	}
	executable := c.executable
	if executable == nil {
		executable = os.Executable
	}
	exe, err := executable()
	if err != nil {
		return fmt.Errorf("finding the hook binary: %w", err)
	}
	return lockholder.Ensure(c.Layout, c.process, c.lockPath(), c.Event.SessionID, exe)
}

// lockPath is the path a lock Ensure takes now is named for: the session's
// cwd.
func (c *Context) lockPath() string {
	if c.After != nil && c.After.CWD != "" {
		return c.After.CWD
	}
	return c.Event.CWD
}

// lockDir is the lock directory of the Claude process that ran the hook,
// where its holder takes jobs; "" when the process is unknown. It is
// computed, not looked for: a lock taken before the session changed
// directory has another name, and the hook then starts its jobs itself.
func (c *Context) lockDir() string {
	if c.process.PID == 0 {
		return ""
	}
	return lockholder.Dir(c.Layout, c.lockPath(), c.process.PID)
}
