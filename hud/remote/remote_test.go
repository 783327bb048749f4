package remote

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/internal/terminal"
	"github.com/capacitor-hud/hud/resolver"
)

var now = time.Date(2026, 11, 23, 10, 42, 0, 0, time.UTC)

func line(sessions ...string) string {
	return `{"version":1,"state":"waiting","sessions":[` + strings.Join(sessions, ",") + `],"hooks_problem":"","remotes":[]}`
}

const waiting = `{"session_id":"s1","state":"waiting","cwd":"/home/me/api","project_dir":"/home/me/api","project":"api","name":"","working_on":"run the tests","waiting_for":"Bash: npm test","agents":1,"pid":4242,"since":"2026-11-23T10:40:00.000Z","updated_at":"2026-11-23T10:41:00.000Z","source":"lock","host":"","tmux_pane":"%3","activity":null}`

func TestDecode(t *testing.T) {
	got, err := Decode([]byte(line(waiting)), "devbox", now)
	if err != nil {
		t.Fatal(err)
	}
	want := view.Session{
		Key: "remote:devbox:s1", SessionID: "s1", State: store.StateWaiting,
		Since: now.Add(-2 * time.Minute), UpdatedAt: now.Add(-time.Minute), Source: resolver.SourceLock,
		CWD: "/home/me/api", ProjectDir: "/home/me/api", WorkingOn: "run the tests", WaitingFor: "Bash: npm test",
		Subagents: 1, Hooked: true, Host: "devbox", Terminal: terminal.Terminal{TmuxPane: "%3"},
	}
	if len(got) != 1 || got[0] != want {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	if name := got[0].Name(); name != "devbox · api" {
		t.Errorf("name %q", name)
	}
}

func TestDecodeIsSafe(t *testing.T) {
	hostile := `{"session_id":"s\u001b]0;pwned\u0007","state":"working","cwd":"/x/\u001b[2Jevil\nline","project_dir":"/p\n{\"host\":\"\"}","name":"a\nb","working_on":"\u202eevil","waiting_for":"","agents":100000,"pid":1,"since":"2099-01-01T00:00:00.000Z","updated_at":"2099-01-01T00:00:00.000Z","source":"lock","tmux_pane":"-t;kill-server"}`
	unknown := `{"session_id":"s2","state":"exploding","cwd":"/y"}`
	got, err := Decode([]byte(line(hostile, unknown)), "devbox", now)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("got %d sessions, want the one with a known state", len(got))
	}
	s := got[0]
	for _, text := range []string{s.SessionID, s.CWD, s.ProjectDir, s.ClaudeName, s.WorkingOn, s.Name()} {
		if strings.ContainsAny(text, "\x1b\x07\n\u202e") {
			t.Errorf("%q holds a control character", text)
		}
	}
	if s.PID != 0 || s.TmuxPane != "" {
		t.Errorf("pid %d pane %q: a remote process is nothing to act on here, a pane must be a pane id", s.PID, s.TmuxPane)
	}
	if s.Subagents != 99 || !s.Since.Equal(now) || !s.UpdatedAt.Equal(now) {
		t.Errorf("agents %d since %v updated %v", s.Subagents, s.Since, s.UpdatedAt)
	}

	many := make([]string, MaxSessions+20)
	for i := range many {
		many[i] = strings.Replace(waiting, `"s1"`, fmt.Sprintf(`"s%d"`, i), 1)
	}
	if got, _ := Decode([]byte(line(many...)), "devbox", now); len(got) != MaxSessions {
		t.Errorf("%d sessions, want at most %d", len(got), MaxSessions)
	}
}

func TestDecodeVersions(t *testing.T) {
	for _, tt := range []struct {
		line string
		want string
	}{
		{`{"state":"idle","sessions":[],"hooks_problem":""}`, "too old"},
		{`{"version":2,"state":"idle","sessions":[]}`, "newer than this one (stream version 2, this hud reads 1)"},
		{`bash: hud: command not found`, "not JSON"},
	} {
		_, err := Decode([]byte(tt.line), "devbox", now)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.line, err, tt.want)
		}
	}
}

func TestClassify(t *testing.T) {
	r := config.Remote{Name: "devbox", Destination: "me@devbox"}
	for _, tt := range []struct {
		code    int
		stderr  string
		problem string
		detail  string
	}{
		{255, "ssh: connect to host devbox port 22: Connection refused\r\n", "", "ssh: connect to host devbox port 22: Connection refused"},
		{127, "bash: line 1: hud: command not found\n", "hud not found on the remote — install it there, or give its path: hud remote add --command ~/.local/bin/hud me@devbox", ""},
		{2, "flag provided but not defined: -watch\nusage: hud status\n", "the hud there is too old for remotes (its status stream has no version) — update it there", ""},
		{1, "hud: panic\x1b[31m\n", "", "the hud there stopped (exit status 1): hud: panic"},
	} {
		got := Down(r, Classify(tt.code, tt.stderr), now)
		if got.Problem != tt.problem || got.Detail != tt.detail || got.Up || got.Host != "devbox" {
			t.Errorf("exit %d: %+v\nwant problem %q detail %q", tt.code, got, tt.problem, tt.detail)
		}
	}
	r.Command = "/opt/hud/bin/hud"
	if got := Down(r, Classify(127, "sh: 1: /opt/hud/bin/hud: not found"), now); !strings.Contains(got.Problem, `as "/opt/hud/bin/hud"`) {
		t.Errorf("with a command: %q", got.Problem)
	}
}

func TestArgs(t *testing.T) {
	r := config.Remote{Name: "devbox", Destination: "devbox", Command: "~/.local/bin/hud"}
	got := SSH{ConnectTimeout: 5 * time.Second}.Args(r)
	want := []string{"ssh", "-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=5", "-o", "ServerAliveInterval=10", "-o", "ServerAliveCountMax=2",
		"--", "devbox", "~/.local/bin/hud status --watch --json"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	got = SSH{Command: "ssh -F /dev/null -p 2222"}.Args(config.Remote{Name: "b", Destination: "b"})
	if got[0] != "sh" || got[1] != "-c" || got[2] != `ssh -F /dev/null -p 2222 "$@"` || got[3] != "ssh -F /dev/null -p 2222" ||
		!slices.Equal(got[len(got)-3:], []string{"--", "b", "hud status --watch --json"}) {
		t.Errorf("with a command: %q", got)
	}
	if _, err := (SSH{}).Dial(context.Background(), config.Remote{Name: "x", Destination: "-oProxyCommand=touch /tmp/pwned"}); err == nil {
		t.Error("a destination that reads as an option was dialled")
	}
}

// fakeConn is a stream whose lines the test writes.
type fakeConn struct {
	r   *io.PipeReader
	w   *io.PipeWriter
	end chan error
}

func newFakeConn() *fakeConn {
	r, w := io.Pipe()
	return &fakeConn{r: r, w: w, end: make(chan error, 1)}
}

func (c *fakeConn) Stdout() io.Reader { return c.r }
func (c *fakeConn) Wait() error       { return <-c.end }

// hangUp ends the stream as a lost connection does.
func (c *fakeConn) hangUp(err error) {
	c.end <- err
	c.w.Close()
}

// fakeClock hands out waits the test releases, and records them.
type fakeClock struct {
	mu     sync.Mutex
	waits  []time.Duration
	fire   chan time.Time
	waited chan time.Duration
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.waits = append(c.waits, d)
	c.mu.Unlock()
	c.waited <- d
	return c.fire
}

func TestWatchReconnectsWithBackoff(t *testing.T) {
	conns := make(chan *fakeConn)
	dials := make(chan struct{}, 16)
	dial := func(ctx context.Context, r config.Remote) (Conn, error) {
		dials <- struct{}{}
		select {
		case c := <-conns:
			if c == nil {
				return nil, &Unreachable{Detail: "Connection refused"}
			}
			go func() { <-ctx.Done(); c.hangUp(errors.New("killed")) }()
			return c, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	clock := &fakeClock{fire: make(chan time.Time), waited: make(chan time.Duration)}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan Update)
	r := config.Remote{Name: "devbox", Destination: "devbox"}
	stopped := make(chan struct{})
	go func() {
		Watch(ctx, r, Options{Dial: dial, Now: func() time.Time { return now }, After: clock.After,
			MinBackoff: time.Second, MaxBackoff: 4 * time.Second}, out)
		close(stopped)
	}()

	// Three failures in a row: the waits double up to the cap.
	for i, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second} {
		<-dials
		conns <- nil
		u := <-out
		if u.Remote.Up || u.Remote.Detail != "Connection refused" || !u.Remote.Since.Equal(now) {
			t.Fatalf("try %d: %+v", i, u.Remote)
		}
		if got := <-clock.waited; got != want {
			t.Fatalf("try %d: waited %s, want %s", i, got, want)
		}
		clock.fire <- now
	}
	// Then it comes up: its lines arrive as they come.
	<-dials
	c := newFakeConn()
	conns <- c
	go fmt.Fprintln(c.w, line(waiting))
	u := <-out
	if !u.Remote.Up || len(u.Sessions) != 1 || u.Sessions[0].Host != "devbox" {
		t.Fatalf("live: %+v", u)
	}
	// A lost connection shows at once, and the backoff starts over.
	c.hangUp(&Unreachable{Detail: "Broken pipe"})
	if u := <-out; u.Remote.Up || u.Remote.Detail != "Broken pipe" {
		t.Fatalf("lost: %+v", u.Remote)
	}
	if got := <-clock.waited; got != time.Second {
		t.Errorf("after a live stream waited %s, want the minimum", got)
	}
	cancel()
	<-stopped
}

func TestWatchCutsALongLine(t *testing.T) {
	c := newFakeConn()
	dial := func(ctx context.Context, r config.Remote) (Conn, error) {
		go func() { <-ctx.Done(); c.hangUp(errors.New("killed")) }()
		return c, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan Update)
	go Watch(ctx, config.Remote{Name: "devbox", Destination: "devbox"}, Options{Dial: dial, After: func(time.Duration) <-chan time.Time { return nil }}, out)
	go func() {
		chunk := strings.Repeat("x", 1<<20)
		for i := 0; i < MaxLine>>20+1; i++ {
			if _, err := io.WriteString(c.w, chunk); err != nil {
				return
			}
		}
	}()
	u := <-out
	if u.Remote.Up || !strings.Contains(u.Remote.Detail, "too long") {
		t.Errorf("got %+v, want the stream cut", u.Remote)
	}
}

func TestFetchDoesNotHang(t *testing.T) {
	silent := func(ctx context.Context, r config.Remote) (Conn, error) {
		c := newFakeConn()
		go func() { <-ctx.Done(); c.hangUp(errors.New("killed")) }()
		return c, nil
	}
	start := time.Now()
	u := Fetch(context.Background(), config.Remote{Name: "devbox", Destination: "devbox"}, Options{Dial: silent}, 50*time.Millisecond)
	if u.Remote.Up || u.Remote.Detail != "no answer within 50ms" {
		t.Errorf("got %+v", u.Remote)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s", d)
	}

	answers := func(ctx context.Context, r config.Remote) (Conn, error) {
		c := newFakeConn()
		go fmt.Fprintln(c.w, line(waiting))
		go func() { <-ctx.Done(); c.hangUp(errors.New("killed")) }()
		return c, nil
	}
	u = Fetch(context.Background(), config.Remote{Name: "devbox", Destination: "devbox"}, Options{Dial: answers}, 5*time.Second)
	if !u.Remote.Up || len(u.Sessions) != 1 {
		t.Errorf("got %+v", u)
	}
}
