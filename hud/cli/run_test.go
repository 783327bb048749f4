package cli

import (
	"testing"

	"github.com/capacitor-hud/hud/hud/breaks"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/worksession"
	"github.com/capacitor-hud/hud/resolver"
)

type soundSwitch struct{ on, set bool }

func (s *soundSwitch) SetSound(on bool) { s.on, s.set = on, true }

// Every setting the tray keeps a copy of follows an edit of the file,
// the notification sound included.
func TestTrayPartsApplyReloadedSettings(t *testing.T) {
	cfg := config.Default()
	sound := &soundSwitch{}
	parts := trayParts{
		tracker: notify.NewTracker(cfg.Notifications),
		sound:   sound,
		section: traySection{
			breaks: breaks.NewTray(breaks.NewScheduler(resolver.Layout{Home: t.TempDir()}, breaks.FromConfig(cfg.Breaks), nil), nil, nil),
			work:   worksession.NewTray(worksession.FromConfig(cfg.WorkSession), nil, nil),
		},
	}
	cfg.Notifications.Sound = !cfg.Notifications.Sound
	parts.apply(cfg)
	if !sound.set || sound.on != cfg.Notifications.Sound {
		t.Errorf("sound after reload: set %v, on %v; want on %v", sound.set, sound.on, cfg.Notifications.Sound)
	}
}
