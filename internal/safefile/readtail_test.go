package safefile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadTail(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "log")
	if err := os.WriteFile(file, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n    int64
		want string
	}{{4, "6789"}, {10, "0123456789"}, {100, "0123456789"}} {
		b, err := ReadTail(file, c.n, NoFollow)
		if err != nil || string(b) != c.want {
			t.Errorf("ReadTail(%d) = %q, %v; want %q", c.n, b, err, c.want)
		}
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTail(link, 4, NoFollow); !errors.Is(err, ErrSymlink) {
		t.Errorf("a link: %v, want ErrSymlink", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTail(fifo, 4, NoFollow); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a FIFO: %v, want ErrNotRegular", err)
	}
	if _, err := ReadTail(filepath.Join(dir, "missing"), 4, NoFollow); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v, want ErrNotExist", err)
	}
}
