package proc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat start times. It is
// 100 on every Linux architecture Go supports (the kernel exports USER_HZ,
// not HZ, to user space), and reading it would need cgo's sysconf.
const clockTicks = 100

// bootTime is the boot time in Unix seconds, the btime of /proc/stat:
// the wall clock less the time since boot (suspend included), which is
// how the kernel computes btime. Two clock reads, not a read of
// /proc/stat, which the kernel builds from every CPU's and interrupt's
// counters at every read. Where the moment falls within
// nanoseconds of a whole second the two may differ by one, as btime
// itself moves when the wall clock is set: startedSlack absorbs both.
// Read once per process, so that every start time it derives agrees.
var bootTime = sync.OnceValues(func() (int64, error) {
	var boot unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_BOOTTIME, &boot); err != nil {
		return 0, fmt.Errorf("reading boot time: %w", err)
	}
	return (time.Now().UnixNano() - boot.Nano()) / int64(time.Second), nil
})

// Inspect reads pid's parent, name and start time from /proc/<pid>/stat.
func Inspect(pid int) (Process, error) {
	b, err := readProc(pid, "stat")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Process{}, fmt.Errorf("pid %d: %w", pid, ErrNoProcess)
		}
		return Process{}, fmt.Errorf("pid %d: %w", pid, err)
	}
	return parseStat(pid, b)
}

// parseStat parses /proc/<pid>/stat. The command name (field 2) is in
// parentheses and may itself hold spaces and parentheses, so the fields
// after it are found from the last ')'.
func parseStat(pid int, b []byte) (Process, error) {
	open := bytes.IndexByte(b, '(')
	end := bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return Process{}, fmt.Errorf("pid %d: malformed stat", pid)
	}
	p := Process{PID: pid, Comm: string(b[open+1 : end])}
	// After ")": state(3) ppid(4) ... starttime(22): index 0 is field 3.
	fields := bytes.Fields(b[end+1:])
	if len(fields) < 20 {
		return Process{}, fmt.Errorf("pid %d: short stat", pid)
	}
	if bytes.Equal(fields[0], []byte("Z")) || bytes.Equal(fields[0], []byte("X")) {
		// A zombie has exited; only its parent has not reaped it yet.
		return Process{}, fmt.Errorf("pid %d (zombie): %w", pid, ErrNoProcess)
	}
	ppid, err := strconv.Atoi(string(fields[1]))
	if err != nil {
		return Process{}, fmt.Errorf("pid %d: bad ppid: %w", pid, err)
	}
	ticks, err := strconv.ParseUint(string(fields[19]), 10, 64)
	if err != nil {
		return Process{}, fmt.Errorf("pid %d: bad start time: %w", pid, err)
	}
	boot, err := bootTime()
	if err != nil {
		return Process{}, err
	}
	p.PPID = ppid
	p.StartTicks = ticks
	p.Started = boot + int64(ticks/clockTicks)
	return p, nil
}

// signalZero asks the kernel whether pid exists: EPERM means it does.
func signalZero(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

// maxProcFile bounds the read of a file of /proc/<pid>: a stat line is
// a few hundred bytes; a command line is cut there.
const maxProcFile = 16 << 10

// readProc reads /proc/<pid>/<name>, at most maxProcFile bytes.
func readProc(pid int, name string) ([]byte, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/" + name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxProcFile))
}

// cmdline returns pid's arguments from /proc/<pid>/cmdline.
func cmdline(pid int) ([]string, error) {
	b, err := readProc(pid, "cmdline")
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"), nil
}
