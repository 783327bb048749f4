package resolver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// writeLock makes a lock directory as the holder does.
func writeLock(t *testing.T, l paths.Layout, path string, pid int, sid string) string {
	t.Helper()
	dir := filepath.Join(l.LockDir(), paths.LockName(path, pid))
	writeFile(t, filepath.Join(dir, "pid"), fmt.Sprint(pid))
	writeFile(t, filepath.Join(dir, "meta.json"),
		fmt.Sprintf(`{"pid":%d,"path":%q,"created":1700000000,"proc_started":1700000001,"session_id":%q}`, pid, path, sid))
	return dir
}

func TestLoadSnapshotEmptyHome(t *testing.T) {
	snap, err := LoadSnapshot(paths.Layout{Home: t.TempDir()}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Store == nil || len(snap.Store.Sessions) != 0 || len(snap.Locks) != 0 || len(snap.Claude) != 0 {
		t.Errorf("empty home: %+v", snap)
	}
}

func TestLoadSnapshot(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	writeFile(t, l.StorePath(), `{"version":3,"sessions":{"s1":{"session_id":"s1","state":"working","cwd":"/p","updated_at":"2026-01-21T10:30:00.123Z","state_changed_at":"2026-01-21T10:29:55.000Z","pid":42}}}`)
	good := writeLock(t, l, "/p", 42, "s1")
	writeLock(t, l, "/q", 43, "")

	sessions := l.LockDir()
	// Not locks: a lock being created (no meta yet), a meta whose pid
	// disagrees with the name, garbage meta, a file with a lock's name,
	// a name that is not a lock's.
	must(t, os.Mkdir(filepath.Join(sessions, paths.LockName("/r", 44)), 0o700))
	writeFile(t, filepath.Join(sessions, paths.LockName("/s", 45), "meta.json"), `{"pid":46,"path":"/s"}`)
	writeFile(t, filepath.Join(sessions, paths.LockName("/t", 47), "meta.json"), `{"pid":`)
	writeFile(t, filepath.Join(sessions, paths.LockName("/u", 48)), `{}`)
	writeFile(t, filepath.Join(sessions, "notalock.lock", "meta.json"), `{"pid":1,"path":"/"}`)

	// Claude Code's own files, good and bad.
	writeFile(t, filepath.Join(sessions, "12975.json"), `{"pid":12975,"sessionId":"s1","cwd":"/p","procStart":"68797","status":"busy","statusUpdatedAt":1795323488062}`)
	writeFile(t, filepath.Join(sessions, "12976.json"), `{"pid":12976,"sessionId":"s2","procStart":"100"}`)
	writeFile(t, filepath.Join(sessions, "100.json"), `not json`)
	writeFile(t, filepath.Join(sessions, "101.json"), `{"pid":999,"sessionId":"x"}`)
	writeFile(t, filepath.Join(sessions, "0102.json"), `{"pid":102,"sessionId":"x"}`)
	writeFile(t, filepath.Join(sessions, "103.json"), `{"pid":103}`)
	writeFile(t, filepath.Join(sessions, "x.json"), `{"pid":1,"sessionId":"x"}`)
	must(t, os.Mkdir(filepath.Join(sessions, "104.json"), 0o700))

	snap, err := LoadSnapshot(l, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := snap.Store.Sessions["s1"]; r == nil || r.State != store.StateWorking || r.PID != 42 {
		t.Errorf("store: %+v", snap.Store.Sessions)
	}
	var dirs []string
	for _, lk := range snap.Locks {
		dirs = append(dirs, filepath.Base(lk.Dir))
		if lk.Dir == good && (lk.PID != 42 || lk.Path != "/p" || lk.SessionID != "s1" || lk.ProcStarted != 1700000001) {
			t.Errorf("lock meta: %+v", lk)
		}
	}
	slices.Sort(dirs)
	want := []string{paths.LockName("/p", 42), paths.LockName("/q", 43)}
	slices.Sort(want)
	if !slices.Equal(dirs, want) {
		t.Errorf("locks %v, want %v", dirs, want)
	}
	var pids []int
	for _, c := range snap.Claude {
		pids = append(pids, c.PID)
	}
	slices.Sort(pids)
	if !slices.Equal(pids, []int{12975, 12976}) {
		t.Errorf("Claude sessions of pids %v, want [12975 12976]", pids)
	}
}

func TestLoadClaudeSessionsIdentity(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "10.json"), `{"pid":10,"sessionId":"same","procStart":"500"}`)
	writeFile(t, filepath.Join(dir, "11.json"), `{"pid":11,"sessionId":"reused","procStart":"500"}`)
	writeFile(t, filepath.Join(dir, "12.json"), `{"pid":12,"sessionId":"dead","procStart":"500"}`)
	writeFile(t, filepath.Join(dir, "13.json"), `{"pid":13,"sessionId":"unknown-ticks","procStart":"500"}`)
	writeFile(t, filepath.Join(dir, "14.json"), `{"pid":14,"sessionId":"no-procstart"}`)
	// Planted at a session file's name, a FIFO is skipped, not waited on.
	if err := syscall.Mkfifo(filepath.Join(dir, "15.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	procs := map[int]uint64{10: 500, 11: 777, 13: 0, 14: 900, 15: 500}
	procStart := func(pid int) (uint64, bool) {
		ticks, ok := procs[pid]
		return ticks, ok
	}
	got, err := LoadClaudeSessions(dir, procStart)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range got {
		ids = append(ids, c.SessionID)
	}
	slices.Sort(ids)
	if want := []string{"no-procstart", "same", "unknown-ticks"}; !slices.Equal(ids, want) {
		t.Errorf("kept %v, want %v", ids, want)
	}
}

func TestLoadStoreErrors(t *testing.T) {
	for name, content := range map[string]string{
		"not json":        `{"version":3,"sessions":`,
		"foreign version": `{"version":2,"sessions":{}}`,
		"a json array":    `[]`,
	} {
		t.Run(name, func(t *testing.T) {
			l := paths.Layout{Home: t.TempDir()}
			writeFile(t, l.StorePath(), content)
			writeLock(t, l, "/p", 42, "s1")
			snap, err := LoadSnapshot(l, nil, nil)
			if !errors.Is(err, store.ErrCorrupt) {
				t.Fatalf("err = %v, want store.ErrCorrupt", err)
			}
			if !strings.Contains(err.Error(), l.StorePath()) {
				t.Errorf("error %q does not name the store", err)
			}
			if snap.Store == nil || len(snap.Locks) != 1 {
				t.Errorf("with a corrupt store the rest still loads: %+v", snap)
			}
		})
	}
	// An empty file is an empty store (a writer that crashed before its
	// first write).
	l := paths.Layout{Home: t.TempDir()}
	writeFile(t, l.StorePath(), "")
	if _, err := LoadSnapshot(l, nil, nil); err != nil {
		t.Errorf("empty store file: %v", err)
	}
}

// TestLoadWhileLocksComeAndGo loads while another goroutine creates and
// removes lock directories and Claude files, as holders and Claude do: the
// loader never fails and never returns a half-written lock.
func TestLoadWhileLocksComeAndGo(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	must(t, os.MkdirAll(l.LockDir(), 0o700))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			pid := 100 + i%50
			dir := filepath.Join(l.LockDir(), paths.LockName("/p", pid))
			claude := filepath.Join(l.LockDir(), fmt.Sprintf("%d.json", pid))
			_ = os.Mkdir(dir, 0o700)
			_ = os.WriteFile(filepath.Join(dir, "meta.json"), fmt.Appendf(nil, `{"pid":%d,"path":"/p"}`, pid), 0o600)
			_ = os.WriteFile(claude, fmt.Appendf(nil, `{"pid":%d,"sessionId":"s"}`, pid), 0o600)
			_ = os.RemoveAll(dir)
			_ = os.Remove(claude)
		}
	})
	for range 300 {
		snap, err := LoadSnapshot(l, nil, nil)
		if err != nil {
			t.Errorf("load: %v", err)
			break
		}
		for _, lk := range snap.Locks {
			if lk.Path != "/p" || lk.PID < 100 {
				t.Errorf("half-read lock %+v", lk)
			}
		}
	}
	close(stop)
	wg.Wait()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
