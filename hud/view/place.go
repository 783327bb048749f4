package view

import (
	"cmp"

	"github.com/capacitor-hud/hud/internal/terminal"
)

// Place is where a session's terminal is: what a click brings forward,
// and where the person may be looking at the session already. It is the
// terminal (found from what the hook recorded and from the Claude
// process's ancestry), else the project folder. A session on another
// machine has only its tmux pane there.
type Place struct {
	// PID is the Claude process, 0 when unknown.
	PID      int
	Terminal terminal.Terminal
	Dir      string
	// Host is the machine the session runs on; "" for this one.
	Host string
}

// Place is where s's terminal is. A session on another machine (Host)
// has only its tmux pane, attached over ssh in a new terminal: its
// process and folder are over there, and nothing here acts on them.
func (s *Session) Place() Place {
	if s.Host != "" {
		return Place{Host: s.Host, Terminal: terminal.Terminal{TmuxPane: s.TmuxPane}}
	}
	return Place{PID: s.PID, Terminal: s.Terminal, Dir: cmp.Or(s.CWD, s.ProjectDir)}
}
