package answer

import (
	"fmt"
	"net"
	"time"

	"github.com/capacitor-hud/hud/internal/peercred"
)

// listenUnix listens on a new Unix stream socket at path. The socket file
// stays when the listener closes: Server.Close removes it, and a listener
// that fails to start removes it there too.
func listenUnix(path string) (*net.UnixListener, error) {
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	ln.SetUnlinkOnClose(false)
	return ln, nil
}

// acceptUnix waits for the next connection on ln and returns it with its
// peer's uid. It fails once ln is closed.
func acceptUnix(ln *net.UnixListener) (*net.UnixConn, int, error) {
	c, err := ln.AcceptUnix()
	if err != nil {
		return nil, -1, err
	}
	return withPeer(c)
}

// dialUnix connects to the socket at path within timeout and returns the
// connection with its peer's uid.
func dialUnix(path string, timeout time.Duration) (*net.UnixConn, int, error) {
	d := net.Dialer{Timeout: timeout}
	c, err := d.Dial("unix", path)
	if err != nil {
		return nil, -1, err
	}
	return withPeer(c.(*net.UnixConn))
}

// withPeer returns c with the uid of the process at its other end, as the
// kernel says; c is closed when that cannot be read.
func withPeer(c *net.UnixConn) (*net.UnixConn, int, error) {
	rc, err := c.SyscallConn()
	if err != nil {
		c.Close()
		return nil, -1, err
	}
	uid, uerr := -1, error(nil)
	if err := rc.Control(func(fd uintptr) { uid, uerr = peercred.UID(int(fd)) }); err != nil {
		uerr = err
	}
	if uerr != nil {
		c.Close()
		return nil, -1, fmt.Errorf("reading the peer's credentials: %w", uerr)
	}
	return c, uid, nil
}
