package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/resolver"
)

// hookStoreSessions is how many sessions the store holds while the hook
// is measured: a busy day's worth, since the hook reads and writes the
// whole store on every event.
const hookStoreSessions = 200

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

// benchHook times bin/hud-hook as Claude Code runs it (fork+exec, the
// event on a stdin pipe) against the empty Go program, interleaving the
// two so both see the same machine. It measures twice: with the store on
// the disk of the scratch directory ($TMPDIR, like ~ on most machines),
// and on tmpfs when /dev/shm exists, which leaves the CPU's share alone;
// the store write's fsync and rename are what differ.
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
	places := []struct{ name, dir string }{{"store on disk (" + b.dir + ")", b.dir}}
	if info, err := os.Stat("/dev/shm"); err == nil && info.IsDir() {
		places = append(places, struct{ name, dir string }{"store on tmpfs (/dev/shm)", "/dev/shm"})
	}
	fmt.Printf("hook: bin/hud-hook vs an empty Go program, fork+exec with the event on stdin,\n%d sessions in the store, %d runs per row\n", hookStoreSessions, b.n)
	for _, place := range places {
		if err := benchHookIn(b, place.name, place.dir, hook, empty, fixtures); err != nil {
			return err
		}
	}
	fmt.Println()
	return nil
}

// benchHookIn prints one table: each event with the store under dir, and
// the hook with nothing on stdin (start-up and package initialisation
// only, no store).
func benchHookIn(b *bench, title, dir, hook, empty string, fixtures [][]byte) error {
	scratch, err := os.MkdirTemp(dir, "hud-bench-hook-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	home := filepath.Join(scratch, "home")
	project := filepath.Join(scratch, "proj")
	for _, d := range []string{home, project} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	if err := seedStore(resolver.Layout{Home: home}, project, hookStoreSessions); err != nil {
		return err
	}
	inputs := make([][]byte, len(fixtures))
	for i, data := range fixtures {
		// The recorded cwd does not exist here; a real one costs the
		// path normalizer its real work.
		inputs[i] = []byte(strings.ReplaceAll(string(data), "/home/dev/proj", project))
	}
	inputs = append(inputs, nil)
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}

	// Warm up: the first run decodes the seeded store in full (another
	// writer's file) and every later one takes the fast path.
	for range 3 {
		for _, in := range inputs {
			if _, err := run(hook, env, in); err != nil {
				return err
			}
		}
	}
	hookTimes := make([][]time.Duration, len(inputs))
	emptyTimes := make([][]time.Duration, len(inputs))
	for range b.n {
		for i, in := range inputs {
			d, err := run(hook, env, in)
			if err != nil {
				return err
			}
			hookTimes[i] = append(hookTimes[i], d)
			if d, err = run(empty, env, in); err != nil {
				return err
			}
			emptyTimes[i] = append(emptyTimes[i], d)
		}
	}

	fmt.Printf("\n%s\n\n", title)
	fmt.Printf("| %-24s | %9s | %9s | %9s | %9s | %9s |\n", "event", "hook p50", "hook p95", "empty p50", "empty p95", "ratio p50")
	fmt.Printf("|%s|%s|%s|%s|%s|%s|\n", dashes(26), dashes(11), dashes(11), dashes(11), dashes(11), dashes(11))
	var allHook, allEmpty []time.Duration
	for i, name := range hookEvents {
		row(eventName(name), summarize(hookTimes[i]), summarize(emptyTimes[i]))
		allHook = append(allHook, hookTimes[i]...)
		allEmpty = append(allEmpty, emptyTimes[i]...)
	}
	row("all events", summarize(allHook), summarize(allEmpty))
	last := len(inputs) - 1
	row("no input (start-up only)", summarize(hookTimes[last]), summarize(emptyTimes[last]))
	return nil
}

func row(name string, hook, empty summary) {
	fmt.Printf("| %-24s | %9s | %9s | %9s | %9s | %8.2f× |\n", name, ms(hook.p50), ms(hook.p95), ms(empty.p50), ms(empty.p95),
		float64(hook.p50)/float64(empty.p50))
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
			TmuxPane:       fmt.Sprintf("%%%d", i),
			TermProgram:    "tmux",
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
