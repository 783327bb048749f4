package focus

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/remote"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/terminal"
)

// Remote brings forward a session on another machine (view.Place.Host): its
// tmux pane, attached over the person's ssh in a new terminal window. A
// remote session outside tmux has nothing to attach to from here.
type Remote struct {
	GOOS string
	// Machine finds the machine a session's Host names (the remotes
	// file) and the command that replaces ssh ("" for ssh); nil: the name
	// is the ssh destination, and ssh is ssh.
	Machine func(name string) (config.Remote, string, error)
	// Start starts a program without waiting for it (the terminal lives
	// on); nil: for real (StartDetached).
	Start func(c Command) error
}

func (Remote) Name() string { return "remote" }

func (b Remote) Focus(_ context.Context, t view.Place) error {
	if t.Host == "" {
		return ErrSkip
	}
	machine, sshCommand := config.Remote{Name: t.Host, Destination: t.Host}, ""
	if b.Machine != nil {
		var err error
		if machine, sshCommand, err = b.Machine(t.Host); err != nil {
			return err
		}
	}
	attach, err := AttachCommand(machine, sshCommand, t.Terminal.TmuxPane)
	if err != nil {
		return err
	}
	start := b.Start
	if start == nil {
		start = StartDetached
	}
	var errs []error
	for _, c := range inNewTerminal(b.GOOS, attach) {
		if err := start(c); err != nil {
			errs = append(errs, err)
			continue
		}
		return nil
	}
	return fmt.Errorf("opening a terminal for %q: %w", strings.Join(attach, " "), errors.Join(errs...))
}

// AttachCommand is the command that shows a remote session's tmux pane
// here: ssh (or the command replacing it) to the machine, make the pane
// current, attach to its session. It is what Remote runs in a new
// terminal, and what a person can run themselves.
func AttachCommand(m config.Remote, sshCommand, pane string) ([]string, error) {
	if err := config.CheckDestination(m.Destination); err != nil {
		return nil, err
	}
	if pane == "" {
		return nil, fmt.Errorf("the session on %s runs outside tmux: nothing to attach to", m.Name)
	}
	if !terminal.IsTmuxPane(pane) {
		return nil, fmt.Errorf("tmux pane %q is not a pane id", pane)
	}
	// One argument for the remote shell, so "\;" reaches tmux as its
	// command separator; the pane id is "%" and digits, nothing to quote.
	remoteCmd := fmt.Sprintf(`tmux select-window -t %[1]s \; select-pane -t %[1]s \; attach-session -t %[1]s`, pane)
	return remote.Argv(sshCommand, "-t", "--", m.Destination, remoteCmd), nil
}

// inNewTerminal lists the ways of running argv in a new terminal window,
// in order: the desktop's chosen terminal (Debian's alternative), xterm;
// on macOS, Terminal.
func inNewTerminal(goos string, argv []string) []Command {
	if goos == "darwin" {
		return []Command{{Name: "osascript", Args: append([]string{"-e", runInTerminalScript}, argv...)}}
	}
	return []Command{
		{Name: "x-terminal-emulator", Args: append([]string{"-e"}, argv...)},
		{Name: "xterm", Args: append([]string{"-e"}, argv...)},
	}
}

// runInTerminalScript runs its arguments, each quoted for the shell, in a
// new Terminal window.
const runInTerminalScript = `on run argv
	set cmd to ""
	repeat with a in argv
		set cmd to cmd & quoted form of (a as text) & " "
	end repeat
	tell application "Terminal"
		do script cmd
		activate
	end tell
end run`

// StartDetached starts c and reaps it in the background.
func StartDetached(c Command) error {
	cmd := exec.Command(c.Name, c.Args...)
	if len(c.Env) > 0 {
		cmd.Env = append(cmd.Environ(), c.Env...)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
