// Command claude stands in for a Claude Code process in the desktop test
// and the tray benchmark: it runs the hook the way Claude Code does
// (`/bin/sh -c <command>`, the event JSON on stdin) and stays alive in
// between, so the hook finds it as the session's process and the lock
// holder watches it. Its binary is named claude, like the real one.
//
// Protocol, one line per event on stdin: the path of an event JSON file.
// After the hook exits it prints "ok <exit> <start>", the moments the hook
// exited and was started in Unix nanoseconds (or "error <message>"). End of stdin ends the process, as /exit does.
//
// The hook command is $HUD_HOOK_COMMAND.
package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

func main() {
	command := os.Getenv("HUD_HOOK_COMMAND")
	if command == "" {
		fmt.Fprintln(os.Stderr, "claude stand-in: set HUD_HOOK_COMMAND")
		os.Exit(2)
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		path := strings.TrimSpace(in.Text())
		if path == "" {
			continue
		}
		fmt.Println(runHook(command, path))
	}
}

func runHook(command, path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "error " + err.Error()
	}
	defer f.Close()
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Stdin = f
	start := time.Now()
	if out, err := cmd.Output(); err != nil || len(out) > 0 {
		return fmt.Sprintf("error hook: %v, stdout %q", err, out)
	}
	return fmt.Sprintf("ok %d %d", time.Now().UnixNano(), start.UnixNano())
}
