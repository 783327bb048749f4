package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/capacitor-hud/hud/hud/answer"
)

// Actions are what the page may do, through the tray's own ways: answer a
// dialog (as its menu does, first answer wins), click a row of its
// section (a break's action).
type Actions interface {
	Answer(id, digest, choice string) (answer.Request, error)
	Click(key string)
}

// Server serves the page for a Config.
type Server struct {
	cfg     Config
	devices *Devices
	actions Actions
	logf    func(format string, args ...any)
	// csrfKey makes each device's CSRF token; new at every start.
	csrfKey []byte
	fails   *failLimiter
	// Timeline, when set, is the day's timeline as SVG.
	Timeline func() ([]byte, error)

	mu      sync.Mutex
	snap    Snapshot
	version uint64
	changed chan struct{} // closed and replaced on every Publish
	page    []byte        // the live part, rendered for version
	pageFor uint64
	url     string // the page's address, once it listens
}

// URL is the page's address as a browser opens it ("" until it listens).
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.url
}

// Bounds that keep a client from holding the server: connections open at
// once, a request's headers and body, how long each may take.
const (
	maxConns    = 256
	maxBody     = 16 << 10
	idleTimeout = 60 * time.Second
	// keepAlive is how often an idle event stream says it lives, so a
	// proxy does not drop it and a gone client is noticed.
	keepAlive = 30 * time.Second
)

// headerTimeout is how long a connection may take to send a request's
// headers (a variable for tests).
var headerTimeout = 5 * time.Second

// New returns a server for cfg, its files in dir (~/.capacitor/web: the
// paired devices), acting through actions.
func New(cfg Config, dir string, actions Actions, logf func(string, ...any)) (*Server, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	return &Server{cfg: cfg, devices: DevicesIn(dir), actions: actions, logf: logf,
		csrfKey: key, fails: newFailLimiter(), changed: make(chan struct{})}, nil
}

// Publish hands the server the picture the tray drew: every page open is
// brought up to date.
func (s *Server) Publish(snap Snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if snap.equal(s.snap) {
		return
	}
	s.snap = snap
	s.version++
	close(s.changed)
	s.changed = make(chan struct{})
}

// Serve serves until ctx ends; ready, when set, is called with the address
// once it listens.
func (s *Server) Serve(ctx context.Context, ready func(addr net.Addr)) error {
	ln, err := s.cfg.listener(ctx, maxConns)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: headerTimeout,
		ReadTimeout:       headerTimeout + 5*time.Second,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    8 << 10,
		ConnState:         trackConn,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	s.mu.Lock()
	s.url = s.cfg.pageURL(ln.Addr())
	s.mu.Unlock()
	if ready != nil {
		ready(ln.Addr())
	}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
		srv.Close()
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Handler is the page's routes, every one but pairing behind a device.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /pair", s.pairPage)
	mux.HandleFunc("POST /pair", s.pair)
	mux.HandleFunc("GET /static/{file}", s.static)
	mux.HandleFunc("GET /favicon.ico", favicon)
	mux.Handle("GET /{$}", s.paired(s.index))
	mux.Handle("GET /events", s.paired(s.events))
	mux.Handle("GET /timeline.svg", s.paired(s.timeline))
	mux.Handle("POST /answer", s.paired(s.action(s.answer)))
	mux.Handle("POST /click", s.paired(s.action(s.click)))
	return s.guard(mux)
}

// guard sets the headers every answer carries and refuses a Host the
// page is not served as (a DNS rebinding).
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-store")
		if !s.hostAllowed(r.Host) {
			http.Error(w, "hud serves this page under another name", http.StatusMisdirectedRequest)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		next.ServeHTTP(w, r)
	})
}

// hostAllowed says whether host is a name the page is served as: a
// loopback name, the listening host, the configured URL's host.
func (s *Server) hostAllowed(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if loopback(host) {
		return true
	}
	if h, _, err := net.SplitHostPort(s.cfg.listen()); err == nil && h != "" && strings.EqualFold(h, host) {
		return true
	}
	if u, err := url.Parse(s.cfg.URL); err == nil && u.Host != "" && strings.EqualFold(u.Hostname(), host) {
		return true
	}
	return false
}

// deviceKey is the context key of a request's paired device, from its
// cookie.
type deviceKey struct{}

// paired lets through a request from a paired device; any other is
// refused, and counted against its address.
func (s *Server) paired(next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ip := clientIP(r)
		if s.fails.blocked(ip) {
			tooMany(w)
			return
		}
		c, _ := r.Cookie(s.cookieName())
		token := ""
		if c != nil {
			token = c.Value
		}
		id, err := s.devices.Device(token)
		if err != nil {
			if !errors.Is(err, ErrNotPaired) {
				s.logf("web: %v", err)
			}
			s.fails.fail(ip)
			s.notPaired(w, r)
			return
		}
		next(w, r.WithContext(context.WithValue(r.Context(), deviceKey{}, id)))
	})
}

// action checks what makes a POST the page's own: its CSRF token, and an
// Origin, when the browser sends one, of the page itself.
func (s *Server) action(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, _ := r.Context().Value(deviceKey{}).(string)
		if !s.sameOrigin(r) || !hmac.Equal([]byte(r.Header.Get("X-Hud-CSRF")), []byte(s.csrf(id))) {
			http.Error(w, "refused: not from hud's page", http.StatusForbidden)
			return
		}
		next(w, r)
	}
}

// csrf is the device's CSRF token for this run of the server.
func (s *Server) csrf(device string) string {
	m := hmac.New(sha256.New, s.csrfKey)
	m.Write([]byte(device))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// sameOrigin says whether r's Origin, when it has one, is the page's.
func (s *Server) sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		// Browsers send Origin with every cross-site POST; its absence is
		// a same-origin request (or no browser: the CSRF token decides).
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && strings.EqualFold(u.Host, r.Host)
}

// cookieName is the device cookie's: the __Host- prefix, which binds it to
// this host and a secure origin, where the page is served over TLS.
func (s *Server) cookieName() string {
	if s.secure() {
		return "__Host-hud"
	}
	return "hud"
}

// secure says whether browsers reach the page over TLS: served so, or
// behind a proxy with an https URL.
func (s *Server) secure() bool {
	return s.cfg.TLS() || strings.HasPrefix(s.cfg.URL, "https://")
}

// clientIP is the address a request came from, without its port.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

func tooMany(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "60")
	http.Error(w, "too many tries: wait a minute", http.StatusTooManyRequests)
}
