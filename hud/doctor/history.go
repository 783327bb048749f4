package doctor

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/capacitor-hud/hud/hud/ledger"
	"github.com/capacitor-hud/hud/resolver"
)

// checkHistory looks at the wait ledger: its days and size, that it is
// private, and that a lock holder records it while sessions run (one
// started by a hud-hook older than the ledger does not).
func checkHistory(env *Env) []Finding {
	dir := env.Layout.LedgerDir()
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return []Finding{ok("no ledger yet (%s): the lock holders write it while an agent runs", dir)}
	case err != nil:
		return []Finding{fail("check the permissions: ls -ld "+dir, "%v", err)}
	case !fi.IsDir():
		return []Finding{fail("move it away: the ledger is a directory", "%s is not a directory", dir)}
	}
	var out []Finding
	if fi.Mode().Perm()&0o077 != 0 {
		out = append(out, warn("chmod 700 "+dir, "%s can be read by others (%v)", dir, fi.Mode().Perm()))
	}
	days, size := 0, int64(0)
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if i, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".jsonl") && i.Mode().IsRegular() {
			days++
			size += i.Size()
			if i.Mode().Perm()&0o077 != 0 {
				out = append(out, warn("chmod 600 "+filepath.Join(dir, e.Name()), "%s can be read by others", e.Name()))
			}
		}
	}
	if live := liveLocks(env); live > 0 && !ledger.Recording(env.Layout) {
		out = append(out, warn("none needed: the sessions started from now on are recorded (their locks' holders are an older hud-hook's, or none runs)",
			"%d session(s) run, but no lock holder records the ledger", live))
	}
	return append(out, ok("%s: %d day(s), %.1f MB", dir, days, float64(size)/1e6))
}

// liveLocks counts the lock directories whose agent process lives.
func liveLocks(env *Env) int {
	dirs := env.LockDirs
	if len(dirs) == 0 {
		dirs = []string{env.Layout.LockDir()}
	}
	n := 0
	for _, dir := range dirs {
		locks, _ := resolver.LoadLocks(dir)
		for _, l := range locks {
			if env.Alive(l.PID, l.ProcStarted) {
				n++
			}
		}
	}
	return n
}
