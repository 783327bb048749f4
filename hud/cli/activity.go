package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/activity"
	"github.com/capacitor-hud/hud/hud/text"
)

// activityReport is what `hud activity --json` prints.
type activityReport struct {
	Session    *activity.Session             `json:"session"`
	Facts      activity.Facts                `json:"facts"`
	Checkpoint *activity.Checkpoint          `json:"checkpoint"`
	Commits    []activity.Commit             `json:"commits"`
	Agents     []activity.SubagentInvocation `json:"agents"`
}

// recentShown is how many commits and agent runs `hud activity` lists.
const recentShown = 5

func runActivity(env *Env, args []string) error {
	fs := newFlagSet(env, "activity", "activity [--json] [session-id | project-path]")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usagef("takes one session id or project path")
	}
	query := "."
	if fs.NArg() == 1 {
		query = fs.Arg(0)
	}
	if abs, err := filepath.Abs(query); err == nil && (query == "." || strings.ContainsRune(query, filepath.Separator)) {
		query = abs
	}
	l := env.Layout()
	s, err := activity.Find(l, query)
	if err != nil {
		return err
	}
	if s == nil {
		return withHint(fmt.Errorf("no session activity recorded for %s", query),
			"activity is recorded by the hook; check it runs with 'hud doctor'")
	}
	s.FillWorkingOn(l)
	rep := activityReport{Session: s, Facts: activity.FactsOf(s), Commits: []activity.Commit{}, Agents: []activity.SubagentInvocation{}}
	if rep.Checkpoint, err = activity.ReadCheckpoint(s.ProjectDir); err != nil {
		fmt.Fprintf(env.Stderr, "warning: %v\n", err)
	}
	commits, err := activity.ReadJSONL[activity.Commit](activity.CommitLogPath(l))
	if err != nil {
		return err
	}
	rep.Commits = lastOf(commits, recentShown, func(c activity.Commit) bool { return c.Session == s.SessionID })
	agents, err := activity.ReadJSONL[activity.SubagentInvocation](activity.AgentLogPath(l))
	if err != nil {
		return err
	}
	rep.Agents = lastOf(agents, recentShown, func(a activity.SubagentInvocation) bool { return a.Session == s.SessionID })
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printActivity(env.Stdout, rep, env.Now())
	return nil
}

// lastOf returns the newest n items that keep says to keep, newest first.
func lastOf[T any](all []T, n int, keep func(T) bool) []T {
	out := []T{}
	for i := len(all) - 1; i >= 0 && len(out) < n; i-- {
		if keep(all[i]) {
			out = append(out, all[i])
		}
	}
	return out
}

// printActivity shows a session's activity. Everything in it came from
// elsewhere (prompts, todos, file names, commit subjects from any
// repository), so every field goes through line: one line, no escapes.
func printActivity(w io.Writer, rep activityReport, now time.Time) {
	s := rep.Session
	fmt.Fprintf(w, "session   %s\n", line(s.SessionID))
	fmt.Fprintf(w, "project   %s\n", line(s.ProjectDir))
	if !s.StartedAt.IsZero() {
		fmt.Fprintf(w, "started   %s (%s ago)\n", s.StartedAt.Local().Format("2006-01-02 15:04"), text.Duration(now.Sub(s.StartedAt)))
	}
	if s.WorkingOn != "" {
		fmt.Fprintf(w, "on        \"%s\"\n", line(s.WorkingOn))
	}
	if sum := rep.Facts.Summary(); sum != "" {
		fmt.Fprintf(w, "activity  %s\n", line(sum))
	}
	if len(s.Todos) > 0 {
		fmt.Fprintln(w, "\ntodos")
		for _, t := range s.Todos {
			mark := map[string]string{"completed": "[x]", "in_progress": "[~]"}[t.Status]
			if mark == "" {
				mark = "[ ]"
			}
			fmt.Fprintf(w, "  %s %s\n", mark, line(t.Content))
		}
	}
	if len(s.EditedFiles) > 0 {
		fmt.Fprintln(w, "\nedited files (newest first)")
		for _, f := range s.EditedFiles[:min(len(s.EditedFiles), 10)] {
			fmt.Fprintf(w, "  %s\n", line(f))
		}
		if more := len(s.EditedFiles) - 10; more > 0 {
			fmt.Fprintf(w, "  … and %d more\n", more)
		}
	}
	if len(rep.Commits) > 0 {
		fmt.Fprintln(w, "\ncommits")
		for _, c := range rep.Commits {
			fmt.Fprintf(w, "  %s %s (%d files)\n", line(c.ShortHash), line(c.Message), c.FilesChanged)
		}
	}
	if len(rep.Agents) > 0 {
		fmt.Fprintln(w, "\nagent runs")
		for _, a := range rep.Agents {
			fmt.Fprintf(w, "  %s  %s  %s\n", line(shortTime(a.Timestamp)), line(a.Agent), line(a.Prompt))
		}
	}
	fmt.Fprintln(w)
	if cp := rep.Checkpoint; cp != nil {
		fmt.Fprintf(w, "checkpoint %s (%s) in %s\n", line(cp.Timestamp), line(cp.CheckpointReason), line(activity.CheckpointPath(s.ProjectDir)))
	} else {
		fmt.Fprintln(w, "no checkpoint yet (one is written when Claude finishes a turn, or with 'hud checkpoint')")
	}
}

// activityLine bounds each field `hud activity` prints, in runes.
const activityLine = 200

func line(s string) string { return text.Line(s, activityLine) }

func shortTime(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return ts
	}
	return t.Local().Format("15:04")
}

func runCheckpoint(env *Env, args []string) error {
	fs := newFlagSet(env, "checkpoint", "checkpoint [--session ID] [project-path]")
	sessionID := fs.String("session", "", "the session to checkpoint (default: the newest in the project)")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usagef("takes at most one project path")
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	l := env.Layout()
	query := *sessionID
	if query == "" {
		query = abs
	}
	s, err := activity.Find(l, query)
	if err != nil {
		return err
	}
	if s == nil {
		if *sessionID != "" {
			return fmt.Errorf("no session %q", *sessionID)
		}
		return withHint(fmt.Errorf("no Claude Code session has run in %s since hud was installed", abs),
			"start claude there first; check the hooks with 'hud doctor'")
	}
	err = activity.RunJob(activity.Job{Home: env.Home, SessionID: s.SessionID, Kind: activity.JobCheckpoint, Reason: activity.ReasonManual},
		env.Now(), func(format string, a ...any) { fmt.Fprintf(env.Stderr, "warning: "+format+"\n", a...) })
	if errors.Is(err, activity.ErrNotProject) {
		return withHint(err, "checkpoints are only written into a project folder (one with .git or .claude)")
	}
	if err != nil {
		return err
	}
	cp, err := activity.ReadCheckpoint(s.ProjectDir)
	if err != nil || cp == nil || cp.CheckpointReason != activity.ReasonManual {
		return withHint(fmt.Errorf("no checkpoint written for %s", s.ProjectDir),
			"checkpoints are only written into a project folder (one with .git or .claude)")
	}
	fmt.Fprintf(env.Stdout, "checkpoint written: %s\n", line(activity.CheckpointPath(s.ProjectDir)))
	return nil
}
