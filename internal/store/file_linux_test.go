package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/paths"
)

// TestFullDisk fills a tiny file system holding the home: the write
// fails with ENOSPC and the store is left as it was.
func TestFullDisk(t *testing.T) {
	l := paths.Layout{Home: tinyFS(t, 64<<10)}
	if err := write(t, l, "s", StateReady, "", t0); err != nil {
		t.Fatal(err)
	}
	before := readRaw(t, l)
	fill(t, filepath.Join(l.Home, "filler"))
	err := write(t, l, "s", StateWorking, "", t0.Add(time.Second))
	if !errors.Is(err, unix.ENOSPC) {
		t.Errorf("err %v, want ENOSPC", err)
	}
	if !bytes.Equal(readRaw(t, l), before) {
		t.Error("store changed")
	}
	if _, err := os.Lstat(l.StorePath() + ".tmp"); err == nil {
		t.Error("temp file left behind")
	}
}

// tinyFS mounts a tmpfs of size bytes for the test, or skips it: mounting
// needs root (CI runs as root).
func tinyFS(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if os.Geteuid() != 0 {
		t.Skip("a full disk needs a tiny file system: mounting one needs root")
	}
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0700", size)); err != nil {
		t.Skipf("a full disk needs a tiny file system: mount: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

// fill writes path until the file system is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 4096)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, unix.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}
