package web

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/assets"
	"github.com/capacitor-hud/hud/hud/answer"
	"github.com/capacitor-hud/hud/hud/text"
)

//go:embed templates/page.html
var templatesFS embed.FS

//go:embed static
var staticFS embed.FS

var pages = template.Must(template.ParseFS(templatesFS, "templates/page.html"))

// live is what the live part of the page is drawn from.
type live struct {
	Snapshot
	Version uint64
}

// liveHTML is the live part for the current snapshot, drawn once per
// version whatever the number of pages open.
func (s *Server) liveHTML() ([]byte, uint64, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.page == nil || s.pageFor != s.version {
		var b bytes.Buffer
		if err := pages.ExecuteTemplate(&b, "live", live{s.snap, s.version}); err != nil {
			s.logf("web: drawing the page: %v", err)
		}
		s.page, s.pageFor = b.Bytes(), s.version
	}
	return s.page, s.version, s.changed
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	id, _ := r.Context().Value(deviceKey{}).(string)
	part, _, _ := s.liveHTML()
	var b bytes.Buffer
	err := pages.ExecuteTemplate(&b, "page", struct {
		CSRF string
		Live template.HTML
	}{s.csrf(id), template.HTML(part)})
	if err != nil {
		http.Error(w, "drawing the page failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

// events streams the live part each time it changes, as server-sent
// events; nothing is sent while nothing changes but a keep-alive comment.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	rc := http.NewResponseController(w)
	// The server's read deadline bounds a request's arrival; a stream
	// lives on, ended by its client or a failed write.
	rc.SetReadDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	ping := time.NewTicker(keepAlive)
	defer ping.Stop()
	sent, first := uint64(0), true
	for {
		part, version, changed := s.liveHTML()
		if version != sent || first {
			first = false
			rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := w.Write(event("update", part)); err != nil {
				return
			}
			flusher.Flush()
			sent = version
		}
		select {
		case <-r.Context().Done():
			return
		case <-changed:
		case <-ping.C:
			rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := w.Write([]byte(": ping\n\n")); err != nil {
				return
			}
			flusher.Flush()
		}
	}
}

// lineBreaks are what ends a line of an event stream: CR LF, LF, and CR
// alone.
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// event is one server-sent event: each line of data after "data: ". A
// browser ends a line at a CR alone too, so data is split there as well:
// a CR left inside a line would start a line of its own, one that text
// from a session could write ("event: …", "retry: …"), losing the rest of
// the line's markup. An HTML parser reads CR as LF, so the page is the
// same.
func event(name string, data []byte) []byte {
	var b bytes.Buffer
	b.WriteString("event: " + name + "\n")
	for line := range strings.Lines(lineBreaks.Replace(string(data))) {
		b.WriteString("data: " + strings.TrimSuffix(line, "\n") + "\n")
	}
	b.WriteString("\n")
	return b.Bytes()
}

// answer gives a dialog's choice, as the tray's menu does: the first
// answer wins; a dialog answered or ended meanwhile is refused, and the
// page says so.
func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "refused: "+err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	id, digest, choice := r.PostForm.Get("id"), r.PostForm.Get("digest"), r.PostForm.Get("choice")
	if id == "" || choice == "" {
		http.Error(w, "refused: no dialog or no choice named", http.StatusBadRequest)
		return
	}
	req, err := s.actions.Answer(id, digest, choice)
	switch {
	case errors.Is(err, answer.ErrStale):
		http.Error(w, "Too late: that dialog was answered or ended already. Nothing was sent.", http.StatusConflict)
		return
	case err != nil:
		http.Error(w, "Refused: "+text.Line(err.Error(), 200), http.StatusConflict)
		return
	}
	c, _ := req.Choice(choice)
	fmt.Fprintf(w, "Answered %q: %s\n", c.Label, text.Line(req.Subject, 80))
}

// click acts on a row of the menu's section, as a click in the menu does.
func (s *Server) click(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, "refused: "+err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	key := r.PostForm.Get("key")
	s.mu.Lock()
	known := false
	for _, a := range s.snap.Section {
		known = known || (a.Key != "" && a.Key == key)
	}
	s.mu.Unlock()
	if !known {
		http.Error(w, "Too late: that action is no longer offered.", http.StatusConflict)
		return
	}
	s.actions.Click(key)
	fmt.Fprintln(w, "Done.")
}

func (s *Server) timeline(w http.ResponseWriter, r *http.Request) {
	if s.Timeline == nil {
		http.NotFound(w, r)
		return
	}
	svg, err := s.Timeline()
	if err != nil {
		s.logf("web: the timeline: %v", err)
		http.Error(w, "no timeline", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "image/svg+xml")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Write(svg)
}

func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	b, err := staticFS.ReadFile("static/" + name)
	if err != nil || strings.Contains(name, "/") {
		http.NotFound(w, r)
		return
	}
	switch {
	case strings.HasSuffix(name, ".js"):
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	case strings.HasSuffix(name, ".css"):
		w.Header().Set("Content-Type", "text/css; charset=utf-8")
	}
	w.Write(b)
}

func (s *Server) pairPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	pages.ExecuteTemplate(w, "pair", nil)
}

// pair spends a pairing secret on this browser: it gets the device
// cookie.
func (s *Server) pair(w http.ResponseWriter, r *http.Request) {
	ip := clientIP(r)
	if s.fails.blocked(ip) {
		tooMany(w)
		return
	}
	if !s.sameOrigin(r) {
		http.Error(w, "refused: not from hud's page", http.StatusForbidden)
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, "refused: "+err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	token, id, err := s.devices.Pair(r.PostForm.Get("secret"), text.Line(r.UserAgent(), 120))
	if err != nil {
		if !errors.Is(err, ErrNotPaired) {
			s.logf("web: pairing: %v", err)
		}
		s.fails.fail(ip)
		http.Error(w, "This pairing link is used, expired or wrong. Run hud serve --pair again.", http.StatusForbidden)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: token, Path: "/", MaxAge: 400 * 24 * 3600,
		HttpOnly: true, Secure: s.secure(), SameSite: http.SameSiteStrictMode})
	s.logf("web: paired a device (%s)", id)
	fmt.Fprintln(w, "Paired.")
}

func (s *Server) notPaired(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusUnauthorized)
	if r.Method == http.MethodGet && r.URL.Path == "/" {
		pages.ExecuteTemplate(w, "unpaired", nil)
		return
	}
	fmt.Fprintln(w, "Not paired: run hud serve --pair on the machine and open its link.")
}

// favicon is the tray's idle icon: a browser asks for it on every page.
func favicon(w http.ResponseWriter, r *http.Request) {
	png, err := assets.Icon(assets.IconIdle, 0, false)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "max-age=86400")
	w.Write(png)
}
