package attention

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/focus"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/view"
	"github.com/capacitor-hud/hud/internal/terminal"
)

func TestGate(t *testing.T) {
	here := view.Place{PID: 42}
	elsewhere := view.Place{PID: 43}
	session := func(kind notify.Kind, where view.Place) notify.Notification {
		return notify.Notification{Kind: kind, Title: "api needs you", Where: where}
	}
	notice := notify.Notification{Kind: "notice", Title: "Time for a break"}
	tests := []struct {
		name    string
		n       notify.Notification
		quiet   string
		quietFn func(context.Context) (string, error)
		lookErr error
		shown   bool
		log     string
	}{
		{name: "a session elsewhere", n: session(notify.KindWaiting, elsewhere), shown: true},
		{name: "the session the person looks at", n: session(notify.KindWaiting, here), log: "looking at its terminal"},
		{name: "its reminder while still looked at", n: session(notify.KindStillWaiting, here), log: "looking at its terminal"},
		{name: "done where the person looks", n: session(notify.KindDone, here), log: "looking at its terminal"},
		{name: "a notice is about no terminal", n: notice, shown: true},
		{name: "Do Not Disturb holds a session's", n: session(notify.KindWaiting, elsewhere), quiet: "dunst is paused", log: "dunst is paused"},
		{name: "Do Not Disturb holds a notice", n: notice, quiet: "dunst is paused", log: "dunst is paused"},
		{name: "a desktop that does not answer is not DND", n: notice, shown: true, log: "asking the desktop",
			quietFn: func(ctx context.Context) (string, error) { <-ctx.Done(); return "", ctx.Err() }},
		{name: "a terminal that cannot tell is not looked at", n: session(notify.KindWaiting, view.Place{PID: 44}), shown: true,
			lookErr: errors.New("tmux: no server"), log: "tmux: no server"},
		{name: "nothing to ask is not worth a log line", n: session(notify.KindWaiting, view.Place{PID: 45}), shown: true,
			lookErr: focus.ErrSkip},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &notify.Recorder{}
			log := &logs{}
			quiet := tt.quietFn
			if quiet == nil {
				quiet = func(context.Context) (string, error) { return tt.quiet, nil }
			}
			g := &Gate{Next: rec, Quiet: quiet, Logf: log.logf, Timeout: 50 * time.Millisecond,
				Looking: func(_ context.Context, f view.Place) (bool, error) {
					if f.PID >= 44 {
						return false, tt.lookErr
					}
					return f == here, nil
				}}
			if err := g.Send(tt.n); err != nil {
				t.Fatal(err)
			}
			if shown := len(rec.Sent()) == 1; shown != tt.shown {
				t.Errorf("shown = %v, want %v", shown, tt.shown)
			}
			switch out := log.String(); {
			case tt.log == "" && out != "":
				t.Errorf("logged %q", out)
			case !strings.Contains(out, tt.log):
				t.Errorf("log %q does not say %q", out, tt.log)
			}
		})
	}
}

// A tmux server that never answers (stopped with SIGSTOP, or a program on
// its socket that never replies) with twelve sessions on it, each with a
// notification due: they and an unrelated notification behind them are
// decided, one after another as the app sends them, within a second, all
// shown; the next decision about that server does not wait for it again.
// The tmux run is a stand-in first on PATH that never answers.
func TestGateSilentTmuxServer(t *testing.T) {
	bin := t.TempDir()
	calls := filepath.Join(bin, "calls")
	script := "#!/bin/sh\necho \"$*\" >>" + calls + "\nexec sleep 10\n"
	if err := os.WriteFile(filepath.Join(bin, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("DISPLAY", "")
	dir, err := os.MkdirTemp("", "gate") // short: a socket's path must fit sockaddr_un
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	dir, _ = filepath.EvalSymlinks(dir)
	sock := filepath.Join(dir, "tmux")
	ln, err := net.Listen("unix", sock) // the person's own socket, as hud requires
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })

	rec := &notify.Recorder{}
	g := &Gate{Next: rec, Looking: focus.Looking{Run: focus.Exec}.At, Logf: t.Logf}
	inTmux := func(pane int) notify.Notification {
		return notify.Notification{Kind: notify.KindWaiting, Title: fmt.Sprintf("session %d needs you", pane),
			Where: view.Place{Terminal: terminal.Terminal{TmuxPane: fmt.Sprintf("%%%d", pane), TmuxSocket: sock}}}
	}
	start := time.Now()
	for pane := 1; pane <= 12; pane++ {
		if err := g.Send(inTmux(pane)); err != nil {
			t.Fatal(err)
		}
	}
	unrelated := notify.Notification{Kind: notify.KindDone, Title: "elsewhere is done", Where: view.Place{PID: os.Getpid()}}
	if err := g.Send(unrelated); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the unrelated notification was decided after %v", d)
	}
	if sent := rec.Sent(); len(sent) != 13 {
		t.Errorf("%d notifications shown, want all 13", len(sent))
	}
	start = time.Now()
	if why := g.HoldBack(inTmux(1)); why != "" {
		t.Errorf("held back: %s", why)
	}
	if d := time.Since(start); d > 250*time.Millisecond {
		t.Errorf("the next decision took %v: the silent server was waited for again", d)
	}
	if out, _ := os.ReadFile(calls); strings.Count(string(out), "\n") > 1 {
		t.Errorf("tmux ran %d times, want once:\n%s", strings.Count(string(out), "\n"), out)
	}
}

// A Looking that keeps no deadline holds no notification past the Gate's:
// the notification is shown, and the log says why.
func TestGateGivesUpOnLooking(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	rec := &notify.Recorder{}
	log := &logs{}
	g := &Gate{Next: rec, Logf: log.logf,
		Looking: func(context.Context, view.Place) (bool, error) { <-release; return true, nil }}
	sent := make(chan error, 1)
	go func() { sent <- g.Send(notify.Notification{Kind: notify.KindWaiting, Where: view.Place{PID: 42}}) }()
	select {
	case err := <-sent:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Second):
		t.Fatal("the notification still waits for Looking after 1s")
	}
	if len(rec.Sent()) != 1 {
		t.Error("not shown")
	}
	if !strings.Contains(log.String(), "no answer within") {
		t.Errorf("log %q", log.String())
	}
}

// Each sound plays with its own kind of notification, when switched on,
// and only when the notification is shown.
func TestGateSounds(t *testing.T) {
	var played []string
	player := func(_ context.Context, name string) error { played = append(played, name); return nil }
	cfg := config.Default().Notifications
	cfg.WaitingSound, cfg.DoneSound = true, false
	quiet := ""
	g := &Gate{Next: &notify.Recorder{}, Sounds: NewSounds(cfg, player),
		Quiet: func(context.Context) (string, error) { return quiet, nil }}
	send := func(k notify.Kind) {
		if err := g.Send(notify.Notification{Kind: k}); err != nil {
			t.Fatal(err)
		}
	}
	send(notify.KindWaiting)
	send(notify.KindStillWaiting)
	send(notify.KindDone)
	send("notice")
	cfg.DoneSound = true
	g.Configure(cfg)
	send(notify.KindDone)
	quiet = "dunst is paused"
	send(notify.KindWaiting)
	want := []string{SoundWaiting, SoundWaiting, SoundDone}
	if strings.Join(played, " ") != strings.Join(want, " ") {
		t.Errorf("played %q, want %q", played, want)
	}
	if SoundWaiting == SoundDone {
		t.Error("the two sounds are the same")
	}
}

func TestDND(t *testing.T) {
	props := func(m map[string]any) func(context.Context, string, string) (any, error) {
		return func(_ context.Context, iface, name string) (any, error) {
			v, ok := m[iface+"."+name]
			if !ok {
				return nil, errors.New("org.freedesktop.DBus.Error.UnknownProperty")
			}
			return v, nil
		}
	}
	gsettings := func(out string) focus.Runner {
		return func(_ context.Context, c focus.Command) ([]byte, error) {
			if c.String() != "gsettings get org.gnome.desktop.notifications show-banners" {
				t.Errorf("ran %s", c)
			}
			return []byte(out), nil
		}
	}
	modes := func(m ...string) func(context.Context) ([]string, error) {
		return func(context.Context) ([]string, error) { return m, nil }
	}
	env := func(desktop string) func(string) string {
		return func(k string) string {
			if k == "XDG_CURRENT_DESKTOP" {
				return desktop
			}
			return ""
		}
	}
	tests := []struct {
		name string
		dnd  DND
		want string
	}{
		{"a server without inhibition", DND{Property: props(nil)}, ""},
		{"Plasma's inhibition", DND{Property: props(map[string]any{"org.freedesktop.Notifications.Inhibited": true})}, "inhibited"},
		{"not inhibited", DND{Property: props(map[string]any{"org.freedesktop.Notifications.Inhibited": false})}, ""},
		{"dunst paused", DND{Property: props(map[string]any{"org.dunstproject.cmd0.paused": true})}, "dunst is paused"},
		{"dunst running", DND{Property: props(map[string]any{"org.dunstproject.cmd0.paused": false})}, ""},
		{"a property of another type", DND{Property: props(map[string]any{"org.dunstproject.cmd0.paused": "yes"})}, ""},
		{"GNOME's banners off", DND{Property: props(nil), Run: gsettings("false\n"), Getenv: env("ubuntu:GNOME")}, "GNOME"},
		{"GNOME's banners on", DND{Property: props(nil), Run: gsettings("true\n"), Getenv: env("GNOME")}, ""},
		{"mako in do-not-disturb", DND{Property: props(nil), Modes: modes("default", "do-not-disturb")}, "mako"},
		{"mako in its other modes", DND{Property: props(nil), Modes: modes("default", "away")}, ""},
		{"not mako", DND{Property: props(nil), Modes: func(context.Context) ([]string, error) { return nil, errors.New("UnknownObject") }}, ""},
		{"the GNOME key is not read elsewhere", DND{Property: props(nil), Run: gsettings("false\n"), Getenv: env("XFCE")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.dnd.Reason(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("Reason = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestIdleSources(t *testing.T) {
	answer := func(name string, d time.Duration, err error) IdleSource {
		return IdleSource{Name: name, Read: func(context.Context) (time.Duration, error) { return d, err }}
	}
	noX := answer("x", 0, focus.ErrSkip)
	tests := []struct {
		name      string
		sources   IdleSources
		want      time.Duration
		from, err string
	}{
		{"the first answers", IdleSources{answer("x", time.Minute, nil), answer("bus", time.Hour, nil)}, time.Minute, "x", ""},
		{"no display: the bus", IdleSources{noX, answer("bus", time.Hour, nil)}, time.Hour, "bus", ""},
		{"nobody", IdleSources{noX, answer("bus", 0, errors.New("no ScreenSaver"))}, 0, "", "x: not this terminal; bus: no ScreenSaver"},
		{"no source", nil, 0, "", "no source"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, got, err := tt.sources.Which(context.Background())
			if got != tt.want || from != tt.from || (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("got %q %v, %v; want %q %v, %q", from, got, err, tt.from, tt.want, tt.err)
			}
		})
	}
}

func TestDesktopIdleOrder(t *testing.T) {
	names := func(s IdleSources) (out []string) {
		for _, src := range s {
			out = append(out, strings.Fields(src.Name)[1])
		}
		return out
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	x11 := DesktopIdle(env(map[string]string{"DISPLAY": ":0"}), "")
	if got := names(x11); strings.Join(got, ",") != "X,session" {
		t.Errorf("an X11 session asks %q", got)
	}
	way := DesktopIdle(env(map[string]string{"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": t.TempDir()}), "")
	if got := names(way); strings.Join(got, ",") != "compositor,session,X" {
		t.Errorf("a Wayland session asks %q", got)
	}
	// A path that is no socket of the person's is never connected to.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "wayland-9"), nil, 0o600)
	notOwn := DesktopIdle(env(map[string]string{"WAYLAND_DISPLAY": "wayland-9", "XDG_RUNTIME_DIR": dir}), "")
	if _, err := notOwn[0].Read(context.Background()); err == nil || !strings.Contains(err.Error(), "not asking") {
		t.Errorf("the compositor's source read a file that is no socket: %v", err)
	}
}
