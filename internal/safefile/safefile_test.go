package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestWriteFileReplacesAndSetsMode(t *testing.T) {
	for name, write := range map[string]func(string, []byte, os.FileMode) error{"WriteFile": WriteFile, "Replace": Replace} {
		t.Run(name, func(t *testing.T) { testReplaces(t, write) })
	}
}

func testReplaces(t *testing.T, write func(string, []byte, os.FileMode) error) {
	path := filepath.Join(t.TempDir(), "sub", "f.json")
	for _, content := range []string{"one", "two"} {
		if err := write(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil || string(got) != content {
			t.Fatalf("read %q, %v; want %q", got, err, content)
		}
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("temp files left behind: %v", entries)
	}
}

func TestWriteFileIntoReadOnlyDirFailsCleanly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o500)
	defer os.Chmod(dir, 0o700)
	if err := WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o600); err == nil {
		t.Fatal("want an error writing into a read-only directory")
	}
}

func TestLockExcludesAndTimesOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	unlock, err := Lock(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := Lock(path, 50*time.Millisecond); !errors.Is(err, ErrLockTimeout) {
		t.Fatalf("second lock: %v, want ErrLockTimeout", err)
	}
	if waited := time.Since(start); waited < 50*time.Millisecond {
		t.Errorf("gave up after %v, before the timeout", waited)
	}
	unlock()
	unlock2, err := Lock(path, 50*time.Millisecond)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	unlock2()
}

// A mode other than the temp file's 0600 is set past the umask, and the
// directory is made when missing, for both writers.
func TestWriteFileSetsOtherModesPastUmask(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	for name, write := range map[string]func(string, []byte, os.FileMode) error{"WriteFile": WriteFile, "Replace": Replace} {
		path := filepath.Join(t.TempDir(), "new", "dir", name)
		if err := write(path, []byte("x"), 0o644); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", name, fi.Mode().Perm())
		}
	}
}

func TestLockMakesMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new", "dir", "x.lock")
	unlock, err := Lock(path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	fi, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, want 0700", fi.Mode().Perm())
	}
}
