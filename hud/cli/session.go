package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/text"
	"github.com/capacitor-hud/hud/hud/worksession"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/safefile"
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

// sessionOptions is what every verb of `hud session` acts on: the
// project (the one -C names, else the current directory's) and its
// work-session files.
type sessionOptions struct {
	env     *Env
	dir     string // -C
	project string
	files   worksession.Files
	set     worksession.Settings
	now     time.Time
}

// sessionVerbs are the verbs of `hud session` that act on a project's
// session; each takes the arguments after its name.
var sessionVerbs = map[string]func(o *sessionOptions, args []string) error{
	"start":  sessionStart,
	"pause":  sessionPause,
	"resume": sessionResume,
	"stop":   sessionStop,
	"status": sessionStatus,
}

func runSession(env *Env, args []string) error {
	fs := newFlagSet(env, "session", sessionUsage)
	o := &sessionOptions{env: env}
	fs.StringVar(&o.dir, "C", "", "act on the project around `dir` instead of the current directory")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	args = fs.Args()
	if len(args) == 0 {
		return usagef("which one: start, pause, resume, stop, status or install-commands?")
	}
	sub, rest := args[0], args[1:]
	if sub == "install-commands" {
		// The one verb about Claude Code, not a project.
		if len(rest) > 0 {
			return usagef("install-commands takes no arguments")
		}
		return installSessionCommands(env)
	}
	if err := o.resolve(); err != nil {
		return err
	}
	run, ok := sessionVerbs[sub]
	if !ok {
		return usagef("unknown subcommand %q (start, pause, resume, stop, status, install-commands)", sub)
	}
	return run(o, rest)
}

// resolve finds the project and reads the work-session settings.
func (o *sessionOptions) resolve() error {
	cwd, claudeProject := o.dir, ""
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return fmt.Errorf("finding the current directory: %w", err)
		}
		// Run by Claude Code (the /session command), the project is the
		// one its hooks use.
		cwd, claudeProject = wd, o.env.Getenv("CLAUDE_PROJECT_DIR")
	}
	o.project = paths.ProjectRoot(absPath(o.env, cwd), claudeProject)
	o.set = loadConfig(o.env).WorkSession
	o.files = worksession.Files{Layout: o.env.Layout()}
	o.now = o.env.Now()
	return nil
}

// noSessionHint says how to start a session when err is that there is
// none.
func (o *sessionOptions) noSessionHint(err error) error {
	if errors.Is(err, worksession.ErrNoSession) {
		return withHint(fmt.Errorf("%w (%s)", err, o.project), `start one with: hud session start "<task>"`)
	}
	return err
}

// sessionPause pauses the session by hand, for the reason args give.
func sessionPause(o *sessionOptions, args []string) error {
	reason := strings.Join(args, " ")
	err := o.files.Update(o.project, func(s *worksession.State) error { return s.Pause(o.now, reason, o.set) })
	if errors.Is(err, worksession.ErrAlreadyPaused) {
		return withHint(err, "run 'hud session resume' to continue")
	}
	if err != nil {
		return o.noSessionHint(err)
	}
	fmt.Fprintln(o.env.Stdout, "Session paused. Run 'hud session resume' when you are back.")
	return nil
}

// sessionResume ends any pause, the timeout's too.
func sessionResume(o *sessionOptions, args []string) error {
	if len(args) > 0 {
		return usagef("resume takes no arguments")
	}
	var s *worksession.State
	err := o.files.Update(o.project, func(st *worksession.State) error {
		s = st
		return st.Resume(o.now)
	})
	if errors.Is(err, worksession.ErrNotPaused) {
		return err
	}
	if err != nil {
		return o.noSessionHint(err)
	}
	fmt.Fprintf(o.env.Stdout, "Session resumed: %s, %s of work so far.\n", line(s.Task), text.Duration(s.Working(o.now, o.set)))
	return nil
}

// sessionStop ends the session and removes its file.
func sessionStop(o *sessionOptions, args []string) error {
	if len(args) > 0 {
		return usagef("stop takes no arguments")
	}
	s, err := o.files.Remove(o.project)
	if err != nil {
		return o.noSessionHint(err)
	}
	if s == nil {
		fmt.Fprintln(o.env.Stdout, "Session stopped (its file did not parse; removed).")
		return nil
	}
	fmt.Fprintf(o.env.Stdout, "Session %s stopped after %s of work and %s of pauses.\n",
		line(s.SessionID), text.Duration(s.Working(o.now, o.set)), text.Duration(s.PausedTotal(o.now)))
	return nil
}

// sessionStatus shows working and paused time and the reminders fired.
func sessionStatus(o *sessionOptions, args []string) error {
	if len(args) > 0 {
		return usagef("status takes no arguments")
	}
	s, err := worksession.Load(o.project)
	if err != nil {
		return o.noSessionHint(err)
	}
	printSessionStatus(o.env, s, o.now, o.set)
	return nil
}

// sessionStart starts a session on the task args name; --scope may come
// before or after the task.
func sessionStart(o *sessionOptions, args []string) error {
	env := o.env
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
		name = filepath.Base(o.project)
	}
	s, err := worksession.New(strings.Join(task, " "), name, o.now)
	if err != nil {
		return usagef("%v", err)
	}
	if err := o.files.Create(o.project, s); err != nil {
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
