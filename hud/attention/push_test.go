package attention

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
)

// after is push_after in these tests: short, so they run in real time.
const after = 150 * time.Millisecond

// post is one POST the listener got, and when.
type post struct {
	title, priority, tags, body string
	at                          time.Time
	click                       string
}

// listener is a loopback HTTP server that keeps what it was sent.
type listener struct {
	*httptest.Server
	mu    sync.Mutex
	posts []post
}

func newListener(t *testing.T) *listener {
	l := &listener{}
	l.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		title, err := new(mime.WordDecoder).DecodeHeader(r.Header.Get("Title"))
		if err != nil || r.Method != http.MethodPost {
			t.Errorf("%s with title %q: %v", r.Method, r.Header.Get("Title"), err)
		}
		l.mu.Lock()
		l.posts = append(l.posts, post{title, r.Header.Get("Priority"), r.Header.Get("Tags"), string(body), time.Now(), r.Header.Get("Click")})
		l.mu.Unlock()
	}))
	t.Cleanup(l.Close)
	return l
}

func (l *listener) got() []post {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]post(nil), l.posts...)
}

// person is a fake idle source: how long since the last key press.
type person struct{ lastInput atomic.Int64 }

func (p *person) types()                  { p.lastInput.Store(time.Now().UnixNano()) }
func (p *person) leftAgo(d time.Duration) { p.lastInput.Store(time.Now().Add(-d).UnixNano()) }
func (p *person) idle(context.Context) (time.Duration, error) {
	return time.Since(time.Unix(0, p.lastInput.Load())), nil
}

// logs keeps the log lines.
type logs struct {
	mu    sync.Mutex
	lines []string
}

func (l *logs) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

func waitingSession(since time.Time) view.Session {
	return view.Session{Key: "k1", SessionID: "k1", State: store.StateWaiting, Since: since,
		ProjectDir: "/home/dev/api", ClaudeName: "auth refactor", WaitingFor: "Bash: npm test"}
}

func newPush(t *testing.T, url string, p *person, log *logs) *Push {
	cfg := config.Default().Notifications
	cfg.PushURL, cfg.PushAfter = url, after
	push := NewPush(cfg, p.idle, PostNtfy, time.Now, log.logf)
	push.RetryAfter = 20 * time.Millisecond
	t.Cleanup(push.Close)
	return push
}

// loop calls Update as the tray's loop would, every few milliseconds, for
// d, with the sessions sessions() gives.
func loop(push *Push, d time.Duration, sessions func() []view.Session) {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		push.Update(time.Now(), sessions())
	}
}

func TestPushOncePerWaitWhenAway(t *testing.T) {
	l := newListener(t)
	p := &person{}
	p.leftAgo(time.Hour)
	log := &logs{}
	push := newPush(t, l.URL+"/hud-topic", p, log)
	start := time.Now()
	s := waitingSession(start)

	loop(push, 4*after, func() []view.Session { return []view.Session{s} })
	got := l.got()
	if len(got) != 1 {
		t.Fatalf("got %d pushes, want exactly 1: %+v\n%s", len(got), got, log)
	}
	if waited := got[0].at.Sub(start); waited < after {
		t.Errorf("pushed after %v, before push_after (%v)", waited, after)
	}
	want := post{title: "api · auth refactor needs you", priority: "high", tags: "hourglass_flowing_sand",
		body: "permission for Bash\nWaiting since " + start.Format("15:04") + " ("}
	if g := got[0]; g.title != want.title || g.priority != want.priority || g.tags != want.tags || !strings.HasPrefix(g.body, want.body) {
		t.Errorf("push = %+v\nwant %+v…", g, want)
	}

	// The session answered, then waits again: a new wait, a new push.
	push.Update(time.Now(), []view.Session{{Key: "k1", State: store.StateWorking, Since: time.Now()}})
	again := waitingSession(time.Now())
	loop(push, 3*after, func() []view.Session { return []view.Session{again} })
	if got := l.got(); len(got) != 2 {
		t.Errorf("after a second wait: %d pushes, want 2", len(got))
	}
}

func TestNoPushWhileAtTheKeyboard(t *testing.T) {
	l := newListener(t)
	p := &person{}
	p.leftAgo(time.Hour)
	log := &logs{}
	push := newPush(t, l.URL, p, log)
	s := waitingSession(time.Now())
	// The person typed in between (since the wait began): idle is short
	// when the push comes due.
	p.types()
	loop(push, 3*after, func() []view.Session {
		p.types() // still typing
		return []view.Session{s}
	})
	if got := l.got(); len(got) != 0 {
		t.Fatalf("pushed while the person typed: %+v", got)
	}
	// They leave, the session still waits: one push, push_after later.
	loop(push, 3*after, func() []view.Session { return []view.Session{s} })
	if got := l.got(); len(got) != 1 {
		t.Errorf("after leaving: %d pushes, want 1\n%s", len(got), log)
	}
}

func TestNoPushAfterTheWaitEnded(t *testing.T) {
	const after = 3 * after // room for a slow machine between the wait and its end
	l := newListener(t)
	p := &person{}
	p.leftAgo(time.Hour)
	push := newPush(t, l.URL, p, &logs{})
	push.Configure(config.Notifications{PushURL: l.URL, PushAfter: after})
	s := waitingSession(time.Now())
	loop(push, after/10, func() []view.Session { return []view.Session{s} })
	done := s
	done.State, done.Since = store.StateWorking, time.Now()
	loop(push, 2*after, func() []view.Session { return []view.Session{done} })
	// Gone from the list altogether counts as ended too.
	s2 := waitingSession(time.Now())
	s2.Key = "k2"
	loop(push, after/10, func() []view.Session { return []view.Session{s2} })
	loop(push, 2*after, func() []view.Session { return nil })
	if got := l.got(); len(got) != 0 {
		t.Fatalf("pushed for waits that had ended: %+v", got)
	}
}

func TestNoPushWithoutIdleTime(t *testing.T) {
	l := newListener(t)
	log := &logs{}
	cfg := config.Default().Notifications
	cfg.PushURL, cfg.PushAfter = l.URL, after
	push := NewPush(cfg, func(context.Context) (time.Duration, error) { return 0, fmt.Errorf("no X display") },
		PostNtfy, time.Now, log.logf)
	t.Cleanup(push.Close)
	s := waitingSession(time.Now())
	loop(push, 3*after, func() []view.Session { return []view.Session{s} })
	if got := l.got(); len(got) != 0 {
		t.Fatalf("pushed without knowing the person was away: %+v", got)
	}
	if !strings.Contains(log.String(), "cannot tell whether you are away") {
		t.Errorf("log does not say why no push came:\n%s", log)
	}
}

func TestNoPushUnderDoNotDisturb(t *testing.T) {
	l := newListener(t)
	p := &person{}
	p.leftAgo(time.Hour)
	log := &logs{}
	push := newPush(t, l.URL, p, log)
	push.Quiet = func(context.Context) (string, error) { return "mako is in its do-not-disturb mode", nil }
	s := waitingSession(time.Now())
	loop(push, 3*after, func() []view.Session { return []view.Session{s} })
	if got := l.got(); len(got) != 0 {
		t.Fatalf("pushed under Do Not Disturb: %+v", got)
	}
	if !strings.Contains(log.String(), "away push held back: mako is in its do-not-disturb mode") {
		t.Errorf("log does not say why no push came:\n%s", log)
	}
}

// A URL that refuses connections: the push is retried and logged, the
// token in the URL never, and the loop's Update costs what it costs
// without a push URL.
func TestRefusedPushCostsTheLoopNothing(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String() + "/hud?auth=tk_secret"
	ln.Close()
	p := &person{}
	p.leftAgo(time.Hour)

	measure := func(url string) (time.Duration, *logs) {
		log := &logs{}
		push := newPush(t, url, p, log)
		s := waitingSession(time.Now().Add(-time.Hour))
		var worst time.Duration
		for end := time.Now().Add(4 * after); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
			t0 := time.Now()
			push.Update(time.Now(), []view.Session{s})
			worst = max(worst, time.Since(t0))
		}
		push.Close()
		return worst, log
	}
	without, _ := measure("")
	with, log := measure(refused)
	t.Logf("worst Update: %v without a push URL, %v with one that refuses connections", without, with)
	if with > 20*time.Millisecond {
		t.Errorf("an Update took %v with a refusing push URL", with)
	}
	out := log.String()
	if !strings.Contains(out, "away push failed (attempt 2") || !strings.Contains(out, "connection refused") {
		t.Errorf("retries not logged:\n%s", out)
	}
	if strings.Contains(out, "tk_secret") || strings.Contains(out, "/hud") {
		t.Errorf("the log holds the URL:\n%s", out)
	}
}

// A push URL set in the settings while a session waits starts following
// that wait; emptied, it stops.
func TestPushFollowsTheSettings(t *testing.T) {
	l := newListener(t)
	p := &person{}
	p.leftAgo(time.Hour)
	push := newPush(t, "", p, &logs{})
	s := waitingSession(time.Now())
	loop(push, 2*after, func() []view.Session { return []view.Session{s} })
	if got := l.got(); len(got) != 0 {
		t.Fatalf("pushed with no URL: %+v", got)
	}
	push.Configure(config.Notifications{PushURL: l.URL, PushAfter: after})
	loop(push, 3*after, func() []view.Session { return []view.Session{s} })
	if got := l.got(); len(got) != 1 {
		t.Fatalf("after setting the URL: %d pushes, want 1", len(got))
	}
	push.Configure(config.Notifications{PushAfter: after})
	s2 := waitingSession(time.Now())
	s2.Key = "k2"
	loop(push, 3*after, func() []view.Session { return []view.Session{s, s2} })
	if got := l.got(); len(got) != 1 {
		t.Errorf("after emptying the URL: %d pushes, want still 1", len(got))
	}
}

// A remote machine's session leaves the list while its connection is down
// and comes back on the same wait: that wait was pushed already.
func TestNoSecondPushForAWaitThatCameBack(t *testing.T) {
	l := newListener(t)
	p := &person{}
	p.leftAgo(time.Hour)
	push := newPush(t, l.URL, p, &logs{})
	s := waitingSession(time.Now())
	s.Host = "devbox"
	loop(push, 3*after, func() []view.Session { return []view.Session{s} })
	if got := l.got(); len(got) != 1 || got[0].title != "devbox · api · auth refactor needs you" {
		t.Fatalf("pushes %+v, want one for devbox's session", got)
	}
	loop(push, after, func() []view.Session { return nil })
	loop(push, 3*after, func() []view.Session { return []view.Session{s} })
	if got := l.got(); len(got) != 1 {
		t.Errorf("the wait that came back was pushed again: %d pushes", len(got))
	}
}

// The push names the session and the kind of wait, never the dialog's
// subject (a command with a token in it), unless push_detail is
// "subject". A setting changed while the session waits applies to its
// push.
func TestPushSaysWhatTheSettingAllows(t *testing.T) {
	const command = "curl -H 'Authorization: Bearer s3cr3t' https://api.example/v1/deploy"
	kindOnly := []string{"curl", "Bearer", "s3cr3t", "api.example", "deploy"}
	for _, tc := range []struct {
		name   string
		detail string
		body   string   // the body's first line
		never  []string // in neither the title nor the body
	}{
		{"default", config.Default().Notifications.PushDetail, "permission for Bash", kindOnly},
		{"session", config.PushSession, "permission for Bash", kindOnly},
		{"no value at all", "", "permission for Bash", kindOnly},
		{"subject", config.PushSubject, "Bash: " + command, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newListener(t)
			p := &person{}
			p.leftAgo(time.Hour)
			log := &logs{}
			push := newPush(t, l.URL, p, log)
			cfg := config.Default().Notifications
			cfg.PushURL, cfg.PushAfter, cfg.PushDetail = l.URL, after, tc.detail
			s := waitingSession(time.Now())
			s.WaitingFor = "Bash: " + command
			// Set while the session waits, before its push is due.
			push.Update(time.Now(), []view.Session{s})
			push.Configure(cfg)
			loop(push, 3*after, func() []view.Session { return []view.Session{s} })
			got := l.got()
			if len(got) != 1 {
				t.Fatalf("got %d pushes, want 1\n%s", len(got), log)
			}
			g := got[0]
			if g.title != "api · auth refactor needs you" {
				t.Errorf("title %q, want the session's name", g.title)
			}
			if first, _, _ := strings.Cut(g.body, "\n"); first != tc.body {
				t.Errorf("body %q, want it to start with %q", g.body, tc.body)
			}
			for _, word := range tc.never {
				if strings.Contains(g.title+"\n"+g.body, word) || strings.Contains(log.String(), word) {
					t.Errorf("%q left the machine or reached the log: title %q, body %q\n%s", word, g.title, g.body, log)
				}
			}
		})
	}
}

// A push server that answers with a redirect gets no second chance at the
// message, nor does the host it names: the redirect is not followed, and
// the push fails like any answer that is not 2xx, with the URL never in an
// error or the log.
func TestPushFollowsNoRedirect(t *testing.T) {
	elsewhere := newListener(t)
	var asked atomic.Int32
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		http.Redirect(w, r, elsewhere.URL+"/collect", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirecting.Close)
	pushURL := redirecting.URL + "/hud?auth=tk_secret"

	err := PostNtfy(context.Background(), pushURL, Message{Title: "api needs you", Body: "permission for Bash"})
	if err == nil || !strings.Contains(err.Error(), "the server answered 307 Temporary Redirect") {
		t.Errorf("PostNtfy = %v, want the 307 as an error", err)
	} else if strings.Contains(err.Error(), "tk_secret") || strings.Contains(err.Error(), "/hud") {
		t.Errorf("the error holds the URL: %v", err)
	}

	p := &person{}
	p.leftAgo(time.Hour)
	log := &logs{}
	push := newPush(t, pushURL, p, log)
	s := waitingSession(time.Now())
	loop(push, 4*after, func() []view.Session { return []view.Session{s} })
	push.Close()
	if got := elsewhere.got(); len(got) != 0 {
		t.Errorf("the redirect was followed: the other server got %+v", got)
	}
	if n := asked.Load(); n < 3 {
		t.Errorf("the push server was asked %d times, want the first POST and its retries", n)
	}
	out := log.String()
	if !strings.Contains(out, "away push failed (attempt 1") || !strings.Contains(out, "307") {
		t.Errorf("the failure is not logged:\n%s", out)
	}
	if strings.Contains(out, "tk_secret") || strings.Contains(out, "/hud") || strings.Contains(out, "/collect") {
		t.Errorf("the log holds a URL:\n%s", out)
	}
}

// With the page served, a tap on the push opens it at the session.
func TestPushLinksToThePage(t *testing.T) {
	l := newListener(t)
	p := &person{}
	p.leftAgo(time.Hour)
	log := &logs{}
	push := newPush(t, l.URL+"/hud-topic", p, log)
	push.Link = func(key string) string { return "https://box.example.ts.net/#s-" + key }
	s := waitingSession(time.Now())
	loop(push, 3*after, func() []view.Session { return []view.Session{s} })
	got := l.got()
	if len(got) != 1 || got[0].click != "https://box.example.ts.net/#s-k1" {
		t.Fatalf("pushes %+v, want one with Click at the session\n%s", got, log)
	}
}
