package focus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"sync"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"github.com/capacitor-hud/hud/internal/proc"
)

func init() {
	// xgb logs protocol errors to stderr itself; ours are returned.
	xgb.Logger = log.New(io.Discard, "", 0)
}

// X11 raises the X11 window of a process's terminal: among the windows the
// window manager lists (_NET_CLIENT_LIST), the one whose _NET_WM_PID is
// the nearest ancestor of the process, activated the EWMH way (a
// _NET_ACTIVE_WINDOW message to the root window, which also brings it to
// the current desktop and out of minimized). Most Linux terminals set
// _NET_WM_PID; XWayland windows under a Wayland desktop are found the same
// way, native Wayland ones are not (Wayland lets no client raise another's
// window).
type X11 struct {
	// Display overrides $DISPLAY (tests).
	Display string
	// Ancestry lists pid and its ancestors, nearest first; nil: the
	// running system's (Ancestry).
	Ancestry func(pid int) []int
}

// maxAncestry bounds the walk up from Claude: shells, tmux, a terminal,
// its launcher.
const maxAncestry = 32

// Ancestry returns pid and its ancestors, nearest first, up to init.
func Ancestry(pid int) []int {
	var pids []int
	for range maxAncestry {
		if pid <= 1 {
			break
		}
		pids = append(pids, pid)
		p, err := proc.Inspect(pid)
		if err != nil {
			break
		}
		pid = p.PPID
	}
	return pids
}

// lineage is pid and its ancestors through ancestry, or through the
// running system's (Ancestry) when it is nil (tests set it).
func lineage(ancestry func(int) []int, pid int) []int {
	if ancestry == nil {
		return Ancestry(pid)
	}
	return ancestry(pid)
}

// Raise activates the window of pid's nearest ancestor that has one.
func (x X11) Raise(ctx context.Context, pid int, hint string) error {
	display := x.Display
	if display == "" {
		display = os.Getenv("DISPLAY")
	}
	if display == "" {
		return fmt.Errorf("%w: no X display", ErrSkip)
	}
	pids := lineage(x.Ancestry, pid)
	if len(pids) == 0 {
		return fmt.Errorf("process %d is gone", pid)
	}
	return withDisplay(ctx, display, func(c *xgb.Conn) error { return activate(c, pids, hint) })
}

// withDisplay connects to display and runs f on the connection. Connecting
// can hang too (a forwarded display over TCP), so it runs with f, off the
// caller's goroutine; on ctx's end the connection, once there is one, is
// closed, which ends f's requests.
func withDisplay(ctx context.Context, display string, f func(*xgb.Conn) error) error {
	var (
		mu        sync.Mutex
		conn      *xgb.Conn
		abandoned bool
	)
	done := make(chan error, 1)
	go func() {
		c, err := xgb.NewConnDisplay(display)
		if err != nil {
			done <- fmt.Errorf("connecting to X display %s: %w", display, err)
			return
		}
		mu.Lock()
		conn = c
		gone := abandoned
		mu.Unlock()
		if gone {
			c.Close()
			return
		}
		err = f(c)
		c.Close()
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		mu.Lock()
		abandoned = true
		if conn != nil {
			conn.Close()
		}
		mu.Unlock()
		return fmt.Errorf("X display %s: %w", display, ctx.Err())
	}
}

// client is a top-level window the window manager lists, with the pid its
// owner put in _NET_WM_PID (0: none).
type client struct {
	win xproto.Window
	pid int
}

func activate(conn *xgb.Conn, pids []int, hint string) error {
	root := xproto.Setup(conn).DefaultScreen(conn).Root
	atoms, err := internAtoms(conn, "_NET_CLIENT_LIST", "_NET_WM_PID", "_NET_ACTIVE_WINDOW")
	if err != nil {
		return err
	}
	c, err := windowOf(conn, root, atoms[0], atoms[1], pids, hint)
	if err != nil {
		return err
	}
	win := c.win
	ev := xproto.ClientMessageEvent{
		Format: 32,
		Window: win,
		Type:   atoms[2],
		// Source indication 2: a pager or taskbar acting for the person,
		// which window managers obey (1, an application, is subject to
		// focus-stealing prevention); timestamp 0, CurrentTime.
		Data: xproto.ClientMessageDataUnionData32New([]uint32{2, 0, 0, 0, 0}),
	}
	mask := uint32(xproto.EventMaskSubstructureRedirect | xproto.EventMaskSubstructureNotify)
	if err := xproto.SendEventChecked(conn, false, root, mask, string(ev.Bytes())).Check(); err != nil {
		return fmt.Errorf("activating window 0x%x: %w", uint32(win), err)
	}
	return nil
}

// windowOf finds the window of the nearest process in pids that has one
// among the windows the window manager lists (pickWindow), with the pid
// its owner set (0: none); hint is the terminal's own word for its window
// ($WINDOWID), "" for none.
func windowOf(conn *xgb.Conn, root xproto.Window, clientList, wmPID xproto.Atom, pids []int, hint string) (client, error) {
	list, err := cardinals(conn, root, clientList, xproto.AtomWindow)
	if err != nil {
		return client{}, fmt.Errorf("reading the window manager's window list: %w", err)
	}
	if len(list) == 0 {
		return client{}, errors.New("no window manager lists windows (_NET_CLIENT_LIST)")
	}
	// One round trip for all the windows' owners: every request is sent
	// before the first reply is read.
	clients := make([]client, len(list))
	cookies := make([]xproto.GetPropertyCookie, len(list))
	for i, w := range list {
		clients[i].win = xproto.Window(w)
		cookies[i] = xproto.GetProperty(conn, false, clients[i].win, wmPID, xproto.AtomCardinal, 0, 1)
	}
	for i, c := range cookies {
		if pid, err := cardinalsOf(c.Reply()); err == nil && len(pid) == 1 {
			clients[i].pid = int(pid[0])
		}
	}
	var hinted xproto.Window
	if id, err := strconv.ParseUint(hint, 10, 32); err == nil && id != 0 {
		hinted = topLevel(conn, xproto.Window(id), clients)
	}
	win, ok := pickWindow(pids, clients, hinted)
	if !ok {
		return client{}, fmt.Errorf("no window belongs to process %d or its ancestors", pids[0])
	}
	for _, c := range clients {
		if c.win == win {
			return c, nil
		}
	}
	return client{win: win}, nil
}

// pickWindow chooses the window of the nearest ancestor in pids that has
// one. Where that process has several (one terminal process, many
// windows), the hinted window wins if it is among them, else the first
// listed. A hinted window whose owner set no _NET_WM_PID is taken when no
// ancestor has a window: the terminal said it is its window, and no
// _NET_WM_PID contradicts it.
func pickWindow(pids []int, clients []client, hinted xproto.Window) (xproto.Window, bool) {
	for _, pid := range pids {
		var first xproto.Window
		for _, c := range clients {
			if c.pid != pid {
				continue
			}
			if c.win == hinted {
				return c.win, true
			}
			if first == 0 {
				first = c.win
			}
		}
		if first != 0 {
			return first, true
		}
	}
	for _, c := range clients {
		if hinted != 0 && c.win == hinted && c.pid == 0 {
			return c.win, true
		}
	}
	return 0, false
}

// topLevel returns the listed window that is w or contains it ($WINDOWID
// often names a terminal's inner widget, not its frame), 0 if none.
func topLevel(conn *xgb.Conn, w xproto.Window, clients []client) xproto.Window {
	for range 16 {
		for _, c := range clients {
			if c.win == w {
				return w
			}
		}
		tree, err := xproto.QueryTree(conn, w).Reply()
		if err != nil || tree.Parent == 0 || tree.Parent == tree.Root {
			return 0
		}
		w = tree.Parent
	}
	return 0
}

func internAtoms(conn *xgb.Conn, names ...string) ([]xproto.Atom, error) {
	cookies := make([]xproto.InternAtomCookie, len(names))
	for i, n := range names {
		cookies[i] = xproto.InternAtom(conn, false, uint16(len(n)), n)
	}
	atoms := make([]xproto.Atom, len(names))
	for i, c := range cookies {
		r, err := c.Reply()
		if err != nil {
			return nil, fmt.Errorf("X atom %s: %w", names[i], err)
		}
		atoms[i] = r.Atom
	}
	return atoms, nil
}

// cardinals reads a 32-bit list property of w.
func cardinals(conn *xgb.Conn, w xproto.Window, prop, typ xproto.Atom) ([]uint32, error) {
	return cardinalsOf(xproto.GetProperty(conn, false, w, prop, typ, 0, 1<<16).Reply())
}

// cardinalsOf decodes a reply holding a 32-bit list.
func cardinalsOf(r *xproto.GetPropertyReply, err error) ([]uint32, error) {
	if err != nil {
		return nil, err
	}
	if r.Format != 32 {
		return nil, nil
	}
	out := make([]uint32, 0, len(r.Value)/4)
	for i := 0; i+4 <= len(r.Value); i += 4 {
		out = append(out, xgb.Get32(r.Value[i:]))
	}
	return out, nil
}
