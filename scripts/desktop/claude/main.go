// Command claude stands in for a Claude Code process in the desktop test
// and the benchmarks: it runs the hook the way Claude Code does
// (`/bin/sh -c <command>`, the event JSON on stdin) and stays alive in
// between, so the hook finds it as the session's process and the lock
// holder watches it. Its binary is named claude, like the real one.
//
// Protocol, one line per event on stdin: the path of an event JSON file,
// optionally followed by a tab and the command to run for it (the hook
// bench times the hook, an empty program and a shell hook side by side
// under one Claude). After the command exits it prints "ok <exit>
// <start>", the moments it exited and was started in Unix nanoseconds (or
// "error <message>"). End of stdin ends the process, as /exit does.
//
// The command, when a line names none, is $HUD_HOOK_COMMAND.
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
	out, err := os.CreateTemp("", "claude-stand-in-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "claude stand-in:", err)
		os.Exit(2)
	}
	defer os.Remove(out.Name())
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		path, cmd, _ := strings.Cut(strings.TrimSpace(in.Text()), "\t")
		if path == "" {
			continue
		}
		if cmd == "" {
			cmd = command
		}
		if cmd == "" {
			fmt.Println("error no command: set HUD_HOOK_COMMAND or name one on the line")
			continue
		}
		fmt.Println(runHook(cmd, path, out))
	}
}

// runHook runs command once on the event in path. The event is in a pipe
// before the shell starts, as Claude writes it at once, and the output goes
// to a file: no goroutine of this process copies data while the hook runs,
// so its timing is the hook's alone.
func runHook(command, path string, out *os.File) string {
	event, err := os.ReadFile(path)
	if err != nil {
		return "error " + err.Error()
	}
	r, w, err := os.Pipe()
	if err != nil {
		return "error " + err.Error()
	}
	defer r.Close()
	// A pipe holds 64 KiB; the events the tests and benchmarks send are a
	// few KiB, and a larger one is written by a goroutine, as exec would.
	if len(event) <= 60<<10 {
		_, err = w.Write(event)
		w.Close()
	} else {
		go func() { w.Write(event); w.Close() }()
	}
	if err != nil {
		return "error " + err.Error()
	}
	if err := out.Truncate(0); err != nil {
		return "error " + err.Error()
	}
	if _, err := out.Seek(0, 0); err != nil {
		return "error " + err.Error()
	}
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r, out, nil
	start := time.Now()
	err = cmd.Run()
	exited := time.Now()
	stdout, _ := os.ReadFile(out.Name())
	if err != nil || len(stdout) > 0 {
		return fmt.Sprintf("error hook: %v, stdout %q", err, stdout)
	}
	return fmt.Sprintf("ok %d %d", exited.UnixNano(), start.UnixNano())
}
