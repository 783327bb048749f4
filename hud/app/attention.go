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
	"github.com/capacitor-hud/hud/internal/store"
	"github.com/capacitor-hud/hud/resolver"
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
func awayPush(s Setup, cfg config.Notifications, idle attention.IdleSources, logf func(string, ...any)) *attention.Push {
	p := attention.NewPush(cfg, idle.Idle, attention.PostNtfy, s.clock(), logf)
	p.Quiet = desktopDND(s).Reason
	return p
}

// memory is the tray's part in the wait ledger, summing up each absence
// through say; it hears of the answers given here.
func memory(s Setup, say func(title, body string)) *Memory {
	layout := s.Layout
	return &Memory{Dir: layout.LedgerDir(), Now: s.clock(), Logf: s.Logf, Say: say,
		Recap: func(key string, since time.Time) string {
			st, err := store.Load(layout.StorePath())
			if err != nil {
				return ""
			}
			return resolver.Recap(layout, st.Sessions[key], since)
		}}
}

// watchReturns sums up each absence of the person (Memory.Back) until
// ctx ends, with the desktop's idle time.
func watchReturns(ctx context.Context, s Setup, idle attention.IdleSources, m *Memory) {
	r := &attention.Returns{Idle: idle.Idle, AfterFn: m.AwayAfter, Back: m.Back, Now: s.clock(), Logf: s.Logf}
	go r.Run(ctx)
}

// desktopDND reads the desktop's Do Not Disturb where it keeps it.
func desktopDND(s Setup) attention.DND {
	return attention.DND{Property: attention.BusProperty, Modes: attention.MakoModes, Run: focus.Exec, Getenv: s.Getenv}
}
