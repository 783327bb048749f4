package answer

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// ErrStale is the answer to an answer for a request that no longer waits:
// answered in the terminal, Claude gone on, the hook given up.
var ErrStale = errors.New("that dialog is no longer waiting (answered in the terminal, or Claude went on)")

// Server is the tray's end: it holds the requests hooks offer while they
// wait, and sends each the one answer given for it.
type Server struct {
	ln     *net.UnixListener
	accept func(*net.UnixListener) (*net.UnixConn, int, error)
	// done is closed by Close: a retry waiting after a failed accept ends.
	done chan struct{}
	path string
	// uid is the only uid whose processes may connect.
	uid  int
	logf func(format string, args ...any)
	// changed is called, outside the lock, whenever the requests waiting
	// change: the tray redraws.
	changed func()

	mu      sync.Mutex
	pending map[string]*waiting // by request ID
	closed  bool
	// answered, when set, hears of each answer sent (OnAnswer).
	answered func(req Request, c Choice, by string)
}

// Who answered a request: the tray (its menu, its notifications),
// `hud answer` on the socket, or the page (hud/web).
const (
	ByTray    = "tray"
	ByCommand = "hud answer"
	ByWeb     = "web"
)

// OnAnswer sets f to hear of every answer sent to a hook, with who gave it
// (ByTray, ByCommand): the wait ledger records how each wait ended.
func (s *Server) OnAnswer(f func(req Request, c Choice, by string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.answered = f
}

// waiting is one request and the hook's connection it came on.
type waiting struct {
	req Request
	c   *conn
}

// Listen serves the socket at path (its directory is made 0700 if
// missing), refusing peers of any uid but uid. A socket left by a tray
// that died is replaced; one a live tray serves, or any other file, is
// not. changed is called whenever the requests waiting change.
func Listen(path string, uid int, logf func(string, ...any), changed func()) (*Server, error) {
	return listen(path, uid, logf, changed, acceptUnix)
}

// listen is Listen with the accept to serve with.
func listen(path string, uid int, logf func(string, ...any), changed func(), accept func(*net.UnixListener) (*net.UnixConn, int, error)) (*Server, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("answering: %w", err)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("answering: %s exists and is not a socket; remove it", path)
		}
		if c, _, err := dialUnix(path, time.Second); err == nil {
			c.Close()
			return nil, fmt.Errorf("answering: another tray serves %s", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("answering: removing the socket a stopped tray left: %w", err)
		}
	}
	ln, err := listenUnix(path)
	if err != nil {
		return nil, fmt.Errorf("answering: %w", err)
	}
	// The directory is 0700 already; the socket's own mode says the same
	// to anyone who looks, and the peer check holds whatever the modes.
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		os.Remove(path)
		return nil, fmt.Errorf("answering: %w", err)
	}
	if logf == nil {
		logf = func(string, ...any) {}
	}
	if changed == nil {
		changed = func() {}
	}
	s := &Server{ln: ln, accept: accept, done: make(chan struct{}), path: path, uid: uid, logf: logf, changed: changed, pending: map[string]*waiting{}}
	go s.serve()
	return s, nil
}

// Close stops serving and removes the socket; every hook waiting sees its
// connection end and gives up at once.
func (s *Server) Close() error {
	s.mu.Lock()
	if !s.closed {
		close(s.done)
	}
	s.closed = true
	for id, w := range s.pending {
		w.c.c.Close()
		delete(s.pending, id)
	}
	s.mu.Unlock()
	err := s.ln.Close()
	os.Remove(s.path)
	return err
}

// Bounds on the wait after a failed accept: it doubles from the first to
// the last while accepts keep failing.
const (
	acceptRetryFirst = 5 * time.Millisecond
	acceptRetryMost  = time.Second
)

// serve accepts connections until Close. A failed accept (too many open
// files, no memory for a buffer) ends nothing: a queued hook would wait
// its full time, and every later one would find no tray. The server
// waits, longer while failures go on, logs, and accepts again.
func (s *Server) serve() {
	retry := time.Duration(0)
	for {
		c, uid, err := s.accept(s.ln)
		if err == nil {
			if retry > 0 {
				s.logf("answering: accepting again")
				retry = 0
			}
			go s.handle(c, uid)
			continue
		}
		if s.isClosed() {
			return
		}
		if retry == 0 {
			s.logf("answering: %v (retrying)", err)
		}
		retry = min(max(2*retry, acceptRetryFirst), acceptRetryMost)
		select {
		case <-s.done:
			return
		case <-time.After(retry):
		}
	}
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// handle serves one connection: an offer, a list or an answer.
func (s *Server) handle(uc *net.UnixConn, uid int) {
	if err := checkPeer(uid, s.uid); err != nil {
		s.logf("answering: %v", err)
		uc.Close()
		return
	}
	c := newConn(uc)
	uc.SetReadDeadline(time.Now().Add(5 * time.Second))
	m, err := c.receive(maxMessage)
	uc.SetReadDeadline(time.Time{})
	if err != nil {
		uc.Close()
		return
	}
	switch {
	case m.Offer != nil:
		s.offered(c, *m.Offer)
		return
	case m.List:
		c.send(message{Requests: s.Pending()})
	case m.Answer != nil:
		req, err := s.answer(*m.Answer, ByCommand)
		if err != nil {
			c.send(message{Error: err.Error()})
		} else {
			c.send(message{OK: true, Answered: &req})
		}
	}
	uc.Close()
}

// offered keeps a hook's request until it is answered, ended, or the hook
// goes (its connection ends).
func (s *Server) offered(c *conn, req Request) {
	if req.ID == "" || req.Session == "" || len(req.Choices) == 0 {
		c.c.Close()
		return
	}
	s.mu.Lock()
	if s.closed || s.pending[req.ID] != nil {
		s.mu.Unlock()
		c.c.Close()
		return
	}
	// Claude shows one dialog at a time per session: a new one means the
	// older is over, however it ended.
	for id, w := range s.pending {
		if w.req.Session == req.Session {
			w.c.c.Close()
			delete(s.pending, id)
		}
	}
	w := &waiting{req: req, c: c}
	s.pending[req.ID] = w
	s.mu.Unlock()
	s.changed()

	// The hook sends nothing more: a read returns when it goes (killed by
	// Claude's timeout, given up) or when the tray closes the connection.
	var b [1]byte
	c.r.Read(b[:])
	if s.drop(req.ID, w) {
		s.changed()
	}
}

// drop forgets request id if w is still what waits for it.
func (s *Server) drop(id string, w *waiting) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pending[id] != w {
		return false
	}
	delete(s.pending, id)
	w.c.c.Close()
	return true
}

// Pending lists the requests waiting, oldest first.
func (s *Server) Pending() []Request {
	s.mu.Lock()
	out := make([]Request, 0, len(s.pending))
	for _, w := range s.pending {
		out = append(out, w.req)
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}

// Answer sends the hook waiting for r.ID the choice r.Choice, as the
// tray's answer (ByTray). It applies to that request only: an unknown or
// ended ID is ErrStale, and a digest or session that does not match the
// request is refused.
func (s *Server) Answer(r Reply) (Request, error) { return s.answer(r, ByTray) }

// AnswerBy is Answer, given by another of the tray's surfaces (ByWeb).
func (s *Server) AnswerBy(r Reply, by string) (Request, error) { return s.answer(r, by) }

// answer is Answer, for an answer given by by.
func (s *Server) answer(r Reply, by string) (Request, error) {
	s.mu.Lock()
	w := s.pending[r.ID]
	if w == nil {
		s.mu.Unlock()
		return Request{}, ErrStale
	}
	req := w.req
	switch {
	case r.Digest != "" && r.Digest != req.Digest, r.Session != "" && r.Session != req.Session:
		s.mu.Unlock()
		return Request{}, fmt.Errorf("the answer does not match request %s", req.ID)
	}
	choice, err := req.Pick(r.Choice)
	if err != nil {
		s.mu.Unlock()
		return Request{}, err
	}
	delete(s.pending, r.ID)
	answered := s.answered
	s.mu.Unlock()
	defer s.changed()
	defer w.c.c.Close()
	w.c.c.SetWriteDeadline(time.Now().Add(time.Second))
	if err := w.c.send(message{Answer: &Reply{ID: req.ID, Digest: req.Digest, Choice: choice.Key}}); err != nil {
		return Request{}, fmt.Errorf("%w: the hook has gone (%v)", ErrStale, err)
	}
	if answered != nil {
		answered(req, choice, by)
	}
	return req, nil
}

// EndWhere ends every request for which over says the dialog is over (the
// session went on since): its hook gives up at once.
func (s *Server) EndWhere(over func(Request) bool) {
	s.mu.Lock()
	n := 0
	for id, w := range s.pending {
		if over(w.req) {
			w.c.c.Close()
			delete(s.pending, id)
			n++
		}
	}
	s.mu.Unlock()
	if n > 0 {
		s.changed()
	}
}
