package main

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/resolver"
)

// hookStoreSizes are the store sizes the hook is timed at: a few sessions,
// and a busy day's worth (the store keeps every session of the last 24
// hours, and the hook reads and writes all of it on every event).
var hookStoreSizes = []int{10, 200}

// hookEvents are the recorded events the hook is timed on, the ones a
// turn fires (tool calls most of all), in the order Claude fires them.
var hookEvents = []string{
	"06-UserPromptSubmit.json",
	"07-PreToolUse.json",
	"08-PermissionRequest.json",
	"09-Notification-permission_prompt.json",
	"10-PostToolUse.json",
	"11-Stop.json",
}

// shellHook is the shell way of writing a hook (bash and jq), timed
// against bin/hud-hook.
//
//go:embed shellhook.sh
var shellHook []byte

// hookCase is one thing timed: the hook (or the shell way) on one input,
// in one home, started one way; each has its own baseline, the empty
// program started the same way with the same input, run right after it.
type hookCase struct {
	place, mode string
	size        int
	event       string // "" for no input
	input       []byte
	env         []string
	prog, base  string // base "": no baseline
	sh          bool   // through /bin/sh -c, as Claude Code runs a hook
	every       int    // run on every every-th round only (the slow shell way)

	progTimes, baseTimes []time.Duration
}

// benchHook times bin/hud-hook as Claude Code runs it against the empty Go
// program: fork+exec with the event on stdin, through `/bin/sh -c` as
// Claude runs hooks and exec'd directly, with 10 and 200 sessions in the
// store, on the disk (ext4 here, where ~ is) and on tmpfs. Every case is
// interleaved with its baseline and all cases with each other, round after
// round, so the machine's load falls on both sides alike. Then the shell
// way (bash and jq) against the hook, on the same inputs.
func benchHook(b *bench) error {
	hook, err := b.build("./cmd/hud-hook")
	if err != nil {
		return err
	}
	empty, err := b.emptyProgram()
	if err != nil {
		return err
	}
	fixtures := make([][]byte, len(hookEvents))
	for i, name := range hookEvents {
		if fixtures[i], err = os.ReadFile(filepath.Join("testdata", "hook", "fixtures", name)); err != nil {
			return fmt.Errorf("reading fixture (run from the repository root): %w", err)
		}
	}
	shell := filepath.Join(b.dir, "shellhook.sh")
	if err := os.WriteFile(shell, shellHook, 0o700); err != nil {
		return err
	}
	places, err := benchPlaces(b)
	if err != nil {
		return err
	}
	var cases []*hookCase
	for _, place := range places {
		for _, size := range hookStoreSizes {
			home, project, err := benchHome(place.dir, fmt.Sprintf("hook-%d", size), size)
			if err != nil {
				return err
			}
			shellHome, shellProject, err := benchHome(place.dir, fmt.Sprintf("shell-%d", size), size)
			if err != nil {
				return err
			}
			env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
			shellEnv := []string{"HOME=" + shellHome, "PATH=" + os.Getenv("PATH")}
			for _, mode := range []string{"sh -c", "exec"} {
				for i, data := range append(fixtures, nil) {
					c := &hookCase{place: place.name, mode: mode, size: size, env: env, prog: hook, base: empty, sh: mode == "sh -c", every: 1}
					if data != nil {
						c.event = eventName(hookEvents[i])
						// The recorded cwd does not exist here; a real one
						// costs the path normalizer its real work.
						c.input = []byte(strings.ReplaceAll(string(data), "/home/dev/proj", project))
					}
					cases = append(cases, c)
				}
			}
			for _, mode := range []string{"sh -c", "exec"} {
				for i, data := range fixtures {
					// The shell way, in a home of its own (jq reformats the
					// store), compared with the hook cases above started
					// the same way: no baseline of its own.
					cases = append(cases, &hookCase{place: place.name, mode: "shell " + mode, size: size,
						env: shellEnv, prog: shell, sh: mode == "sh -c", every: 10,
						event: eventName(hookEvents[i]),
						input: []byte(strings.ReplaceAll(string(data), "/home/dev/proj", shellProject))})
				}
			}
		}
	}
	// Warm up: the first runs decode the seeded stores in full (another
	// writer's file) and bring the binaries into the page cache.
	for range 3 {
		for _, c := range cases {
			if err := c.round(); err != nil {
				return err
			}
		}
	}
	for _, c := range cases {
		c.progTimes, c.baseTimes = nil, nil
	}
	start := time.Now()
	for i := range b.n {
		for _, c := range cases {
			if i%c.every != 0 {
				continue
			}
			if err := c.round(); err != nil {
				return err
			}
		}
	}
	fmt.Printf("hook: bin/hud-hook against an empty Go program built the same way, each\n"+
		"fork+exec'd with the event on stdin, interleaved, %d rounds (%v, load average at the end %s)\n",
		b.n, time.Since(start).Round(time.Second), loadAverage())
	for _, place := range places {
		for _, mode := range []string{"sh -c", "exec"} {
			printHookTable(cases, place.name, mode)
		}
	}
	for _, place := range places {
		printShellTable(cases, place.name)
	}
	fmt.Println()
	return nil
}

// round runs the case once and then its baseline, if it has one.
func (c *hookCase) round() error {
	d, err := c.time(c.prog, c.env)
	if err != nil {
		return err
	}
	c.progTimes = append(c.progTimes, d)
	if c.base == "" {
		return nil
	}
	if d, err = c.time(c.base, c.env); err != nil {
		return err
	}
	c.baseTimes = append(c.baseTimes, d)
	return nil
}

// time runs prog once with the case's input in env.
func (c *hookCase) time(prog string, env []string) (time.Duration, error) {
	if c.sh {
		return runShell(prog, env, c.input)
	}
	return run(prog, env, c.input)
}

// place is a directory the homes are made in.
type place struct{ name, dir string }

// benchPlaces are the disk (the user cache directory, on the same file
// system as ~ on most machines; the temp directory is tmpfs on many) and
// tmpfs (/dev/shm) when there is one. Each is named with its file system.
func benchPlaces(b *bench) ([]place, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = b.dir
	}
	disk, err := os.MkdirTemp(cache, "hud-bench-")
	if err != nil {
		return nil, err
	}
	b.cleanup = append(b.cleanup, func() { os.RemoveAll(disk) })
	places := []place{{"disk, " + fsName(disk), disk}}
	if fsName("/dev/shm") == "tmpfs" {
		shm, err := os.MkdirTemp("/dev/shm", "hud-bench-")
		if err != nil {
			return nil, err
		}
		b.cleanup = append(b.cleanup, func() { os.RemoveAll(shm) })
		places = append(places, place{"tmpfs", shm})
	}
	if places[0].name == "disk, tmpfs" {
		fmt.Fprintf(os.Stderr, "bench: %s is on tmpfs: the disk figures are not a disk's\n", cache)
	}
	return places, nil
}

// fsName names the file system holding path.
func fsName(path string) string {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return "unknown"
	}
	switch int64(st.Type) {
	case 0xEF53:
		return "ext4"
	case 0x01021994:
		return "tmpfs"
	case 0x9123683E:
		return "btrfs"
	case 0x58465342:
		return "xfs"
	case 0x2FC12FC1:
		return "zfs"
	case 0x794C7630:
		return "overlayfs"
	}
	return fmt.Sprintf("fs 0x%x", st.Type)
}

// benchHome makes a home with a store of n sessions and a project
// directory under dir/name.
func benchHome(dir, name string, n int) (home, project string, err error) {
	home = filepath.Join(dir, name, "home")
	project = filepath.Join(dir, name, "proj")
	for _, d := range []string{home, project} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return "", "", err
		}
	}
	return home, project, seedStore(resolver.Layout{Home: home}, project, n)
}

// printHookTable prints the hook against the empty program, one row per
// event, both store sizes side by side.
func printHookTable(cases []*hookCase, placeName, mode string) {
	how := "through /bin/sh -c, as Claude Code runs it"
	if mode == "exec" {
		how = "exec'd directly"
	}
	fmt.Printf("\nstore on %s, %s\n\n", placeName, how)
	fmt.Printf("| %-24s |", "event")
	for _, n := range hookStoreSizes {
		fmt.Printf(" %4d: hook | empty    | ratio |", n)
	}
	fmt.Printf("\n|%s|", dashes(26))
	for range hookStoreSizes {
		fmt.Printf("%s|%s|%s|", dashes(12), dashes(10), dashes(7))
	}
	fmt.Println()
	rowNames := append(eventNames(), "all events", "no input (start-up only)")
	for _, name := range rowNames {
		fmt.Printf("| %-24s |", name)
		for _, n := range hookStoreSizes {
			var prog, base []time.Duration
			for _, c := range cases {
				if c.place != placeName || c.mode != mode || c.size != n {
					continue
				}
				if c.event == name || name == "all events" && c.event != "" || name == "no input (start-up only)" && c.event == "" {
					prog, base = append(prog, c.progTimes...), append(base, c.baseTimes...)
				}
			}
			p, e := summarize(prog), summarize(base)
			fmt.Printf(" %10s | %8s | %4.2f× |", ms(p.p50), ms(e.p50), float64(p.p50)/float64(e.p50))
		}
		fmt.Println()
	}
}

// printShellTable prints the shell way against the hook: all events, each
// side started the same way, the hook's figures those of its own table.
func printShellTable(cases []*hookCase, placeName string) {
	fmt.Printf("\nthe shell way (bash + jq: scripts/bench/shellhook.sh) against the hook, store on %s,\nall events, both started the same way\n\n", placeName)
	fmt.Printf("| %-8s | %-7s | %10s | %10s | %7s |\n", "sessions", "started", "bash + jq", "hook", "ratio")
	fmt.Printf("|%s|%s|%s|%s|%s|\n", dashes(10), dashes(9), dashes(12), dashes(12), dashes(9))
	for _, n := range hookStoreSizes {
		for _, mode := range []string{"sh -c", "exec"} {
			var shell, hook []time.Duration
			for _, c := range cases {
				if c.place != placeName || c.size != n || c.event == "" {
					continue
				}
				switch c.mode {
				case "shell " + mode:
					shell = append(shell, c.progTimes...)
				case mode:
					hook = append(hook, c.progTimes...)
				}
			}
			s, h := summarize(shell), summarize(hook)
			fmt.Printf("| %8d | %-7s | %10s | %10s | %6.1f× |\n", n, mode, ms(s.p50), ms(h.p50), float64(s.p50)/float64(h.p50))
		}
	}
}

func eventNames() []string {
	names := make([]string, len(hookEvents))
	for i, f := range hookEvents {
		names[i] = eventName(f)
	}
	return names
}

func dashes(n int) string { return strings.Repeat("-", n) }

// eventName turns "09-Notification-permission_prompt.json" into
// "Notification".
func eventName(fixture string) string {
	name := strings.TrimSuffix(fixture, ".json")
	if _, rest, ok := strings.Cut(name, "-"); ok {
		name = rest
	}
	name, _, _ = strings.Cut(name, "-")
	return name
}

// seedStore writes a store of n sessions like real ones, all updated just
// now so none is old enough to be dropped.
func seedStore(l resolver.Layout, project string, n int) error {
	now := resolver.At(time.Now())
	s := resolver.NewStore()
	for i := range n {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		s.Sessions[id] = &resolver.Record{
			SessionID:      id,
			State:          resolver.StateReady,
			CWD:            fmt.Sprintf("%s-%d", project, i),
			UpdatedAt:      now,
			StateChangedAt: now,
			WorkingOn:      "Refactor the session store so the hook decodes only what it touches",
			ProjectDir:     fmt.Sprintf("%s-%d", project, i),
			LastEvent:      &resolver.LastEvent{Event: "Stop", Timestamp: now},
			PID:            100000 + i,
			ProcStarted:    now.Unix() - 3600,
			PermissionMode: "default",
			LastTool:       "Bash",
			Terminal:       resolver.Terminal{TmuxPane: fmt.Sprintf("%%%d", i), TermProgram: "tmux"},
			TranscriptPath: fmt.Sprintf("/home/dev/.claude/projects/-home-dev-proj-%d/%s.jsonl", i, id),
			TurnStartedAt:  now,
		}
	}
	data, err := resolver.EncodeStore(s)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(l.StoreDir(), 0o700); err != nil {
		return err
	}
	return os.WriteFile(l.StorePath(), data, 0o600)
}
