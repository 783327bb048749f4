package focus

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/internal/peercred"
	"github.com/capacitor-hud/hud/internal/safefile"
	"github.com/capacitor-hud/hud/internal/terminal"
)

// The terminal's control sockets are recorded from Claude's environment,
// which a project's settings can set: $TMUX may name a socket another
// local user serves. A tmux client told `-S <path>` skips tmux's own
// ownership check, and a server can make its client run a program, so
// talking to another user's server runs that user's program as the
// person. kitty's and WezTerm's sockets take commands the same way. So
// hud talks only to a socket the person owns, reached through directories
// nobody else can change, and hands the program the path it checked.

// OwnSocket checks that path is a Unix socket owned by uid that nobody
// else can swap (safefile.Owned), and returns its path with every link
// resolved: the one to hand the program.
func OwnSocket(path string, uid int) (string, error) {
	if !terminal.IsSocketPath(path) {
		return "", fmt.Errorf("%q is not a socket path", path)
	}
	real, fi, err := safefile.Owned(path, uid)
	if err != nil {
		return "", err
	}
	if fi.Mode().Type() != fs.ModeSocket {
		return "", fmt.Errorf("%s is not a socket", real)
	}
	return real, nil
}

// ownAbstract checks that the abstract socket name (Linux's "@name", which
// has no file and so no owner on disk) is served by a process of uid: it
// connects and asks the kernel who listens. Nobody else can take the name
// while that process holds it.
func ownAbstract(name string, uid int) error {
	c, err := net.DialTimeout("unix", "@"+name, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	raw, err := c.(*net.UnixConn).SyscallConn()
	if err != nil {
		return err
	}
	peer, perr := -1, error(nil)
	if err := raw.Control(func(fd uintptr) { peer, perr = peercred.UID(int(fd)) }); err != nil {
		return err
	}
	if perr != nil {
		return fmt.Errorf("asking who serves @%s: %w", name, perr)
	}
	if peer != uid {
		return fmt.Errorf("@%s is served by uid %d, not by this user (uid %d)", name, peer, uid)
	}
	return nil
}

// OwnSockets returns t with each control socket replaced by the path
// OwnSocket checked, or, for one that fails, that terminal's fields
// emptied (its pane or window names a place on that server, which
// nothing else can reach), and the reasons.
func OwnSockets(t terminal.Terminal, uid int) (terminal.Terminal, error) {
	var errs []error
	check := func(what, path string) (string, bool) {
		real, err := OwnSocket(path, uid)
		if err != nil {
			errs = append(errs, fmt.Errorf("not talking to the %s socket %s: %w", what, path, err))
			return "", false
		}
		return real, true
	}
	if t.TmuxSocket != "" {
		var ok bool
		if t.TmuxSocket, ok = check("tmux", t.TmuxSocket); !ok {
			t.TmuxPane = ""
		}
	}
	if t.WeztermSocket != "" {
		var ok bool
		if t.WeztermSocket, ok = check("WezTerm", t.WeztermSocket); !ok {
			t.WeztermPane = ""
		}
	}
	if addr, ok := strings.CutPrefix(t.KittyListenOn, "unix:"); ok {
		if name, abstract := strings.CutPrefix(addr, "@"); abstract {
			if err := ownAbstract(name, uid); err != nil {
				errs = append(errs, fmt.Errorf("not talking to the kitty socket @%s: %w", name, err))
				t.KittyListenOn, t.KittyWindow = "", ""
			}
		} else if real, ok := check("kitty", addr); ok {
			t.KittyListenOn = "unix:" + real
		} else {
			t.KittyListenOn, t.KittyWindow = "", ""
		}
	}
	return t, errors.Join(errs...)
}
