package web

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/capacitor-hud/hud/hud/answer"
)

// fakeActions stand for the tray: they know some dialogs, answer each once
// (answer.ErrStale for any other id) and record every call.
type fakeActions struct {
	mu       sync.Mutex
	known    map[string]answer.Request
	calls    []string // every Answer call, "id choice"
	answered []string // the answers given, "id choice"
	clicks   []string
}

func newFakeActions(known ...answer.Request) *fakeActions {
	f := &fakeActions{known: map[string]answer.Request{}}
	for _, r := range known {
		f.known[r.ID] = r
	}
	return f
}

func (f *fakeActions) Answer(id, digest, choice string) (answer.Request, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, id+" "+choice)
	r, ok := f.known[id]
	if !ok || r.Digest != digest {
		return answer.Request{}, answer.ErrStale
	}
	delete(f.known, id)
	f.answered = append(f.answered, id+" "+choice)
	return r, nil
}

func (f *fakeActions) Click(key string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clicks = append(f.clicks, key)
}

// record returns copies of what the actions saw.
func (f *fakeActions) record() (calls, answered, clicks []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...), append([]string(nil), f.answered...), append([]string(nil), f.clicks...)
}

// noAnswer fails t if anything was answered.
func (f *fakeActions) noAnswer(t *testing.T) {
	t.Helper()
	if _, answered, _ := f.record(); len(answered) > 0 {
		t.Errorf("answered %q, want nothing answered", answered)
	}
}

// dialog is a dialog the fake actions know.
var dialog = answer.Request{ID: "d1", Digest: "dg1", Subject: "Bash: make test", Session: "s1",
	Choices: []answer.Choice{{Key: answer.Allow, Label: "Yes"}, {Key: answer.Deny, Label: "No"}}}

// snapshot has a session named secret-project waiting on dialog, and a
// break's action in the section.
func snapshot() Snapshot {
	d := dialog
	return Snapshot{Summary: "1 waiting", Accounts: []string{"5h: 12%"},
		Sessions: []Card{{Key: "s1", Name: "secret-project", State: "waiting", Age: "2m", WaitingFor: "permission", Dialog: &d}},
		Section:  []Action{{Key: "break-start", Label: "Start the break"}, {Label: "Next break in 20m"}}}
}

// newServer is a server on a fresh directory with fake actions.
func newServer(t *testing.T, cfg Config, acts *fakeActions) *Server {
	t.Helper()
	s, err := New(cfg, t.TempDir(), acts, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

const (
	testHost = "127.0.0.1:7878"
	testAddr = "192.0.2.1:5555"
)

// client is a browser talking to a handler from addr, with its cookie
// and CSRF token once paired.
type client struct {
	t      *testing.T
	h      http.Handler
	addr   string
	cookie *http.Cookie
	csrf   string
}

func newClient(t *testing.T, h http.Handler) *client {
	return &client{t: t, h: h, addr: testAddr}
}

// request makes a request as c would send it: from its address, to
// testHost, with its cookie, a form body when given.
func (c *client) request(method, target string, form url.Values) *http.Request {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	r := httptest.NewRequest(method, target, body)
	r.Host, r.RemoteAddr = testHost, c.addr
	if form != nil {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if c.cookie != nil {
		r.AddCookie(c.cookie)
	}
	return r
}

func (c *client) serve(r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	c.h.ServeHTTP(w, r)
	return w
}

func (c *client) get(target string) *httptest.ResponseRecorder {
	return c.serve(c.request(http.MethodGet, target, nil))
}

// post posts form as the page does: with the CSRF token, from the page's
// origin.
func (c *client) post(target string, form url.Values) *httptest.ResponseRecorder {
	r := c.request(http.MethodPost, target, form)
	r.Header.Set("X-Hud-CSRF", c.csrf)
	r.Header.Set("Origin", "http://"+testHost)
	return c.serve(r)
}

var csrfMeta = regexp.MustCompile(`<meta name="hud-csrf" content="([^"]+)">`)

// pair pairs c with s through POST /pair and reads its CSRF token off the
// page.
func (c *client) pair(s *Server) {
	c.t.Helper()
	secret, err := s.devices.NewPairing()
	if err != nil {
		c.t.Fatal(err)
	}
	w := c.serve(c.request(http.MethodPost, "/pair", url.Values{"secret": {secret}}))
	if w.Code != http.StatusOK {
		c.t.Fatalf("POST /pair: %d %s", w.Code, w.Body)
	}
	cookies := w.Result().Cookies()
	if len(cookies) != 1 {
		c.t.Fatalf("POST /pair set %d cookies, want 1", len(cookies))
	}
	c.cookie = cookies[0]
	page := c.get("/")
	m := csrfMeta.FindStringSubmatch(page.Body.String())
	if page.Code != http.StatusOK || m == nil {
		c.t.Fatalf("GET / after pairing: %d, no CSRF token in %s", page.Code, page.Body)
	}
	c.csrf = m[1]
}

// paired is a new client of s, paired.
func paired(t *testing.T, s *Server) *client {
	c := newClient(t, s.Handler())
	c.pair(s)
	return c
}

// answerForm is the page's answer to dialog with choice.
func answerForm(id, choice string) url.Values {
	return url.Values{"id": {id}, "digest": {dialog.Digest}, "choice": {choice}}
}

// serveOn serves s with Serve (its Config's Listen) until the test ends,
// and returns the address.
func serveOn(t *testing.T, s *Server) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addrc, errc := make(chan net.Addr, 1), make(chan error, 1)
	go func() { errc <- s.Serve(ctx, func(a net.Addr) { addrc <- a }) }()
	select {
	case a := <-addrc:
		t.Cleanup(func() {
			cancel()
			if err := <-errc; err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
		return a.String()
	case err := <-errc:
		cancel()
		t.Fatalf("Serve: %v", err)
	}
	return ""
}

func goroutines() int { return runtime.NumGoroutine() }

// raiseFileLimit raises the soft limit on open files to n, or skips the
// test when the hard limit is lower.
func raiseFileLimit(t *testing.T, n uint64) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skipf("reading the open files limit: %v", err)
	}
	if lim.Cur >= n {
		return
	}
	if lim.Max < n {
		t.Skipf("needs %d open files; the hard limit is %d", n, lim.Max)
	}
	old := lim
	lim.Cur = n
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Skipf("needs %d open files; raising the limit: %v", n, err)
	}
	t.Cleanup(func() { syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old) })
}
