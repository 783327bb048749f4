package hook

import (
	"os"
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/safefile"
	"github.com/capacitor-hud/hud/hud/worksession"
)

// tempAge is how old a temp file must be before tidyTemps removes it: a
// live writer's lasts milliseconds, so this never races one.
const tempAge = 10 * time.Minute

// tidyTemps removes the temp files that writers killed between writing
// and renaming left in hud's directories (safefile.TidyTemps): nothing
// else ever would. It runs on SessionStart only, so tool events never pay
// for the directory listings, and a person who starts Claude now and
// then never accumulates debris.
func tidyTemps(c *Context) error {
	if c.Event.HookEventName != EventSessionStart {
		return nil
	}
	cutoff := c.Now.Add(-tempAge)
	dirs := []string{
		c.Layout.StoreDir(),
		activity.Dir(c.Layout),
		filepath.Join(c.Layout.StoreDir(), "handoff"),
		c.Layout.ClaudeDir(),
	}
	// The project's .claude holds the work session and the checkpoint;
	// it is tidied only when it is a real directory, never through a link.
	if c.After != nil && c.After.ProjectDir != "" {
		dir := filepath.Dir(worksession.Path(c.After.ProjectDir))
		if info, err := os.Lstat(dir); err == nil && info.IsDir() {
			dirs = append(dirs, dir)
		}
	}
	for _, dir := range dirs {
		if _, err := safefile.TidyTemps(dir, cutoff); err != nil {
			c.Logf("removing stale temp files: %v", err)
		}
	}
	return nil
}
