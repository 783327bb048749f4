package e2e

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// tmuxServer is the suite's own tmux server, on its own socket (-L), so it
// never touches a person's sessions and is killed whole at the end.
type tmuxServer struct {
	socket string
}

const tmuxSession = "e2e"

func (s tmuxServer) run(args ...string) (string, error) {
	full := append([]string{"-L", s.socket, "-f", "/dev/null"}, args...)
	out, err := exec.Command("tmux", full...).CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("tmux %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// start starts the server with one placeholder window and the options the
// suite relies on: panes stay after their process exits (so a failure can
// still show the last screen), a wide default size so Claude's dialogs fit.
func (s tmuxServer) start() error {
	if _, err := s.run("new-session", "-d", "-s", tmuxSession, "-x", "160", "-y", "50", "-n", "idle", "cat"); err != nil {
		return err
	}
	for _, opt := range [][]string{
		{"set-option", "-g", "remain-on-exit", "on"},
		{"set-option", "-g", "default-size", "160x50"},
		{"set-option", "-g", "history-limit", "5000"},
		// Claude Code asks for focus events and says so on screen otherwise.
		{"set-option", "-g", "focus-events", "on"},
	} {
		if _, err := s.run(opt...); err != nil {
			return err
		}
	}
	return nil
}

func (s tmuxServer) kill() { _, _ = s.run("kill-server") }

// pane is one tmux pane running one command.
type pane struct {
	srv tmuxServer
	id  string // %N
	pid int    // the pane's process: the command itself, as it is exec'd
}

// newWindow runs command (a shell command line) in a new window whose
// working directory is dir.
func (s tmuxServer) newWindow(name, dir, command string) (*pane, error) {
	out, err := s.run("new-window", "-d", "-t", tmuxSession+":", "-n", name, "-c", dir,
		"-P", "-F", "#{pane_id} #{pane_pid}", command)
	if err != nil {
		return nil, err
	}
	id, pidText, ok := strings.Cut(strings.TrimSpace(out), " ")
	pid, perr := strconv.Atoi(pidText)
	if !ok || perr != nil {
		return nil, fmt.Errorf("tmux new-window printed %q, want a pane id and pid", out)
	}
	return &pane{srv: s, id: id, pid: pid}, nil
}

// keys sends tmux key names (Enter, Escape, C-c).
func (p *pane) keys(keys ...string) error {
	_, err := p.srv.run(append([]string{"send-keys", "-t", p.id}, keys...)...)
	return err
}

// typeText types text literally.
func (p *pane) typeText(text string) error {
	_, err := p.srv.run("send-keys", "-t", p.id, "-l", text)
	return err
}

// capture returns the visible screen. Claude Code draws a no-break space
// after its prompt mark; it reads as a plain space here.
func (p *pane) capture() string {
	out, err := p.srv.run("capture-pane", "-p", "-t", p.id)
	if err != nil {
		return "(capture failed: " + err.Error() + ")"
	}
	return strings.ReplaceAll(out, "\u00a0", " ")
}

// dead reports whether the pane's process has exited.
func (p *pane) dead() bool {
	out, err := p.srv.run("display-message", "-p", "-t", p.id, "#{pane_dead}")
	return err == nil && strings.TrimSpace(out) == "1"
}

func (p *pane) close() { _, _ = p.srv.run("kill-pane", "-t", p.id) }

// waitScreen polls the screen every 25 ms until ok accepts it or timeout
// passes, and returns the last capture.
func (p *pane) waitScreen(timeout time.Duration, ok func(screen string) bool) (string, bool) {
	deadline := time.Now().Add(timeout)
	for {
		screen := p.capture()
		if ok(screen) {
			return screen, true
		}
		if time.Now().After(deadline) {
			return screen, false
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// lastLines trims a capture's trailing blank lines and keeps the last n.
func lastLines(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n "), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
