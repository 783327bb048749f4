package terminal

import "testing"

func TestTerminalFromEnv(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		want Terminal
	}{
		{"none", nil, Terminal{}},
		{
			name: "tmux with its socket",
			env:  map[string]string{"TMUX": "/tmp/tmux-1000/default,4242,0", "TMUX_PANE": "%12", "TERM_PROGRAM": "tmux"},
			want: Terminal{TmuxPane: "%12", TmuxSocket: "/tmp/tmux-1000/default", TermProgram: "tmux"},
		},
		{
			name: "kitty",
			env:  map[string]string{"KITTY_WINDOW_ID": "3", "KITTY_LISTEN_ON": "unix:/tmp/kitty-881", "WINDOWID": "94371851"},
			want: Terminal{KittyWindow: "3", KittyListenOn: "unix:/tmp/kitty-881", WindowID: "94371851"},
		},
		{
			name: "kitty on an abstract socket",
			env:  map[string]string{"KITTY_WINDOW_ID": "1", "KITTY_LISTEN_ON": "unix:@mykitty"},
			want: Terminal{KittyWindow: "1", KittyListenOn: "unix:@mykitty"},
		},
		{
			name: "kitty without remote control cannot be reached: dropped",
			env:  map[string]string{"KITTY_WINDOW_ID": "3"},
			want: Terminal{},
		},
		{
			name: "kitty over tcp is not used",
			env:  map[string]string{"KITTY_WINDOW_ID": "3", "KITTY_LISTEN_ON": "tcp:localhost:5000"},
			want: Terminal{},
		},
		{
			name: "wezterm, pane 0",
			env:  map[string]string{"WEZTERM_PANE": "0", "WEZTERM_UNIX_SOCKET": "/run/user/1000/wezterm/gui-sock-77", "TERM_PROGRAM": "WezTerm"},
			want: Terminal{WeztermPane: "0", WeztermSocket: "/run/user/1000/wezterm/gui-sock-77", TermProgram: "WezTerm"},
		},
		{
			name: "iTerm2",
			env:  map[string]string{"ITERM_SESSION_ID": "w0t1p0:6C0A3F2E-1B2C-4D5E-8F90-0123456789AB", "TERM_PROGRAM": "iTerm.app"},
			want: Terminal{TermProgram: "iTerm.app"},
		},
		{
			name: "values that could read as options or smuggle arguments are dropped",
			env: map[string]string{
				"TMUX": "relative/sock,1,0", "TMUX_PANE": "-t;kill-server",
				"TERM_PROGRAM": "-e x", "KITTY_WINDOW_ID": "3 --all", "KITTY_LISTEN_ON": "unix:/tmp/k",
				"WEZTERM_PANE": "-1", "WEZTERM_UNIX_SOCKET": "/tmp/../etc/sock",
				"WINDOWID": "0x1a00007",
			},
			want: Terminal{},
		},
		{
			name: "numbers are plain decimal within 32 bits",
			env:  map[string]string{"WEZTERM_PANE": "007", "WINDOWID": "4294967296", "TMUX_PANE": "%1\n"},
			want: Terminal{},
		},
		{
			name: "a socket path with a control character is dropped",
			env:  map[string]string{"WEZTERM_PANE": "2", "WEZTERM_UNIX_SOCKET": "/tmp/s\x1b[2J"},
			want: Terminal{WeztermPane: "2"},
		},
		{
			name: "window 0 is no window",
			env:  map[string]string{"WINDOWID": "0"},
			want: Terminal{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FromEnv(func(k string) string { return tt.env[k] })
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if got.Checked() != got {
				t.Errorf("Checked changes what FromEnv returned: %+v", got.Checked())
			}
		})
	}
}

func TestTerminalShapes(t *testing.T) {
	tests := []struct {
		check func(string) bool
		in    string
		ok    bool
	}{
		{IsTmuxPane, "%0", true},
		{IsTmuxPane, "%123456789", true},
		{IsTmuxPane, "%1234567890", false},
		{IsTmuxPane, "%", false},
		{IsTmuxPane, "3", false},
		{IsTmuxPane, "%3 ", false},
		{isTermProgram, "iTerm.app", true},
		{isTermProgram, "Apple_Terminal", true},
		{isTermProgram, "WezTerm", true},
		{isTermProgram, "xterm+256", true},
		{isTermProgram, "-e", false},
		{isTermProgram, "", false},
		{isTermProgram, "a b", false},
		{isKittyAddress, "unix:/tmp/kitty-1", true},
		{isKittyAddress, "unix:@kitty", true},
		{isKittyAddress, "unix:@", false},
		{isKittyAddress, "unix:@a b", false},
		{isKittyAddress, "unix:tmp/kitty", false},
		{IsSocketPath, "/tmp/a//b", false},
		{IsSocketPath, "/", true},
		{isID, "0", true},
		{isID, "4294967295", true},
		{isID, "+1", false},
	}
	for _, tt := range tests {
		if got := tt.check(tt.in); got != tt.ok {
			t.Errorf("%q: got %v, want %v", tt.in, got, tt.ok)
		}
	}
}

// The hook reads the terminal on every event.
func BenchmarkTerminalFromEnv(b *testing.B) {
	env := map[string]string{
		"TMUX": "/tmp/tmux-1000/default,4242,0", "TMUX_PANE": "%12", "TERM_PROGRAM": "iTerm.app",
		"KITTY_WINDOW_ID": "3", "KITTY_LISTEN_ON": "unix:/tmp/kitty-881", "WINDOWID": "94371851",
	}
	getenv := func(k string) string { return env[k] }
	for b.Loop() {
		FromEnv(getenv)
	}
}
