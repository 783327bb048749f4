package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// ErrAlreadyRunning is returned by AcquireInstance when another tray of
// this user holds the lock.
var ErrAlreadyRunning = errors.New("another hud tray is already running")

// AcquireInstance takes the one-tray-per-user lock at path (an exclusive
// flock, released by the kernel whenever the process ends, so a crash never
// leaves it stuck) and writes our pid into it. When another tray holds it,
// the error wraps ErrAlreadyRunning and names that tray's pid.
func AcquireInstance(path string) (release func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("creating %s: %w", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the tray lock: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		defer f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			b, _ := os.ReadFile(path)
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil {
				return nil, fmt.Errorf("%w (pid %d)", ErrAlreadyRunning, pid)
			}
			return nil, ErrAlreadyRunning
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	// The pid is for people and for the message above; the lock decides.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { f.Close() }, nil
}
