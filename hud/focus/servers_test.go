package focus

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/terminal"
)

// silentRun is a server that never answers: each command waits for its
// deadline; and one that answers, for every other socket. It counts the
// commands each socket got.
type silentRun struct {
	silent string // the socket that never answers
	mu     sync.Mutex
	ran    map[string]int
}

func (r *silentRun) run(ctx context.Context, c Command) ([]byte, error) {
	socket := c.Args[1] // tmux -S <socket> ...
	r.mu.Lock()
	if r.ran == nil {
		r.ran = map[string]int{}
	}
	r.ran[socket]++
	r.mu.Unlock()
	if socket == r.silent {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return []byte("%1 01\n"), nil
}

func (r *silentRun) count(socket string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ran[socket]
}

func tmuxPlace(socket string, pane int) view.Place {
	return view.Place{Terminal: terminal.Terminal{TmuxPane: fmt.Sprintf("%%%d", pane), TmuxSocket: socket}}
}

// A tmux server that lets a question run past its deadline is not asked
// again for SilentFor: its other sessions count as not looked at at once,
// another server is asked as usual, and after SilentFor it is asked again.
func TestLookingSkipsASilentServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t.Setenv("DISPLAY", "")
		const silent, other = "/run/silent", "/run/other"
		run := &silentRun{silent: silent}
		l := Looking{Run: run.run, Sockets: trusted, known: &servers{}}
		at := func(p view.Place) (time.Duration, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			start := time.Now()
			looking, err := l.At(ctx, p)
			if looking {
				t.Errorf("looking at %v", p)
			}
			return time.Since(start), err
		}
		d, err := at(tmuxPlace(silent, 1))
		if d != 500*time.Millisecond || err == nil || errors.Is(err, ErrSkip) {
			t.Fatalf("the first question: %v after %v, want the deadline's failure", err, d)
		}
		for pane := 2; pane <= 12; pane++ {
			if d, err := at(tmuxPlace(silent, pane)); d != 0 || !errors.Is(err, ErrSkip) {
				t.Errorf("pane %d: %v after %v, want skipped at once", pane, err, d)
			}
		}
		if d, err := at(tmuxPlace(other, 1)); d != 0 || err != nil {
			t.Errorf("another server: %v after %v", err, d)
		}
		if n := run.count(silent); n != 1 {
			t.Errorf("the silent server was asked %d times, want 1", n)
		}
		time.Sleep(SilentFor)
		if _, err := at(tmuxPlace(silent, 1)); errors.Is(err, ErrSkip) {
			t.Errorf("after %v: %v, want asked again", SilentFor, err)
		}
		if n := run.count(silent); n != 2 {
			t.Errorf("the silent server was asked %d times after %v, want 2", n, SilentFor)
		}
	})
}

// A caller that gives up on Looking at the deadline (the Gate does)
// finds the server skipped on its next question, though the question it
// gave up on may still be in flight.
func TestLookingGivenUpOnSkipsTheServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t.Setenv("DISPLAY", "")
		release := make(chan struct{})
		var asked int
		hang := func(context.Context, Command) ([]byte, error) { asked++; <-release; return nil, errors.New("killed") }
		l := Looking{Run: hang, Sockets: trusted, known: &servers{}}
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		go l.At(ctx, tmuxPlace("/run/silent", 1))
		<-ctx.Done() // given up on; the question is still in flight
		cancel()
		ctx, cancel = context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer cancel()
		if _, err := l.At(ctx, tmuxPlace("/run/silent", 2)); !errors.Is(err, ErrSkip) {
			t.Errorf("the next question: %v, want skipped", err)
		}
		close(release)
		synctest.Wait()
		if asked != 1 {
			t.Errorf("asked %d times, want 1", asked)
		}
	})
}

// Sessions on one tmux server asked about at the same moment share one
// question to it, and each gets its own pane's answer.
func TestLookingSharesOneQuestionPerServer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		t.Setenv("DISPLAY", "")
		release := make(chan struct{})
		var mu sync.Mutex
		var ran []string
		run := func(_ context.Context, c Command) ([]byte, error) {
			mu.Lock()
			ran = append(ran, c.String())
			mu.Unlock()
			<-release
			if c.Args[2] == "list-clients" {
				return nil, nil
			}
			return []byte("%1 11\n%2 01\n%3 11\n"), nil
		}
		l := Looking{Run: run, Sockets: trusted, known: &servers{}}
		for pane := 1; pane <= 12; pane++ {
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
				defer cancel()
				if looking, err := l.At(ctx, tmuxPlace("/run/tmux", pane)); looking || err != nil {
					t.Errorf("pane %d: %v, %v", pane, looking, err)
				}
			}()
		}
		synctest.Wait()
		if len(ran) != 1 || !strings.Contains(ran[0], "list-panes -a") {
			t.Errorf("ran %q, want one list-panes -a", ran)
		}
		close(release)
		synctest.Wait()
		// %1 and %3 are shown: the clients of their sessions are asked,
		// one question each; nothing about the other ten.
		if len(ran) != 3 || !strings.Contains(ran[1]+ran[2], "list-clients -t %1 ") || !strings.Contains(ran[1]+ran[2], "list-clients -t %3 ") {
			t.Errorf("ran %q, want list-panes, then list-clients for %%1 and %%3", ran)
		}
	})
}

// The real tmux client against a program that listens on the tmux socket
// and never replies: twelve sessions on it cost one deadline, not twelve,
// and the next round costs nothing.
func TestLookingSilentTmuxSocket(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux")
	}
	t.Setenv("DISPLAY", "")
	dir, err := os.MkdirTemp("", "silent") // short: a socket's path must fit sockaddr_un
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	dir, _ = filepath.EvalSymlinks(dir)
	sock := filepath.Join(dir, "tmux")
	mute(t, sock)
	l := Looking{Run: Exec, known: &servers{}}
	round := func() (time.Duration, []error) {
		start := time.Now()
		var errs []error
		for pane := 1; pane <= 12; pane++ {
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			looking, err := l.At(ctx, tmuxPlace(sock, pane))
			cancel()
			if looking {
				t.Errorf("pane %d looked at", pane)
			}
			errs = append(errs, err)
		}
		return time.Since(start), errs
	}
	d, errs := round()
	if d > time.Second {
		t.Errorf("twelve sessions on a silent server took %v", d)
	}
	if errs[0] == nil || errors.Is(errs[0], ErrSkip) {
		t.Errorf("the first: %v, want the deadline's failure", errs[0])
	}
	d, errs = round()
	if d > 100*time.Millisecond {
		t.Errorf("the next round took %v", d)
	}
	for i, err := range errs {
		if !errors.Is(err, ErrSkip) {
			t.Errorf("next round, pane %d: %v, want skipped", i+1, err)
		}
	}
}

// mute serves a Unix socket at path that takes every connection and
// never says a word, until the test ends.
func mute(t *testing.T, path string) {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
}
