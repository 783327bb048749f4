// Command measure runs a command and reports its peak memory: `measure
// PROG ARGS...` passes stdio through, exits with the command's status, and
// writes "<max RSS in KiB>\n" to descriptor 3.
//
// The adversarial suite cannot take the max RSS from its own wait4: a
// child forked from the test process (large under -race) inherits that
// process's high-water mark through exec. Forked from this small
// program, the command's figure is its own.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: measure PROG ARGS...")
		os.Exit(2)
	}
	report := os.NewFile(3, "report")
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(127)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && report != nil {
		fmt.Fprintf(report, "%d\n", ru.Maxrss)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
