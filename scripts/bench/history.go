package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/capacitor-hud/hud/hud/ledger"
	"github.com/capacitor-hud/hud/internal/paths"
)

// The history figure's ledger: historyDays days of historySessions
// sessions, each with historyTurns turns a day (working, often a wait,
// ready): a busy month.
const (
	historyDays     = 30
	historySessions = 20
	historyTurns    = 40
)

// benchHistory times `hud history` over a month's ledger: today's
// timeline (what the menu's line and a plain `hud history` read), the
// whole month, and the month as JSON, against `hud --version` (the same
// binary doing nothing) and the empty program.
func benchHistory(b *bench) error {
	hud, err := b.build("./cmd/hud")
	if err != nil {
		return err
	}
	empty, err := b.emptyProgram()
	if err != nil {
		return err
	}
	home := filepath.Join(b.dir, "history-home")
	n, size, err := writeMonth(paths.Layout{Home: home}, time.Now())
	if err != nil {
		return err
	}
	env := append(os.Environ(), "HOME="+home, "NO_COLOR=1")
	cases := []struct {
		name string
		args []string
	}{
		{"hud history (today)", []string{"history"}},
		{"hud history --since 30d", []string{"history", "--since", "30d"}},
		{"hud history --since 30d --json", []string{"history", "--since", "30d", "--json"}},
		{"hud --version", []string{"--version"}},
	}
	times := make([][]time.Duration, len(cases)+1)
	for range b.n {
		for i, c := range cases {
			d, err := timeOutput(env, hud, c.args...)
			if err != nil {
				return err
			}
			times[i] = append(times[i], d)
		}
		d, err := timeOutput(env, empty)
		if err != nil {
			return err
		}
		times[len(cases)] = append(times[len(cases)], d)
	}
	fmt.Printf("history: a ledger of %d days × %d sessions (%d entries, %.1f MB), %d runs each (target: under 100 ms)\n\n",
		historyDays, historySessions, n, float64(size)/1e6, b.n)
	fmt.Printf("| %-32s | %9s | %9s | %9s |\n", "command", "p50", "p95", "× empty")
	fmt.Printf("|%s|%s|%s|%s|\n", dashes(34), dashes(11), dashes(11), dashes(11))
	base := summarize(times[len(cases)])
	for i, c := range cases {
		s := summarize(times[i])
		fmt.Printf("| %-32s | %9s | %9s | %8.2f× |\n", c.name, ms(s.p50), ms(s.p95), float64(s.p50)/float64(base.p50))
	}
	fmt.Printf("| %-32s | %9s | %9s | %8.2f× |\n\n", "empty program", ms(base.p50), ms(base.p95), 1.0)
	return nil
}

// writeMonth fills l's ledger with a month to now, and returns how many
// entries it wrote and their size.
func writeMonth(l paths.Layout, now time.Time) (int, int64, error) {
	rng := rand.New(rand.NewPCG(1, 2))
	subjects := []string{"Bash: npm test", "Bash: go test ./...", "Edit: internal/store/file.go", "Bash: rm -rf build", "Question: Which database?"}
	total := 0
	for day := historyDays - 1; day >= 0; day-- {
		start := now.Add(-time.Duration(day) * 24 * time.Hour).Truncate(time.Hour).Add(-10 * time.Hour)
		var entries []ledger.Entry
		for s := range historySessions {
			key := fmt.Sprintf("d%02d-s%02d-0000-4000-8000-000000000000", day, s)
			project := fmt.Sprintf("/home/dev/project-%02d", s)
			t := start.Add(time.Duration(rng.IntN(3600)) * time.Second)
			add := func(state, what string) {
				entries = append(entries, ledger.Entry{T: t, Key: key, Agent: "claude", Project: project, State: state, For: what})
			}
			for range historyTurns {
				add("working", "")
				t = t.Add(time.Duration(30+rng.IntN(300)) * time.Second)
				if rng.IntN(3) > 0 {
					add("waiting", subjects[rng.IntN(len(subjects))])
					t = t.Add(time.Duration(2+rng.IntN(600)) * time.Second)
					add("working", "")
					t = t.Add(time.Duration(10+rng.IntN(120)) * time.Second)
				}
				add("ready", "")
				t = t.Add(time.Duration(10+rng.IntN(200)) * time.Second)
			}
			add(ledger.Ended, "")
		}
		// The recorder appends each change as it sees it: a day's lines are
		// in time order, the sessions interleaved.
		slices.SortStableFunc(entries, func(a, b ledger.Entry) int { return a.T.Compare(b.T) })
		if err := ledger.Append(l.LedgerDir(), entries...); err != nil {
			return 0, 0, err
		}
		total += len(entries)
	}
	var size int64
	files, _ := filepath.Glob(filepath.Join(l.LedgerDir(), "*.jsonl"))
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			size += fi.Size()
		}
	}
	return total, size, nil
}

// timeOutput times one run of a command whose output is thrown away.
func timeOutput(env []string, prog string, args ...string) (time.Duration, error) {
	cmd := exec.Command(prog, args...)
	cmd.Env = env
	var errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = nil, &errOut
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil {
		return 0, fmt.Errorf("%s %v: %v: %s", prog, args, err, errOut.String())
	}
	return d, nil
}
