package proc

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/capacitor-hud/hud/internal/jsonfields"
	"github.com/capacitor-hud/hud/internal/safefile"
)

// maxWalk bounds the walk up the process tree.
const maxWalk = 8

// FindClaude walks up from parent (normally the hook's own parent) and
// returns the first ancestor that is Claude Code (isClaude; IsClaude is
// the real test). Claude runs command hooks as `claude → /bin/sh -c
// <command> → hook`; with `args` it execs the hook directly, and then
// parent is Claude itself. Shells are passed at once; any other process
// that is not Claude (a hook manager, `uv run`, a test runner wrapping the
// hook) is walked past too, so the session's lock is never tied to a
// process that exits long before Claude does. When no ancestor within
// maxWalk is Claude, FindClaude returns an error naming the ones it saw,
// and the hook records no process.
func FindClaude(parent int, isClaude func(Process) bool) (Process, error) {
	return FindAgent(parent, "Claude Code", isClaude)
}

// FindAgent is FindClaude for any coding agent: the first ancestor of
// parent, past shells and other helpers, that is the agent (is); what
// names the agent in its error.
func FindAgent(parent int, what string, is func(Process) bool) (Process, error) {
	pid := parent
	var seen []string
	for range maxWalk {
		p, err := Inspect(pid)
		if err != nil {
			return Process{}, fmt.Errorf("finding %s above pid %d: %w", what, parent, err)
		}
		if !IsShell(p.Comm) && is(p) {
			return p, nil
		}
		seen = append(seen, p.Comm+" "+strconv.Itoa(p.PID))
		if p.PPID <= 1 {
			break
		}
		pid = p.PPID
	}
	return Process{}, fmt.Errorf("finding %s above pid %d: none of %s is %s", what, parent, strings.Join(seen, ", "), what)
}

// IsExecutable returns the process test of an agent known by its
// executable: a process whose executable is named name (the native
// binary, as Codex's Rust binary and opencode's Bun binary are), or a
// script runtime whose command line runs a script or package of that
// name (an npm install run through node).
func IsExecutable(name string) func(Process) bool {
	return func(p Process) bool {
		comm := filepath.Base(p.Comm)
		if comm == name {
			return true
		}
		if !isJSRuntime(comm) {
			return false
		}
		args, err := cmdline(p.PID)
		return err == nil && runsScript(args, name)
	}
}

// runsScript reports whether a script runtime's arguments run the script
// or package name: its first argument that is not an option names it.
func runsScript(args []string, name string) bool {
	for _, a := range args[min(1, len(args)):] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		base := strings.TrimSuffix(filepath.Base(a), filepath.Ext(a))
		return base == name || strings.Contains(a, "/"+name+"/")
	}
	return false
}

// IsClaude returns the test FindClaude uses: a process is Claude Code when
// its executable is claude (the native binary, or a script runtime whose
// command line runs claude), or when Claude's own session registry,
// sessionsDir/<pid>.json, names it. Claude writes that file only after
// SessionStart, so the executable is tried first.
func IsClaude(sessionsDir string) func(Process) bool {
	return func(p Process) bool {
		name := filepath.Base(p.Comm)
		switch {
		case strings.HasPrefix(name, "claude"):
			return true
		case isJSRuntime(name):
			// A script runtime runs Claude Code installed as a script
			// (npm's cli.js) rather than as its native binary.
			if args, err := cmdline(p.PID); err == nil && runsClaude(args) {
				return true
			}
		}
		return sessionFileNames(filepath.Join(sessionsDir, strconv.Itoa(p.PID)+".json"), p)
	}
}

// runsClaude reports whether a script runtime's arguments run Claude
// Code: a script path or a package name that says claude.
func runsClaude(args []string) bool {
	for _, a := range args[min(1, len(args)):] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		return strings.Contains(filepath.Base(a), "claude") || strings.Contains(a, "/claude-code/")
	}
	return false
}

// maxSessionFile bounds the read of Claude's session file (a few hundred
// bytes).
const maxSessionFile = 64 << 10

// sessionFileNames reports whether Claude's session file at path names p:
// its pid, and its procStart where both sides know the start time (a file
// left by an earlier process that had the pid names another).
func sessionFileNames(path string, p Process) bool {
	// Bounded, and never waiting on a FIFO planted at the name: the hook
	// asks this on its own path.
	b, _, err := safefile.Read(path, maxSessionFile, safefile.Follow)
	if err != nil {
		return false
	}
	var pid int
	var procStart string
	if jsonfields.Decode(b, jsonfields.Int("pid", &pid), jsonfields.String("procStart", &procStart)) != nil || pid != p.PID {
		return false
	}
	if procStart == "" || p.StartTicks == 0 {
		return true
	}
	return procStart == strconv.FormatUint(p.StartTicks, 10)
}

// Cmdline returns the arguments process pid was started with.
func Cmdline(pid int) ([]string, error) { return cmdline(pid) }

// isJSRuntime reports whether comm runs Claude Code or another agent when
// it is installed as a script (npm's node, bun, deno).
func isJSRuntime(comm string) bool {
	switch comm {
	case "node", "bun", "deno":
		return true
	}
	return false
}
