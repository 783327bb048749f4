package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/text"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/worksession"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/resolver"
)

const sessionUsage = `session [-C DIR] start "<task>" [--scope NAME] | pause [REASON] | resume | stop | status | install-commands

A timed work session on one task: working time is counted without the
pauses (idle gaps over 5 min and Task runs over 10 min pause it on their
own), with a reminder at 40 min of work, a warning at 60 and a timeout at
90 that pauses the session. The state is <project>/.claude/session-state.json;
the project is the git repository around the current directory.

  start "<task>" [--scope NAME]   start (scope: the project's name by default)
  pause [REASON]                  pause by hand ("lunch")
  resume                          resume after any pause, the timeout too
  stop                            end the session (deletes the file)
  status                          working and paused time, reminders
  install-commands                install /session for Claude Code in
                                  ~/.claude/commands/session.md
`

func runSession(env *Env, args []string) error {
	fs := newFlagSet(env, "session", sessionUsage)
	dir := fs.String("C", "", "act on the project around `dir` instead of the current directory")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	args = fs.Args()
	if len(args) == 0 {
		return usagef("which one: start, pause, resume, stop, status or install-commands?")
	}
	sub, rest := args[0], args[1:]
	if sub == "install-commands" {
		if len(rest) > 0 {
			return usagef("install-commands takes no arguments")
		}
		return installSessionCommands(env)
	}
	cwd, claudeProject := *dir, ""
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("finding the current directory: %w", err)
		}
		// Run by Claude Code (the /session command), the project is the
		// one its hooks use.
		cwd, claudeProject = wd, env.Getenv("CLAUDE_PROJECT_DIR")
	}
	project := resolver.ProjectRoot(absPath(env, cwd), claudeProject)
	cfg := loadConfig(env)
	set := cfg.WorkSession
	files := worksession.Files{Layout: env.Layout()}
	now := env.Now()
	noSessionHint := func(err error) error {
		if errors.Is(err, worksession.ErrNoSession) {
			return withHint(fmt.Errorf("%w (%s)", err, project), `start one with: hud session start "<task>"`)
		}
		return err
	}

	switch sub {
	case "start":
		return sessionStart(env, files, project, now, rest)
	case "pause":
		reason := strings.Join(rest, " ")
		err := files.Update(project, func(s *worksession.State) error { return s.Pause(now, reason, set) })
		if errors.Is(err, worksession.ErrAlreadyPaused) {
			return withHint(err, "run 'hud session resume' to continue")
		}
		if err != nil {
			return noSessionHint(err)
		}
		fmt.Fprintln(env.Stdout, "Session paused. Run 'hud session resume' when you are back.")
		return nil
	case "resume":
		if len(rest) > 0 {
			return usagef("resume takes no arguments")
		}
		var s *worksession.State
		err := files.Update(project, func(st *worksession.State) error {
			s = st
			return st.Resume(now)
		})
		if errors.Is(err, worksession.ErrNotPaused) {
			return err
		}
		if err != nil {
			return noSessionHint(err)
		}
		fmt.Fprintf(env.Stdout, "Session resumed: %s, %s of work so far.\n", line(s.Task), text.Duration(s.Working(now, set)))
		return nil
	case "stop":
		if len(rest) > 0 {
			return usagef("stop takes no arguments")
		}
		s, err := files.Remove(project)
		if err != nil {
			return noSessionHint(err)
		}
		if s == nil {
			fmt.Fprintln(env.Stdout, "Session stopped (its file did not parse; removed).")
			return nil
		}
		fmt.Fprintf(env.Stdout, "Session %s stopped after %s of work and %s of pauses.\n",
			line(s.SessionID), text.Duration(s.Working(now, set)), text.Duration(s.PausedTotal(now)))
		return nil
	case "status":
		if len(rest) > 0 {
			return usagef("status takes no arguments")
		}
		s, err := worksession.Load(project)
		if err != nil {
			return noSessionHint(err)
		}
		printSessionStatus(env, s, now, set)
		return nil
	}
	return usagef("unknown subcommand %q (start, pause, resume, stop, status, install-commands)", sub)
}

func sessionStart(env *Env, files worksession.Files, project string, now time.Time, args []string) error {
	fs := newFlagSet(env, "session start", `session start "<task>" [--scope NAME]`)
	scope := fs.String("scope", "", "the `name` of the scope this session contributes to (default: the project's directory name)")
	// Allow the flag after the task too: hud session start "fix login" --scope api.
	var task []string
	for len(args) > 0 {
		if err := parseFlags(env, fs, args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		task = append(task, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(task) == 0 {
		return usagef(`say what the session is for: hud session start "<task>"`)
	}
	name := *scope
	if name == "" {
		name = filepath.Base(project)
	}
	s, err := worksession.New(strings.Join(task, " "), name, now)
	if err != nil {
		return usagef("%v", err)
	}
	if err := files.Create(project, s); err != nil {
		if errors.Is(err, worksession.ErrSessionExists) {
			return withHint(err, "see it with 'hud session status'; end it with 'hud session stop'")
		}
		return err
	}
	fmt.Fprintf(env.Stdout, "Session %s started (branch name %s).\n", s.SessionID, s.BranchName)
	return nil
}

func printSessionStatus(env *Env, s *worksession.State, now time.Time, set worksession.Settings) {
	w := env.Stdout
	// The session file lives in the project, which may be anyone's: every
	// text from it is shown as one plain line.
	fmt.Fprintf(w, "Session %s: %s (%s)\n", line(s.SessionID), line(s.Task), line(s.Scope))
	state := "in progress"
	if p, ok := s.OpenPause(); ok {
		state = fmt.Sprintf("paused since %s: %s", p.StartTime.In(now.Location()).Format("15:04"), line(p.Reason))
	}
	fmt.Fprintf(w, "Status:  %s\n", state)
	fmt.Fprintf(w, "Working: %s (started %s, %s of pauses)\n", text.Duration(s.Working(now, set)),
		s.StartTime.In(now.Location()).Format("15:04"), text.Duration(s.PausedTotal(now)))
	var fired []string
	for _, r := range []struct {
		on   bool
		name string
	}{{s.Reminders.Break40min, "break"}, {s.Reminders.Warning60min, "warning"}, {s.Reminders.Timeout90min, "timeout"}} {
		if r.on {
			fired = append(fired, r.name)
		}
	}
	if len(fired) == 0 {
		fmt.Fprintf(w, "Next:    a break reminder at %s of work\n", text.Duration(set.RemindAt))
	} else {
		fmt.Fprintf(w, "Fired:   %s\n", strings.Join(fired, ", "))
	}
	if s.TimedOut() {
		fmt.Fprintln(w, "Timed out: take a break, then run 'hud session resume'.")
	}
}

// installSessionCommands copies the /session slash command into
// ~/.claude/commands/. An existing file with other content is kept.
func installSessionCommands(env *Env) error {
	dir := filepath.Join(env.Layout().ClaudeDir(), "commands")
	for _, name := range assets.CommandNames() {
		data, err := assets.Command(name)
		if err != nil {
			return err
		}
		path := filepath.Join(dir, name)
		old, err := os.ReadFile(path)
		switch {
		case err == nil && string(old) == string(data):
			fmt.Fprintf(env.Stdout, "%s is up to date.\n", path)
			continue
		case err == nil:
			return withHint(fmt.Errorf("%s exists and differs from hud's", path), "move it away, then run this again")
		case !errors.Is(err, fs.ErrNotExist):
			return err
		}
		if err := safefile.WriteFile(path, data, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "Installed %s: type /%s in Claude Code.\n", path, strings.TrimSuffix(name, ".md"))
	}
	return nil
}
