package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/worksession"
	"github.com/capacitor-hud/hud/internal/paths"
)

// worksessionEvents are the events timed with and without a work session:
// the tool calls that make up most of a turn, and the prompt, which also
// updates the break state.
var worksessionEvents = []string{
	"07-PreToolUse.json",
	"10-PostToolUse.json",
	"06-UserPromptSubmit.json",
}

// benchWorkSession times bin/hud-hook in a project with a running work
// session (the hook rewrites .claude/session-state.json on every event)
// against the same hook in a project without one (one stat), interleaved.
func benchWorkSession(b *bench) error {
	hook, err := b.build("./cmd/hud-hook")
	if err != nil {
		return err
	}
	home := filepath.Join(b.dir, "ws-home")
	with, without := filepath.Join(b.dir, "ws-with"), filepath.Join(b.dir, "ws-without")
	for _, d := range []string{home, filepath.Join(with, ".git"), filepath.Join(without, ".git")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
	}
	layout := paths.Layout{Home: home}
	if err := seedStore(layout, filepath.Join(b.dir, "other"), 20); err != nil {
		return err
	}
	s, err := worksession.New("Measure the hook", "bench", time.Now())
	if err != nil {
		return err
	}
	if err := (worksession.Files{Layout: layout}).Create(paths.Normalize(with), s); err != nil {
		return err
	}
	inputs := map[string][2][]byte{}
	for _, name := range worksessionEvents {
		data, err := os.ReadFile(filepath.Join("testdata", "hook", "fixtures", name))
		if err != nil {
			return fmt.Errorf("reading fixture (run from the repository root): %w", err)
		}
		inputs[name] = [2][]byte{
			[]byte(strings.ReplaceAll(string(data), "/home/dev/proj", with)),
			[]byte(strings.ReplaceAll(string(data), "/home/dev/proj", without)),
		}
	}
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	for _, name := range worksessionEvents { // warm up
		for _, in := range inputs[name] {
			if _, err := run(hook, env, in); err != nil {
				return err
			}
		}
	}
	withTimes := map[string][]time.Duration{}
	withoutTimes := map[string][]time.Duration{}
	for range b.n {
		for _, name := range worksessionEvents {
			d, err := run(hook, env, inputs[name][0])
			if err != nil {
				return err
			}
			withTimes[name] = append(withTimes[name], d)
			if d, err = run(hook, env, inputs[name][1]); err != nil {
				return err
			}
			withoutTimes[name] = append(withoutTimes[name], d)
		}
	}
	if _, err := worksession.Load(paths.Normalize(with)); err != nil {
		return fmt.Errorf("the session file after the runs: %w", err)
	}

	fmt.Printf("worksession: bin/hud-hook in a project with a running work session vs one without\n(baseline), fork+exec with the event on stdin, %d runs per row\n\n", b.n)
	fmt.Printf("| %-24s | %9s | %9s | %9s | %9s | %9s |\n", "event", "with p50", "with p95", "none p50", "none p95", "ratio p50")
	fmt.Printf("|%s|%s|%s|%s|%s|%s|\n", dashes(26), dashes(11), dashes(11), dashes(11), dashes(11), dashes(11))
	for _, name := range worksessionEvents {
		row(eventName(name), summarize(withTimes[name]), summarize(withoutTimes[name]))
	}
	fmt.Println()
	return nil
}
