package focus

import (
	"os"
	"strconv"

	"github.com/capacitor-hud/hud/internal/proc"
)

// maxProcesses bounds the scan of the process table.
const maxProcesses = 1 << 16

// Children counts the running processes whose parent is pid, from /proc;
// 0 where there is no /proc to read.
func Children(pid int) int {
	dir, err := os.Open("/proc")
	if err != nil {
		return 0
	}
	defer dir.Close()
	names, err := dir.Readdirnames(maxProcesses)
	if err != nil && len(names) == 0 {
		return 0
	}
	n := 0
	for _, name := range names {
		p, err := strconv.Atoi(name)
		if err != nil || p <= 1 {
			continue
		}
		if proc, err := proc.Inspect(p); err == nil && proc.PPID == pid {
			n++
		}
	}
	return n
}
