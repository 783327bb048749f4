package e2e

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// processAlive reports whether pid runs. A zombie (exited, not yet reaped
// by tmux) counts as gone, as it does for the HUD.
func processAlive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return !errors.Is(err, os.ErrNotExist) || !procMounted()
	}
	// The state follows the parenthesised command name.
	if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z'
	}
	return true
}

// procMounted is false on macOS, where kill(pid, 0) is all there is.
func procMounted() bool {
	_, err := os.Stat("/proc/self/stat")
	return err == nil
}

// processesMentioning lists the live processes whose command line contains
// text (Linux; elsewhere none are found). The suite uses it to catch a
// lock holder that outlives its Claude process.
func processesMentioning(text string) map[int]string {
	found := map[int]string{}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return found
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		line := strings.TrimSpace(strings.ReplaceAll(string(cmdline), "\x00", " "))
		if strings.Contains(line, text) && processAlive(pid) {
			found[pid] = line
		}
	}
	return found
}

// loadAverage is the machine's 1, 5 and 15 minute load averages: a
// latency measured on a machine busy with other work says little.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	fields := strings.Fields(string(data))
	if len(fields) < 3 {
		return "unknown"
	}
	return strings.Join(fields[:3], " ")
}
