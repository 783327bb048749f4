package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, []byte("hello"), 0o600)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte(strings.Repeat("x", 100)), 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(file, link)
	fifo := filepath.Join(dir, "fifo")
	if err := unix.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		path  string
		links Links
		want  string
		err   error
	}{
		{"regular", file, NoFollow, "hello", nil},
		{"link followed", link, Follow, "hello", nil},
		{"link refused", link, NoFollow, "", ErrSymlink},
		{"too large", big, Follow, "", ErrTooLarge},
		{"fifo", fifo, Follow, "", ErrNotRegular},
		{"device", "/dev/zero", Follow, "", ErrNotRegular},
		{"directory", dir, Follow, "", ErrNotRegular},
		{"missing", filepath.Join(dir, "nope"), Follow, "", fs.ErrNotExist},
	}
	for _, c := range cases {
		start := time.Now()
		b, _, err := Read(c.path, 10, c.links)
		if time.Since(start) > time.Second {
			t.Errorf("%s: took %v", c.name, time.Since(start))
		}
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%s: err %v, want %v", c.name, err, c.err)
			}
			continue
		}
		if err != nil || string(b) != c.want {
			t.Errorf("%s: %q, %v", c.name, b, err)
		}
	}
}
