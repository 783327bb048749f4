package tmux

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The agents' terminals are a person's: no variable saying "CI job"
// reaches them, everything else does.
func TestPersonEnv(t *testing.T) {
	in := []string{"HOME=/h", "CI=true", "PATH=/bin", "GITHUB_ACTIONS=true", "CIRCLE=1", "CONTINUOUS_INTEGRATION=1"}
	want := []string{"HOME=/h", "PATH=/bin", "CIRCLE=1"}
	if got := personEnv(in); !slices.Equal(got, want) {
		t.Errorf("personEnv = %q, want %q", got, want)
	}
	if in[1] != "CI=true" {
		t.Error("personEnv changed its input")
	}
}

// standIn puts a program named tmux first on PATH that runs script.
func standIn(t *testing.T, script string) {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "tmux"), []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// A tmux that never answers is killed at the server's Timeout.
func TestRunKillsATmuxThatNeverAnswers(t *testing.T) {
	standIn(t, "exec sleep 10")
	start := time.Now()
	_, err := Server{Socket: "never", Timeout: 200 * time.Millisecond}.Run("list-panes")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline's", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Run returned after %v", d)
	}
}

// The real tmux client against a server that takes the connection and
// never answers: the client hands the server its output, which then
// stays open after the client is killed; Run does not wait for it.
func TestRunSilentServer(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux")
	}
	tmp, err := os.MkdirTemp("", "tmux") // short: a socket's path must fit sockaddr_un
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	dir := filepath.Join(tmp, fmt.Sprintf("tmux-%d", os.Getuid()))
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMUX_TMPDIR", tmp)
	ln, err := net.Listen("unix", filepath.Join(dir, "mute"))
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	accepted := make(chan struct{})
	go func() {
		defer close(accepted)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-accepted
		for _, c := range conns {
			c.Close()
		}
	})
	start := time.Now()
	if _, err := (Server{Socket: "mute", Timeout: 200 * time.Millisecond}).Run("list-panes", "-a"); err == nil {
		t.Error("no error from a server that never answers")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Run returned after %v", d)
	}
}

// A real server on a socket of its own starts, runs a window and reads
// it back under the bounds.
func TestServer(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux")
	}
	tmp, err := os.MkdirTemp("", "tmux")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	t.Setenv("TMUX_TMPDIR", tmp)
	s := Server{Socket: "test", Session: "test"}
	t.Cleanup(s.Kill)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	p, err := s.NewWindow("echo", tmp, "echo hello from tmux; cat")
	if err != nil {
		t.Fatal(err)
	}
	if screen, ok := p.WaitScreen(5*time.Second, func(s string) bool { return strings.Contains(s, "hello from tmux") }); !ok {
		t.Errorf("screen:\n%s", screen)
	}
}
