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
		l.posts = append(l.posts, post{title, r.Header.Get("Priority"), r.Header.Get("Tags"), string(body), time.Now()})
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
		body: "Bash: npm test\nWaiting since " + start.Format("15:04") + " ("}
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
