package focus

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/jezek/xgb/xproto"
)

func TestPickWindow(t *testing.T) {
	// claude 500 ← sh 400 ← xterm 300 ← session 200; a second xterm 301.
	pids := []int{500, 400, 300, 200}
	tests := []struct {
		name    string
		clients []client
		hinted  xproto.Window
		want    xproto.Window
		ok      bool
	}{
		{"the terminal among the ancestors", []client{{0x10, 301}, {0x20, 300}, {0x30, 0}}, 0, 0x20, true},
		{"the nearest ancestor wins", []client{{0x10, 200}, {0x20, 300}}, 0, 0x20, true},
		{"one process, several windows: the hinted one", []client{{0x20, 300}, {0x21, 300}}, 0x21, 0x21, true},
		{"a hint that is not the ancestor's window is ignored", []client{{0x10, 301}, {0x20, 300}}, 0x10, 0x20, true},
		{"a hinted window without _NET_WM_PID, when no ancestor has one", []client{{0x10, 301}, {0x30, 0}}, 0x30, 0x30, true},
		{"nothing of ours", []client{{0x10, 301}, {0x30, 0}}, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := pickWindow(pids, tt.clients, tt.hinted)
			if got != tt.want || ok != tt.ok {
				t.Errorf("got 0x%x %v, want 0x%x %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestX11WithoutDisplay(t *testing.T) {
	t.Setenv("DISPLAY", "")
	err := X11{}.Raise(context.Background(), 1234, "")
	if !errors.Is(err, ErrSkip) {
		t.Errorf("err = %v, want ErrSkip", err)
	}
}

func TestMacTerminal(t *testing.T) {
	tests := []struct {
		name, tty string
		ran       []string
		skip      bool
	}{
		{"Terminal or iTerm2 tab by tty", "ttys003\n", []string{"ps -o tty= -p 500", "osascript -e <script> /dev/ttys003"}, false},
		{"no terminal", "??\n", []string{"ps -o tty= -p 500"}, true},
		{"a tty name that could carry more is refused", "ttys003 -e x\n", []string{"ps -o tty= -p 500"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ran []string
			m := MacTerminal{Run: func(_ context.Context, c Command) ([]byte, error) {
				if c.Name == "osascript" {
					if c.Args[1] != raiseTabScript {
						t.Errorf("script %q", c.Args[1])
					}
					c.Args[1] = "<script>"
				}
				ran = append(ran, c.String())
				return []byte(tt.tty), nil
			}}
			err := m.Raise(context.Background(), 500, "")
			if errors.Is(err, ErrSkip) != tt.skip || !tt.skip && err != nil {
				t.Errorf("err = %v", err)
			}
			if strings.Join(ran, "|") != strings.Join(tt.ran, "|") {
				t.Errorf("ran %q, want %q", ran, tt.ran)
			}
		})
	}
}

func TestAttachCommand(t *testing.T) {
	devbox := config.Remote{Name: "devbox", Destination: "me@devbox.lan"}
	remoteCmd := `tmux select-window -t %3 \; select-pane -t %3 \; attach-session -t %3`
	tests := []struct {
		name       string
		machine    config.Remote
		sshCommand string
		pane       string
		want       []string
		err        string
	}{
		{"ssh", devbox, "", "%3", []string{"ssh", "-t", "--", "me@devbox.lan", remoteCmd}, ""},
		{"ssh replaced, as for the stream", devbox, "ssh -F ~/.ssh/work", "%3",
			[]string{"sh", "-c", `ssh -F ~/.ssh/work "$@"`, "ssh -F ~/.ssh/work", "-t", "--", "me@devbox.lan", remoteCmd}, ""},
		{"a destination read as an option", config.Remote{Name: "x", Destination: "-oProxyCommand=touch /tmp/x"}, "", "%3", nil, "option"},
		{"outside tmux", devbox, "", "", nil, "outside tmux"},
		{"not a pane id", devbox, "", "%3; rm -rf ~", nil, "not a pane id"},
	}
	for _, tt := range tests {
		got, err := AttachCommand(tt.machine, tt.sshCommand, tt.pane)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %q, %v; want error %q", tt.name, got, err, tt.err)
			}
			continue
		}
		if err != nil || strings.Join(got, "\x00") != strings.Join(tt.want, "\x00") {
			t.Errorf("%s: %q, %v\nwant %q", tt.name, got, err, tt.want)
		}
	}
}

func TestRemoteOpensATerminal(t *testing.T) {
	machine := func(name string) (config.Remote, string, error) {
		if name != "devbox" {
			return config.Remote{}, "", errors.New("no remote machine is called " + name)
		}
		return config.Remote{Name: "devbox", Destination: "me@devbox.lan"}, "", nil
	}
	for _, tt := range []struct {
		goos  string
		first string
	}{
		{"linux", "x-terminal-emulator -e ssh -t -- me@devbox.lan tmux"},
		{"darwin", "osascript -e"},
	} {
		var started []string
		r := Remote{GOOS: tt.goos, Machine: machine, Start: func(c Command) error {
			started = append(started, c.String())
			if len(started) == 1 && tt.goos == "linux" {
				return errors.New("not installed")
			}
			return nil
		}}
		pane := view.Place{Host: "devbox"}
		pane.Terminal.TmuxPane = "%3"
		if err := r.Focus(context.Background(), pane); err != nil {
			t.Errorf("%s: %v", tt.goos, err)
		}
		if len(started) == 0 || !strings.HasPrefix(started[0], tt.first) {
			t.Errorf("%s: started %q", tt.goos, started)
		}
		if tt.goos == "linux" && (len(started) != 2 || !strings.HasPrefix(started[1], "xterm -e ssh")) {
			t.Errorf("no fallback to xterm: %q", started)
		}
		started = nil
		if err := r.Focus(context.Background(), view.Place{Host: "devbox", PID: 1, Dir: "/x"}); err == nil || !strings.Contains(err.Error(), "outside tmux") {
			t.Errorf("%s: a session outside tmux: %v", tt.goos, err)
		}
		gone := pane
		gone.Host = "laptop2"
		if err := r.Focus(context.Background(), gone); err == nil || !strings.Contains(err.Error(), "laptop2") {
			t.Errorf("%s: a machine no longer listed: %v", tt.goos, err)
		}
		if len(started) != 0 {
			t.Errorf("%s: started %q", tt.goos, started)
		}
	}
}
