package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// routes are the page's routes behind a device, with a request each.
var routes = []struct {
	method, path string
	form         url.Values
}{
	{http.MethodGet, "/", nil},
	{http.MethodGet, "/events", nil},
	{http.MethodGet, "/timeline.svg", nil},
	{http.MethodPost, "/answer", answerForm(dialog.ID, "allow")},
	{http.MethodPost, "/click", url.Values{"key": {"break-start"}}},
}

func TestUnpairedSeeNothing(t *testing.T) {
	acts := newFakeActions(dialog)
	s := newServer(t, Config{}, acts)
	s.Timeline = func() ([]byte, error) { return []byte("<svg>secret-project</svg>"), nil }
	s.Publish(snapshot())
	h := s.Handler()
	for _, rt := range routes {
		c := newClient(t, h)
		c.addr = "198.51.100.1:1" // a fresh address each time: none rate-limited
		r := c.request(rt.method, rt.path, rt.form)
		r.Header.Set("Origin", "http://"+testHost)
		w := c.serve(r)
		if w.Code != http.StatusUnauthorized {
			t.Errorf("%s %s without a cookie: %d, want 401", rt.method, rt.path, w.Code)
		}
		body := w.Body.String()
		for _, secret := range []string{"secret-project", "Bash: make test", dialog.ID, "break-start", "hud-csrf"} {
			if strings.Contains(body, secret) {
				t.Errorf("%s %s without a cookie shows %q:\n%s", rt.method, rt.path, secret, body)
			}
		}
		if !strings.Contains(body, "hud serve --pair") {
			t.Errorf("%s %s without a cookie does not say how to pair:\n%s", rt.method, rt.path, body)
		}
		if len(w.Result().Cookies()) > 0 {
			t.Errorf("%s %s without a cookie set one", rt.method, rt.path)
		}
	}
	if calls, _, clicks := acts.record(); len(calls)+len(clicks) > 0 {
		t.Errorf("unpaired requests reached the actions: %q %q", calls, clicks)
	}
}

func TestPairedSeeAll(t *testing.T) {
	s := newServer(t, Config{}, newFakeActions(dialog))
	s.Timeline = func() ([]byte, error) { return []byte("<svg/>"), nil }
	s.Publish(snapshot())
	c := paired(t, s)
	page := c.get("/")
	for _, want := range []string{"secret-project", "Bash: make test", `data-id="d1"`, `data-key="break-start"`, "5h: 12%"} {
		if !strings.Contains(page.Body.String(), want) {
			t.Errorf("the page lacks %q:\n%s", want, page.Body)
		}
	}
	if svg := c.get("/timeline.svg"); svg.Code != http.StatusOK || svg.Header().Get("Content-Type") != "image/svg+xml" {
		t.Errorf("GET /timeline.svg: %d %s", svg.Code, svg.Header().Get("Content-Type"))
	}
}

func TestHostHeader(t *testing.T) {
	s := newServer(t, Config{URL: "https://box.example.ts.net"}, newFakeActions())
	c := paired(t, s)
	for host, want := range map[string]int{
		"127.0.0.1:7878":                  http.StatusOK,
		"127.0.0.1":                       http.StatusOK,
		"localhost:7878":                  http.StatusOK,
		"LocalHost":                       http.StatusOK,
		"[::1]:7878":                      http.StatusOK,
		"box.example.ts.net":              http.StatusOK,
		"box.example.ts.net:443":          http.StatusOK,
		"evil.example":                    http.StatusMisdirectedRequest,
		"evil.example:7878":               http.StatusMisdirectedRequest,
		"localhost.evil.example":          http.StatusMisdirectedRequest,
		"127.0.0.1.evil.example":          http.StatusMisdirectedRequest,
		"box.example.ts.net.evil.example": http.StatusMisdirectedRequest,
		"":                                http.StatusMisdirectedRequest,
	} {
		for _, path := range []string{"/", "/pair", "/static/app.js"} {
			r := c.request(http.MethodGet, path, nil)
			r.Host = host
			w := c.serve(r)
			if w.Code != want {
				t.Errorf("GET %s with Host %q: %d, want %d", path, host, w.Code, want)
			}
			if want != http.StatusOK && strings.Contains(w.Body.String(), "<script") {
				t.Errorf("GET %s with Host %q served the page", path, host)
			}
		}
	}
}

func TestHostOfListenAddress(t *testing.T) {
	s := newServer(t, Config{Listen: "192.168.1.5:7878", PlaintextBeyondLoopback: true}, newFakeActions())
	c := paired(t, s)
	for host, want := range map[string]int{"192.168.1.5:7878": http.StatusOK, "192.168.1.6:7878": http.StatusMisdirectedRequest} {
		r := c.request(http.MethodGet, "/", nil)
		r.Host = host
		if w := c.serve(r); w.Code != want {
			t.Errorf("Host %q: %d, want %d", host, w.Code, want)
		}
	}
}

func TestCrossSitePost(t *testing.T) {
	acts := newFakeActions(dialog)
	s := newServer(t, Config{}, acts)
	s.Publish(snapshot())
	c := paired(t, s)
	other := paired(t, s) // another device, its own token
	for _, tc := range []struct {
		name, origin, csrf string
	}{
		{"from another site", "http://evil.example", c.csrf},
		{"from another port", "http://127.0.0.1:9999", c.csrf},
		{"from an opaque origin", "null", c.csrf},
		{"without a CSRF token", "http://" + testHost, ""},
		{"with another device's token", "http://" + testHost, other.csrf},
		{"with a token of another case", "http://" + testHost, strings.ToUpper(c.csrf)},
	} {
		for _, target := range []string{"/answer", "/click"} {
			form := answerForm(dialog.ID, "allow")
			form.Set("key", "break-start")
			r := c.request(http.MethodPost, target, form)
			r.Header.Set("Origin", tc.origin)
			r.Header.Set("X-Hud-CSRF", tc.csrf)
			if w := c.serve(r); w.Code != http.StatusForbidden {
				t.Errorf("POST %s %s: %d, want 403", target, tc.name, w.Code)
			}
		}
	}
	if calls, _, clicks := acts.record(); len(calls)+len(clicks) > 0 {
		t.Fatalf("refused posts reached the actions: %q %q", calls, clicks)
	}
	if other.csrf == c.csrf {
		t.Fatal("two devices share a CSRF token")
	}
	if w := c.post("/answer", answerForm(dialog.ID, "deny")); w.Code != http.StatusOK {
		t.Fatalf("the page's own post: %d %s", w.Code, w.Body)
	}
	if _, answered, _ := acts.record(); len(answered) != 1 || answered[0] != "d1 deny" {
		t.Errorf("answered %q, want d1 deny", answered)
	}
}

func TestClick(t *testing.T) {
	acts := newFakeActions()
	s := newServer(t, Config{}, acts)
	s.Publish(snapshot())
	c := paired(t, s)
	for key, want := range map[string]int{"": 409, "Next break in 20m": 409, "break-stop": 409, "break-start": 200} {
		if w := c.post("/click", url.Values{"key": {key}}); w.Code != want {
			t.Errorf("POST /click %q: %d, want %d", key, w.Code, want)
		}
	}
	if _, _, clicks := acts.record(); len(clicks) != 1 || clicks[0] != "break-start" {
		t.Errorf("clicked %q, want break-start alone", clicks)
	}
}

var scriptSrc = regexp.MustCompile(`(?:^|;)\s*script-src ([^;]*)`)

func TestSecurityHeaders(t *testing.T) {
	s := newServer(t, Config{}, newFakeActions())
	c := paired(t, s)
	anon := newClient(t, s.Handler())
	for name, w := range map[string]interface{ Header() http.Header }{
		"the page": c.get("/"), "the pairing page": anon.get("/pair"), "the unpaired page": anon.get("/"),
	} {
		csp := w.Header().Get("Content-Security-Policy")
		m := scriptSrc.FindStringSubmatch(csp)
		if m == nil || !strings.Contains(m[1], "'self'") || strings.Contains(m[1], "unsafe") {
			t.Errorf("%s: Content-Security-Policy %q, want script-src 'self' and nothing unsafe", name, csp)
		}
		for _, h := range []string{"X-Content-Type-Options", "Referrer-Policy"} {
			if w.Header().Get(h) == "" {
				t.Errorf("%s: no %s", name, h)
			}
		}
	}
	page := c.get("/").Body.String() + anon.get("/pair").Body.String()
	if regexp.MustCompile(`<script(?:\s[^>]*)?>\s*[^<\s]|<script>|\son[a-z]+=`).MatchString(page) {
		t.Errorf("inline script or event handler in the page:\n%s", page)
	}
}
