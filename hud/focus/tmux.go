package focus

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/capacitor-hud/hud/hud/view"
)

// Tmux makes the session's pane the current pane of its window and that
// window the current one of its tmux session, then raises the terminal
// window of a tmux client showing that session. With no client attached
// to it, the most recently used client is switched to it first.
type Tmux struct {
	Run Runner
	// Window raises a client's terminal window; nil: tmux alone.
	Window Raiser
}

func (Tmux) Name() string { return "tmux" }

func (b Tmux) Focus(ctx context.Context, t view.Place) error {
	pane := t.Terminal.TmuxPane
	if pane == "" || t.Host != "" {
		return ErrSkip
	}
	if _, err := b.Run(ctx, b.command(t, "select-window", "-t", pane, ";", "select-pane", "-t", pane)); err != nil {
		return fmt.Errorf("switching to pane %s: %w", pane, err)
	}
	clients, err := b.clients(ctx, t)
	if err == nil && len(clients) == 0 {
		// Nobody looks at that session: show it in the client used last
		// (tmux's choice when no client is named).
		if _, err = b.Run(ctx, b.command(t, "switch-client", "-t", pane)); err == nil {
			clients, err = b.clients(ctx, t)
		}
	}
	if err != nil || b.Window == nil {
		// The pane is current; only raising its window failed.
		return nil
	}
	for _, pid := range clients {
		if b.Window.Raise(ctx, pid, "") == nil {
			return nil
		}
	}
	return nil
}

// command is a tmux command on the session's server: its recorded socket
// when it has one (a server started with -L or -S), else the default.
func (b Tmux) command(t view.Place, args ...string) Command {
	if s := t.Terminal.TmuxSocket; s != "" {
		args = append([]string{"-S", s}, args...)
	}
	return Command{Name: "tmux", Args: args}
}

// clients returns the pids of the tmux clients attached to the pane's
// session, most recently active first.
func (b Tmux) clients(ctx context.Context, t view.Place) ([]int, error) {
	out, err := b.Run(ctx, b.clientsCommand(t))
	if err != nil {
		return nil, err
	}
	return parseClients(out), nil
}

// clientsCommand lists the clients of the pane's session, for
// parseClients.
func (b Tmux) clientsCommand(t view.Place) Command {
	return b.command(t, "list-clients", "-t", t.Terminal.TmuxPane, "-F", "#{client_activity} #{client_pid}")
}

// parseClients reads "activity pid" lines, newest activity first; lines
// that are not two numbers are skipped.
func parseClients(out []byte) []int {
	type client struct{ activity, pid int }
	var cs []client
	for line := range bytes.Lines(out) {
		f := bytes.Fields(line)
		if len(f) != 2 {
			continue
		}
		a, err1 := strconv.Atoi(string(f[0]))
		p, err2 := strconv.Atoi(string(f[1]))
		if err1 != nil || err2 != nil || p <= 1 {
			continue
		}
		cs = append(cs, client{a, p})
	}
	slices.SortStableFunc(cs, func(a, b client) int { return cmp.Compare(b.activity, a.activity) })
	pids := make([]int, len(cs))
	for i, c := range cs {
		pids[i] = c.pid
	}
	return pids
}
