package focus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/terminal"
)

// fakeRun records each command and answers from outputs (by the command's
// first words) or fails those named in fail.
type fakeRun struct {
	ran     []string
	outputs map[string]string
	fail    map[string]bool
}

func (f *fakeRun) run(_ context.Context, c Command) ([]byte, error) {
	line := c.String()
	if len(c.Env) > 0 {
		line = strings.Join(c.Env, " ") + " " + line
	}
	f.ran = append(f.ran, line)
	for prefix := range f.fail {
		if strings.HasPrefix(line, prefix) {
			return nil, errors.New(prefix + " failed")
		}
	}
	for prefix, out := range f.outputs {
		if strings.HasPrefix(line, prefix) {
			return []byte(out), nil
		}
	}
	return nil, nil
}

// fakeWindow records what it raised.
type fakeWindow struct {
	raised []string
	err    error
}

func (w *fakeWindow) Raise(_ context.Context, pid int, hint string) error {
	w.raised = append(w.raised, strings.TrimSpace(itoa(pid)+" "+hint))
	return w.err
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestFocus(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		target    view.Place
		outputs   map[string]string
		fail      map[string]bool
		windowErr error
		ran       []string
		raised    []string
		opened    []string
		wantErr   string
	}{
		{
			name:    "tmux pane, then the window of the client showing it",
			target:  view.Place{PID: 500, Terminal: terminal.Terminal{TmuxPane: "%3", TmuxSocket: "/tmp/tmux-1000/work"}, Dir: dir},
			outputs: map[string]string{"tmux -S /tmp/tmux-1000/work list-clients": "100 7001\n300 7002\n"},
			ran: []string{
				"tmux -S /tmp/tmux-1000/work select-window -t %3 ; select-pane -t %3",
				"tmux -S /tmp/tmux-1000/work list-clients -t %3 -F #{client_activity} #{client_pid}",
			},
			raised: []string{"7002"},
		},
		{
			name:   "tmux session nobody looks at: the last used client switches to it",
			target: view.Place{Terminal: terminal.Terminal{TmuxPane: "%3"}, Dir: dir},
			ran: []string{
				"tmux select-window -t %3 ; select-pane -t %3",
				"tmux list-clients -t %3 -F #{client_activity} #{client_pid}",
				"tmux switch-client -t %3",
				"tmux list-clients -t %3 -F #{client_activity} #{client_pid}",
			},
		},
		{
			name:   "tmux pane gone: the terminal window, then the folder",
			target: view.Place{PID: 500, Terminal: terminal.Terminal{TmuxPane: "%3"}, Dir: dir},
			fail:   map[string]bool{"tmux": true},
			ran:    []string{"tmux select-window -t %3 ; select-pane -t %3"},
			raised: []string{"500"}, windowErr: errors.New("no window"),
			opened: []string{dir},
		},
		{
			name:   "kitty window through its socket",
			target: view.Place{PID: 500, Terminal: terminal.Terminal{KittyWindow: "4", KittyListenOn: "unix:/tmp/kitty-77"}, Dir: dir},
			ran:    []string{"kitty @ --to unix:/tmp/kitty-77 focus-window --match id:4"},
		},
		{
			name:   "kitty refuses (remote control off): the window by ancestry",
			target: view.Place{PID: 500, Terminal: terminal.Terminal{KittyWindow: "4", KittyListenOn: "unix:/tmp/kitty-77", WindowID: "123"}, Dir: dir},
			fail:   map[string]bool{"kitty": true},
			ran:    []string{"kitty @ --to unix:/tmp/kitty-77 focus-window --match id:4"},
			raised: []string{"500 123"},
		},
		{
			name:   "WezTerm pane on its instance's socket, then its window",
			target: view.Place{PID: 500, Terminal: terminal.Terminal{WeztermPane: "0", WeztermSocket: "/run/user/1000/wezterm/gui-sock-9"}, Dir: dir},
			ran:    []string{"WEZTERM_UNIX_SOCKET=/run/user/1000/wezterm/gui-sock-9 wezterm cli activate-pane --pane-id 0"},
			raised: []string{"500"},
		},
		{
			name:   "any terminal: the window of Claude's ancestry",
			target: view.Place{PID: 500, Terminal: terminal.Terminal{WindowID: "94371851"}, Dir: dir},
			raised: []string{"500 94371851"},
		},
		{
			name:      "no window found: the folder",
			target:    view.Place{PID: 500, Dir: dir},
			windowErr: errors.New("no window belongs to process 500"),
			raised:    []string{"500"},
			opened:    []string{dir},
		},
		{
			name:      "no display: the folder, quietly",
			target:    view.Place{PID: 500, Dir: dir},
			windowErr: ErrSkip,
			raised:    []string{"500"},
			opened:    []string{dir},
		},
		{
			name:   "values of the wrong shape never reach a program",
			target: view.Place{Terminal: terminal.Terminal{TmuxPane: "-t;kill-server", KittyWindow: "1 --all", KittyListenOn: "unix:/tmp/k", WeztermPane: "-1"}, Dir: dir},
			opened: []string{dir},
		},
		{
			name:    "nothing to bring forward",
			target:  view.Place{},
			wantErr: "no folder",
		},
		{
			name:    "a remote session never opens a local folder",
			target:  view.Place{PID: 500, Host: "-oProxyCommand=x", Terminal: terminal.Terminal{TmuxPane: "%3"}, Dir: dir},
			wantErr: "read as an option",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := &fakeRun{outputs: tt.outputs, fail: tt.fail}
			window := &fakeWindow{err: tt.windowErr}
			var opened []string
			f := &Focuser{
				Backends: []Backend{
					Remote{Start: func(Command) error { t.Error("started a terminal"); return nil }},
					Tmux{Run: run.run, Window: window},
					Kitty{Run: run.run},
					WezTerm{Run: run.run, Window: window},
					Window{Raiser: window},
				},
				Open: func(p string) error { opened = append(opened, p); return nil },
				// The sockets named here are imaginary; whose they are is
				// TestFocusTalksOnlyToOwnSockets's question.
				Sockets: func(t terminal.Terminal) (terminal.Terminal, error) { return t, nil },
			}
			err := f.Focus(context.Background(), tt.target)
			// A folder opened in the session's place is said, never
			// passed off as the session's terminal.
			if onlyFolder := len(tt.opened) > 0; onlyFolder != errors.Is(err, ErrOnlyFolder) {
				t.Errorf("err = %v; folder opened %v, so ErrOnlyFolder %v", err, tt.opened, onlyFolder)
			}
			if tt.wantErr == "" && err != nil && !errors.Is(err, ErrOnlyFolder) || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
			check := func(what string, got, want []string) {
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("%s:\n got %q\nwant %q", what, got, want)
				}
			}
			check("ran", run.ran, tt.ran)
			check("raised", window.raised, tt.raised)
			check("opened", opened, tt.opened)
		})
	}
}

// A backend that hangs is cut off by the timeout and the next one runs.
func TestFocusTimeout(t *testing.T) {
	hang := Kitty{Run: func(ctx context.Context, _ Command) ([]byte, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	var opened []string
	f := &Focuser{Backends: []Backend{hang}, Timeout: 10 * time.Millisecond, Open: func(p string) error { opened = append(opened, p); return nil },
		Sockets: func(t terminal.Terminal) (terminal.Terminal, error) { return t, nil }}
	err := f.Focus(context.Background(), view.Place{Terminal: terminal.Terminal{KittyWindow: "1", KittyListenOn: "unix:@k"}, Dir: t.TempDir()})
	if !errors.Is(err, ErrOnlyFolder) || len(opened) != 1 {
		t.Errorf("err %v, opened %q", err, opened)
	}
}

func TestParseClients(t *testing.T) {
	got := parseClients([]byte("10 300\nnonsense\n30 301\n20 302\n5 1\n40 -3\n"))
	want := []int{301, 302, 300}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

func TestExec(t *testing.T) {
	out, err := Exec(context.Background(), Command{Name: "sh", Args: []string{"-c", `echo "$FOCUS_TEST"`}, Env: []string{"FOCUS_TEST=passed"}})
	if err != nil || string(out) != "passed\n" {
		t.Errorf("got %q, %v", out, err)
	}
	_, err = Exec(context.Background(), Command{Name: "sh", Args: []string{"-c", "echo no such pane >&2; exit 1"}})
	if err == nil || !strings.Contains(err.Error(), "no such pane") {
		t.Errorf("the program's complaint is not in the error: %v", err)
	}
	// A child left behind with the output open does not hold the caller
	// past the timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := Exec(ctx, Command{Name: "sh", Args: []string{"-c", "sleep 5 & sleep 5"}}); err == nil {
		t.Error("no error from a command cut off")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Exec returned after %v", d)
	}
}

// TestFolderIsAFolder: when nothing else brings the session forward, its
// recorded folder opens; a path naming a file (a project's .desktop entry,
// directly or through a link) is never handed to the opener, which would
// open, and for some kinds run, it.
func TestFolderIsAFolder(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	entry := filepath.Join(dir, "evil.desktop")
	if err := os.WriteFile(entry, []byte("[Desktop Entry]\nExec=touch /tmp/pwned\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	linkToFile, linkToDir := filepath.Join(dir, "to-file"), filepath.Join(dir, "to-dir")
	os.Symlink(entry, linkToFile)
	os.Symlink(dir, linkToDir)
	for _, tt := range []struct {
		name, path, opened string
	}{
		{"a folder", dir, dir},
		{"a link to a folder: the folder", linkToDir, dir},
		{"a file", entry, ""},
		{"a link to a file", linkToFile, ""},
		{"missing", filepath.Join(dir, "gone"), ""},
		{"relative", "evil.desktop", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var opened []string
			f := &Focuser{Open: func(p string) error { opened = append(opened, p); return nil }}
			err := f.Focus(context.Background(), view.Place{Dir: tt.path})
			if tt.opened == "" {
				if err == nil || len(opened) != 0 {
					t.Errorf("opened %q (err %v); want nothing opened and an error", opened, err)
				}
				return
			}
			if !errors.Is(err, ErrOnlyFolder) || len(opened) != 1 || opened[0] != tt.opened {
				t.Errorf("opened %q (err %v), want %q", opened, err, tt.opened)
			}
		})
	}
}
