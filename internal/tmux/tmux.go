// Package tmux drives a tmux server of its own, for the end-to-end
// suites that run real coding agents the way a person does: in a
// terminal, keys typed, the screen read back. The server has its own
// socket (-L) and no configuration file, so it never touches a person's
// sessions and is killed whole at the end.
package tmux

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// DefaultTimeout bounds one tmux command: a server that stopped
// answering (stopped, wedged) fails the suite's step instead of hanging
// it. Generous: a busy machine running agents can be slow to start tmux.
const DefaultTimeout = 10 * time.Second

// waitDelay bounds the wait for the command's output once it is killed or
// has exited: the tmux client hands its stdout to the server, so a server
// that never reads its socket holds the pipe open after the client is
// gone.
const waitDelay = 500 * time.Millisecond

// Server is one tmux server, on its own socket.
type Server struct {
	Socket string
	// Session is the session that holds the windows.
	Session string
	// Timeout bounds each command; 0 means DefaultTimeout.
	Timeout time.Duration
}

// Run runs a tmux command against the server, killed when it has not
// finished within the server's Timeout.
func (s Server) Run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), cmp.Or(s.Timeout, DefaultTimeout))
	defer cancel()
	return s.RunContext(ctx, args...)
}

// RunContext runs a tmux command against the server, killed when ctx is
// done.
func (s Server) RunContext(ctx context.Context, args ...string) (string, error) {
	full := append([]string{"-L", s.Socket, "-f", "/dev/null"}, args...)
	cmd := exec.CommandContext(ctx, "tmux", full...)
	cmd.Env = personEnv(os.Environ())
	cmd.WaitDelay = waitDelay
	out, err := cmd.CombinedOutput()
	if err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (%w)", err, ctx.Err())
		}
		return string(out), fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// personEnv is env without the variables that say "this is a CI job": the
// server's terminals are a person's, and an agent that sees CI=true acts
// as in a pipeline (Gemini CLI then refuses to start interactively and
// exits 42 with no prompt given).
func personEnv(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "CI", "CONTINUOUS_INTEGRATION", "GITHUB_ACTIONS", "BUILD_NUMBER", "RUN_ID":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// Start starts the server with one placeholder window and the options the
// suites rely on: panes stay after their process exits (so a failure can
// still show the last screen), a wide default size so dialogs fit, focus
// events on (agents ask for them and say so on screen otherwise).
func (s Server) Start() error {
	if _, err := s.Run("new-session", "-d", "-s", s.Session, "-x", "160", "-y", "50", "-n", "idle", "cat"); err != nil {
		return err
	}
	for _, opt := range [][]string{
		{"set-option", "-g", "remain-on-exit", "on"},
		{"set-option", "-g", "default-size", "160x50"},
		{"set-option", "-g", "history-limit", "5000"},
		{"set-option", "-g", "focus-events", "on"},
	} {
		if _, err := s.Run(opt...); err != nil {
			return err
		}
	}
	return nil
}

// Kill ends the server and every process in it.
func (s Server) Kill() { _, _ = s.Run("kill-server") }

// Pane is one tmux pane running one command.
type Pane struct {
	Server Server
	ID     string // %N
	// PID is the pane's process: the command itself, as it is exec'd.
	PID int
}

// NewWindow runs command (a shell command line) in a new window whose
// working directory is dir.
func (s Server) NewWindow(name, dir, command string) (*Pane, error) {
	out, err := s.Run("new-window", "-d", "-t", s.Session+":", "-n", name, "-c", dir,
		"-P", "-F", "#{pane_id} #{pane_pid}", command)
	if err != nil {
		return nil, err
	}
	id, pidText, ok := strings.Cut(strings.TrimSpace(out), " ")
	pid, perr := strconv.Atoi(pidText)
	if !ok || perr != nil {
		return nil, fmt.Errorf("tmux new-window printed %q, want a pane id and pid", out)
	}
	return &Pane{Server: s, ID: id, PID: pid}, nil
}

// Keys sends tmux key names (Enter, Escape, C-c).
func (p *Pane) Keys(keys ...string) error {
	_, err := p.Server.Run(append([]string{"send-keys", "-t", p.ID}, keys...)...)
	return err
}

// Type types text literally.
func (p *Pane) Type(text string) error {
	_, err := p.Server.Run("send-keys", "-t", p.ID, "-l", text)
	return err
}

// Capture returns the visible screen. Agents draw no-break spaces (Claude
// Code after its prompt mark); they read as plain spaces here.
func (p *Pane) Capture() string {
	out, err := p.Server.Run("capture-pane", "-p", "-t", p.ID)
	if err != nil {
		return "(capture failed: " + err.Error() + ")"
	}
	return strings.ReplaceAll(out, "\u00a0", " ")
}

// History returns the screen with up to n lines of scrollback above it:
// what a command printed before it died.
func (p *Pane) History(n int) string {
	out, err := p.Server.Run("capture-pane", "-p", "-t", p.ID, "-S", fmt.Sprint(-n))
	if err != nil {
		return "(capture failed: " + err.Error() + ")"
	}
	return strings.ReplaceAll(out, "\u00a0", " ")
}

// Dead reports whether the pane's process has exited.
func (p *Pane) Dead() bool {
	out, err := p.Server.Run("display-message", "-p", "-t", p.ID, "#{pane_dead}")
	return err == nil && strings.TrimSpace(out) == "1"
}

// Close kills the pane.
func (p *Pane) Close() { _, _ = p.Server.Run("kill-pane", "-t", p.ID) }

// WaitScreen polls the screen every 25 ms until ok accepts it or timeout
// passes, and returns the last capture.
func (p *Pane) WaitScreen(timeout time.Duration, ok func(screen string) bool) (string, bool) {
	deadline := time.Now().Add(timeout)
	for {
		screen := p.Capture()
		if ok(screen) {
			return screen, true
		}
		if time.Now().After(deadline) {
			return screen, false
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// LastLines trims a capture's trailing blank lines and keeps the last n.
func LastLines(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n "), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
