package focus

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/terminal"
)

// Looking tells whether the person is looking at a session's terminal
// right now, the same places a click brings forward, read instead of
// changed: in tmux, the session's pane is the active pane of its window,
// that window the current one of its tmux session, and the terminal of a
// client showing that session is the desktop's active window
// (_NET_ACTIVE_WINDOW); in kitty, the session's window is the focused one
// of the focused OS window; otherwise the window of Claude's ancestry is
// the active one, and its terminal runs nothing else (no other tab).
//
// Anything it cannot tell (no display, a WezTerm pane, a remote session,
// a terminal that does not answer) counts as not looking: a notification
// the person did not need costs less than one they missed. A server that
// did not answer by the caller's deadline is not asked again for
// SilentFor: its sessions count as not looked at meanwhile, at no cost.
type Looking struct {
	Run Runner
	// Compositor, where the desktop has one, names the focused window's
	// process: the only way to tell on Wayland. nil: X11 only.
	Compositor Compositor
	// Display overrides $DISPLAY (tests).
	Display string
	// Ancestry lists pid and its ancestors, nearest first; nil: the
	// running system's (Ancestry).
	Ancestry func(pid int) []int
	// Children counts the processes whose parent is pid; nil: the running
	// system's (Children).
	Children func(pid int) int
	// Sockets checks the terminal's control sockets before tmux or kitty
	// is asked about them, as a click does (Focuser.Sockets); nil means
	// OwnSockets for this process's uid.
	Sockets func(terminal.Terminal) (terminal.Terminal, error)
	// known remembers the servers that did not answer; nil: the memory
	// the whole program shares (shared).
	known *servers
}

// At reports whether the person looks at t's terminal. The error says why
// it could not tell (ErrSkip, possibly wrapped, where nothing could be
// asked: no display, nothing recorded); the answer is then false. Run it
// under a deadline: a terminal's socket or the X server may not answer.
func (l Looking) At(ctx context.Context, t view.Place) (bool, error) {
	t.Terminal = t.Terminal.Checked()
	// A socket another user serves is never asked (it could answer
	// "looking" and hold a notification back, and its server could run a
	// program as the person): its fields are emptied, and the window of
	// Claude's ancestry is asked instead.
	t.Terminal, _ = checkSockets(l.Sockets, t.Terminal)
	switch {
	case t.Host != "":
		return false, fmt.Errorf("%w: the terminal is on %s", ErrSkip, t.Host)
	case t.Terminal.TmuxPane != "":
		return l.tmux(ctx, t)
	case t.Terminal.KittyWindow != "" && t.Terminal.KittyListenOn != "":
		return l.kitty(ctx, t)
	case t.Terminal.WeztermPane != "":
		// The window alone would not tell which of its panes is shown.
		return false, fmt.Errorf("%w: a WezTerm pane", ErrSkip)
	case t.PID > 0:
		return l.activeIs(ctx, [][]int{l.ancestry(t.PID)}, t.Terminal.WindowID)
	}
	return false, fmt.Errorf("%w: no terminal recorded", ErrSkip)
}

// tmux: the pane must be the one its session shows, and a client showing
// that session must be in the active window. The server is asked for the
// shown panes of all its sessions, one question the same for every
// session on it: sessions asked about at the same moment share one call.
func (l Looking) tmux(ctx context.Context, t view.Place) (bool, error) {
	b := Tmux{Run: l.Run}
	pane := t.Terminal.TmuxPane
	name := "the tmux server at " + cmp.Or(t.Terminal.TmuxSocket, "the default socket")
	out, err := l.memory().run(ctx, name, b.command(t, "list-panes", "-a", "-F", "#{pane_id} #{pane_active}#{window_active}"), l.Run)
	if err != nil {
		return false, fmt.Errorf("asking tmux about pane %s: %w", pane, err)
	}
	if !paneShown(out, pane) {
		return false, nil
	}
	out, err = l.memory().run(ctx, name, b.clientsCommand(t), l.Run)
	if err != nil {
		return false, fmt.Errorf("listing the tmux clients of pane %s: %w", pane, err)
	}
	clients := parseClients(out)
	if len(clients) == 0 {
		return false, nil
	}
	lines := make([][]int, len(clients))
	for i, pid := range clients {
		lines[i] = l.ancestry(pid)
	}
	return l.activeIs(ctx, lines, "")
}

// kittyOSWindow is the part of `kitty @ ls` read here.
type kittyOSWindow struct {
	IsFocused bool `json:"is_focused"`
	Tabs      []struct {
		IsFocused   bool `json:"is_focused"`
		IsActive    bool `json:"is_active"`
		IsActiveTab bool `json:"is_active_tab"`
		Windows     []struct {
			ID        int  `json:"id"`
			IsFocused bool `json:"is_focused"`
			IsActive  bool `json:"is_active"`
		} `json:"windows"`
	} `json:"tabs"`
}

func (l Looking) kitty(ctx context.Context, t view.Place) (bool, error) {
	// The whole list: kitty before 0.27 takes no --match for ls.
	out, err := l.memory().run(ctx, "kitty at "+t.Terminal.KittyListenOn,
		Command{Name: "kitty", Args: []string{"@", "--to", t.Terminal.KittyListenOn, "ls"}}, l.Run)
	if err != nil {
		return false, fmt.Errorf("asking kitty about window %s: %w", t.Terminal.KittyWindow, err)
	}
	return kittyFocused(out, t.Terminal.KittyWindow)
}

// paneShown reads `list-panes -a -F '#{pane_id} #{pane_active}#{window_active}'`:
// pane is the active pane of its window, and that window the current one
// of its session. A pane not listed is not shown.
func paneShown(out []byte, pane string) bool {
	for line := range bytes.Lines(out) {
		id, flags, ok := bytes.Cut(bytes.TrimSpace(line), []byte(" "))
		if ok && string(id) == pane {
			return string(flags) == "11"
		}
	}
	return false
}

// kittyFocused reads `kitty @ ls`: window id is focused when its OS window
// has the desktop's focus and it is the active window of the active tab.
// Versions of kitty word it differently (a tab's is_active_tab or
// is_active, a window's is_focused even in a tab not shown), so each level
// is read on its own: inside a focused OS window, any of them counts.
func kittyFocused(out []byte, id string) (bool, error) {
	var list []kittyOSWindow
	if err := json.Unmarshal(out, &list); err != nil {
		return false, fmt.Errorf("reading kitty's window list: %w", err)
	}
	for _, osw := range list {
		for _, tab := range osw.Tabs {
			for _, w := range tab.Windows {
				if fmt.Sprint(w.ID) == id {
					tabShown := tab.IsFocused || tab.IsActive || tab.IsActiveTab
					return osw.IsFocused && tabShown && (w.IsFocused || w.IsActive), nil
				}
			}
		}
	}
	return false, nil
}

// activeIs reports whether the desktop's active window is the window of
// one of lines, each a process and its ancestors, nearest first (as
// X11.Raise picks it). hint is the terminal's word for its window.
func (l Looking) activeIs(ctx context.Context, lines [][]int, hint string) (bool, error) {
	var cerr error
	if l.Compositor != nil {
		looking, err := l.focusedIs(ctx, lines)
		if err == nil || ctx.Err() != nil {
			return looking, err
		}
		// A compositor that cannot tell (GNOME without hud's extension)
		// leaves the X server, which still knows its XWayland windows.
		cerr = err
	}
	looking, err := l.activeX11(ctx, lines, hint)
	if err != nil && cerr != nil {
		return false, errors.Join(cerr, err)
	}
	return looking, err
}

// focusedIs asks the compositor which process owns the focused window:
// the person looks at one of lines when it is among its processes, and
// that terminal runs nothing else.
func (l Looking) focusedIs(ctx context.Context, lines [][]int) (bool, error) {
	name := l.Compositor.Name()
	answer, err := l.memory().ask(ctx, name, "focused", func(ctx context.Context) (any, error) {
		return l.Compositor.Focused(ctx)
	})
	if err != nil {
		return false, fmt.Errorf("asking %s which window has the focus: %w", name, err)
	}
	focused, _ := answer.(int)
	if focusedIn(lines, focused) < 0 {
		return false, nil
	}
	return l.alone(focused), nil
}

// activeX11 is activeIs asked of the X server.
func (l Looking) activeX11(ctx context.Context, lines [][]int, hint string) (bool, error) {
	display := l.Display
	if display == "" {
		display = os.Getenv("DISPLAY")
	}
	if display == "" {
		return false, fmt.Errorf("%w: no X display", ErrSkip)
	}
	answer, err := l.memory().ask(ctx, "X display "+display, fmt.Sprint(lines, hint), func(ctx context.Context) (any, error) {
		looking, err := l.activeOn(ctx, display, lines, hint)
		return looking, err
	})
	looking, _ := answer.(bool)
	return looking, err
}

// activeIs's question, put to the X server of display.
func (l Looking) activeOn(ctx context.Context, display string, lines [][]int, hint string) (bool, error) {
	var looking bool
	err := withDisplay(ctx, display, func(c *xgb.Conn) error {
		root := xproto.Setup(c).DefaultScreen(c).Root
		atoms, err := internAtoms(c, "_NET_CLIENT_LIST", "_NET_WM_PID", "_NET_ACTIVE_WINDOW")
		if err != nil {
			return err
		}
		active, err := cardinals(c, root, atoms[2], xproto.AtomWindow)
		if err != nil {
			return fmt.Errorf("reading the active window: %w", err)
		}
		// The first value is the window; xfwm4 adds a second.
		if len(active) == 0 || active[0] == 0 {
			return nil // no window has the focus
		}
		for _, pids := range lines {
			if len(pids) == 0 {
				continue
			}
			owner, err := windowOf(c, root, atoms[0], atoms[1], pids, hint)
			if err == nil && uint32(owner.win) == active[0] {
				looking = l.alone(owner.pid)
				return nil
			}
		}
		return nil
	})
	return looking, err
}

// alone reports whether the terminal process that owns the window in
// front runs one program only. One that runs several (tabs: GNOME
// Terminal, Konsole, kitty without remote control; or windows it told
// apart by no $WINDOWID) may show another of them in that window, and
// nothing outside it says which: that counts as not looking.
func (l Looking) alone(owner int) bool {
	if owner <= 0 {
		return true // the terminal named the window itself ($WINDOWID)
	}
	children := l.Children
	if children == nil {
		children = Children
	}
	return children(owner) <= 1
}

func (l Looking) memory() *servers {
	if l.known != nil {
		return l.known
	}
	return shared
}

func (l Looking) ancestry(pid int) []int { return lineage(l.Ancestry, pid) }
