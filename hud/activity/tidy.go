package activity

import (
	"path/filepath"
	"time"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// staleTempAge is how old a temp file must be before it is removed: a live
// writer's lasts milliseconds, so this never races one.
const staleTempAge = 10 * time.Minute

// tidyHome removes the temp files that writers killed between writing and
// renaming left in hud's own directories (safefile.TidyTemps): nothing
// else ever would. The worker does it at every job, detached, off
// Claude's time (a session's start, the end of each main turn, a
// compaction), so no hook event pays for the directory listings.
func tidyHome(l paths.Layout, now time.Time, logf func(string, ...any)) {
	for _, dir := range []string{
		l.StoreDir(),
		Dir(l),
		filepath.Join(l.StoreDir(), "handoff"),
		l.ClaudeDir(),
	} {
		if _, err := safefile.TidyTemps(dir, now.Add(-staleTempAge)); err != nil {
			logf("removing stale temp files: %v", err)
		}
	}
}
