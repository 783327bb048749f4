package app

import (
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
	looking := focus.Looking{Run: focus.Exec, Compositor: focus.DetectCompositor(s.Getenv)}
	return &attention.Gate{
		Next:    next,
		Quiet:   desktopDND(s).Reason,
		Looking: looking.At,
		Sounds:  attention.NewSounds(cfg, player),
		Logf:    logf,
	}
}

// awayPush is the away push (notifications.push_url), with the desktop's
// idle time (attention.DesktopIdle).
func awayPush(s Setup, cfg config.Notifications, logf func(string, ...any)) *attention.Push {
	now := s.Now
	if now == nil {
		now = time.Now
	}
	p := attention.NewPush(cfg, attention.DesktopIdle(s.Getenv, "").Idle, attention.PostNtfy, now, logf)
	p.Quiet = desktopDND(s).Reason
	return p
}

// desktopDND reads the desktop's Do Not Disturb where it keeps it.
func desktopDND(s Setup) attention.DND {
	return attention.DND{Property: attention.BusProperty, Modes: attention.MakoModes, Run: focus.Exec, Getenv: s.Getenv}
}
