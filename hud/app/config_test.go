package app

import (
	"testing"
	"testing/synctest"

	"github.com/capacitor-hud/hud/hud/config"
	"github.com/capacitor-hud/hud/hud/notify"
	"github.com/capacitor-hud/hud/hud/watch"
)

// soundSender is a notify.Sender with a sound switch, like the desktop's.
type soundSender struct {
	notify.Recorder
	on, set bool
}

func (s *soundSender) SetSound(on bool) { s.on, s.set = on, true }

// configSection records the settings the loop hands it.
type configSection struct {
	fakeSection
	got []config.Config
}

func (s *configSection) Configure(cfg config.Config) { s.got = append(s.got, cfg) }

// Every part that keeps a copy of the settings follows an edit of the
// file: the loop reads it at start and on a Config change and hands each
// part its table, the notification sound included.
func TestReloadedSettingsReachEveryPart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := config.Default()
		sender := &soundSender{}
		n := NewNotifications(notify.NewTracker(cfg.Notifications), sender, t.Logf)
		defer n.Close()
		sec := &configSection{fakeSection: fakeSection{changed: make(chan struct{})}}
		h := start(t, Options{Notifier: n, Section: sec, Config: func() config.Config { return cfg }}, &world{})
		defer h.stop(t)
		synctest.Wait()
		if !sender.set || sender.on != cfg.Notifications.Sound || len(sec.got) != 1 {
			t.Fatalf("at start: sound set %v on %v, section configured %d times", sender.set, sender.on, len(sec.got))
		}

		cfg.Notifications.Sound = !cfg.Notifications.Sound
		cfg.Breaks.Enabled = !cfg.Breaks.Enabled
		h.changes <- watch.Change{Config: true}
		synctest.Wait()
		if sender.on != cfg.Notifications.Sound {
			t.Errorf("sound after reload: %v, want %v", sender.on, cfg.Notifications.Sound)
		}
		if len(sec.got) != 2 || sec.got[1].Breaks.Enabled != cfg.Breaks.Enabled {
			t.Errorf("section after reload: %+v", sec.got)
		}
	})
}
