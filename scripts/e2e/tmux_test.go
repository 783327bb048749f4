package e2e

import (
	"time"

	"github.com/capacitor-hud/hud/internal/tmux"
)

// tmuxServer is the suite's own tmux server (internal/tmux, shared with
// the agents' suite), under the names the scenarios use.
type tmuxServer struct {
	socket string
}

const tmuxSession = "e2e"

func (s tmuxServer) server() tmux.Server { return tmux.Server{Socket: s.socket, Session: tmuxSession} }

func (s tmuxServer) run(args ...string) (string, error) { return s.server().Run(args...) }

// start starts the server (tmux.Server.Start).
func (s tmuxServer) start() error { return s.server().Start() }

func (s tmuxServer) kill() { s.server().Kill() }

// pane is one tmux pane running one command.
type pane struct {
	srv tmuxServer
	id  string // %N
	pid int    // the pane's process: the command itself, as it is exec'd
}

func (p *pane) tmux() *tmux.Pane { return &tmux.Pane{Server: p.srv.server(), ID: p.id, PID: p.pid} }

// newWindow runs command (a shell command line) in a new window whose
// working directory is dir.
func (s tmuxServer) newWindow(name, dir, command string) (*pane, error) {
	p, err := s.server().NewWindow(name, dir, command)
	if err != nil {
		return nil, err
	}
	return &pane{srv: s, id: p.ID, pid: p.PID}, nil
}

func (p *pane) keys(keys ...string) error  { return p.tmux().Keys(keys...) }
func (p *pane) typeText(text string) error { return p.tmux().Type(text) }
func (p *pane) capture() string            { return p.tmux().Capture() }
func (p *pane) close()                     { p.tmux().Close() }

func (p *pane) waitScreen(timeout time.Duration, ok func(screen string) bool) (string, bool) {
	return p.tmux().WaitScreen(timeout, ok)
}

func lastLines(text string, n int) string { return tmux.LastLines(text, n) }
