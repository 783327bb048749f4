package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// limitClock sets s's limiter's clock, returning a way to move it on.
func limitClock(s *Server) func(time.Duration) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s.fails.now = func() time.Time { return now }
	return func(d time.Duration) { now = now.Add(d) }
}

func TestWrongCookiesRateLimited(t *testing.T) {
	acts := newFakeActions(dialog)
	s := newServer(t, Config{}, acts)
	wait := limitClock(s)
	good := paired(t, s)
	bad := newClient(t, s.Handler())
	bad.cookie = &http.Cookie{Name: "hud", Value: "guessed-token"}
	for i := range maxFails {
		if w := bad.get("/"); w.Code != http.StatusUnauthorized {
			t.Fatalf("wrong cookie, try %d: %d, want 401", i+1, w.Code)
		}
	}
	bad.addr = "192.0.2.1:6666" // the same address, another port
	for _, w := range []*httptest.ResponseRecorder{
		bad.get("/"), good.get("/"), good.get("/events"), good.post("/answer", answerForm(dialog.ID, "allow")),
	} {
		if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" {
			t.Errorf("past %d wrong tries: %d, Retry-After %q; want 429 with Retry-After", maxFails, w.Code, w.Header().Get("Retry-After"))
		}
	}
	acts.noAnswer(t)
	other := newClient(t, s.Handler())
	other.addr = "198.51.100.7:1234"
	other.cookie, other.csrf = good.cookie, good.csrf
	if w := other.get("/"); w.Code != http.StatusOK {
		t.Errorf("another address with a right cookie: %d, want 200", w.Code)
	}
	wait(failPeriod - time.Second)
	if w := good.get("/"); w.Code != http.StatusTooManyRequests {
		t.Errorf("a second before the window ends: %d, want 429", w.Code)
	}
	wait(time.Second)
	if w := good.get("/"); w.Code != http.StatusOK {
		t.Errorf("once the window ended: %d, want 200", w.Code)
	}
	if w := bad.get("/"); w.Code != http.StatusUnauthorized {
		t.Errorf("a wrong cookie in a new window: %d, want 401", w.Code)
	}
}

// postPair posts secret to /pair from c.
func postPair(c *client, secret string) *httptest.ResponseRecorder {
	return c.serve(c.request(http.MethodPost, "/pair", url.Values{"secret": {secret}}))
}

func TestPairingLinkAttacks(t *testing.T) {
	s := newServer(t, Config{}, newFakeActions())
	clk := &clock{time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	s.devices.Now = clk.now
	c := newClient(t, s.Handler())
	link, _ := s.devices.NewPairing()
	if w := postPair(c, link); w.Code != http.StatusOK {
		t.Fatalf("first use of a link: %d", w.Code)
	}
	late, _ := s.devices.NewPairing()
	clk.t = clk.t.Add(PairingLife)
	for name, secret := range map[string]string{"used twice": link, "expired": late, "wrong": "guess", "empty": ""} {
		w := postPair(c, secret)
		if w.Code != http.StatusForbidden || len(w.Result().Cookies()) > 0 {
			t.Errorf("a link %s: %d, cookies %v; want 403 and none", name, w.Code, w.Result().Cookies())
		}
	}
	r := c.request(http.MethodPost, "/pair", url.Values{"secret": {"x"}})
	r.Header.Set("Origin", "http://evil.example")
	if w := c.serve(r); w.Code != http.StatusForbidden {
		t.Errorf("POST /pair from another site: %d, want 403", w.Code)
	}
}

func TestWrongPairingSecretsRateLimited(t *testing.T) {
	s := newServer(t, Config{}, newFakeActions())
	wait := limitClock(s)
	c := newClient(t, s.Handler())
	for range maxFails {
		postPair(c, "guess")
	}
	link, _ := s.devices.NewPairing()
	if w := postPair(c, link); w.Code != http.StatusTooManyRequests || len(w.Result().Cookies()) > 0 {
		t.Fatalf("a right link after %d wrong ones: %d, want 429 and no cookie", maxFails, w.Code)
	}
	if w := c.get("/"); w.Code != http.StatusTooManyRequests {
		t.Errorf("GET / after %d wrong links: %d, want 429", maxFails, w.Code)
	}
	wait(failPeriod)
	if w := postPair(c, link); w.Code != http.StatusOK {
		t.Errorf("the link refused while limited, after the window: %d, want 200 (not spent)", w.Code)
	}
}

func TestRevokedCookie(t *testing.T) {
	dir := t.TempDir()
	acts := newFakeActions(dialog)
	s, err := New(Config{}, dir, acts, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	s.Publish(snapshot())
	c := paired(t, s)
	if n, err := DevicesIn(dir).RevokeAll(); n != 1 || err != nil { // hud serve --revoke
		t.Fatalf("RevokeAll = %d, %v", n, err)
	}
	if w := c.get("/"); w.Code != http.StatusUnauthorized || strings.Contains(w.Body.String(), "secret-project") {
		t.Errorf("GET / with a revoked cookie: %d, want 401", w.Code)
	}
	if w := c.post("/answer", answerForm(dialog.ID, "allow")); w.Code != http.StatusUnauthorized {
		t.Errorf("POST /answer with a revoked cookie: %d, want 401", w.Code)
	}
	acts.noAnswer(t)
	elsewhere := paired(t, newServer(t, Config{}, newFakeActions()))
	c.cookie, c.csrf = elsewhere.cookie, elsewhere.csrf
	if w := c.get("/"); w.Code != http.StatusUnauthorized {
		t.Errorf("GET / with another server's cookie: %d, want 401", w.Code)
	}
	if w := c.post("/answer", answerForm(dialog.ID, "allow")); w.Code != http.StatusUnauthorized {
		t.Errorf("POST /answer with another server's cookie: %d, want 401", w.Code)
	}
	acts.noAnswer(t)
}

func TestForgedRequestID(t *testing.T) {
	acts := newFakeActions(dialog)
	s := newServer(t, Config{}, acts)
	s.Publish(snapshot())
	c := paired(t, s)
	for name, form := range map[string]url.Values{
		"an unknown id":    answerForm("0123456789abcdef", "allow"),
		"a wrong digest":   {"id": {dialog.ID}, "digest": {"forged"}, "choice": {"allow"}},
		"no digest":        {"id": {dialog.ID}, "choice": {"allow"}},
		"an id in a query": nil,
	} {
		target := "/answer"
		if form == nil {
			target, form = "/answer?"+answerForm(dialog.ID, "allow").Encode(), url.Values{}
		}
		w := c.post(target, form)
		if w.Code != http.StatusConflict && w.Code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 409", name, w.Code)
		}
		if w.Code == http.StatusConflict && !strings.Contains(w.Body.String(), "Too late") {
			t.Errorf("%s: %q, want Too late", name, w.Body)
		}
	}
	acts.noAnswer(t)
	if w := c.post("/answer", answerForm(dialog.ID, "allow")); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"Yes"`) {
		t.Fatalf("the right answer: %d %s", w.Code, w.Body)
	}
	if w := c.post("/answer", answerForm(dialog.ID, "deny")); w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "Too late") {
		t.Errorf("a second answer: %d %s, want 409 Too late", w.Code, w.Body)
	}
	if _, answered, _ := acts.record(); len(answered) != 1 {
		t.Errorf("answered %q, want d1 allow alone", answered)
	}
}

// endless is a form body that never ends: "secret=aaaa…", counting what
// is read of it.
type endless struct{ read atomic.Int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	if e.read.Add(int64(len(p))) == int64(len(p)) && len(p) >= 7 {
		copy(p, "secret=")
	}
	return len(p), nil
}

func TestHugeBody(t *testing.T) {
	const huge = 100 << 20
	acts := newFakeActions(dialog)
	s := newServer(t, Config{}, acts)
	s.Publish(snapshot())
	c := paired(t, s)
	for _, target := range []string{"/answer", "/click", "/pair"} {
		body := &endless{}
		r := c.request(http.MethodPost, target, url.Values{})
		r.Body, r.ContentLength = io.NopCloser(io.LimitReader(body, huge)), huge
		r.Header.Set("X-Hud-CSRF", c.csrf)
		start := time.Now()
		w := c.serve(r)
		took := time.Since(start)
		if w.Code != http.StatusRequestEntityTooLarge && w.Code != http.StatusBadRequest {
			t.Errorf("POST %s with 100 MB: %d, want 413 or 400", target, w.Code)
		}
		if n := body.read.Load(); n > 1<<20 || took > 2*time.Second {
			t.Errorf("POST %s with 100 MB: read %d bytes in %v, want far less than it all, quickly", target, n, took)
		}
	}
	if calls, _, clicks := acts.record(); len(calls)+len(clicks) > 0 {
		t.Errorf("a huge body reached the actions: %q %q", calls, clicks)
	}
}
