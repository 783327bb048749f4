package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestTidyTemps(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	files := map[string]bool{ // name: removed
		".s6.json.tmp-123":     true,
		".state.json.tmp-9":    true,
		".s6.json.tmp-":        false, // no digits: not one of ours
		".s6.json.tmp-12a":     false,
		"s6.json.tmp-123":      false, // no leading dot
		"s6.json":              false,
		".tmp-123":             false, // no file name
		".fresh.json.tmp-1234": false, // young: a writer at work
	}
	for name := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if name != ".fresh.json.tmp-1234" {
			os.Chtimes(p, old, old)
		}
	}
	// A link is removed itself, its target kept.
	target := filepath.Join(t.TempDir(), "target")
	os.WriteFile(target, []byte("x"), 0o600)
	os.Symlink(target, filepath.Join(dir, ".link.json.tmp-5"))
	ts := []unix.Timespec{unix.NsecToTimespec(old.UnixNano()), unix.NsecToTimespec(old.UnixNano())}
	if err := unix.UtimesNanoAt(unix.AT_FDCWD, filepath.Join(dir, ".link.json.tmp-5"), ts, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		t.Fatal(err)
	}
	files[".link.json.tmp-5"] = true

	n, err := TidyTemps(dir, time.Now().Add(-time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	removed := 0
	for name, gone := range files {
		_, err := os.Lstat(filepath.Join(dir, name))
		if gone != errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: removed %v, want %v", name, !gone, gone)
		}
		if gone {
			removed++
		}
	}
	if n != removed {
		t.Errorf("reported %d removed, want %d", n, removed)
	}
	if _, err := os.Stat(target); err != nil {
		t.Errorf("link target: %v", err)
	}
	if n, err := TidyTemps(filepath.Join(dir, "missing"), time.Now()); n != 0 || err != nil {
		t.Errorf("missing dir: %d, %v", n, err)
	}
}

func TestSwapIn(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.json")
	put := func(content string) error {
		tmp := filepath.Join(dir, "store.json.tmp")
		if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return SwapIn(tmp, path)
	}
	for _, content := range []string{"first (no old file)", "second", "third"} {
		if err := put(content); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(path); string(b) != content {
			t.Errorf("read %q, want %q", b, content)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("left behind: %v", entries)
		}
	}
	// A link at path is replaced, its target untouched.
	target := filepath.Join(t.TempDir(), "bashrc")
	os.WriteFile(target, []byte("mine"), 0o600)
	os.Remove(path)
	os.Symlink(target, path)
	if err := put("over a link"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "mine" {
		t.Errorf("link target now %q", b)
	}
	if info, _ := os.Lstat(path); !info.Mode().IsRegular() {
		t.Errorf("path is %v, want the new file", info.Mode())
	}
	// A directory at path is refused, as rename refuses it, and stays.
	os.Remove(path)
	os.Mkdir(path, 0o700)
	os.WriteFile(filepath.Join(path, "inside"), nil, 0o600)
	if err := put("over a directory"); err == nil {
		t.Error("replaced a directory")
	}
	if _, err := os.Stat(filepath.Join(path, "inside")); err != nil {
		t.Errorf("directory not kept: %v", err)
	}
}

func TestLockRefusesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("x"), 0o600)
	link := filepath.Join(dir, "x.lock")
	os.Symlink(target, link)
	if unlock, err := Lock(link, 50*time.Millisecond); err == nil {
		unlock()
		t.Fatal("locked through a link")
	} else if !strings.Contains(err.Error(), "x.lock") {
		t.Errorf("error does not name the file: %v", err)
	}
}
