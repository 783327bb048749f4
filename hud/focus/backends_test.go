package focus

import (
	"context"
	"errors"
	"strings"
	"testing"

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
	tests := []struct {
		host, pane string
		want       string
		err        string
	}{
		{"devbox", "%3", `ssh -t devbox tmux select-window -t %3 \; select-pane -t %3 \; attach-session -t %3`, ""},
		{"me@10.0.0.2", "%12", `ssh -t me@10.0.0.2 tmux select-window -t %12 \; select-pane -t %12 \; attach-session -t %12`, ""},
		{"-oProxyCommand=touch /tmp/x", "%3", "", "not an ssh destination"},
		{"dev box", "%3", "", "not an ssh destination"},
		{"devbox", "", "", "outside tmux"},
		{"devbox", "%3; rm -rf ~", "", "not a pane id"},
	}
	for _, tt := range tests {
		got, err := AttachCommand(tt.host, tt.pane)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("AttachCommand(%q, %q) = %q, %v; want error %q", tt.host, tt.pane, got, err, tt.err)
			}
			continue
		}
		if err != nil || strings.Join(got, " ") != tt.want {
			t.Errorf("AttachCommand(%q, %q) = %q, %v; want %q", tt.host, tt.pane, got, err, tt.want)
		}
		if len(got) != 4 {
			t.Errorf("the remote command must be one argument: %q", got)
		}
	}
}

func TestRemoteOpensATerminal(t *testing.T) {
	for _, tt := range []struct {
		goos  string
		first string
	}{
		{"linux", "x-terminal-emulator -e ssh -t devbox"},
		{"darwin", "osascript -e"},
	} {
		var started []string
		r := Remote{GOOS: tt.goos, Start: func(c Command) error {
			started = append(started, c.String())
			if len(started) == 1 && tt.goos == "linux" {
				return errors.New("not installed")
			}
			return nil
		}}
		err := r.Focus(context.Background(), Target{Host: "devbox"})
		if err == nil || !strings.Contains(err.Error(), "outside tmux") {
			t.Errorf("%s: a session outside tmux: err = %v", tt.goos, err)
		}
		started = nil
		if err := r.Focus(context.Background(), Target{Host: "devbox", PID: 1, Dir: "/x"}); err == nil {
			t.Errorf("%s: no pane, no error", tt.goos)
		}
		tgt := Target{Host: "devbox"}
		tgt.Terminal.TmuxPane = "%3"
		if err := r.Focus(context.Background(), tgt); err != nil {
			t.Errorf("%s: %v", tt.goos, err)
		}
		if len(started) == 0 || !strings.HasPrefix(started[0], tt.first) {
			t.Errorf("%s: started %q", tt.goos, started)
		}
		if tt.goos == "linux" && (len(started) != 2 || !strings.HasPrefix(started[1], "xterm -e ssh")) {
			t.Errorf("no fallback to xterm: %q", started)
		}
	}
}
