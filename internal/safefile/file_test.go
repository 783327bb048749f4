package safefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFileStat: File.Stat says what os.Stat says, for every kind of file
// the hook may open.
func TestFileStat(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "reg")
	if err := os.WriteFile(reg, []byte("twelve bytes"), 0o640); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 600, time.UTC)
	if err := os.Chtimes(reg, old, old); err != nil {
		t.Fatal(err)
	}
	setuid := filepath.Join(dir, "setuid")
	if err := os.WriteFile(setuid, nil, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(setuid, 0o700|fs.ModeSetuid|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	sticky := filepath.Join(dir, "sticky")
	if err := os.Mkdir(sticky, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sticky, 0o1777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{reg, setuid, dir, sticky, fifo, os.DevNull} {
		f, err := OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.Stat()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got.Name() != want.Name() || got.Size() != want.Size() || got.Mode() != want.Mode() ||
			!got.ModTime().Equal(want.ModTime()) || got.IsDir() != want.IsDir() ||
			!SameFile(got, want) || !SameFile(want, got) {
			t.Errorf("%s: File.Stat %s %d %v %v, os.Stat %s %d %v %v", path,
				got.Name(), got.Size(), got.Mode(), got.ModTime(), want.Name(), want.Size(), want.Mode(), want.ModTime())
		}
	}
}

// TestFileIO: reads, writes and errors behave as *os.File's.
func TestFileIO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if _, err := OpenFile(path, os.O_RDONLY, 0); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("opening a missing file: %v, want fs.ErrNotExist", err)
	} else if pe := (*fs.PathError)(nil); !errors.As(err, &pe) || pe.Path != path {
		t.Fatalf("opening a missing file: %#v, want a *fs.PathError naming it", err)
	}
	f, err := OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := f.Write([]byte("hello, world")); n != 12 || err != nil {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if n, err := f.WriteAt([]byte("HELLO"), 0); n != 5 || err != nil {
		t.Fatalf("WriteAt: %d, %v", n, err)
	}
	got := make([]byte, 5)
	if n, err := f.ReadAt(got, 7); n != 5 || err != nil || string(got) != "world" {
		t.Fatalf("ReadAt: %d %q %v", n, got, err)
	}
	if n, err := f.ReadAt(got, 10); n != 2 || err != io.EOF {
		t.Fatalf("ReadAt past the end: %d, %v; want 2, io.EOF", n, err)
	}
	if n, err := f.Read(got); n != 0 || err != io.EOF {
		t.Fatalf("Read at the end: %d, %v; want 0, io.EOF", n, err)
	}
	if n, err := f.Read(nil); n != 0 || err != nil {
		t.Fatalf("Read of nothing: %d, %v; want 0, nil", n, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "HELLO, world" {
		t.Fatalf("file holds %q, %v", b, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode())
	}
	if err := f.Close(); !errors.Is(err, fs.ErrClosed) {
		t.Errorf("a second Close: %v, want fs.ErrClosed", err)
	}
}

// TestSecondCloseClosesNothing: a File closed twice (a deferred cleanup
// after an explicit Close) must not close whatever file got its
// descriptor's number in between.
func TestSecondCloseClosesNothing(t *testing.T) {
	dir := t.TempDir()
	a, err := OpenFile(filepath.Join(dir, "a"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	fd := a.Fd()
	a.Close()
	b, err := OpenFile(filepath.Join(dir, "b"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if b.Fd() != fd {
		t.Skipf("the descriptor was not reused (%d, then %d)", fd, b.Fd())
	}
	a.Close()
	if _, err := b.Write([]byte("x")); err != nil {
		t.Errorf("a's second Close closed b: %v", err)
	}
}

func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, nil, 0o600)
	os.WriteFile(b, nil, 0o600)
	f, err := OpenFile(a, os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fa, _ := f.Stat()
	la, _ := os.Lstat(a)
	lb, _ := os.Lstat(b)
	if !SameFile(fa, la) || SameFile(fa, lb) {
		t.Errorf("SameFile: a and a %v, a and b %v", SameFile(fa, la), SameFile(fa, lb))
	}
}
