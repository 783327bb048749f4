package doctor

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

func TestAttentionChecks(t *testing.T) {
	const token = "tk_s3cr3t"
	tests := []struct {
		name      string
		config    string
		mode      uint32
		attention Attention
		want      []string
		not       []string
	}{
		{name: "quiet desktop, nothing switched on", config: "",
			attention: Attention{HeldBack: func(context.Context) (string, error) { return "", nil }, Display: ":0"},
			want: []string{"✓ dnd the desktop does not say Do Not Disturb", "✓ focus-aware", "X display :0",
				"✓ sounds off", "✓ away push off: push_url is empty"}},
		{name: "dunst paused", config: "",
			attention: Attention{HeldBack: func(context.Context) (string, error) { return "dunst is paused", nil }},
			want: []string{"! dnd notifications are held back: dunst is paused", "fix: turn Do Not Disturb off",
				"no X display: hud cannot tell which terminal is in front"}},
		{name: "sway answers", config: "",
			attention: Attention{Wayland: true, Compositor: "sway", Focused: func(context.Context) (int, error) { return 42, nil }},
			want:      []string{"✓ focus-aware sway: a click focuses the session's terminal"}},
		{name: "GNOME without hud's extension", config: "",
			attention: Attention{Wayland: true, Compositor: "gnome-shell", Focused: func(context.Context) (int, error) { return 0, errors.New("no extension") }},
			want: []string{"! focus-aware cannot ask gnome-shell about its windows (no extension)",
				"fix: run hud install", "gnome-extensions enable hud@capacitor-hud.github.io"}},
		{name: "a Wayland compositor hud does not know", config: "",
			attention: Attention{Wayland: true, Display: ":1"},
			want: []string{"! focus-aware a Wayland compositor hud cannot ask about windows", "XWayland terminals (X display :1) work",
				"fix: run Claude Code in tmux or kitty"}},
		{name: "a bus that does not answer", config: "",
			attention: Attention{HeldBack: func(context.Context) (string, error) { return "", errors.New("timeout") }},
			want:      []string{"! dnd cannot tell whether the desktop says Do Not Disturb: timeout"}},
		{name: "sounds without a player", config: "[notifications]\nwaiting_sound = true\n",
			want: []string{"! sounds waiting_sound or done_sound is on, but nothing here plays sounds"}},
		{name: "sounds with a player only on a relative PATH entry", config: "[notifications]\nwaiting_sound = true\n",
			attention: Attention{RelativePlayer: "paplay"},
			want: []string{"! sounds waiting_sound or done_sound is on, but paplay is found only through a relative PATH entry",
				"fix: put the directory that holds paplay in PATH as an absolute path"},
			not: []string{"install canberra-gtk-play"}},
		{name: "sounds with a player", config: "[notifications]\ndone_sound = true\n", attention: Attention{Player: "paplay"},
			want: []string{"✓ sounds waiting and done sounds play through paplay"}},
		{name: "push, away", config: "[notifications]\npush_url = \"https://ntfy.sh/hud-" + token + "\"\npush_after = \"5m\"\n", mode: 0o600,
			attention: Attention{Idle: func(context.Context) (string, time.Duration, error) { return "the X server (:0)", 7 * time.Minute, nil }},
			want:      []string{"✓ away push away push to https://ntfy.sh/… after 5m", "the idle time comes from the X server (:0) (you have been idle 7m)"},
			not:       []string{token, "others can read it"}},
		{name: "push, a config others can read, no idle time", config: "[notifications]\npush_url = \"http://u:" + token + "@127.0.0.1:1/x\"\n", mode: 0o644,
			attention: Attention{Idle: func(context.Context) (string, time.Duration, error) { return "", 0, errors.New("no X display") }},
			want:      []string{"holds the push URL, which may carry a token: others can read it", "fix: chmod 600", "cannot tell how long you have been away (no X display): no push is sent"},
			not:       []string{token}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := newEnv(t)
			healthy(t, env)
			if tt.config != "" {
				write(t, env.ConfigPath, tt.config, 0o600)
				if tt.mode != 0 {
					if err := chmod(env.ConfigPath, tt.mode); err != nil {
						t.Fatal(err)
					}
				}
			}
			a := tt.attention
			env.Attention = &a
			out, _ := run(env)
			out = strings.Join(strings.Fields(out), " ")
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("missing %q in:\n%s", w, out)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(out, n) {
					t.Errorf("says %q:\n%s", n, out)
				}
			}
		})
	}
}

func chmod(path string, mode uint32) error { return os.Chmod(path, os.FileMode(mode)) }
