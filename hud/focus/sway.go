package focus

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"slices"
)

// Sway talks to sway over its IPC socket ($SWAYSOCK), the i3 protocol:
// the layout tree names each window's process (pid) and which one has the
// focus, and a command focuses one ([con_id=N] focus, which also switches
// to its workspace). XWayland windows are in the same tree: activated
// this way they take the focus, where an X11 request only marks them
// urgent unless the config says focus_on_window_activation focus. i3
// speaks the protocol too, without processes in its tree: there every
// answer is ErrNoWindow, and X11 serves.
type Sway struct {
	// Socket is the IPC socket's path.
	Socket string
	// UID is the user the socket must belong to: a socket path comes from
	// the environment, and sway runs any command it is sent.
	UID int
}

func (Sway) Name() string { return "sway" }

// The i3 IPC message types used here.
const (
	swayRunCommand = 0
	swayGetTree    = 4
)

// swayMagic opens every message, both ways.
const swayMagic = "i3-ipc"

// maxSwayReply bounds what is read of one reply: a tree of hundreds of
// windows is a few hundred kilobytes.
const maxSwayReply = 16 << 20

// swayNode is the part of a tree node read here.
type swayNode struct {
	ID       int64      `json:"id"`
	Type     string     `json:"type"`
	PID      int        `json:"pid"`
	Focused  bool       `json:"focused"`
	Nodes    []swayNode `json:"nodes"`
	Floating []swayNode `json:"floating_nodes"`
}

// Activate focuses the window of the first of pids that owns one.
func (s Sway) Activate(ctx context.Context, pids []int) error {
	tree, err := s.tree(ctx)
	if err != nil {
		return err
	}
	id, ok := swayWindowOf(tree, pids)
	if !ok {
		return fmt.Errorf("%w (asked sway about processes %v)", ErrNoWindow, pids)
	}
	out, err := s.call(ctx, swayRunCommand, fmt.Sprintf("[con_id=%d] focus", id))
	if err != nil {
		return err
	}
	return swayCommandResult(out)
}

// Focused returns the process whose window has the focus.
func (s Sway) Focused(ctx context.Context) (int, error) {
	tree, err := s.tree(ctx)
	if err != nil {
		return 0, err
	}
	return swayFocused(tree), nil
}

func (s Sway) tree(ctx context.Context) (swayNode, error) {
	var tree swayNode
	out, err := s.call(ctx, swayGetTree, "")
	if err != nil {
		return tree, err
	}
	if err := json.Unmarshal(out, &tree); err != nil {
		return tree, fmt.Errorf("reading sway's tree: %w", err)
	}
	return tree, nil
}

// call sends one message and reads its reply, within ctx.
func (s Sway) call(ctx context.Context, kind uint32, payload string) ([]byte, error) {
	c, err := dialCompositor(ctx, "sway", s.Socket, s.UID)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	msg := make([]byte, 0, len(swayMagic)+8+len(payload))
	msg = append(msg, swayMagic...)
	msg = binary.NativeEndian.AppendUint32(msg, uint32(len(payload)))
	msg = binary.NativeEndian.AppendUint32(msg, kind)
	msg = append(msg, payload...)
	if _, err := c.Write(msg); err != nil {
		return nil, socketErr(ctx, "asking sway", err)
	}
	out, err := readSwayReply(c, kind)
	if err != nil {
		return nil, socketErr(ctx, "reading sway's answer", err)
	}
	return out, nil
}

// dialCompositor connects to a compositor's IPC socket, which must be
// the person's own (the path comes from the environment, and a compositor
// runs what it is sent), for one exchange within ctx: the connection is
// closed when ctx ends, so a compositor that does not answer holds no
// read past the deadline. The caller closes it.
func dialCompositor(ctx context.Context, name, socket string, uid int) (net.Conn, error) {
	path, err := OwnSocket(socket, uid)
	if err != nil {
		return nil, fmt.Errorf("not talking to the compositor's socket %s: %w", socket, err)
	}
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", name, err)
	}
	return &ctxConn{Conn: c, stop: context.AfterFunc(ctx, func() { c.Close() })}, nil
}

// ctxConn is a connection closed at its context's end, or by Close.
type ctxConn struct {
	net.Conn
	stop func() bool
}

func (c *ctxConn) Close() error {
	c.stop()
	return c.Conn.Close()
}

// socketErr names the deadline when it was what cut the connection.
func socketErr(ctx context.Context, doing string, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", doing, ctx.Err())
	}
	return fmt.Errorf("%s: %w", doing, err)
}

// readSwayReply reads one reply of the given type. Events (the high bit
// of the type) come only to subscribers, so anything else is an error.
func readSwayReply(r io.Reader, kind uint32) ([]byte, error) {
	head := make([]byte, len(swayMagic)+8)
	if _, err := io.ReadFull(r, head); err != nil {
		return nil, err
	}
	if string(head[:len(swayMagic)]) != swayMagic {
		return nil, fmt.Errorf("not an i3 IPC reply (%q)", head[:len(swayMagic)])
	}
	size := binary.NativeEndian.Uint32(head[len(swayMagic):])
	got := binary.NativeEndian.Uint32(head[len(swayMagic)+4:])
	if got != kind {
		return nil, fmt.Errorf("a reply of type %d to a message of type %d", got, kind)
	}
	if size > maxSwayReply {
		return nil, fmt.Errorf("a reply of %d bytes (at most %d read)", size, maxSwayReply)
	}
	out := make([]byte, size)
	if _, err := io.ReadFull(r, out); err != nil {
		return nil, err
	}
	return out, nil
}

// swayCommandResult reads RUN_COMMAND's answer: one result per command.
func swayCommandResult(out []byte) error {
	var results []struct {
		Success bool   `json:"success"`
		Error   string `json:"error"`
	}
	if err := json.Unmarshal(out, &results); err != nil {
		return fmt.Errorf("reading sway's answer: %w", err)
	}
	for _, r := range results {
		if !r.Success {
			return fmt.Errorf("sway refused to focus the window: %s", r.Error)
		}
	}
	if len(results) == 0 {
		return fmt.Errorf("sway ran no command")
	}
	return nil
}

// swayWindowOf finds the window (a con or floating con with a process) of
// the first of pids that owns one.
func swayWindowOf(tree swayNode, pids []int) (int64, bool) {
	best, id := -1, int64(0)
	walkSway(tree, func(n swayNode) {
		if n.PID <= 0 || (n.Type != "con" && n.Type != "floating_con") {
			return
		}
		i := slices.Index(pids, n.PID)
		if i >= 0 && (best < 0 || i < best) {
			best, id = i, n.ID
		}
	})
	return id, best >= 0
}

// swayFocused returns the process of the focused window; 0 when the focus
// is on a workspace or output, not a window.
func swayFocused(tree swayNode) int {
	pid := 0
	walkSway(tree, func(n swayNode) {
		if n.Focused && n.PID > 0 {
			pid = n.PID
		}
	})
	return pid
}

func walkSway(n swayNode, f func(swayNode)) {
	f(n)
	for _, c := range n.Nodes {
		walkSway(c, f)
	}
	for _, c := range n.Floating {
		walkSway(c, f)
	}
}
