package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/capacitor-hud/hud/hud/history"
	"github.com/capacitor-hud/hud/hud/ledger"
	"github.com/capacitor-hud/hud/internal/paths"
)

// runHistory prints what the sessions did over a period, from the ledger:
// a timeline and the wait figures, as text, JSON or an SVG image.
func runHistory(env *Env, args []string) error {
	// A month of the ledger is held whole for a moment, then the command
	// exits: collecting garbage as it goes was a third of its time.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	fs := newFlagSet(env, "history", "history [--since DURATION | --day YYYY-MM-DD] [--project DIR] [--json | --svg FILE]\n\n"+
		"What each session did today, or over the period asked for, from the ledger hud keeps\n"+
		"(~/.capacitor/ledger): a timeline, the time working and waiting on you, and how long\n"+
		"you took to answer.\n")
	since := fs.String("since", "", "the last `DURATION` (\"8h\", \"90m\", \"2d\") instead of today")
	day := fs.String("day", "", "the whole local day `YYYY-MM-DD` instead of today")
	project := fs.String("project", "", "only the sessions of the project at `DIR` or under it")
	asJSON := fs.Bool("json", false, "print the period as one JSON object")
	svg := fs.String("svg", "", "write the timeline as an SVG image to `FILE` (- for stdout)")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return usagef("unexpected argument %q", fs.Arg(0))
	case *since != "" && *day != "":
		return usagef("--since and --day ask for different periods; give one")
	case *asJSON && *svg == "-":
		return usagef("--json and --svg - both write to stdout; give one")
	}
	now := env.Now()
	from, to, err := historyPeriod(now, *since, *day)
	if err != nil {
		return err
	}
	entries, bad, err := ledger.ReadFor(env.Layout().LedgerDir(), from, to)
	if err != nil {
		fmt.Fprintf(env.Stderr, "hud history: %v (left out)\n", err)
	}
	if bad > 0 {
		fmt.Fprintf(env.Stderr, "hud history: skipped %s of the ledger\n", plural(bad, "unreadable line"))
	}
	if *project != "" {
		entries = ofProject(entries, paths.Normalize(*project))
	}
	h := ledger.Fold(entries, from, to)
	if *svg != "" {
		if err := writeSVG(env, *svg, h, now); err != nil || !*asJSON {
			return err
		}
	}
	if *asJSON {
		return json.NewEncoder(env.Stdout).Encode(h)
	}
	color := isTerminal(env.Stdout) && env.Getenv("NO_COLOR") == ""
	return history.Text(env.Stdout, h, history.Options{Now: now, Width: termWidth(env), Color: color})
}

// historyPeriod is the period the flags ask for: today by default (local
// midnight to now), the last --since, or the whole --day (to now, if that
// is today).
func historyPeriod(now time.Time, since, day string) (from, to time.Time, err error) {
	loc := now.Location()
	switch {
	case day != "":
		d, err := time.ParseInLocation("2006-01-02", day, loc)
		if err != nil {
			return from, to, usagef("--day %q is not a date; write it like 2026-11-28", day)
		}
		if d.After(now) {
			return from, to, usagef("--day %s is still to come", day)
		}
		return d, minTime(d.AddDate(0, 0, 1), now), nil
	case since != "":
		d, err := parseSince(since)
		if err != nil {
			return from, to, usagef("--since %s", err)
		}
		return now.Add(-d), now, nil
	}
	return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, loc), now, nil
}

// parseSince reads a positive duration as Go writes one ("8h", "90m") or
// in whole days ("2d").
func parseSince(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if days, ok := strings.CutSuffix(s, "d"); ok && err != nil {
		if n, nerr := strconv.Atoi(days); nerr == nil && n >= 0 && n <= 3650 {
			d, err = time.Duration(n)*24*time.Hour, nil
		}
	}
	switch {
	case err != nil:
		return 0, fmt.Errorf("%q is not a duration; write it like \"8h\", \"90m\" or \"2d\"", s)
	case d <= 0:
		return 0, fmt.Errorf("%q must be longer than zero", s)
	}
	return d, nil
}

// ofProject keeps the entries of the sessions whose project is dir or
// under it (dir normalized), and the absences. A session is kept whole
// once any of its states names such a project.
func ofProject(entries []ledger.Entry, dir string) []ledger.Entry {
	keys := map[string]bool{}
	for _, e := range entries {
		if e.IsState() && e.Project != "" {
			m := paths.Compare(dir, paths.NormalizeLexical(e.Project))
			keys[e.Key] = keys[e.Key] || m == paths.MatchExact || m == paths.MatchChild
		}
	}
	var out []ledger.Entry
	for _, e := range entries {
		if e.IsAbsence() || keys[e.Key] {
			out = append(out, e)
		}
	}
	return out
}

// writeSVG writes the timeline as an SVG image to path, or to stdout for
// "-".
func writeSVG(env *Env, path string, h ledger.History, now time.Time) error {
	var b bytes.Buffer
	if err := history.SVG(&b, h, now); err != nil {
		return err
	}
	if path == "-" {
		_, err := env.Stdout.Write(b.Bytes())
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		return fmt.Errorf("writing the image: %w", err)
	}
	return nil
}

// termWidth is how many columns stdout has: $COLUMNS, else the terminal's
// width, else 100 (a pipe, a file).
func termWidth(env *Env) int {
	if n, err := strconv.Atoi(env.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := env.Stdout.(*os.File); ok {
		if ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ); err == nil && ws.Col > 0 {
			return int(ws.Col)
		}
	}
	return 100
}

// plural is n with its noun: "1 line", "3 lines".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
