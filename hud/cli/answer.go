package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/install"
	"github.com/capacitor-hud/hud/hud/text"
)

const answerUsage = `answer [on | off | SESSION CHOICE | --project DIR CHOICE]

Answer Claude's permission dialogs and questions from the tray, the
notifications or here, without going to the terminal.

  hud answer                    whether answering is on, and what waits
  hud answer on | off           let the hook offer dialogs to the tray, or not
  hud answer SESSION CHOICE     answer the dialog SESSION (an id or its
                                first characters) waits on
  hud answer --project DIR CHOICE
                                the same, for the session working in DIR

CHOICE is allow, always ("Yes, and don't ask again", where Claude offers
it) or deny for a permission, or an option's label for a question (its
exact spelling when options differ only by case).

An answer goes to the dialog "hud answer" last listed for that session:
if another dialog took its place since, the answer is refused, and
"hud answer" shows the new one. --request ID answers only that request:
if it is no longer waiting, the answer is refused, never given to a
later dialog.
`

// answerOptions are the flags of `hud answer`, which pick the dialog
// to answer.
type answerOptions struct {
	env     *Env
	project string // --project
	request string // --request
}

// answerVerbs are the verbs `hud answer` takes alone, without flags;
// with none it shows the status, and any other command line answers a
// dialog (answerDialog).
var answerVerbs = map[string]func(env *Env) error{
	"on":  func(env *Env) error { return answerSwitch(env, true) },
	"off": func(env *Env) error { return answerSwitch(env, false) },
}

func runAnswer(env *Env, args []string) error {
	fs := newFlagSet(env, "answer", answerUsage)
	o := &answerOptions{env: env}
	fs.StringVar(&o.project, "project", "", "answer the session working in `DIR`")
	fs.StringVar(&o.request, "request", "", "answer only the request with this `ID` (as `hud answer` lists it)")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	args = fs.Args()
	if o.project == "" && o.request == "" {
		if len(args) == 0 {
			return answerStatus(env)
		}
		if run, ok := answerVerbs[args[0]]; ok && len(args) == 1 {
			return run(env)
		}
	}
	return answerDialog(o, args)
}

// answerDialog gives CHOICE to the dialog SESSION (or --project,
// --request) waits on: the one `hud answer` last listed, never one that
// took its place since.
func answerDialog(o *answerOptions, args []string) error {
	var who, choice string
	switch {
	case o.project != "" && len(args) == 1:
		choice = args[0]
	case o.project == "" && o.request != "" && len(args) == 1:
		choice = args[0]
	case o.project == "" && len(args) == 2:
		who, choice = args[0], args[1]
	default:
		return usagef("want SESSION CHOICE, or --project DIR CHOICE")
	}
	home := o.env.Home
	pending, err := answer.List(home)
	if err != nil {
		return trayError(err)
	}
	req, err := pick(pending, who, o.project, o.request)
	if err != nil {
		return err
	}
	if o.request == "" {
		// By session or project, the answer goes to the dialog the
		// person was shown, never to one that took its place since
		// (--request names its dialog itself).
		if err := answer.CheckListed(home, req); err != nil {
			return withHint(fmt.Errorf("session %s: %w; it waits on: %s", shortID(req.Session), err, req.Subject),
				"run `hud answer` to see the dialog waiting now, then answer it")
		}
	}
	got, err := answer.Send(home, answer.Reply{ID: req.ID, Digest: req.Digest, Session: req.Session, Choice: choice})
	if err != nil {
		return fmt.Errorf("%s: %w", req.Subject, err)
	}
	c, _ := got.Choice(choice)
	fmt.Fprintf(o.env.Stdout, "Answered %q to %s (%s).\n", c.Label, got.Subject, shortID(got.Session))
	return nil
}

// pick finds the one request an answer is for: by request ID, session
// id (or its first characters) or project directory.
func pick(pending []answer.Request, session, project, id string) (answer.Request, error) {
	if project != "" {
		abs, err := filepath.Abs(project)
		if err != nil {
			return answer.Request{}, err
		}
		project = filepath.Clean(abs)
	}
	var found []answer.Request
	for _, r := range pending {
		switch {
		case id != "" && r.ID != id:
		case session != "" && !strings.HasPrefix(r.Session, session):
		case project != "" && r.Project != project:
		default:
			found = append(found, r)
		}
	}
	what := "session " + session
	switch {
	case id != "":
		what = "request " + id
	case project != "":
		what = "the session in " + project
	}
	switch len(found) {
	case 0:
		if id != "" {
			return answer.Request{}, fmt.Errorf("%s: %w", what, answer.ErrStale)
		}
		return answer.Request{}, withHint(fmt.Errorf("no dialog of %s waits for an answer", what),
			"`hud answer` lists the dialogs waiting")
	case 1:
		return found[0], nil
	}
	return answer.Request{}, withHint(fmt.Errorf("%d dialogs match %s", len(found), what), "name the session by more of its id")
}

// shortID is a session id's first 8 characters, fit to print.
func shortID(id string) string { return text.Line(text.Head(id, 8), 0) }

// trayError explains a failed exchange with the tray: no tray to ask,
// or what went wrong with the one that serves the socket.
func trayError(err error) error {
	if errors.Is(err, answer.ErrNoTray) {
		return withHint(err, "start the tray (hud) and turn answering on (hud answer on)")
	}
	return fmt.Errorf("answering: %w", err)
}

// answerSwitch turns answering from the tray on or off, and says what
// stands in its way.
func answerSwitch(env *Env, on bool) error {
	path := config.DefaultPath(env.Home, env.Getenv)
	if err := config.SetBool(path, "answer", "enabled", on); err != nil {
		return err
	}
	cfg := loadConfig(env) // leaves the hook its copy
	if !on {
		fmt.Fprintln(env.Stdout, "Answering from the tray is off: Claude's dialogs are answered in the terminal only.")
		return nil
	}
	fmt.Fprintf(env.Stdout, "Answering from the tray is on: the hook offers each dialog to the tray for up to %s.\n", text.Duration(cfg.Answer.Wait))
	if hint := shortDialogTimeout(env, cfg.Answer.Wait); hint != "" {
		fmt.Fprintln(env.Stdout, hint)
	}
	if _, err := answer.List(env.Home); errors.Is(err, answer.ErrNoTray) {
		fmt.Fprintln(env.Stdout, "No tray runs now; start it with `hud`.")
	}
	return nil
}

// answerStatus says whether answering is on, how it works, and which
// dialogs wait.
func answerStatus(env *Env) error {
	cfg := loadConfig(env)
	w := env.Stdout
	if cfg.Answer.Enabled {
		fmt.Fprintf(w, "Answering from the tray is on (wait up to %s; `hud answer off` to stop).\n", text.Duration(cfg.Answer.Wait))
		if hint := shortDialogTimeout(env, cfg.Answer.Wait); hint != "" {
			fmt.Fprintln(w, hint)
		}
	} else {
		fmt.Fprintln(w, "Answering from the tray is off (`hud answer on` to start).")
	}
	fmt.Fprint(w, `
How it works: when Claude shows a permission dialog or asks a question, the
hook offers it to the tray and waits (bounded by [answer] wait in
config.toml). The terminal's dialog stays usable meanwhile; whichever
answer comes first wins, and the other side closes the dialog. An answer
from the menu, a notification or this command goes to that one dialog
only, through Claude Code's PermissionRequest hook output.
`)
	pending, err := answer.List(env.Home)
	switch {
	case errors.Is(err, answer.ErrNoTray) && cfg.Answer.Enabled:
		fmt.Fprintln(w, "\nNo tray is answering now: start it with `hud`.")
		return nil
	case errors.Is(err, answer.ErrNoTray):
		return nil
	case err != nil:
		return trayError(err)
	}
	if err := answer.NoteListed(env.Home, pending); err != nil {
		return err
	}
	switch {
	case len(pending) == 0:
		fmt.Fprintln(w, "\nNo dialog waits for an answer.")
		return nil
	}
	fmt.Fprintln(w, "\nWaiting:")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, r := range pending {
		// The project's name is a directory's, which a repository may
		// choose: no escape sequence reaches the terminal.
		fmt.Fprintf(tw, "  %s\t%s\t%s\trequest %s\n", shortID(r.Session), text.Line(filepath.Base(r.Project), 40),
			text.Line(r.Subject, 0), text.Line(r.ID, 0))
		for _, c := range r.Choices {
			fmt.Fprintf(tw, "\t\t  %s\t%s\n", text.Line(c.Key, 0), text.Line(c.Label, 0))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	first := pending[0]
	fmt.Fprintf(w, "\nTo answer: hud answer SESSION CHOICE, e.g. hud answer %s %s\n", shortID(first.Session), text.Line(first.Choices[0].Key, 0))
	return nil
}

// shortDialogTimeout says so when a settings file wires hud-hook on
// PermissionRequest with a timeout shorter than the wait (an install made
// before answering existed): Claude would end the hook before the answer.
func shortDialogTimeout(env *Env, wait time.Duration) string {
	for _, path := range install.UserSettingsPaths(env.Layout()) {
		st, err := install.Inspect(path)
		if err == nil && st.DialogTimeout > 0 && time.Duration(st.DialogTimeout)*time.Second <= wait {
			return fmt.Sprintf("%s gives hud-hook %ds on a permission dialog, less than the wait: run `hud install` again to give it %ds.",
				path, st.DialogTimeout, install.DialogTimeout)
		}
	}
	return ""
}
