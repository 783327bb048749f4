package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/capacitor-hud/hud/hud/activity"
)

// What the tray bench reads of a running process: its CPU time and its
// memory, from /proc.

// trayCPUOnce notes once that CPU times come at tick resolution.
var trayCPUOnce sync.Once

// trayCPUTime is the time pid has spent on a CPU, all its threads
// together: the sum of /proc/<pid>/task/*/schedstat (ns), else
// utime+stime from /proc/<pid>/stat (10 ms ticks). The process's own
// schedstat is only its main thread, which systray parks for good.
func trayCPUTime(pid int) (time.Duration, error) {
	if tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid)); err == nil && len(tasks) > 0 {
		var total time.Duration
		ok := true
		for _, task := range tasks {
			b, err := os.ReadFile(task)
			f := strings.Fields(string(b))
			if err != nil || len(f) == 0 {
				ok = false
				break
			}
			ns, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil {
				ok = false
				break
			}
			total += time.Duration(ns)
		}
		if ok {
			return total, nil
		}
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, fmt.Errorf("tray CPU time: %w", err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("tray CPU time: short /proc/%d/stat", pid)
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	trayCPUOnce.Do(func() { fmt.Println("(CPU time from /proc/<pid>/stat, 10 ms resolution)") })
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}

// trayRSS is VmRSS of pid in bytes.
func trayRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("tray memory: %w", err)
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, errors.New("tray memory: no VmRSS")
}

func megabytes(bytes int64) float64 { return float64(bytes) / (1 << 20) }

func trayRatio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// settle waits until the activity worker a Stop starts has run: the lock
// holder starts it some time after the hook exited (an older hook, as it
// exits), and it runs for some milliseconds, which would otherwise be
// timed along with whatever the bench runs next. It waits for one to
// appear for up to 300 ms, and for all to end for up to 2 s.
func settle() {
	start := time.Now()
	seen := false
	for time.Since(start) < 2*time.Second {
		running := workersRunning()
		seen = seen || running
		// The holder starts a worker 50 ms after the job came; an older
		// hook started it itself.
		if !running && (seen || time.Since(start) > 300*time.Millisecond) {
			return
		}
		time.Sleep(500 * time.Microsecond)
	}
}

// workersRunning reports whether a process runs hud-hook's activity
// worker mode (its first argument).
func workersRunning() bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	mode := []byte("\x00" + activity.WorkerMode + "\x00")
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(b, mode) {
			return true
		}
	}
	return false
}
