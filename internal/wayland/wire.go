// Package wayland is the little of the Wayland protocol hud speaks as a
// client: a Client that reads the compositor's globals, binds them and
// sends requests, and on it the compositor's idle notifications
// (ext-idle-notify-v1, or KDE's org_kde_kwin_idle where that is what it
// offers), so the away push knows when the person left a Wayland desktop,
// where the X server's screensaver extension (absent from XWayland) and
// the session bus (KWin answers NotSupported) cannot tell.
//
// Only messages without file descriptors are ever asked for, so the wire
// is plain: each message a header (object id; size and opcode) and its
// arguments, 32-bit words in the machine's order, strings padded to a
// word.
package wayland

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
)

// maxMessage is the protocol's own bound on a message (its size is 16
// bits); libwayland's is smaller.
const maxMessage = 1 << 16

// displayID is wl_display's object id, fixed by the protocol.
const displayID = 1

// SocketPath is where the compositor of display ($WAYLAND_DISPLAY: a
// name under runtimeDir, or an absolute path) listens. "" when there is
// none to reach.
func SocketPath(display, runtimeDir string) string {
	switch {
	case display == "":
		return ""
	case filepath.IsAbs(display):
		return display
	case runtimeDir == "":
		return ""
	}
	return filepath.Join(runtimeDir, display)
}

// conn is a client's connection: it writes requests and reads events.
type conn struct {
	c      net.Conn
	r      *bufio.Reader
	nextID uint32
}

func dial(ctx context.Context, path string) (*conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, fmt.Errorf("connecting to the compositor: %w", err)
	}
	return &conn{c: c, r: bufio.NewReader(c), nextID: displayID + 1}, nil
}

func (c *conn) Close() error { return c.c.Close() }

// newID reserves the next client-side object id.
func (c *conn) newID() uint32 {
	id := c.nextID
	c.nextID++
	return id
}

// message builds one request's arguments.
type message struct {
	args []byte
}

func (m *message) uint(v uint32) *message {
	m.args = binary.NativeEndian.AppendUint32(m.args, v)
	return m
}

func (m *message) string(s string) *message {
	m.uint(uint32(len(s) + 1))
	m.args = append(m.args, s...)
	m.args = append(m.args, 0)
	for len(m.args)%4 != 0 {
		m.args = append(m.args, 0)
	}
	return m
}

// send writes a request of opcode to object id.
func (c *conn) send(id uint32, opcode uint16, m *message) error {
	size := 8 + len(m.args)
	buf := make([]byte, 0, size)
	buf = binary.NativeEndian.AppendUint32(buf, id)
	buf = binary.NativeEndian.AppendUint32(buf, uint32(size)<<16|uint32(opcode))
	buf = append(buf, m.args...)
	if _, err := c.c.Write(buf); err != nil {
		return fmt.Errorf("writing to the compositor: %w", err)
	}
	return nil
}

// event is one message from the compositor.
type event struct {
	object uint32
	opcode uint16
	args   []byte
}

// read reads the next event.
func (c *conn) read() (event, error) {
	var head [8]byte
	if _, err := io.ReadFull(c.r, head[:]); err != nil {
		return event{}, err
	}
	e := event{object: binary.NativeEndian.Uint32(head[:4])}
	word := binary.NativeEndian.Uint32(head[4:])
	e.opcode = uint16(word)
	size := int(word >> 16)
	if size < 8 || size%4 != 0 || size > maxMessage {
		return event{}, fmt.Errorf("a message of %d bytes from the compositor", size)
	}
	e.args = make([]byte, size-8)
	if _, err := io.ReadFull(c.r, e.args); err != nil {
		return event{}, err
	}
	return e, nil
}

// errShort is what reading an argument past a message's end returns.
var errShort = errors.New("a message shorter than its arguments")

// uintArg reads the 32-bit argument at *off.
func (e event) uintArg(off *int) (uint32, error) {
	if *off+4 > len(e.args) {
		return 0, errShort
	}
	v := binary.NativeEndian.Uint32(e.args[*off:])
	*off += 4
	return v, nil
}

// stringArg reads the string argument at *off.
func (e event) stringArg(off *int) (string, error) {
	n, err := e.uintArg(off)
	if err != nil {
		return "", err
	}
	padded := (int(n) + 3) &^ 3
	if n == 0 || *off+padded > len(e.args) {
		return "", errShort
	}
	s := string(e.args[*off : *off+int(n)-1]) // without its NUL
	*off += padded
	return s, nil
}

// displayError reads wl_display.error: the compositor refused a request
// and closes the connection.
func displayError(e event) error {
	off := 0
	object, _ := e.uintArg(&off)
	code, _ := e.uintArg(&off)
	msg, _ := e.stringArg(&off)
	return fmt.Errorf("the compositor refused a request to object %d (code %d): %s", object, code, msg)
}
