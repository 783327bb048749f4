package cli

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/capacitor-hud/hud/hud/app"
	"github.com/capacitor-hud/hud/hud/focus"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/paths"
	"github.com/capacitor-hud/hud/internal/proc"
	"github.com/capacitor-hud/hud/resolver"
)

// runFocus brings a session's terminal forward, as a click on it in the
// tray does: for a key binding, or a script. With no argument, the session
// that needs the person most (the tray's first row).
func runFocus(env *Env, args []string) error {
	fs := newFlagSet(env, "focus", "focus [session-id | project-path]\n\n"+
		"Bring a session's terminal forward (its tmux pane, terminal tab or window),\n"+
		"else open its folder and exit 1, since nothing of the session's own was\n"+
		"raised; with no argument, the session that needs you most.\n")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usagef("takes one session id or project path")
	}
	snap, err := loadSnapshot(env.Layout())
	if err != nil {
		return err
	}
	sessions := view.All(resolver.ResolveAll(snap, env.Now(), proc.Alive))
	s, err := pickSession(sessions, fs.Arg(0))
	if err != nil {
		return err
	}
	logf := func(format string, args ...any) { fmt.Fprintf(env.Stderr, format+"\n", args...) }
	f := focus.New(logf, app.OpenPath, nil)
	return f.Focus(context.Background(), s.Place())
}

// pickSession finds the session query names: a session id or a unique
// prefix of one (4 characters at least), else a project path (a session's
// cwd or project directory). An empty query picks the session that needs
// the person most: the highest state, the longest in it.
func pickSession(sessions []view.Session, query string) (view.Session, error) {
	if len(sessions) == 0 {
		return view.Session{}, fmt.Errorf("no live Claude Code session")
	}
	if query == "" {
		return slices.MinFunc(sessions, func(a, b view.Session) int {
			return cmp.Or(cmp.Compare(b.State.Attention(), a.State.Attention()), a.Since.Compare(b.Since))
		}), nil
	}
	var found []view.Session
	if len(query) >= 4 {
		for _, s := range sessions {
			if strings.HasPrefix(s.SessionID, query) {
				found = append(found, s)
			}
		}
	}
	if len(found) == 0 {
		path := query
		if abs, err := filepath.Abs(query); err == nil {
			path = abs
		}
		path = paths.Normalize(path)
		for _, s := range sessions {
			if s.CWD == path || s.ProjectDir == path {
				found = append(found, s)
			}
		}
	}
	switch len(found) {
	case 0:
		return view.Session{}, usagef("no live session has the id or project %q (see 'hud status')", query)
	case 1:
		return found[0], nil
	}
	names := make([]string, len(found))
	for i, s := range found {
		names[i] = s.SessionID
	}
	return view.Session{}, usagef("%q names %d sessions: %s", query, len(found), strings.Join(names, ", "))
}
