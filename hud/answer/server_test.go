package answer

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// tray serves a socket in a temp home for one test.
func tray(t *testing.T) (home string, s *Server, changes *atomic.Int32) {
	t.Helper()
	home, err := os.MkdirTemp("", "hud-ans-") // short: a socket path has a ~104-byte limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	changes = new(atomic.Int32)
	s, err = Listen(SocketPath(home), os.Getuid(), t.Logf, func() { changes.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return home, s, changes
}

func bashRequest(t *testing.T, session string) Request {
	t.Helper()
	req, err := NewRequest(Dialog{Session: session, Tool: "Bash", Input: json.RawMessage(`{"command":"ls"}`)}, time.Now(), os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// offer connects and offers req in the background; the result arrives on
// the channel.
type offered struct {
	choice string
	err    error
	took   time.Duration
}

func offer(t *testing.T, home string, req Request, wait time.Duration) <-chan offered {
	t.Helper()
	h, err := Connect(home)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan offered, 1)
	go func() {
		defer h.Close()
		start := time.Now()
		choice, err := h.Offer(req, wait)
		out <- offered{choice, err, time.Since(start)}
	}()
	return out
}

// waitPending waits until the tray holds n requests.
func waitPending(t *testing.T, s *Server, n int) []Request {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		p := s.Pending()
		if len(p) == n {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tray holds %d requests, want %d", len(p), n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestAnswerReachesTheHook(t *testing.T) {
	home, s, _ := tray(t)
	req := bashRequest(t, "s1")
	got := offer(t, home, req, 10*time.Second)
	p := waitPending(t, s, 1)
	if p[0].ID != req.ID || p[0].Subject != "Bash: ls" {
		t.Fatalf("pending %+v", p[0])
	}
	listed, err := List(home)
	if err != nil || len(listed) != 1 || listed[0].ID != req.ID {
		t.Fatalf("List = %v, %v", listed, err)
	}
	answered, err := Send(home, Reply{ID: req.ID, Session: "s1", Choice: Allow})
	if err != nil || answered.ID != req.ID {
		t.Fatalf("Send = %+v, %v", answered, err)
	}
	if r := <-got; r.err != nil || r.choice != Allow {
		t.Fatalf("the hook got %q, %v", r.choice, r.err)
	}
	waitPending(t, s, 0)
}

// A repeated or late answer never reaches a request it was not given for.
func TestStaleAnswers(t *testing.T) {
	home, s, _ := tray(t)
	first := bashRequest(t, "s1")
	got := offer(t, home, first, 10*time.Second)
	waitPending(t, s, 1)
	if _, err := s.Answer(Reply{ID: first.ID, Choice: Deny}); err != nil {
		t.Fatal(err)
	}
	if r := <-got; r.choice != Deny {
		t.Fatalf("the hook got %q, %v", r.choice, r.err)
	}
	// The same click again: nothing waits for it.
	if _, err := Send(home, Reply{ID: first.ID, Choice: Allow}); err == nil {
		t.Fatal("a repeated answer was accepted")
	}

	// The next dialog of the session; an answer naming the first one is
	// refused and this one still waits.
	second := bashRequest(t, "s1")
	got2 := offer(t, home, second, 10*time.Second)
	waitPending(t, s, 1)
	if _, err := s.Answer(Reply{ID: first.ID, Choice: Allow}); !errors.Is(err, ErrStale) {
		t.Fatalf("a late answer: %v, want ErrStale", err)
	}
	for _, bad := range []Reply{
		{ID: second.ID, Digest: first.Digest, Choice: Allow},
		{ID: second.ID, Session: "s2", Choice: Allow},
		{ID: second.ID, Choice: "Yes"},
	} {
		if _, err := s.Answer(bad); err == nil {
			t.Errorf("%+v was accepted", bad)
		}
	}
	if p := s.Pending(); len(p) != 1 || p[0].ID != second.ID {
		t.Fatalf("after refused answers, pending %v", p)
	}
	// A third dialog supersedes the second: its hook is let go at once.
	third := bashRequest(t, "s1")
	got3 := offer(t, home, third, 10*time.Second)
	if r := <-got2; !errors.Is(r.err, ErrEnded) || r.took > time.Second {
		t.Fatalf("the superseded hook: %q, %v after %v", r.choice, r.err, r.took)
	}
	if p := waitPending(t, s, 1); p[0].ID != third.ID {
		t.Fatalf("pending %v", p)
	}
	s.EndWhere(func(r Request) bool { return r.ID == third.ID })
	if r := <-got3; !errors.Is(r.err, ErrEnded) {
		t.Fatalf("an ended request's hook: %q, %v", r.choice, r.err)
	}
	if _, err := s.Answer(Reply{ID: third.ID, Choice: Allow}); !errors.Is(err, ErrStale) {
		t.Fatalf("an answer after the session went on: %v, want ErrStale", err)
	}
}

// A tray that quits mid-wait lets the hook go at once.
func TestTrayDiesMidWait(t *testing.T) {
	home, s, _ := tray(t)
	got := offer(t, home, bashRequest(t, "s1"), time.Minute)
	waitPending(t, s, 1)
	s.Close()
	select {
	case r := <-got:
		if !errors.Is(r.err, ErrEnded) {
			t.Fatalf("got %q, %v", r.choice, r.err)
		}
	case <-time.After(time.Second):
		t.Fatal("the hook still waits a second after the tray quit")
	}
	if _, err := os.Lstat(SocketPath(home)); !os.IsNotExist(err) {
		t.Errorf("the socket outlived the tray: %v", err)
	}
}

// A hook that goes (Claude's timeout, its own bound) leaves nothing
// waiting in the tray.
func TestHookGoes(t *testing.T) {
	home, s, changes := tray(t)
	got := offer(t, home, bashRequest(t, "s1"), 50*time.Millisecond)
	if r := <-got; r.err == nil {
		t.Fatalf("got %q with no answer given", r.choice)
	}
	waitPending(t, s, 0)
	if changes.Load() < 2 {
		t.Errorf("the tray was told of %d changes, want the offer and its end", changes.Load())
	}
}

// A peer of another uid is refused, whichever end it is.
func TestOtherUIDRefused(t *testing.T) {
	home, err := os.MkdirTemp("", "hud-ans-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	s, err := Listen(SocketPath(home), os.Getuid()+1, t.Logf, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := List(home); err == nil {
		t.Error("a tray for another uid answered")
	}
	got := offer(t, home, bashRequest(t, "s1"), 5*time.Second)
	if r := <-got; r.err == nil {
		t.Errorf("a hook of another uid got %q", r.choice)
	}
	if p := s.Pending(); len(p) != 0 {
		t.Errorf("the tray took a request from another uid: %v", p)
	}

	// The hook's end: a tray of another uid is refused before anything is
	// sent.
	s2home, _, _ := tray(t)
	defer func(f func() int) { ourUID = f }(ourUID)
	ourUID = func() int { return os.Getuid() + 1 }
	if _, err := Connect(s2home); err == nil {
		t.Error("the hook connected to a tray of another uid")
	}
}

func TestSocket(t *testing.T) {
	home, s, _ := tray(t)
	fi, err := os.Lstat(SocketPath(home))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket: %v, %v", fi.Mode(), err)
	}
	if _, err := Listen(SocketPath(home), os.Getuid(), nil, nil); err == nil {
		t.Error("a second tray took the socket of a live one")
	}
	s.ln.Close() // a tray that died: its socket stays
	s2, err := Listen(SocketPath(home), os.Getuid(), nil, nil)
	if err != nil {
		t.Fatalf("the socket a dead tray left was not replaced: %v", err)
	}
	s2.Close()
	plain := filepath.Join(home, ".capacitor", SocketName)
	os.WriteFile(plain, []byte("mine"), 0o600)
	if _, err := Listen(plain, os.Getuid(), nil, nil); err == nil {
		t.Error("a file at the socket's name was replaced")
	}
	if data, _ := os.ReadFile(plain); string(data) != "mine" {
		t.Error("the file at the socket's name was changed")
	}
	// No tray: one failed connect, no wait.
	start := time.Now()
	if _, err := Connect(home); err == nil || time.Since(start) > 100*time.Millisecond {
		t.Errorf("Connect with no tray: %v after %v", err, time.Since(start))
	}
}

// TestAcceptFailureKeepsServing: accepts that fail (too many open files)
// end nothing: the server waits, accepts again, and the hook queued
// meanwhile is served, as is every later one.
func TestAcceptFailureKeepsServing(t *testing.T) {
	home, err := os.MkdirTemp("", "hud-ans-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	var failures atomic.Int32
	accept := func(ln *net.UnixListener) (*net.UnixConn, int, error) {
		if failures.Add(1) <= 4 {
			return nil, -1, os.NewSyscallError("accept", unix.EMFILE)
		}
		return acceptUnix(ln)
	}
	var logged atomic.Value
	logf := func(format string, args ...any) { logged.Store(fmt.Sprintf(format, args...)) }
	s, err := listen(SocketPath(home), os.Getuid(), logf, nil, accept)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	req := bashRequest(t, "s1")
	got := offer(t, home, req, 10*time.Second)
	waitPending(t, s, 1)
	if msg, _ := logged.Load().(string); !strings.Contains(msg, "accepting again") {
		t.Errorf("the log says %q, want the recovery", msg)
	}
	pending, err := List(home)
	if err != nil || len(pending) != 1 {
		t.Fatalf("listing after the failures: %v, %v", pending, err)
	}
	if _, err := Send(home, Reply{ID: req.ID, Choice: Allow}); err != nil {
		t.Fatal(err)
	}
	if o := <-got; o.err != nil || o.choice != Allow {
		t.Errorf("the hook got %q, %v", o.choice, o.err)
	}
}

// TestCloseEndsTheRetry: a server closed while it waits to accept again
// stops at once.
func TestCloseEndsTheRetry(t *testing.T) {
	home, err := os.MkdirTemp("", "hud-ans-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(home)
	calls := make(chan struct{}, 100)
	accept := func(*net.UnixListener) (*net.UnixConn, int, error) {
		calls <- struct{}{}
		return nil, -1, os.NewSyscallError("accept", unix.EMFILE)
	}
	s, err := listen(SocketPath(home), os.Getuid(), t.Logf, nil, accept)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 { // into the longer waits
		<-calls
	}
	s.Close()
	time.Sleep(100 * time.Millisecond)
	if n := len(calls); n > 1 {
		t.Errorf("%d accepts after Close", n)
	}
}

// TestLongList: a list longer than one message's bound is read whole;
// one longer than the list's own bound is an error that says so, never
// "no tray".
func TestLongList(t *testing.T) {
	home, s, _ := tray(t)
	offerBig := func(n int) {
		for range n {
			held := len(s.Pending())
			req := bashRequest(t, fmt.Sprintf("s%d", held))
			req.Subject = strings.Repeat("x", maxMessage-1024) // as much as one offer may carry
			offer(t, home, req, 20*time.Second)
			waitPending(t, s, held+1)
		}
	}
	offerBig(3)
	if pending, err := List(home); err != nil || len(pending) != 3 {
		t.Fatalf("a list of 3 long requests: %d, %v", len(pending), err)
	}
	offerBig(maxList/maxMessage - 3 + 1)
	_, err := List(home)
	if err == nil || errors.Is(err, ErrNoTray) || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("a list over its bound: %v; want an error naming the length, not ErrNoTray", err)
	}
	s.Close()
	if _, err := List(home); !errors.Is(err, ErrNoTray) {
		t.Errorf("no tray: %v, want ErrNoTray", err)
	}
}

// OnAnswer hears of each answer sent, with who gave it; a refused answer
// is not heard of.
func TestOnAnswerSaysWho(t *testing.T) {
	home, s, _ := tray(t)
	type heard struct{ session, choice, by string }
	got := make(chan heard, 4)
	s.OnAnswer(func(req Request, c Choice, by string) { got <- heard{req.Session, c.Key, by} })

	req := bashRequest(t, "s1")
	hook := offer(t, home, req, 10*time.Second)
	waitPending(t, s, 1)
	if _, err := Send(home, Reply{ID: req.ID, Choice: Deny}); err != nil {
		t.Fatal(err)
	}
	<-hook
	if h := <-got; h != (heard{"s1", Deny, ByCommand}) {
		t.Errorf("hud answer: heard %+v", h)
	}

	req = bashRequest(t, "s2")
	hook = offer(t, home, req, 10*time.Second)
	waitPending(t, s, 1)
	if _, err := s.Answer(Reply{ID: req.ID, Choice: Allow}); err != nil {
		t.Fatal(err)
	}
	<-hook
	if h := <-got; h != (heard{"s2", Allow, ByTray}) {
		t.Errorf("the tray: heard %+v", h)
	}
	if _, err := s.Answer(Reply{ID: req.ID, Choice: Allow}); err == nil {
		t.Error("a second answer was taken")
	}
	select {
	case h := <-got:
		t.Errorf("a refused answer was heard of: %+v", h)
	default:
	}
}
