package hook

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/safefile"
	"github.com/capacitor-hud/hud/hud/worksession"
	"github.com/capacitor-hud/hud/resolver"
)

// tempAge is how old a temp file must be before it is removed: a live
// writer's lasts milliseconds, so this never races one.
const tempAge = 10 * time.Minute

// tidyHome removes the temp files that writers killed between writing and
// renaming left in hud's own directories (safefile.TidyTemps): nothing
// else ever would. The activity worker does it, detached, at every job
// (a session's start, the end of each main turn, a compaction), so no
// hook event pays for the directory listings.
func tidyHome(l resolver.Layout, now time.Time) error {
	var errs []error
	for _, dir := range []string{
		l.StoreDir(),
		activity.Dir(l),
		filepath.Join(l.StoreDir(), "handoff"),
		l.ClaudeDir(),
	} {
		if _, err := safefile.TidyTemps(dir, now.Add(-tempAge)); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// tidyProject removes stale temp files from the project's .claude (the
// work session's, the checkpoint's) at SessionStart: one small directory,
// and only when it is a real one, never through a link.
func tidyProject(c *Context) error {
	if c.Event.HookEventName != EventSessionStart || c.After == nil || c.After.ProjectDir == "" {
		return nil
	}
	dir := filepath.Dir(worksession.Path(c.After.ProjectDir))
	if info, err := os.Lstat(dir); err != nil || !info.IsDir() {
		return nil
	}
	_, err := safefile.TidyTemps(dir, c.Now.Add(-tempAge))
	return err
}
