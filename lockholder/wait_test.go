package lockholder

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/resolver"
)

// watchers builds each lockWatch this OS has: its notifying one and the
// polling fallback.
var watchers = map[string]func(pid int, started int64, dir string, dirFD int) (lockWatch, error){
	"notify": func(pid int, _ int64, dir string, dirFD int) (lockWatch, error) {
		return openLockWatch(pid, dir, dirFD, nil)
	},
	"poll": func(pid int, started int64, dir string, dirFD int) (lockWatch, error) {
		return newPollWatch(pid, started, dir, dirFD), nil
	},
}

func TestLockWatch(t *testing.T) {
	for name, open := range watchers {
		for _, tt := range []struct {
			what string
			do   func(claude *exec.Cmd, dir string)
			want lockEvent
		}{
			{"claude exits", func(c *exec.Cmd, _ string) { c.Process.Kill(); c.Wait() }, claudeExited},
			{"lock removed", func(_ *exec.Cmd, dir string) { os.RemoveAll(dir) }, lockGone},
			{"lock moved", func(_ *exec.Cmd, dir string) { os.Rename(dir, dir+".old") }, lockGone},
		} {
			t.Run(name+"/"+tt.what, func(t *testing.T) {
				claude := exec.Command("sleep", "60")
				if err := claude.Start(); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { claude.Process.Kill(); claude.Wait() })
				p, err := proc.Inspect(claude.Process.Pid)
				if err != nil {
					t.Fatal(err)
				}
				l := paths.Layout{Home: t.TempDir()}
				dir := makeLock(t, l, "/p", p.PID, &resolver.LockMeta{PID: p.PID, Path: "/p", ProcStarted: p.Started})
				dirFD, err := openNoFollow(dir)
				if err != nil {
					t.Fatal(err)
				}
				defer unix.Close(dirFD)
				w, err := open(p.PID, p.Started, dir, dirFD)
				if err != nil {
					t.Fatal(err)
				}
				defer w.close()
				got := make(chan lockEvent, 1)
				go func() {
					ev, err := w.wait()
					if err != nil {
						t.Error(err)
					}
					got <- ev
				}()
				// Rewriting meta.json, and a temporary file that comes and
				// goes, are no removal.
				if err := writeMeta(dir, resolver.LockMeta{PID: p.PID, SessionID: "new"}); err != nil {
					t.Fatal(err)
				}
				tmp := filepath.Join(dir, ".meta.json.1.tmp")
				os.WriteFile(tmp, nil, 0o600)
				os.Remove(tmp)
				select {
				case ev := <-got:
					t.Fatalf("woke with %v before anything happened", ev)
				case <-time.After(100 * time.Millisecond):
				}
				tt.do(claude, dir)
				select {
				case ev := <-got:
					if ev != tt.want {
						t.Errorf("event %v, want %v", ev, tt.want)
					}
				case <-time.After(3 * pollInterval):
					t.Fatal("no event")
				}
			})
		}
	}
}
