package app

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/capacitor-hud/hud/hud/attention"
	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/watch"
)

// The Gate before the desktop sender follows an edit of the settings like
// the sender did: the sender's own sound, and the sound-theme sounds.
func TestReloadedSettingsReachTheGate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := config.Default()
		sender := &soundSender{}
		var played []string
		gate := &attention.Gate{Next: sender, Sounds: attention.NewSounds(cfg.Notifications,
			func(_ context.Context, name string) error { played = append(played, name); return nil })}
		n := NewNotifications(notify.NewTracker(cfg.Notifications), gate, t.Logf)
		defer n.Close()
		h := start(t, Options{Notifier: n, Config: func() config.Config { return cfg }}, &world{})
		defer h.stop(t)
		synctest.Wait()
		if !sender.set || sender.on != cfg.Notifications.Sound {
			t.Fatalf("at start: sound set %v on %v", sender.set, sender.on)
		}
		if err := gate.Send(notify.Notification{Kind: notify.KindWaiting}); err != nil || len(played) != 0 {
			t.Fatalf("a sound with waiting_sound off: %q %v", played, err)
		}

		cfg.Notifications.Sound = !cfg.Notifications.Sound
		cfg.Notifications.WaitingSound = true
		h.changes <- watch.Change{Config: true}
		synctest.Wait()
		if sender.on != cfg.Notifications.Sound {
			t.Errorf("sound after reload: %v, want %v", sender.on, cfg.Notifications.Sound)
		}
		if err := gate.Send(notify.Notification{Kind: notify.KindWaiting}); err != nil || len(played) != 1 {
			t.Errorf("after turning waiting_sound on: played %q, %v", played, err)
		}
	})
}
