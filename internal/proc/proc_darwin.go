package proc

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// Inspect asks the kernel (sysctl kern.proc.pid) for pid's parent, name and
// start time.
func Inspect(pid int) (Process, error) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return Process{}, fmt.Errorf("pid %d: %w", pid, err)
	}
	// A pid that does not exist yields an all-zero record, not an error.
	if kp.Proc.P_pid == 0 && pid != 0 {
		return Process{}, fmt.Errorf("pid %d: %w", pid, ErrNoProcess)
	}
	if kp.Proc.P_stat == 5 { // SZOMB
		return Process{}, fmt.Errorf("pid %d (zombie): %w", pid, ErrNoProcess)
	}
	comm := kp.Proc.P_comm[:]
	for i, c := range comm {
		if c == 0 {
			comm = comm[:i]
			break
		}
	}
	return Process{
		PID:     pid,
		PPID:    int(kp.Eproc.Ppid),
		Comm:    string(comm),
		Started: kp.Proc.P_starttime.Sec,
	}, nil
}

// signalZero asks the kernel whether pid exists: EPERM means it does.
func signalZero(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}

// cmdline returns pid's arguments from sysctl kern.procargs2: the
// argument count, the executable path, padding, then the arguments, each
// NUL-terminated.
func cmdline(pid int) ([]string, error) {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return nil, err
	}
	if len(b) < 4 {
		return nil, fmt.Errorf("pid %d: short procargs", pid)
	}
	argc := int(b[0]) | int(b[1])<<8 | int(b[2])<<16 | int(b[3])<<24
	rest := b[4:]
	// Skip the executable path and the NULs after it.
	i := 0
	for i < len(rest) && rest[i] != 0 {
		i++
	}
	for i < len(rest) && rest[i] == 0 {
		i++
	}
	var args []string
	for len(args) < argc && i < len(rest) {
		j := i
		for j < len(rest) && rest[j] != 0 {
			j++
		}
		args = append(args, string(rest[i:j]))
		i = j + 1
	}
	return args, nil
}
