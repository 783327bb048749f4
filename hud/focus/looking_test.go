package focus

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/terminal"
)

func TestLookingAt(t *testing.T) {
	pane := terminal.Terminal{TmuxPane: "%3", TmuxSocket: "/tmp/tmux-1000/work"}
	kitty := terminal.Terminal{KittyWindow: "7", KittyListenOn: "unix:/tmp/kitty-1"}
	const panes = "tmux -S /tmp/tmux-1000/work list-panes -a -F #{pane_id} #{pane_active}#{window_active}"
	const clients = "tmux -S /tmp/tmux-1000/work list-clients"
	const kittyLs = "kitty @ --to unix:/tmp/kitty-1 ls"
	tests := []struct {
		name    string
		target  view.Place
		outputs map[string]string
		fail    map[string]bool
		want    bool
		skip    bool // the error is ErrSkip
		err     bool // another error
		ran     int
	}{
		{name: "a remote session's terminal is elsewhere", target: view.Place{Host: "devbox", Terminal: pane}, skip: true},
		{name: "a WezTerm pane cannot be told", target: view.Place{PID: 9, Terminal: terminal.Terminal{WeztermPane: "2"}}, skip: true},
		{name: "nothing recorded", target: view.Place{}, skip: true},
		{name: "tmux pane not the active one", target: view.Place{Terminal: pane},
			outputs: map[string]string{panes: "%1 11\n%3 01\n"}, ran: 1},
		{name: "tmux window not the current one", target: view.Place{Terminal: pane},
			outputs: map[string]string{panes: "%3 10\n"}, ran: 1},
		{name: "tmux lists no such pane", target: view.Place{Terminal: pane},
			outputs: map[string]string{panes: "%1 11\n%30 11\n"}, ran: 1},
		{name: "tmux pane shown but no client attached", target: view.Place{Terminal: pane},
			outputs: map[string]string{panes: "%2 01\n%3 11\n", clients: ""}, ran: 2},
		{name: "tmux that does not answer", target: view.Place{Terminal: pane},
			fail: map[string]bool{panes: true}, err: true, ran: 1},
		{name: "kitty window focused in the focused OS window", target: view.Place{Terminal: kitty},
			outputs: map[string]string{kittyLs: `[{"is_focused":true,"tabs":[{"is_focused":true,"windows":[{"id":7,"is_focused":true}]}]}]`},
			want:    true, ran: 1},
		{name: "kitty window active but its OS window not focused", target: view.Place{Terminal: kitty},
			outputs: map[string]string{kittyLs: `[{"is_focused":false,"tabs":[{"is_active":true,"windows":[{"id":7,"is_active":true}]}]}]`},
			ran:     1},
		{name: "kitty window in a tab not shown", target: view.Place{Terminal: kitty},
			outputs: map[string]string{kittyLs: `[{"is_focused":true,"tabs":[{"is_active":false,"windows":[{"id":7,"is_active":true}]}]}]`},
			ran:     1},
		{name: "kitty 0.26: the window focused in its tab, the tab not shown", target: view.Place{Terminal: kitty},
			outputs: map[string]string{kittyLs: `[{"is_focused":true,"tabs":[{"is_active_tab":false,"is_focused":false,"windows":[{"id":7,"is_focused":true}]},` +
				`{"is_active_tab":true,"is_focused":true,"windows":[{"id":8,"is_focused":true}]}]}]`},
			ran: 1},
		{name: "kitty 0.26: the window in the tab shown", target: view.Place{Terminal: kitty},
			outputs: map[string]string{kittyLs: `[{"is_focused":true,"tabs":[{"is_active_tab":true,"windows":[{"id":7,"is_focused":true}]}]}]`},
			want:    true, ran: 1},
		{name: "kitty lists no such window", target: view.Place{Terminal: kitty},
			outputs: map[string]string{kittyLs: `[]`}, ran: 1},
		{name: "kitty says nonsense", target: view.Place{Terminal: kitty},
			outputs: map[string]string{kittyLs: `no`}, err: true, ran: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("DISPLAY", "")
			run := &fakeRun{outputs: tt.outputs, fail: tt.fail}
			got, err := Looking{Run: run.run, Sockets: trusted, known: &servers{}}.At(context.Background(), tt.target)
			if got != tt.want {
				t.Errorf("looking = %v, want %v", got, tt.want)
			}
			switch {
			case tt.skip && !errors.Is(err, ErrSkip):
				t.Errorf("err = %v, want ErrSkip", err)
			case tt.err && (err == nil || errors.Is(err, ErrSkip)):
				t.Errorf("err = %v, want a failure", err)
			case !tt.skip && !tt.err && err != nil:
				t.Errorf("err = %v", err)
			}
			if len(run.ran) != tt.ran {
				t.Errorf("ran %q, want %d commands", run.ran, tt.ran)
			}
		})
	}
}

// trusted passes every socket: the table's paths are not on disk.
func trusted(t terminal.Terminal) (terminal.Terminal, error) { return t, nil }

// TestLookingAsksOnlyOwnSockets: a tmux or kitty socket another user
// serves is never asked whether the person looks at it, as a click never
// talks to one (TestFocusTalksOnlyToOwnSockets).
func TestLookingAsksOnlyOwnSockets(t *testing.T) {
	t.Setenv("DISPLAY", "")
	dir, err := os.MkdirTemp("", "own")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	dir, _ = filepath.EvalSymlinks(dir)
	sock := filepath.Join(dir, "sock")
	listen(t, sock)
	for _, tt := range []struct {
		name string
		uid  int
		ran  int
	}{
		{"the person's socket", os.Getuid(), 1},
		{"another user's socket", os.Getuid() + 1, 0},
	} {
		for _, term := range []terminal.Terminal{
			{TmuxPane: "%3", TmuxSocket: sock},
			{KittyWindow: "7", KittyListenOn: "unix:" + sock},
		} {
			t.Run(tt.name, func(t *testing.T) {
				run := &fakeRun{}
				l := Looking{Run: run.run, Sockets: func(t terminal.Terminal) (terminal.Terminal, error) { return OwnSockets(t, tt.uid) }}
				if got, _ := l.At(context.Background(), view.Place{Terminal: term}); got {
					t.Error("looking = true")
				}
				if len(run.ran) != tt.ran {
					t.Errorf("ran %q, want %d commands", run.ran, tt.ran)
				}
			})
		}
	}
}

// Without a display nothing tells which window is active: the plain
// terminal's session counts as not looked at, without asking anything.
func TestLookingWithoutDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	got, err := Looking{Ancestry: func(int) []int { return []int{9, 8} }}.At(context.Background(), view.Place{PID: 9})
	if got || !errors.Is(err, ErrSkip) {
		t.Errorf("got %v, %v; want false, ErrSkip", got, err)
	}
}

func TestChildren(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	before := Children(os.Getpid())
	cmds := []*exec.Cmd{exec.Command("sleep", "5"), exec.Command("sleep", "5")}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { c.Process.Kill(); c.Wait() }()
	}
	if got := Children(os.Getpid()); got != before+2 {
		t.Errorf("Children = %d, want %d", got, before+2)
	}
}

// A terminal window in front that runs more than one program (tabs) does
// not say which of them is shown.
func TestLookingAlone(t *testing.T) {
	for _, tt := range []struct {
		owner, children int
		want            bool
	}{
		{owner: 300, children: 1, want: true},
		{owner: 300, children: 0, want: true},
		{owner: 300, children: 3, want: false},
		{owner: 0, children: 3, want: true},
	} {
		l := Looking{Children: func(pid int) int {
			if pid != tt.owner {
				t.Errorf("children of %d asked, want %d", pid, tt.owner)
			}
			return tt.children
		}}
		if got := l.alone(tt.owner); got != tt.want {
			t.Errorf("owner %d with %d children: alone = %v, want %v", tt.owner, tt.children, got, tt.want)
		}
	}
}
