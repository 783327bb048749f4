package claudestandin

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// helpersLimit bounds the wait for a home's detached helpers at the end
// of a test: an activity worker runs git, which a loaded machine slows.
const helpersLimit = 15 * time.Second

// TempHome returns a new home directory for t. Its removal at the end of
// the test first waits, a bounded while, for the detached helpers the
// hook started there to exit (the lock holder, the activity worker,
// named with the home on their command lines): one still writing there
// makes the removal fail with "directory not empty".
func TempHome(t testing.TB) string {
	home := t.TempDir()
	// Cleanups run last-registered first: this one before TempDir's removal.
	t.Cleanup(func() {
		deadline := time.Now().Add(helpersLimit)
		for len(processesMentioning(home)) > 0 {
			if time.Now().After(deadline) {
				t.Logf("helpers still running in %s after %v: %q", home, helpersLimit, processesMentioning(home))
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	return home
}

// processesMentioning lists the command lines of the live processes,
// other than this one, that mention text.
func processesMentioning(text string) []string {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var found []string
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || len(cmdline) == 0 {
			continue // gone, or a zombie: it writes nothing more
		}
		if line := strings.ReplaceAll(string(cmdline), "\x00", " "); strings.Contains(line, text) {
			found = append(found, line)
		}
	}
	return found
}
