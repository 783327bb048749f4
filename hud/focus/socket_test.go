package focus

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/terminal"
)

// listen serves a Unix socket at path until the test ends.
func listen(t *testing.T, path string) {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
}

func TestOwnSocket(t *testing.T) {
	me := os.Getuid()
	// Short paths: a socket's path must fit sockaddr_un.
	root, err := os.MkdirTemp("", "own")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	root, _ = filepath.EvalSymlinks(root)
	mkdir := func(name string, mode os.FileMode) string {
		d := filepath.Join(root, name)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, mode); err != nil {
			t.Fatal(err)
		}
		return d
	}
	private, open, sticky, group := mkdir("p", 0o700), mkdir("o", 0o777), mkdir("s", 0o777|os.ModeSticky), mkdir("g", 0o770)
	for _, d := range []string{private, open, sticky, group} {
		listen(t, filepath.Join(d, "sock"))
	}
	if err := os.WriteFile(filepath.Join(private, "file"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(root, "l")
	if err := os.Symlink(private, linked); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		uid        int
		want, err  string
	}{
		{"the person's socket", filepath.Join(private, "sock"), me, filepath.Join(private, "sock"), ""},
		{"a sticky directory (/tmp)", filepath.Join(sticky, "sock"), me, filepath.Join(sticky, "sock"), ""},
		{"a directory the person's group may write (umask 002)", filepath.Join(group, "sock"), me, filepath.Join(group, "sock"), ""},
		{"through a link: the real path is handed on", filepath.Join(linked, "sock"), me, filepath.Join(private, "sock"), ""},
		{"another user's socket", filepath.Join(private, "sock"), me + 1, "", "uid"},
		{"a directory anyone may write", filepath.Join(open, "sock"), me, "", "writable by anyone"},
		{"not a socket", filepath.Join(private, "file"), me, "", "not a socket"},
		{"missing", filepath.Join(private, "none"), me, "", "no such file"},
		{"relative", "sock", me, "", "not a socket path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := OwnSocket(tt.path, tt.uid)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("OwnSocket = %q, %v; want an error saying %q", got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("OwnSocket = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestOwnAbstractSocket(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("abstract sockets are Linux's")
	}
	name := fmt.Sprintf("hud-focus-test-%d", os.Getpid())
	listen(t, "@"+name)
	if err := ownAbstract(name, os.Getuid()); err != nil {
		t.Errorf("the person's own abstract socket: %v", err)
	}
	if err := ownAbstract(name, os.Getuid()+1); err == nil || !strings.Contains(err.Error(), "served by uid") {
		t.Errorf("another user's abstract socket: %v, want it refused", err)
	}
}

// TestFocusTalksOnlyToOwnSockets: a terminal whose control socket belongs
// to someone else is never handed to tmux, kitty or WezTerm; the click
// falls back to the window and the folder, and the log says why.
func TestFocusTalksOnlyToOwnSockets(t *testing.T) {
	dir, err := os.MkdirTemp("", "own")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	dir, _ = filepath.EvalSymlinks(dir)
	sock := filepath.Join(dir, "sock")
	listen(t, sock)
	var term terminal.Terminal
	term.TmuxPane, term.TmuxSocket = "%3", sock
	term.KittyWindow, term.KittyListenOn = "7", "unix:"+sock
	term.WeztermPane, term.WeztermSocket = "9", sock

	for _, tt := range []struct {
		name string
		uid  int
		ran  []string
	}{
		{"the person's sockets", os.Getuid(), []string{"tmux -S " + sock + " select-window"}},
		{"another user's sockets", os.Getuid() + 1, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var ran, logged []string
			run := func(_ context.Context, c Command) ([]byte, error) {
				ran = append(ran, c.String())
				return nil, nil
			}
			var raised bool
			f := &Focuser{
				Backends: []Backend{Tmux{Run: run}, Kitty{Run: run}, WezTerm{Run: run}, Window{Raiser: raiserFunc(func() { raised = true })}},
				Logf:     func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) },
				Sockets:  func(t terminal.Terminal) (terminal.Terminal, error) { return OwnSockets(t, tt.uid) },
			}
			if err := f.Focus(context.Background(), view.Place{PID: 42, Terminal: term}); err != nil {
				t.Fatal(err)
			}
			if len(ran) < len(tt.ran) || tt.ran == nil && len(ran) > 0 || len(ran) > 0 && !strings.HasPrefix(ran[0], tt.ran[0]) {
				t.Errorf("ran %q, want %q", ran, tt.ran)
			}
			if tt.ran == nil {
				if !raised {
					t.Error("no fall back to the window")
				}
				for _, what := range []string{"tmux", "kitty", "WezTerm"} {
					if !strings.Contains(strings.Join(logged, "\n"), "not talking to the "+what+" socket") {
						t.Errorf("the log does not say why %s was not asked: %q", what, logged)
					}
				}
			}
		})
	}
}

type raiserFunc func()

func (r raiserFunc) Raise(context.Context, int, string) error { r(); return nil }
