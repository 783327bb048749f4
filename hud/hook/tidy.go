package hook

import (
	"os"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/hud/worksession"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// tempAge is how old a temp file must be before it is removed: a live
// writer's lasts milliseconds, so this never races one. (The activity
// worker tidies hud's own directories the same way.)
const tempAge = 10 * time.Minute

// tidyProject removes the temp files killed writers left in the
// project's .claude (the work session's, the checkpoint's) at
// SessionStart: one small directory, and only when it is a real one,
// never through a link.
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
