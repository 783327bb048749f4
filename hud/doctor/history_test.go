package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/paths"
)

func TestCheckHistory(t *testing.T) {
	l := paths.Layout{Home: t.TempDir()}
	env := &Env{Layout: l, Alive: func(pid int, _ int64) bool { return pid == 4242 }}
	says := func(want ...string) {
		t.Helper()
		var got []string
		for _, f := range checkHistory(env) {
			got = append(got, f.Severity.mark()+" "+f.Message)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	dir := l.LedgerDir()
	says("✓ no ledger yet (" + dir + "): the lock holders write it while an agent runs")

	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "2026-11-28.jsonl"), make([]byte, 1_500_000), 0o644)
	os.WriteFile(filepath.Join(dir, "2026-11-29.jsonl"), []byte("{}\n"), 0o600)
	says("! "+dir+" can be read by others (-rwxr-xr-x)",
		"! 2026-11-28.jsonl can be read by others",
		"✓ "+dir+": 2 day(s), 1.5 MB")

	os.Chmod(dir, 0o700)
	os.Chmod(filepath.Join(dir, "2026-11-28.jsonl"), 0o600)
	lock := filepath.Join(l.LockDir(), paths.LockName("/p", 4242))
	os.MkdirAll(lock, 0o700)
	os.WriteFile(filepath.Join(lock, "meta.json"), []byte(`{"pid":4242,"path":"/p","created":1,"proc_started":1}`), 0o600)
	says("! 1 session(s) run, but no lock holder records the ledger", "✓ "+dir+": 2 day(s), 1.5 MB")

	f, err := os.OpenFile(filepath.Join(dir, "recorder.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	says("✓ " + dir + ": 2 day(s), 1.5 MB")
}
