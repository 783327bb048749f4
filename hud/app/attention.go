package app

import (
	"context"
	"os/exec"
	"runtime"
	"time"

	"github.com/capacitor-hud/hud/hud/attention"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/focus"
	"github.com/capacitor-hud/hud/hud/notify"
)

// attentionGate puts hud/attention's Gate before the desktop sender: no
// bubble and no sound while the desktop says Do Not Disturb or for the
// session whose terminal the person looks at; the sound-theme sounds of
// what is shown.
func attentionGate(s Setup, cfg config.Notifications, next notify.Sender, logf func(string, ...any)) *attention.Gate {
	player, _ := attention.Player(runtime.GOOS, exec.LookPath, attention.DataDirs(s.Getenv))
	looking := focus.Looking{Run: focus.Exec}
	return &attention.Gate{
		Next:    next,
		Quiet:   attention.DND{Property: attention.BusProperty, Run: focus.Exec, Getenv: s.Getenv}.Reason,
		Looking: looking.At,
		Sounds:  attention.NewSounds(cfg, player),
		Logf:    logf,
	}
}

// awayPush is the away push (notifications.push_url), with the X server's
// idle time, else the session bus's.
func awayPush(s Setup, cfg config.Notifications, logf func(string, ...any)) *attention.Push {
	now := s.Now
	if now == nil {
		now = time.Now
	}
	x := func(ctx context.Context) (time.Duration, error) { return focus.Idle(ctx, "") }
	return attention.NewPush(cfg, attention.FirstIdle(x, attention.BusIdle), attention.PostNtfy, now, logf)
}
