package cli

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/capacitor-hud/hud/hud/ledger"
	"github.com/capacitor-hud/hud/hud/text"
)

// awayLooksBack is how far back `hud away` looks for the last absence.
const awayLooksBack = 7 * 24 * time.Hour

// awayReport is what `hud away --json` prints.
type awayReport struct {
	From  time.Time `json:"from"`
	To    time.Time `json:"to"`
	Lines []string  `json:"lines"`
}

// runAway prints the summary of the person's last absence the tray
// recorded, as the notification told it when they came back.
func runAway(env *Env, args []string) error {
	fs := newFlagSet(env, "away", "away [--json]\n\n"+
		"What happened in your sessions while you were last away from the keyboard (in the last\n"+
		"7 days), as the tray's notification told it when you came back.\n")
	asJSON := fs.Bool("json", false, "print {from, to, lines} as JSON (null when no absence was recorded)")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	now := env.Now()
	dir := env.Layout().LedgerDir()
	last, found, err := lastAbsence(dir, now)
	if err != nil {
		return withHint(err, "check the permissions of "+dir)
	}
	if !found {
		if *asJSON {
			_, err := fmt.Fprintln(env.Stdout, "null")
			return err
		}
		_, err := fmt.Fprintf(env.Stdout, "No absence recorded in the last 7 days. The tray records one when you come back "+
			"after [history] away_after (%s) away from the keyboard.\n", awayAfter(env))
		return err
	}
	entries, _, err := ledger.ReadFor(dir, last.Away, last.T)
	if err != nil {
		fmt.Fprintf(env.Stderr, "hud away: %v (left out)\n", err)
	}
	abs := ledger.Summarize(entries, last.Away, last.T)
	lines := []string{}
	// Told as of the return, as the notification did: a wait's age then,
	// not now (it may have been answered since).
	for _, l := range abs.Lines(abs.To) {
		lines = append(lines, text.Line(l, 0))
	}
	if *asJSON {
		return json.NewEncoder(env.Stdout).Encode(awayReport{From: abs.From, To: abs.To, Lines: lines})
	}
	fmt.Fprintln(env.Stdout, abs.Title())
	if len(lines) == 0 {
		lines = []string{"nothing happened in your sessions meanwhile"}
	}
	for _, l := range lines {
		fmt.Fprintln(env.Stdout, "  "+l)
	}
	return nil
}

// lastAbsence is the newest absence the ledger in dir holds from the last
// awayLooksBack before now.
func lastAbsence(dir string, now time.Time) (ledger.Entry, bool, error) {
	entries, _, err := ledger.Read(dir, now.Add(-awayLooksBack), now)
	if err != nil && len(entries) == 0 {
		return ledger.Entry{}, false, err
	}
	for i := len(entries) - 1; i >= 0; i-- {
		if e := entries[i]; e.IsAbsence() && e.T.After(now.Add(-awayLooksBack)) && !e.T.After(now) {
			return e, true, nil
		}
	}
	return ledger.Entry{}, false, nil
}

// awayAfter says the [history] away_after setting for a sentence: "10m",
// or that it is off.
func awayAfter(env *Env) string {
	d := loadConfig(env).History.AwayAfter
	if d == 0 {
		return "0s: turned off"
	}
	return text.Duration(d)
}
