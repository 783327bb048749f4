package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/paths"
)

func testLayout(t *testing.T) paths.Layout {
	t.Helper()
	return paths.Layout{Home: t.TempDir()}
}

var t0 = time.Date(2026, 1, 21, 10, 30, 0, 0, time.UTC)

// testLog is a logf for Update that fails the test on a line it did not
// expect; tests that expect lines read them from Update's logf themselves.
func testLog(t *testing.T) func(string, ...any) {
	return func(format string, args ...any) { t.Logf("store: "+format, args...) }
}

// write runs one edit through Update: the session id's record, in state
// st, working on what, updated at now.
func write(t *testing.T, l paths.Layout, id string, st State, what string, now time.Time) error {
	t.Helper()
	return Update(l, now, testLog(t), func(tb *Table) bool {
		tb.Put(&Record{SessionID: id, State: st, CWD: "/p", WorkingOn: what, UpdatedAt: At(now), StateChangedAt: At(now)})
		return true
	})
}

func readStore(t *testing.T, l paths.Layout) *Store {
	t.Helper()
	b, err := os.ReadFile(l.StorePath())
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := Decode(b)
	if err != nil {
		t.Fatalf("store does not decode: %v\n%s", err, b)
	}
	return s
}

func TestStoreFilesAndModes(t *testing.T) {
	l := testLayout(t)
	if err := write(t, l, "s", StateReady, "", t0); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{
		l.StoreDir():      os.ModeDir | 0o700,
		l.StorePath():     0o600,
		l.StoreLockPath(): 0o600,
	} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode() != want {
			t.Errorf("%s: mode %v, want %v", path, info.Mode(), want)
		}
	}
	if _, err := os.Stat(l.StorePath() + ".tmp"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("temp file left behind: %v", err)
	}
	if s := readStore(t, l); s.Sessions["s"] == nil || s.Sessions["s"].State != StateReady {
		t.Errorf("store: %+v", s.Sessions)
	}
}

// TestSlowPathThenFastPath: a store another writer wrote (no vouching
// line) is decoded in full once; the hook's own output is split after.
func TestSlowPathThenFastPath(t *testing.T) {
	l := testLayout(t)
	seed := sampleStore()
	seed.Ended = nil
	for id, r := range seed.Sessions {
		if !ValidSessionID(id) {
			delete(seed.Sessions, id) // the slow path drops them
		}
		r.UpdatedAt = At(t0)
	}
	b, _ := Encode(seed)
	os.MkdirAll(l.StoreDir(), 0o700)
	os.WriteFile(l.StorePath(), b, 0o600)

	for i := range 3 {
		if err := write(t, l, "new", StateWorking, fmt.Sprint("p", i), t0.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
		lock, err := lockStore(l, time.Second, testLog(t))
		if err != nil {
			t.Fatal(err)
		}
		_, info, _, _ := ReadFile(l.StorePath())
		if !lock.vouches(info) {
			t.Errorf("run %d: the hook's own store is not vouched for", i)
		}
		lock.release()
	}
	s := readStore(t, l)
	if len(s.Sessions) != len(seed.Sessions)+1 || s.Sessions["new"].WorkingOn != "p2" {
		t.Errorf("store after three runs: %d records, new=%+v", len(s.Sessions), s.Sessions["new"])
	}
	for id, r := range seed.Sessions {
		if got := s.Sessions[id]; got == nil || got.WorkingOn != r.WorkingOn {
			t.Errorf("record %q changed: %+v", id, got)
		}
	}

	// An edit in place (same size) takes the slow path again: it decodes,
	// so the edit is kept, not copied blindly.
	edited := bytes.Replace(readRaw(t, l), []byte(`"state": "working"`), []byte(`"state": "waiting"`), 1)
	if err := os.WriteFile(l.StorePath(), edited, 0o600); err != nil {
		t.Fatal(err)
	}
	lock, _ := lockStore(l, time.Second, testLog(t))
	_, info, _, _ := ReadFile(l.StorePath())
	if lock.vouches(info) {
		t.Error("an edited store is still vouched for")
	}
	lock.release()
}

func readRaw(t *testing.T, l paths.Layout) []byte {
	b, err := os.ReadFile(l.StorePath())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCorruptStoreQuarantined(t *testing.T) {
	l := testLayout(t)
	os.MkdirAll(l.StoreDir(), 0o700)
	bodies := []string{
		`{"version": 3, "sessions": {`,            // truncated
		`{"version": 2, "sessions": {}}`,          // foreign version
		"\x00\x01garbage",                         // not JSON
		`[1, 2, 3]`,                               // not an object
		`{"version": 3, "sessions": 5}`,           // wrong shape
		`{"sessions": {}}`,                        // no version
		`{"version": 4, "sessions": {}, "x": []}`, // a future format
	}
	for i, body := range bodies {
		if err := os.WriteFile(l.StorePath(), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		now := t0.Add(time.Duration(i) * time.Second)
		if err := write(t, l, "s", StateReady, "", now); err != nil {
			t.Fatalf("%q: %v", body, err)
		}
		moved := filepath.Join(l.StoreDir(), fmt.Sprint(corruptPrefix, now.Unix()))
		if got, err := os.ReadFile(moved); err != nil || string(got) != body {
			t.Errorf("%q: quarantined copy %q, %v", body, got, err)
		}
		if s := readStore(t, l); len(s.Sessions) != 1 {
			t.Errorf("%q: new store has %d records", body, len(s.Sessions))
		}
	}
	entries, _ := os.ReadDir(l.StoreDir())
	var kept []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), corruptPrefix) {
			kept = append(kept, e.Name())
		}
	}
	want := []string{}
	for i := len(bodies) - keepCorrupt; i < len(bodies); i++ {
		want = append(want, fmt.Sprint(corruptPrefix, t0.Add(time.Duration(i)*time.Second).Unix()))
	}
	if fmt.Sprint(kept) != fmt.Sprint(want) {
		t.Errorf("kept %v, want the newest %d: %v", kept, keepCorrupt, want)
	}
}

func TestQuarantineNeverOverwrites(t *testing.T) {
	l := testLayout(t)
	os.MkdirAll(l.StoreDir(), 0o700)
	for _, body := range []string{"first", "second"} {
		os.WriteFile(l.StorePath(), []byte(body), 0o600)
		if err := write(t, l, "s", StateReady, "", t0); err != nil {
			t.Fatal(err)
		}
	}
	for i, body := range []string{"first", "second"} {
		name := filepath.Join(l.StoreDir(), fmt.Sprint(corruptPrefix, t0.Unix()+int64(i)))
		if got, _ := os.ReadFile(name); string(got) != body {
			t.Errorf("%s holds %q, want %q", name, got, body)
		}
	}
}

func TestLockTimeout(t *testing.T) {
	l := testLayout(t)
	if err := write(t, l, "s", StateReady, "", t0); err != nil {
		t.Fatal(err)
	}
	before := readRaw(t, l)
	f, err := os.OpenFile(l.StoreLockPath(), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = lockStore(l, 200*time.Millisecond, testLog(t))
	if !errors.Is(err, errLockTimeout) {
		t.Fatalf("err %v, want the lock timeout", err)
	}
	if waited := time.Since(start); waited < 200*time.Millisecond || waited > 5*time.Second {
		t.Errorf("gave up after %v", waited)
	}
	if !bytes.Equal(readRaw(t, l), before) {
		t.Error("store changed without the lock")
	}
	// Once the holder lets go, the next run gets the lock at once.
	unix.Flock(int(f.Fd()), unix.LOCK_UN)
	lock, err := lockStore(l, 200*time.Millisecond, testLog(t))
	if err != nil {
		t.Fatal(err)
	}
	lock.release()
}

func TestUnwritableStore(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes to read-only directories")
	}
	l := testLayout(t)
	if err := write(t, l, "s", StateReady, "", t0); err != nil {
		t.Fatal(err)
	}
	before := readRaw(t, l)
	os.Chmod(l.StoreDir(), 0o500)
	defer os.Chmod(l.StoreDir(), 0o700)
	if err := write(t, l, "s", StateWorking, "", t0.Add(time.Second)); err == nil {
		t.Error("no error writing into a read-only directory")
	}
	if !bytes.Equal(readRaw(t, l), before) {
		t.Error("store changed")
	}
}

func TestMissingHomeIsNotCreated(t *testing.T) {
	l := paths.Layout{Home: filepath.Join(t.TempDir(), "no-such-home")}
	if err := write(t, l, "s", StateReady, "", t0); err == nil {
		t.Error("no error for a missing home")
	}
	if _, err := os.Stat(l.Home); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("home was created: %v", err)
	}
}

// TestStoreDirNotADirectory stands in for a store that cannot be written
// even by root.
func TestStoreDirNotADirectory(t *testing.T) {
	l := testLayout(t)
	if err := os.WriteFile(l.StoreDir(), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := write(t, l, "s", StateReady, "", t0); err == nil {
		t.Error("no error")
	}
}
