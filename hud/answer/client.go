package answer

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// dialTimeout bounds a connect to the tray's socket; a local socket
// answers at once or not at all.
const dialTimeout = 500 * time.Millisecond

// Hook is the hook's connection to a listening tray.
type Hook struct{ c *conn }

// Connect reaches the tray's socket under home: one connect, which fails
// at once when no tray listens (or answering is off: the tray then serves
// no socket).
func Connect(home string) (*Hook, error) {
	// No socket, no tray to ask: one stat says so, where a connect would
	// first start Go's network poller on every PermissionRequest of a
	// person who never turned answering on.
	if _, err := os.Lstat(SocketPath(home)); err != nil {
		return nil, err
	}
	c, err := dial(home, dialTimeout)
	if err != nil {
		return nil, err
	}
	return &Hook{c: c}, nil
}

// Close ends the connection; the tray forgets the request.
func (h *Hook) Close() error { return h.c.c.Close() }

// ErrEnded is Offer's error when the tray ended the request without an
// answer (the dialog was answered in the terminal, the tray quit).
var ErrEnded = errors.New("the tray ended the request")

// Offer offers req and waits at most wait for the choice made for it. A
// reply for any other request is refused.
func (h *Hook) Offer(req Request, wait time.Duration) (string, error) {
	if err := h.c.send(message{Offer: &req}); err != nil {
		return "", fmt.Errorf("offering the dialog: %w", err)
	}
	h.c.c.SetReadDeadline(time.Now().Add(wait))
	m, err := h.c.receive(maxMessage)
	switch {
	case errors.Is(err, io.EOF):
		return "", ErrEnded
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "", fmt.Errorf("no answer within %v", wait)
	case err != nil:
		return "", err
	case m.Answer == nil:
		return "", ErrEnded
	case m.Answer.ID != req.ID || m.Answer.Digest != req.Digest:
		return "", fmt.Errorf("refused an answer for another request (%s)", m.Answer.ID)
	}
	c, ok := req.Choice(m.Answer.Choice)
	if !ok {
		return "", fmt.Errorf("refused %q: not a choice of this dialog", m.Answer.Choice)
	}
	return c.Key, nil
}

// ErrNoTray is the error of List and Send when no tray serves the socket
// (none runs, or answering is off). Any other error comes from a tray
// that serves it.
var ErrNoTray = errors.New("no tray is answering")

// List asks the tray which requests wait.
func List(home string) ([]Request, error) {
	m, err := ask(home, message{List: true}, maxList)
	if err != nil {
		return nil, err
	}
	return m.Requests, nil
}

// Send gives the tray an answer; it returns the request it went to.
func Send(home string, r Reply) (Request, error) {
	m, err := ask(home, message{Answer: &r}, maxMessage)
	if err != nil {
		return Request{}, err
	}
	if m.Error != "" {
		return Request{}, errors.New(m.Error)
	}
	if !m.OK || m.Answered == nil {
		return Request{}, errors.New("the tray sent no answer")
	}
	return *m.Answered, nil
}

// ask sends q and reads the tray's reply, at most limit bytes.
func ask(home string, q message, limit int) (message, error) {
	c, err := dial(home, dialTimeout)
	if err != nil {
		return message{}, fmt.Errorf("%w: %w", ErrNoTray, err)
	}
	defer c.c.Close()
	c.c.SetDeadline(time.Now().Add(5 * time.Second))
	if err := c.send(q); err != nil {
		return message{}, fmt.Errorf("asking the tray: %w", err)
	}
	m, err := c.receive(limit)
	if err != nil {
		return message{}, fmt.Errorf("the tray's reply: %w", err)
	}
	return m, nil
}
