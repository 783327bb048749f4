package main

import (
	_ "embed"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/internal/terminal"
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
	place, mode string // mode: underClaude, noClaude, shellWay or shellDirect
	size        int
	event       string // "" for no input
	input       []byte
	inputPath   string   // the input as a file, for the stand-in Claude
	claude      *standIn // nil: exec'd directly by the bench
	env         []string
	prog, base  string // base "": no baseline
	every       int    // run on every every-th round only (the slow shell way)

	progTimes, baseTimes []time.Duration
}

// The ways a case is started.
const (
	// underClaude: a long-lived stand-in process named claude runs
	// `/bin/sh -c <command>` with the event on stdin, as Claude Code runs
	// a hook; the hook finds Claude one level above the shell, records its
	// pid and keeps one lock holder for it.
	underClaude = "claude"
	// shellWay: the shell hook (bash and jq) under a stand-in Claude.
	shellWay = "shell"
	// compared: another build of the hook (-compare) under a stand-in
	// Claude, on the disk, beside this one; the case's prog tells the
	// builds apart.
	compared = "compared"
	// noClaude: exec'd directly by the bench, no Claude above: the hook
	// walks every ancestor looking for one and records no pid, the worst
	// case of that walk.
	noClaude = "no claude"
	// shellDirect: the shell hook exec'd directly by the bench, compared
	// with noClaude: the two without the shell and the stand-in Claude's
	// fork, which cost both the same.
	shellDirect = "shell, no claude"
)

// benchHook times bin/hud-hook as Claude Code runs it against the empty Go
// program: a stand-in Claude process forks `/bin/sh -c <hook>` with the
// event on stdin, with 10 and 200 sessions in the store, on the disk (ext4
// here, where ~ is) and on tmpfs. Every case is interleaved with its
// baseline and all cases with each other, round after round, so the
// machine's load falls on both sides alike. Then the shell way (bash and
// jq) against the hook, on the same inputs, and the worst case: the hook
// exec'd with no Claude above it. It fails when an event, with the store
// on the disk, is over the guard (hookGuard).
func benchHook(b *bench) error {
	hook, err := b.build("./cmd/hud-hook")
	if err != nil {
		return err
	}
	empty, err := b.emptyProgram()
	if err != nil {
		return err
	}
	claude, err := b.build("./scripts/desktop/claude")
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
	// add appends a case per event (and one with no input when withEmpty)
	// in a home of its own with a store of size sessions.
	add := func(pl place, size int, mode, prog, base string, every int, withEmpty bool) error {
		home, project, err := benchHome(pl.dir, fmt.Sprintf("%s-%d-%d", strings.ReplaceAll(mode, " ", "-"), size, len(cases)), size)
		if err != nil {
			return err
		}
		env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
		var claudeProc *standIn
		if mode != noClaude && mode != shellDirect {
			// Claude Code runs every hook with CLAUDE_PROJECT_DIR set.
			withProject := append(slices.Clone(env), "CLAUDE_PROJECT_DIR="+project)
			if claudeProc, err = startStandIn(b, claude, withProject, project); err != nil {
				return err
			}
		}
		inputs := fixtures
		if withEmpty {
			inputs = append(slices.Clone(fixtures), nil)
		}
		for i, data := range inputs {
			c := &hookCase{place: pl.name, mode: mode, size: size, env: env, prog: prog, base: base,
				claude: claudeProc, every: every}
			if data != nil {
				c.event = eventName(hookEvents[i])
				// The recorded cwd does not exist here; a real one
				// costs the path normalizer its real work.
				c.input = []byte(strings.ReplaceAll(string(data), "/home/dev/proj", project))
			}
			c.inputPath = filepath.Join(home, fmt.Sprintf("event-%d.json", i))
			if err := os.WriteFile(c.inputPath, c.input, 0o600); err != nil {
				return err
			}
			cases = append(cases, c)
		}
		return nil
	}
	for _, pl := range places {
		for _, size := range hookStoreSizes {
			if err := add(pl, size, underClaude, hook, empty, 1, true); err != nil {
				return err
			}
			// The shell way, in a home of its own (jq reformats the
			// store), compared with the hook cases above: no baseline of
			// its own.
			if err := add(pl, size, shellWay, shell, "", 10, false); err != nil {
				return err
			}
		}
	}
	// Beside other builds, this one is timed again the way they are: a
	// copy of its own, in homes of their own, as often. Its guard cases
	// run several times a round (each place, and exec'd directly), and
	// that alone made an identical copy read a few per cent slower.
	var self comparedBuild
	if len(b.compared) > 0 {
		self = comparedBuild{name: "this build", bin: filepath.Join(b.dir, "bin", "compared-this", "hud-hook")}
		if err := install(hook, self.bin); err != nil {
			return err
		}
	}
	for _, other := range append([]comparedBuild{self}, b.compared...) {
		if other.bin == "" {
			continue
		}
		for _, size := range hookStoreSizes {
			if err := add(places[0], size, compared, other.bin, empty, 1, true); err != nil {
				return err
			}
		}
	}
	// The worst case, on the disk only: the bench's own process is above
	// the hook, not Claude.
	for _, size := range hookStoreSizes {
		if err := add(places[0], size, noClaude, hook, empty, 2, true); err != nil {
			return err
		}
		if err := add(places[0], size, shellDirect, shell, "", 10, false); err != nil {
			return err
		}
	}
	// Warm up: the first runs decode the seeded stores in full (another
	// writer's file), start each stand-in's lock holder and bring the
	// binaries into the page cache.
	for range 3 {
		for _, c := range cases {
			if err := c.round(); err != nil {
				return err
			}
		}
	}
	for _, c := range cases {
		c.progTimes, c.baseTimes = nil, nil
		if (c.mode == underClaude || c.mode == compared) && c.event != "" {
			if err := c.claude.check(c.input); err != nil {
				return err
			}
		}
	}
	start := time.Now()
	// Each round runs the cases in a new order: in a fixed one, whatever
	// the case before leaves (a store of another home written a moment
	// ago, a Stop's idle wait) always falls on the same case. The order
	// is drawn from a fixed seed, so that two runs are run alike.
	order := rand.New(rand.NewPCG(1, 2))
	for i := range b.n {
		order.Shuffle(len(cases), func(a, b int) { cases[a], cases[b] = cases[b], cases[a] })
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
	for _, pl := range places {
		printHookTable(cases, pl.name, underClaude)
	}
	guarded := printGuard(cases, places[0].name)
	for _, pl := range places {
		printShellTable(cases, pl.name, shellWay, underClaude)
	}
	for _, other := range b.compared {
		printCompareTable(cases, places[0].name, self, other)
	}
	printHookTable(cases, places[0].name, noClaude)
	printShellTable(cases, places[0].name, shellDirect, noClaude)
	fmt.Println()
	if !guarded {
		return errors.New("the hook is over its guard (above)")
	}
	return nil
}

// round runs the case once and then its baseline, if it has one.
func (c *hookCase) round() error {
	d, err := c.time(c.prog)
	if err != nil {
		return err
	}
	c.progTimes = append(c.progTimes, d)
	if c.event == "Stop" {
		// Stop ends the turn: the hook hands its checkpoint to the lock
		// holder (or, an older build, starts the worker itself) and exits.
		// The worker's run must not land on the baseline that follows, and
		// neither may the idle wait for it: a program started on CPUs that
		// just idled starts slower (on a virtual machine, markedly), so
		// the baseline is run once untimed first, as every other case's
		// runs right after another program.
		settle()
		if c.base != "" {
			if _, err := c.time(c.base); err != nil {
				return err
			}
		}
	}
	if c.base == "" {
		return nil
	}
	if d, err = c.time(c.base); err != nil {
		return err
	}
	c.baseTimes = append(c.baseTimes, d)
	return nil
}

// time runs prog once on the case's input.
func (c *hookCase) time(prog string) (time.Duration, error) {
	if c.claude != nil {
		return c.claude.run(prog, c.inputPath)
	}
	return run(prog, c.env, c.input)
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
	return home, project, seedStore(paths.Layout{Home: home}, project, n)
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
func seedStore(l paths.Layout, project string, n int) error {
	now := store.At(time.Now())
	s := store.New()
	for i := range n {
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
		s.Sessions[id] = &store.Record{
			SessionID:      id,
			State:          store.StateReady,
			CWD:            fmt.Sprintf("%s-%d", project, i),
			UpdatedAt:      now,
			StateChangedAt: now,
			WorkingOn:      "Refactor the session store so the hook decodes only what it touches",
			ProjectDir:     fmt.Sprintf("%s-%d", project, i),
			LastEvent:      &store.LastEvent{Event: "Stop", Timestamp: now},
			PID:            100000 + i,
			ProcStarted:    now.Unix() - 3600,
			PermissionMode: "default",
			LastTool:       "Bash",
			Terminal:       terminal.Terminal{TmuxPane: fmt.Sprintf("%%%d", i), TermProgram: "tmux"},
			TranscriptPath: fmt.Sprintf("/home/dev/.claude/projects/-home-dev-proj-%d/%s.jsonl", i, id),
			TurnStartedAt:  now,
		}
	}
	data, err := store.Encode(s)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(l.StoreDir(), 0o700); err != nil {
		return err
	}
	return os.WriteFile(l.StorePath(), data, 0o600)
}
